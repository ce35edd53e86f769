import path from 'node:path';
import { z } from 'zod';
import type { RuleSource } from '../contract/permission.js';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../contract/sandbox.js';

const paths = z.array(z.string()).optional();

/** The `sandbox` key of a settings file: Claude Code's names, plus `network.enabled`. */
export const sandboxSettingsSchema = z.looseObject({
  enabled: z.boolean().optional(),
  failIfUnavailable: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  allowUnsandboxedCommands: z.boolean().optional(),
  excludedCommands: z.array(z.string()).optional(),
  enableWeakerNestedSandbox: z.boolean().optional(),
  network: z
    .looseObject({
      enabled: z.boolean().optional(),
      allowedDomains: z.array(z.string()).optional(),
      allowUnixSockets: z.array(z.string()).optional(),
      allowAllUnixSockets: z.boolean().optional(),
      allowLocalBinding: z.boolean().optional(),
      httpProxyPort: z.number().optional(),
      socksProxyPort: z.number().optional(),
    })
    .optional(),
  filesystem: z.looseObject({ allowWrite: paths, denyWrite: paths, allowRead: paths, denyRead: paths }).optional(),
});

/** One source's `sandbox` key. */
export type SandboxFileSettings = z.infer<typeof sandboxSettingsSchema>;

/** A source of `sandbox` settings, highest precedence first. */
export type SandboxSource = {
  readonly source: RuleSource;
  /** The file (or flag) named in notices. */
  readonly label: string;
  readonly sandbox: SandboxFileSettings | undefined;
  /** The file is not trusted or is held (a tool call wrote it): it may only tighten. */
  readonly restricted?: boolean;
  /** A Claude Code settings file: its `sandbox` section was written for another sandbox, so it only tightens. */
  readonly claude?: boolean;
};

/** Sources whose settings may loosen the sandbox: never a project's own files. */
const LOOSENING_SOURCES: ReadonlySet<RuleSource> = new Set(['managed', 'cli', 'userSettings', 'session']);

/**
 * Merges every source's `sandbox` key. Tightening keys count from any source (`failIfUnavailable`,
 * `network.enabled: false`, `allowUnsandboxedCommands: false`, `denyRead`, `denyWrite`); loosening
 * keys (`enabled: false`, `allowWrite`, `allowRead`, `excludedCommands`, `allowAllUnixSockets`) only
 * from user, managed or command-line sources, the highest-precedence one winning for switches.
 * Keys bubblewrap cannot enforce are kept as notices.
 */
export function mergeSandboxSettings(
  sources: readonly SandboxSource[],
  options: { readonly cwd: string; readonly homeDir: string },
): SandboxSettings {
  const notices: string[] = [];
  const resolvePath = (entry: string): string => {
    if (entry === '~') return options.homeDir;
    if (entry.startsWith('~/')) return path.join(options.homeDir, entry.slice(2));
    return path.resolve(options.cwd, entry);
  };
  let enabled: boolean | undefined;
  let allowAllUnixSockets: boolean | undefined;
  let failIfUnavailable = false;
  let network = true;
  let allowUnsandboxedCommands = true;
  const excludedCommands: string[] = [];
  const allowWrite: string[] = [];
  const allowRead: string[] = [];
  const denyRead: string[] = [];
  const denyWrite: string[] = [];

  for (const { source, label, sandbox, restricted, claude } of sources) {
    if (sandbox === undefined) continue;
    const mayLoosen = LOOSENING_SOURCES.has(source) && restricted !== true && claude !== true;
    const ignored: string[] = [];
    if (sandbox.failIfUnavailable === true) failIfUnavailable = true;
    if (sandbox.network?.enabled === false) network = false;
    if (sandbox.allowUnsandboxedCommands === false) allowUnsandboxedCommands = false;
    denyRead.push(...(sandbox.filesystem?.denyRead ?? []).map(resolvePath));
    denyWrite.push(...(sandbox.filesystem?.denyWrite ?? []).map(resolvePath));
    const loosening = {
      enabled: sandbox.enabled === false,
      allowWrite: (sandbox.filesystem?.allowWrite ?? []).length > 0,
      allowRead: (sandbox.filesystem?.allowRead ?? []).length > 0,
      excludedCommands: (sandbox.excludedCommands ?? []).length > 0,
      'network.allowAllUnixSockets': sandbox.network?.allowAllUnixSockets === true,
    };
    if (mayLoosen) {
      enabled ??= sandbox.enabled;
      allowAllUnixSockets ??= sandbox.network?.allowAllUnixSockets;
      allowWrite.push(...(sandbox.filesystem?.allowWrite ?? []).map(resolvePath));
      allowRead.push(...(sandbox.filesystem?.allowRead ?? []).map(resolvePath));
      excludedCommands.push(
        ...(sandbox.excludedCommands ?? []).map((command) => command.trim()).filter((command) => command !== ''),
      );
    } else {
      for (const [key, present] of Object.entries(loosening)) if (present) ignored.push(key);
    }
    if (ignored.length > 0) {
      notices.push(
        claude === true
          ? `${label}: sandbox ${ignored.join(', ')} ignored: a Claude Code settings file may tighten toolplane's sandbox, never loosen it (set these in ~/.toolplane/settings.json)`
          : restricted === true && LOOSENING_SOURCES.has(source)
            ? `${label}: sandbox ${ignored.join(', ')} ignored: the file is held (a tool call changed it) until a person confirms it`
            : `${label}: sandbox ${ignored.join(', ')} ignored: a project's own settings may tighten the sandbox, never loosen it (set these in user or managed settings)`,
      );
    }
    if (sandbox.autoAllowBashIfSandboxed !== undefined) {
      notices.push(
        `${label}: sandbox.autoAllowBashIfSandboxed is ignored: rules and modes decide approval, the sandbox only contains what runs`,
      );
    }
    if ((sandbox.network?.allowedDomains ?? []).length > 0) {
      notices.push(
        `${label}: sandbox.network.allowedDomains is not enforced: bubblewrap alone can only turn the network on or off (sandbox.network.enabled)`,
      );
    }
    if ((sandbox.network?.allowUnixSockets ?? []).length > 0) {
      notices.push(
        `${label}: sandbox.network.allowUnixSockets is not enforced per path (seccomp cannot see paths); use network.allowAllUnixSockets`,
      );
    }
    for (const key of ['allowLocalBinding', 'httpProxyPort', 'socksProxyPort'] as const) {
      if (sandbox.network?.[key] !== undefined)
        notices.push(`${label}: sandbox.network.${key} is not supported and is ignored`);
    }
    if (sandbox.enableWeakerNestedSandbox !== undefined)
      notices.push(`${label}: sandbox.enableWeakerNestedSandbox is not supported and is ignored`);
  }
  return {
    ...DEFAULT_SANDBOX_SETTINGS,
    enabled: enabled ?? true,
    failIfUnavailable,
    allowUnsandboxedCommands,
    excludedCommands,
    network,
    allowAllUnixSockets: allowAllUnixSockets ?? false,
    allowWrite,
    allowRead,
    denyRead,
    denyWrite,
    notices,
  };
}
