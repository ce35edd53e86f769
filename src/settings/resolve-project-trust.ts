import type { SettingsWarning } from './parse-settings-text.js';
import { hashContent, heldRecord, holdKey, type HoldTable } from './settings-holds.js';
import { readProjectTrust, type ProjectTrust } from './trust-store.js';

/** How the project folder came to be trusted for this run. */
export type TrustGrant = 'trust-store' | 'flag' | 'environment';

/** The project folder's trust for one run. */
export type ResolvedTrust = {
  readonly trust: ProjectTrust;
  /** Set when `trust` is `trusted`. */
  readonly grantedBy?: TrustGrant;
  readonly warnings: readonly SettingsWarning[];
};

/** The environment variable that trusts the working folder for a run (CI, programs that drive toolplane). */
export const TRUST_PROJECT_VARIABLE = 'TOOLPLANE_TRUST_PROJECT';

/** Whether the environment trusts the working folder: `TOOLPLANE_TRUST_PROJECT=1` (or `true`). */
export function trustFromEnvironment(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[TRUST_PROJECT_VARIABLE]?.trim().toLowerCase();
  return value === '1' || value === 'true';
}

/** What a person does to trust `folder`, in words for warnings. */
export function howToTrust(folder: string): string {
  return `trust it with \`toolplane trust ${folder}\`, --trust-project for one run, or ${TRUST_PROJECT_VARIABLE}=1`;
}

/**
 * Decides whether the project's own files may loosen the policy in this run: the run's flag
 * (`--trust-project`) or `TOOLPLANE_TRUST_PROJECT=1` trust it; otherwise the person's recorded
 * answer (`toolplane trust`, or the terminal UI's question) does. Headless runs are no
 * exception: a folder nobody trusted stays `unknown` (or `untrusted`) and only its deny and ask
 * rules apply. A damaged store trusts nothing and is reported.
 */
export async function resolveProjectTrust(options: {
  readonly storeFile: string;
  readonly projectDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--trust-project`. */
  readonly trustProject?: boolean;
  /** The record of files tool calls changed: a trust store a tool call wrote trusts nothing. */
  readonly holds?: HoldTable;
  readonly signal?: AbortSignal;
}): Promise<ResolvedTrust> {
  if (options.trustProject === true) return { trust: 'trusted', grantedBy: 'flag', warnings: [] };
  if (trustFromEnvironment(options.env)) return { trust: 'trusted', grantedBy: 'environment', warnings: [] };
  const read = await readProjectTrust({
    storeFile: options.storeFile,
    projectDir: options.projectDir,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const warnings: SettingsWarning[] = read.damaged
    ? [
        {
          file: options.storeFile,
          message: 'the trust store is damaged; every project folder is treated as not yet trusted',
        },
      ]
    : [];
  if (
    read.trust === 'trusted' &&
    options.holds &&
    heldRecord(options.holds, await holdKey(options.storeFile), hashContent(read.text))
  ) {
    // Trust a tool call recorded is no trust: the folder is asked about again (or, headless, not trusted).
    warnings.push({
      file: options.storeFile,
      message:
        'the trust store was changed by a tool call and is held: the folder counts as not yet trusted until a person answers again',
    });
    return { trust: 'unknown', warnings };
  }
  return { trust: read.trust, ...(read.trust === 'trusted' ? { grantedBy: 'trust-store' as const } : {}), warnings };
}
