import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import type { PermissionMode, PermissionRuleEntry } from '../contract/permission.js';
import { PERMISSION_MODES } from '../contract/permission.js';
import { checkRule } from './check-rule.js';
import type { AdditionalDirectory, CliSettings, McpServersFromSource } from './load-settings.js';
import type { SettingsWarning } from './parse-settings-text.js';
import { pushSource, type LoadedSource } from './settings-source.js';

/** What the sources' permissions, hooks, MCP servers and folders come to, merged. */
export type MergedPolicy = {
  readonly rules: readonly PermissionRuleEntry[];
  readonly hooks: Map<HookEventName, HookMatcherConfig[]>;
  readonly mcpServers: readonly McpServersFromSource[];
  readonly additionalDirectories: readonly AdditionalDirectory[];
  /** `--permission-mode`, else the highest unrestricted `defaultMode`, else `default`; never a disabled bypass. */
  readonly defaultMode: PermissionMode;
  readonly bypassPermissionsDisabled: boolean;
};

/**
 * Merges the sources with the command line's rules (in the CLI tier: below the managed policy,
 * above every file): rules with their source and root, checked (warnings for doubtful ones),
 * hooks, MCP servers, additional folders and the permission mode.
 */
export function mergePolicy(options: {
  readonly sources: readonly LoadedSource[];
  readonly cli: CliSettings | undefined;
  readonly cwd: string;
  readonly homeDir: string;
  readonly known: ReadonlySet<string> | undefined;
  readonly warnings: SettingsWarning[];
}): MergedPolicy {
  const { sources, cli, cwd, homeDir, known, warnings } = options;
  const rules: PermissionRuleEntry[] = [];
  const addRule = (entry: PermissionRuleEntry, label: string): void => {
    const check = checkRule({ rule: entry.rule, behavior: entry.behavior, knownToolNames: known });
    if (check.verdict !== 'keep') warnings.push({ file: label, rule: entry.rule, message: check.message });
    if (check.verdict !== 'skip') rules.push({ ...entry, rule: entry.rule.trim() });
  };
  const hooks = new Map<HookEventName, HookMatcherConfig[]>();
  const mcpServers: McpServersFromSource[] = [];
  const additionalDirectories: AdditionalDirectory[] = [];
  let defaultMode: PermissionMode | undefined;
  let bypassPermissionsDisabled = false;

  // The flags sit in the CLI tier: below the managed policy, above every other file.
  const flagsAt = sources.findIndex((loaded) => loaded.source !== 'managed');
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
  const steps: (LoadedSource | 'flags')[] = [...sources];
  steps.splice(flagsAt === -1 ? steps.length : flagsAt, 0, 'flags');
  for (const step of steps) {
    if (step === 'flags') {
      for (const rule of cli?.disallowedTools ?? [])
        addRule({ rule, behavior: 'deny', source: 'cli', root: cwd }, '--disallowedTools');
      for (const rule of cli?.allowedTools ?? [])
        addAllowed({ rule, behavior: 'allow', source: 'cli', root: cwd }, '--allowedTools');
      continue;
    }
    pushSource(step, { addRule: addAllowed, warnings, hooks, mcpServers, additionalDirectories, cwd, homeDir });
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

  return { rules, hooks, mcpServers, additionalDirectories, defaultMode: effectiveMode, bypassPermissionsDisabled };
}

function parseMode(value: string): PermissionMode | undefined {
  if (value === 'manual') return 'default';
  return (PERMISSION_MODES as readonly string[]).includes(value) ? (value as PermissionMode) : undefined;
}
