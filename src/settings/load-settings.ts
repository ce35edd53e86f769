import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { CommandHookConfig, HookEventName, HookMatcherConfig, HookSettings, HttpHookConfig } from '../contract/hook-config.js';
import { HOOK_EVENT_NAMES } from '../contract/hook-config.js';
import type { PermissionMode, PermissionRuleEntry, RuleSource } from '../contract/permission.js';
import { PERMISSION_MODES } from '../contract/permission.js';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { checkRule } from './check-rule.js';
import { parseSettingsText, type SettingsFile, type SettingsWarning } from './parse-settings-text.js';
import { MANAGED_SETTINGS_PATH, settingsPaths } from './settings-paths.js';
import { readProjectTrust, type ProjectTrust } from './trust-store.js';
import type { SandboxSettings } from '../contract/sandbox.js';
import { mergeSandboxSettings } from './sandbox-settings.js';

/** Settings given on the command line (the CLI parses argv; the loader takes the values). */
export type CliSettings = {
  /** `--settings`: a file path, or inline JSON when it starts with `{`. */
  readonly settings?: string;
  /** `--allowedTools`, one rule per entry (see `splitToolList`). */
  readonly allowedTools?: readonly string[];
  /** `--disallowedTools`, one rule per entry. */
  readonly disallowedTools?: readonly string[];
  /** `--permission-mode`. */
  readonly permissionMode?: PermissionMode;
};

/** Options for {@link loadSettings}. */
export type LoadSettingsOptions = {
  /** The working folder, which is the project root. */
  readonly cwd: string;
  /** The environment (for `TOOLPLANE_CONFIG_DIR`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The person's home folder (the user folder is `~/.toolplane` unless `TOOLPLANE_CONFIG_DIR`). */
  readonly homeDir: string;
  /** Default `/etc/toolplane/managed-settings.json`. */
  readonly managedSettingsFile?: string;
  readonly cli?: CliSettings;
  /**
   * `headless` (`-p`, SDK) trusts the working folder, as the reference does; `interactive` reads
   * the trust store and applies the project's allow rules, hooks, MCP servers, env and additional
   * directories only once the person has trusted the folder. Default `interactive`.
   */
  readonly session?: 'headless' | 'interactive';
  /** Tool names rules may name without a warning (`mcp__…` names are always accepted). */
  readonly knownToolNames?: readonly string[];
  readonly signal?: AbortSignal;
};

/** An additional working folder, absolute, with where it came from. */
export type AdditionalDirectory = { readonly path: string; readonly source: RuleSource; readonly file?: string };

/** The MCP servers one source declares, as data for the MCP layer. */
export type McpServersFromSource = {
  readonly source: RuleSource;
  readonly file?: string;
  readonly servers: ReadonlyMap<string, unknown>;
};

/** Every settings source merged for one run. */
export type LoadedSettings = {
  /** Every rule with its source, file and anchoring root, highest-precedence source first. */
  readonly rules: readonly PermissionRuleEntry[];
  /** `--permission-mode` if given, else the highest-precedence `defaultMode`, else `default`. */
  readonly defaultMode: PermissionMode;
  /** Some source set `disableBypassPermissionsMode`. */
  readonly bypassPermissionsDisabled: boolean;
  readonly additionalDirectories: readonly AdditionalDirectory[];
  readonly hooks: HookSettings;
  readonly mcpServers: readonly McpServersFromSource[];
  /** The `env` blocks merged, higher-precedence sources winning. */
  readonly env: ReadonlyMap<string, string>;
  readonly warnings: readonly SettingsWarning[];
  /** The settings files that existed and were read, highest precedence first. */
  readonly files: readonly { readonly source: RuleSource; readonly path: string }[];
  /** Whether the project's own settings were applied in full. */
  readonly projectTrust: ProjectTrust;
  /** The `sandbox` keys merged: loosening ones only from user, managed and command-line sources. */
  readonly sandbox: SandboxSettings;
  readonly userDir: string;
};

type LoadedSource = {
  readonly source: RuleSource;
  readonly label: string;
  readonly file?: string;
  readonly root: string;
  readonly settings: SettingsFile;
  /** A project file of a folder the person has not trusted. */
  readonly restricted: boolean;
};

