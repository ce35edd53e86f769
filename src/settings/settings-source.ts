import { isAbsolute, join, resolve } from 'node:path';
import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import { HOOK_EVENT_NAMES, unsupportedHookEventMessage } from '../contract/hook-config.js';
import type { PermissionRuleEntry, RuleSource } from '../contract/permission.js';
import type { AdditionalDirectory, McpServersFromSource } from './load-settings.js';
import type { SettingsFile, SettingsWarning } from './parse-settings-text.js';
import { readHookConfig } from './read-hook-config.js';

/**
 * Why a settings file may only tighten the policy: its deny and ask rules apply, nothing that
 * loosens it (allow rules, `defaultMode`, additional directories, `env`, hooks, MCP servers).
 */
export type SourceRestriction = {
  /** Why, as the start of a sentence: `the project folder is not trusted`. */
  readonly reason: string;
  /** What a person does to lift it. */
  readonly remedy: string;
};

/** One settings file (or inline `--settings`) as read, with where it anchors its rules. */
export type LoadedSource = {
  readonly source: RuleSource;
  readonly label: string;
  readonly file?: string;
  readonly root: string;
  readonly settings: SettingsFile;
  readonly restriction?: SourceRestriction;
  /** A Claude Code settings file (`.claude/…`, `~/.claude/…`): read as its scope's, it never loosens the sandbox. */
  readonly claude?: boolean;
};

/** What the loader collects from every source, in precedence order. */
export type SourceSinks = {
  readonly addRule: (entry: PermissionRuleEntry, label: string) => void;
  readonly warnings: SettingsWarning[];
  readonly hooks: Map<HookEventName, HookMatcherConfig[]>;
  readonly mcpServers: McpServersFromSource[];
  readonly additionalDirectories: AdditionalDirectory[];
  readonly cwd: string;
  readonly homeDir: string;
};

const BEHAVIORS = ['deny', 'ask', 'allow'] as const;
const EVENTS: ReadonlySet<string> = new Set(HOOK_EVENT_NAMES);

function expandHome(path: string, homeDir: string): string {
  if (path === '~') return homeDir;
  if (path.startsWith('~/')) return join(homeDir, path.slice(2));
  return path;
}

/**
 * Adds one source's rules, hooks, MCP servers and folders, leaving out what its restriction
 * withholds, and says in one warning what was left out, why and how to lift it. (`defaultMode`
 * and `env` are merged by the loader, which also reads `restriction`.)
 */
export function pushSource(loaded: LoadedSource, sinks: SourceSinks): void {
  const { addRule, warnings } = sinks;
  const { settings, source, file, root, label, restriction } = loaded;
  const restricted = restriction !== undefined;
  const withheld: string[] = [];
  for (const behavior of BEHAVIORS) {
    const list = settings.permissions?.[behavior] ?? [];
    if (behavior === 'allow' && restricted) {
      if (list.length > 0) withheld.push('allow rules');
      continue;
    }
    for (const rule of list) addRule({ rule, behavior, source, root, ...(file === undefined ? {} : { file }) }, label);
  }
  if (restricted && settings.permissions?.defaultMode !== undefined)
    withheld.push(`defaultMode ${settings.permissions.defaultMode}`);
  const directories = settings.permissions?.additionalDirectories ?? [];
  if (restricted && directories.length > 0) withheld.push('additional directories');
  if (!restricted) {
    for (const directory of directories) {
      const expanded = expandHome(directory, sinks.homeDir);
      sinks.additionalDirectories.push({
        path: isAbsolute(expanded) ? resolve(expanded) : resolve(sinks.cwd, expanded),
        source,
        ...(file === undefined ? {} : { file }),
      });
    }
  }
  const hookEntries = Object.entries(settings.hooks ?? {});
  if (restricted && hookEntries.length > 0) withheld.push('hooks');
  if (!restricted) pushHooks(loaded, hookEntries, sinks);
  const servers = Object.entries(settings.mcpServers ?? {});
  if (restricted && servers.length > 0) withheld.push('MCP servers');
  if (!restricted && servers.length > 0) {
    sinks.mcpServers.push({ source, ...(file === undefined ? {} : { file }), servers: new Map(servers) });
  }
  if (restricted && Object.keys(settings.env ?? {}).length > 0) withheld.push('env');
  if (restriction !== undefined && withheld.length > 0) {
    warnings.push({
      file: label,
      message: `${restriction.reason}: its ${withheld.join(', ')} are not applied (deny and ask rules are); ${restriction.remedy}`,
    });
  }
}

function pushHooks(
  loaded: LoadedSource,
  entries: readonly [string, NonNullable<SettingsFile['hooks']>[string]][],
  sinks: SourceSinks,
): void {
  const { source, file, label } = loaded;
  const { warnings } = sinks;
  for (const [event, matchers] of entries) {
    if (!EVENTS.has(event)) {
      warnings.push({ file: label, message: unsupportedHookEventMessage(event) });
      continue;
    }
    const list = sinks.hooks.get(event as HookEventName) ?? [];
    for (const matcher of matchers) {
      const commands = matcher.hooks.flatMap((hook) => {
        const config = readHookConfig(event, hook, (message) => warnings.push({ file: label, message }));
        return config === undefined ? [] : [config];
      });
      if (commands.length === 0) continue;
      list.push({
        ...(matcher.matcher === undefined ? {} : { matcher: matcher.matcher }),
        hooks: commands,
        source,
        ...(file === undefined ? {} : { file }),
        // Where a hook's `if` is anchored: as this file's own permission rules are.
        ...(commands.some((hook) => hook.if !== undefined) ? { root: loaded.root } : {}),
      });
    }
    if (list.length > 0) sinks.hooks.set(event as HookEventName, list);
  }
}
