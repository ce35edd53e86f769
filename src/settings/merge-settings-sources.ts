import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import type { PermissionMode, PermissionRuleEntry } from '../contract/permission.js';
import { PERMISSION_MODES } from '../contract/permission.js';
import { checkRule } from './check-rule.js';
import type { AdditionalDirectory, CliSettings, LoadedSettings, McpServersFromSource } from './load-settings.js';
import type { SettingsWarning } from './parse-settings-text.js';
import { pushSource, type LoadedSource } from './settings-source.js';

/** What the sources of a run say together, before the sandbox and trust are added. */
export type MergedSettings = Pick<
  LoadedSettings,
  | 'rules'
  | 'defaultMode'
  | 'bypassPermissionsDisabled'
  | 'additionalDirectories'
  | 'hooks'
  | 'mcpServers'
  | 'env'
  | 'telemetryEnv'
>;

/**
 * Merges the sources of a run, highest precedence first, with the command line's rules in the CLI
 * tier (below the managed policy, above every file). Lists merge (the permission engine applies
 * precedence; a deny anywhere wins); the first unrestricted `defaultMode` wins, unless the flag
 * names one; `allowManagedPermissionRulesOnly`, `disableAllHooks` and `allowManagedHooksOnly` are
 * applied here. What is left out or doubtful goes to `warnings`.
 */
export function mergeSettingsSources(options: {
  readonly sources: readonly LoadedSource[];
  readonly cli: CliSettings | undefined;
  readonly cwd: string;
  readonly homeDir: string;
  readonly knownToolNames: ReadonlySet<string> | undefined;
  readonly warnings: SettingsWarning[];
}): MergedSettings {
  const { sources, cli, cwd, warnings } = options;
  const rules: PermissionRuleEntry[] = [];
  const addRule = (entry: PermissionRuleEntry, label: string): void => {
    const check = checkRule({ rule: entry.rule, behavior: entry.behavior, knownToolNames: options.knownToolNames });
    if (check.verdict !== 'keep') warnings.push({ file: label, rule: entry.rule, message: check.message });
    if (check.verdict !== 'skip') rules.push({ ...entry, rule: entry.rule.trim() });
  };
  const hooks = new Map<HookEventName, HookMatcherConfig[]>();
  const mcpServers: McpServersFromSource[] = [];
  const additionalDirectories: AdditionalDirectory[] = [];
  let defaultMode: PermissionMode | undefined;
  let bypassPermissionsDisabled = false;

  // allowManagedPermissionRulesOnly (managed policy): no other source may allow anything. Their
  // deny and ask rules still apply — stricter than the reference, which ignores them too.
  const managedOnly = sources.some(
    (loaded) => loaded.source === 'managed' && loaded.settings.allowManagedPermissionRulesOnly === true,
  );
  const addAllowed = (entry: PermissionRuleEntry, label: string): void => {
    if (managedOnly && entry.behavior === 'allow' && entry.source !== 'managed') {
      warnings.push({
        file: label,
        rule: entry.rule,
        message: `Allow rule ${entry.rule} is ignored: the managed policy sets allowManagedPermissionRulesOnly.`,
      });
      return;
    }
    addRule(entry, label);
  };
  const sinks = {
    addRule: addAllowed,
    warnings,
    hooks,
    mcpServers,
    additionalDirectories,
    cwd,
    homeDir: options.homeDir,
  };
  for (const step of withFlags(sources)) {
    if (step === 'flags') {
      for (const rule of cli?.disallowedTools ?? [])
        addRule({ rule, behavior: 'deny', source: 'cli', root: cwd }, '--disallowedTools');
      for (const rule of cli?.allowedTools ?? [])
        addAllowed({ rule, behavior: 'allow', source: 'cli', root: cwd }, '--allowedTools');
      continue;
    }
    pushSource(step, sinks);
    const permissions = step.settings.permissions;
    if (permissions?.disableBypassPermissionsMode === 'disable' || permissions?.disableBypassPermissionsMode === true) {
      bypassPermissionsDisabled = true;
    }
    if (permissions?.defaultMode === undefined) continue;
    const mode = parseMode(permissions.defaultMode);
    if (mode === undefined) {
      warnings.push({
        file: step.label,
        message: `defaultMode ${JSON.stringify(permissions.defaultMode)} is not a known mode; ignored`,
      });
    } else if (step.restriction === undefined) {
      // Any mode of a restricted file is withheld (pushSource says so): even \`default\` would
      // override a stricter \`plan\` from the user's own settings.
      defaultMode ??= mode;
    }
  }
  let effectiveMode = cli?.permissionMode ?? defaultMode ?? 'default';
  if (effectiveMode === 'bypassPermissions' && bypassPermissionsDisabled) {
    warnings.push({
      file: 'settings',
      message: 'bypassPermissions is disabled by disableBypassPermissionsMode; using default',
    });
    effectiveMode = 'default';
  }
  turnHooksOff(sources, hooks);
  return {
    rules,
    defaultMode: effectiveMode,
    bypassPermissionsDisabled,
    additionalDirectories,
    hooks,
    mcpServers,
    env: mergedEnv(sources),
    telemetryEnv: mergedEnv(sources.filter((loaded) => TELEMETRY_SOURCES.has(loaded.source))),
  };
}

/** The sources with the command line's flags in the CLI tier: below the managed policy, above every other file. */
function withFlags(sources: readonly LoadedSource[]): (LoadedSource | 'flags')[] {
  const flagsAt = sources.findIndex((loaded) => loaded.source !== 'managed');
  const steps: (LoadedSource | 'flags')[] = [...sources];
  steps.splice(flagsAt === -1 ? steps.length : flagsAt, 0, 'flags');
  return steps;
}

function parseMode(value: string): PermissionMode | undefined {
  if (value === 'manual') return 'default';
  return (PERMISSION_MODES as readonly string[]).includes(value) ? (value as PermissionMode) : undefined;
}

/**
 * `disableAllHooks` of the managed policy removes every hook; of another unrestricted source, or
 * `allowManagedHooksOnly`, every hook but the managed policy's own.
 */
function turnHooksOff(sources: readonly LoadedSource[], hooks: Map<HookEventName, HookMatcherConfig[]>): void {
  const managed = sources.find((loaded) => loaded.source === 'managed')?.settings;
  const hooksOff = sources.find(
    (loaded) => loaded.restriction === undefined && loaded.settings.disableAllHooks === true,
  );
  if (managed?.disableAllHooks === true) hooks.clear();
  else if (managed?.allowManagedHooksOnly === true || hooksOff !== undefined) {
    for (const [event, list] of hooks) {
      const kept = list.filter((matcher) => matcher.source === 'managed');
      if (kept.length > 0) hooks.set(event, kept);
      else hooks.delete(event);
    }
  }
}

/**
 * The sources that may configure telemetry: where it is sent, with which headers, and whether
 * prompts and tool content go with it. A project's or local file is left out, trusted or not: a
 * cloned repository must not be able to send what the agent reads to a collector of its choosing.
 */
const TELEMETRY_SOURCES: ReadonlySet<LoadedSource['source']> = new Set(['managed', 'userSettings', 'cli']);

/** The `env` blocks of the unrestricted sources, higher-precedence sources winning. */
function mergedEnv(sources: readonly LoadedSource[]): Map<string, string> {
  const merged = new Map<string, string>();
  for (const loaded of [...sources].reverse()) {
    if (loaded.restriction !== undefined) continue;
    for (const [name, value] of Object.entries(loaded.settings.env ?? {})) merged.set(name, value);
  }
  return merged;
}