const BEHAVIORS = ['deny', 'ask', 'allow'] as const;
const EVENTS: ReadonlySet<string> = new Set(HOOK_EVENT_NAMES);
const LOOSER_MODES: ReadonlySet<PermissionMode> = new Set(['acceptEdits', 'bypassPermissions']);

async function readOptionalFile(path: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return await readFile(path, { encoding: 'utf8', signal });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if ((error as Error).name === 'AbortError') throw error;
    throw new ToolplaneError('SETTINGS_INVALID', `Settings file ${path} cannot be read (${code ?? String(error)}).`, {
      cause: error,
    });
  }
}

function parseMode(value: string): PermissionMode | undefined {
  if (value === 'manual') return 'default';
  return (PERMISSION_MODES as readonly string[]).includes(value) ? (value as PermissionMode) : undefined;
}

function expandHome(path: string, homeDir: string): string {
  if (path === '~') return homeDir;
  if (path.startsWith('~/')) return join(homeDir, path.slice(2));
  return path;
}

/**
 * Loads and merges every settings source for a run: managed policy, CLI, local project, shared
 * project, user. Lists merge (the permission engine applies precedence; a deny anywhere wins).
 * Missing files are fine; a file that cannot be parsed, or a `--settings FILE` that does not
 * exist, throws `ToolplaneError('SETTINGS_INVALID')` naming the file and the line:column.
 * Untrusted project files still contribute their deny and ask rules.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const { env, homeDir, cli, signal } = options;
  const cwd = resolve(options.cwd);
  const paths = settingsPaths({ cwd, env, homeDir });
  const managedFile = options.managedSettingsFile ?? MANAGED_SETTINGS_PATH;
  const known = options.knownToolNames === undefined ? undefined : new Set(options.knownToolNames);
  const warnings: SettingsWarning[] = [];

  let projectTrust: ProjectTrust = 'trusted';
  if ((options.session ?? 'interactive') === 'interactive') {
    const read = await readProjectTrust({ storeFile: paths.trustStore, projectDir: cwd, signal });
    projectTrust = read.trust;
    if (read.damaged) {
      warnings.push({ file: paths.trustStore, message: 'the trust store is damaged; every project folder is treated as not yet trusted' });
    }
  }

  const cliSettings = cli?.settings?.trim();
  const cliIsInline = cliSettings?.startsWith('{') ?? false;
  const cliFile = cliSettings !== undefined && !cliIsInline ? resolve(cwd, cliSettings) : undefined;
  // Home as the project folder: its settings file is the user's, loaded once as such.
  const projectFiles = [paths.localSettings, paths.projectSettings].map((file) =>
    file === paths.userSettings ? undefined : file,
  );
  const [managedText, cliText, localText, projectText, userText] = await Promise.all([
    readOptionalFile(managedFile, signal),
    cliFile === undefined ? Promise.resolve(cliIsInline ? cliSettings : undefined) : readOptionalFile(cliFile, signal),
    projectFiles[0] === undefined ? Promise.resolve(undefined) : readOptionalFile(projectFiles[0], signal),
    projectFiles[1] === undefined ? Promise.resolve(undefined) : readOptionalFile(projectFiles[1], signal),
    readOptionalFile(paths.userSettings, signal),
  ]);
  if (cliFile !== undefined && cliText === undefined) {
    throw new ToolplaneError('SETTINGS_INVALID', `Settings file ${cliFile} given with --settings does not exist.`);
  }

  const restricted = projectTrust !== 'trusted';
  const candidates: (Omit<LoadedSource, 'settings'> & { text: string | undefined })[] = [
    { source: 'managed', label: managedFile, file: managedFile, root: cwd, text: managedText, restricted: false },
    cliIsInline
      ? { source: 'cli', label: '--settings (inline JSON)', root: cwd, text: cliText, restricted: false }
      : { source: 'cli', label: cliFile ?? '', file: cliFile, root: cliFile === undefined ? cwd : dirname(cliFile), text: cliText, restricted: false },
    { source: 'localSettings', label: paths.localSettings, file: paths.localSettings, root: cwd, text: localText, restricted },
    { source: 'projectSettings', label: paths.projectSettings, file: paths.projectSettings, root: cwd, text: projectText, restricted },
    { source: 'userSettings', label: paths.userSettings, file: paths.userSettings, root: paths.userDir, text: userText, restricted: false },
  ];
  const sources: LoadedSource[] = [];
  for (const { text, ...candidate } of candidates) {
    if (text === undefined) continue;
    const parsed = parseSettingsText(text, candidate.label);
    warnings.push(...parsed.warnings);
    sources.push({ ...candidate, settings: parsed.settings });
  }

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
  const managedOnly = sources.some((loaded) => loaded.source === 'managed' && loaded.settings.allowManagedPermissionRulesOnly === true);
  const addAllowed = (entry: PermissionRuleEntry, label: string): void => {
    if (managedOnly && entry.behavior === 'allow' && entry.source !== 'managed') {
      warnings.push({ file: label, rule: entry.rule, message: `Allow rule ${entry.rule} is ignored: the managed policy sets allowManagedPermissionRulesOnly.` });
      return;
    }
    addRule(entry, label);
  };
  const steps: (LoadedSource | 'flags')[] = [...sources];
  steps.splice(flagsAt === -1 ? steps.length : flagsAt, 0, 'flags');
  for (const step of steps) {
    if (step === 'flags') {
      for (const rule of cli?.disallowedTools ?? []) addRule({ rule, behavior: 'deny', source: 'cli', root: cwd }, '--disallowedTools');
      for (const rule of cli?.allowedTools ?? []) addAllowed({ rule, behavior: 'allow', source: 'cli', root: cwd }, '--allowedTools');
      continue;
    }
    pushSource({ loaded: step, addRule: addAllowed, warnings, hooks, mcpServers, additionalDirectories, cwd, homeDir });
    const permissions = step.settings.permissions;
    if (permissions?.disableBypassPermissionsMode === 'disable' || permissions?.disableBypassPermissionsMode === true) {
      bypassPermissionsDisabled = true;
    }
    if (permissions?.defaultMode === undefined) continue;
    const mode = parseMode(permissions.defaultMode);
    if (mode === undefined) {
      warnings.push({ file: step.label, message: `defaultMode ${JSON.stringify(permissions.defaultMode)} is not a known mode; ignored` });
    } else if (step.restricted && LOOSER_MODES.has(mode)) {
      warnings.push({ file: step.label, message: `defaultMode ${mode} ignored until the project folder is trusted` });
    } else {
      defaultMode ??= mode;
    }
  }
  let effectiveMode = cli?.permissionMode ?? defaultMode ?? 'default';
  if (effectiveMode === 'bypassPermissions' && bypassPermissionsDisabled) {
    warnings.push({ file: 'settings', message: 'bypassPermissions is disabled by disableBypassPermissionsMode; using default' });
    effectiveMode = 'default';
  }

  const managed = sources.find((loaded) => loaded.source === 'managed')?.settings;
  const hooksOff = sources.find((loaded) => !loaded.restricted && loaded.settings.disableAllHooks === true);
  if (managed?.disableAllHooks === true) hooks.clear();
  else if (managed?.allowManagedHooksOnly === true || hooksOff !== undefined) {
    // Only the managed policy can keep its own hooks running when hooks are turned off.
    for (const [event, list] of hooks) {
      const kept = list.filter((matcher) => matcher.source === 'managed');
      if (kept.length > 0) hooks.set(event, kept);
      else hooks.delete(event);
    }
  }

  const mergedEnv = new Map<string, string>();
  for (const loaded of [...sources].reverse()) {
    if (loaded.restricted) continue;
    for (const [name, value] of Object.entries(loaded.settings.env ?? {})) mergedEnv.set(name, value);
  }
  return {
    rules,
    defaultMode: effectiveMode,
    bypassPermissionsDisabled,
    additionalDirectories,
    hooks,
    mcpServers,
    env: mergedEnv,
    warnings,
    files: sources.flatMap((loaded) => (loaded.file === undefined ? [] : [{ source: loaded.source, path: loaded.file }])),
    projectTrust,
    sandbox: mergeSandboxSettings(
      sources.map((loaded) => ({ source: loaded.source, label: loaded.label, sandbox: loaded.settings.sandbox })),
      { cwd, homeDir },
    ),
    userDir: paths.userDir,
  };
}

type PushSourceOptions = {
  readonly loaded: LoadedSource;
  readonly addRule: (entry: PermissionRuleEntry, label: string) => void;
  readonly warnings: SettingsWarning[];
  readonly hooks: Map<HookEventName, HookMatcherConfig[]>;
  readonly mcpServers: McpServersFromSource[];
  readonly additionalDirectories: AdditionalDirectory[];
  readonly cwd: string;
  readonly homeDir: string;
};

/** Adds one source's rules, hooks, MCP servers and folders, leaving out what trust withholds. */
function pushSource(options: PushSourceOptions): void {
  const { loaded, addRule, warnings } = options;
  const { settings, source, file, root, label, restricted } = loaded;
  const withheld: string[] = [];
  for (const behavior of BEHAVIORS) {
    const list = settings.permissions?.[behavior] ?? [];
    if (behavior === 'allow' && restricted) {
      if (list.length > 0) withheld.push('allow rules');
      continue;
    }
    for (const rule of list) addRule({ rule, behavior, source, root, ...(file === undefined ? {} : { file }) }, label);
  }
  const directories = settings.permissions?.additionalDirectories ?? [];
  if (restricted && directories.length > 0) withheld.push('additional directories');
  if (!restricted) {
    for (const directory of directories) {
      const expanded = expandHome(directory, options.homeDir);
      options.additionalDirectories.push({
        path: isAbsolute(expanded) ? resolve(expanded) : resolve(options.cwd, expanded),
        source,
        ...(file === undefined ? {} : { file }),
      });
    }
  }
  const hookEntries = Object.entries(settings.hooks ?? {});
  if (restricted && hookEntries.length > 0) withheld.push('hooks');
  for (const [event, matchers] of restricted ? [] : hookEntries) {
    if (!EVENTS.has(event)) {
      warnings.push({ file: label, message: `hook event ${JSON.stringify(event)} is not supported; its hooks are ignored` });
      continue;
    }
    const list = options.hooks.get(event as HookEventName) ?? [];
    for (const matcher of matchers) {
      const commands = matcher.hooks.flatMap((hook): (CommandHookConfig | HttpHookConfig)[] => {
        const named = hook.type === 'command' ? hook.command : hook.type === 'http' ? hook.url : undefined;
        if (named === undefined) {
          warnings.push({ file: label, message: `${event} hook of type ${JSON.stringify(hook.type)} is not supported (or lacks its ${hook.type === 'http' ? 'url' : 'command'}); ignored` });
          return [];
        }
        if (hook.if !== undefined) {
          warnings.push({ file: label, message: `${event} hook ${named}: the "if" filter is not supported; the hook runs for every call its matcher accepts` });
        }
        if (hook.async === true) {
          warnings.push({ file: label, message: `${event} hook ${named}: "async" is not supported; the hook runs before the call continues` });
        }
        const common = {
          ...(hook.timeout === undefined ? {} : { timeout: hook.timeout }),
          ...(hook.failClosed === undefined ? {} : { failClosed: hook.failClosed }),
        };
        if (hook.type === 'http') {
          return [{
            type: 'http' as const,
            url: named,
            ...(hook.headers === undefined ? {} : { headers: hook.headers }),
            ...(hook.allowedEnvVars === undefined ? {} : { allowedEnvVars: hook.allowedEnvVars }),
            ...common,
          }];
        }
        return [{ type: 'command' as const, command: named, ...common }];
      });
      if (commands.length === 0) continue;
      list.push({
        ...(matcher.matcher === undefined ? {} : { matcher: matcher.matcher }),
        hooks: commands,
        source,
        ...(file === undefined ? {} : { file }),
      });
    }
    if (list.length > 0) options.hooks.set(event as HookEventName, list);
  }
  const servers = Object.entries(settings.mcpServers ?? {});
  if (restricted && servers.length > 0) withheld.push('MCP servers');
  if (!restricted && servers.length > 0) {
    options.mcpServers.push({ source, ...(file === undefined ? {} : { file }), servers: new Map(servers) });
  }
  if (restricted && Object.keys(settings.env ?? {}).length > 0) withheld.push('env');
  if (withheld.length > 0) {
    warnings.push({
      file: label,
      message: `the project folder is not trusted: its ${withheld.join(', ')} are not applied (deny and ask rules are)`,
    });
  }
}
