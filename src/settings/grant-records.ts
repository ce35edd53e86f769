import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseJsonDocument } from './parse-json-document.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** A rule a person saved ("always allow", or deny), with when and in which session. */
export type GrantRecord = {
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
  /** The settings file it was written to. */
  readonly file: string;
  readonly sessionId: string;
  /** ISO 8601. */
  readonly grantedAt: string;
};

const recordSchema = z.looseObject({
  rule: z.string(),
  behavior: z.enum(['allow', 'deny', 'ask']),
  file: z.string(),
  sessionId: z.string(),
  grantedAt: z.string(),
});
const storeSchema = z.looseObject({ grants: z.array(recordSchema) });

/** Grant writes in flight per store, so two in one process never lose each other's record. */
const pending = new Map<string, Promise<unknown>>();

/**
 * Every grant recorded in `storeFile` (toolplane's own state: settings files keep Claude Code's
 * schema, so when and where a rule was granted is kept beside them). A missing or damaged store
 * reads as empty — it only annotates rules, it decides nothing.
 */
export async function readGrants(storeFile: string): Promise<readonly GrantRecord[]> {
  let text: string;
  try {
    text = await readFile(storeFile, 'utf8');
  } catch {
    return [];
  }
  const parsed = parseJsonDocument(text);
  const store = parsed.ok ? storeSchema.safeParse(parsed.document.value) : undefined;
  return store?.success === true ? store.data.grants : [];
}

const sameRule = (a: Omit<GrantRecord, 'sessionId' | 'grantedAt'>, b: Omit<GrantRecord, 'sessionId' | 'grantedAt'>) =>
  a.rule === b.rule && a.behavior === b.behavior && a.file === b.file;

async function update(storeFile: string, change: (grants: readonly GrantRecord[]) => readonly GrantRecord[]) {
  const previous = pending.get(storeFile) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const grants = change(await readGrants(storeFile));
      await writeFileAtomic({ path: storeFile, text: `${JSON.stringify({ grants }, null, 2)}\n`, newFileMode: 0o600 });
    });
  pending.set(storeFile, next);
  try {
    await next;
  } finally {
    if (pending.get(storeFile) === next) pending.delete(storeFile);
  }
}

/** Records that `grant.rule` was saved; a rule granted again keeps its latest session and time. */
export function recordGrant(storeFile: string, grant: GrantRecord): Promise<void> {
  return update(storeFile, (grants) => [...grants.filter((each) => !sameRule(each, grant)), grant]);
}

/** Forgets the grant of a rule that was revoked. */
export function forgetGrant(storeFile: string, rule: Omit<GrantRecord, 'sessionId' | 'grantedAt'>): Promise<void> {
  return update(storeFile, (grants) => grants.filter((each) => !sameRule(each, rule)));
}
