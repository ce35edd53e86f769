import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { HookEventName, HookMatcherConfig, HookSettings } from '../contract/hook-config.js';
import type { PermissionMode, PermissionRuleEntry, RuleSource } from '../contract/permission.js';
import { PERMISSION_MODES } from '../contract/permission.js';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { checkRule } from './check-rule.js';
import { parseSettingsText, type SettingsFile, type SettingsWarning } from './parse-settings-text.js';
import { howToTrust, resolveProjectTrust, type TrustGrant } from './resolve-project-trust.js';
import {
  hashContent,
  heldRecord,
  holdKey,
  mergeKept,
  readHoldTable,
  type HeldFile,
  type HoldRecord,
  type HoldTable,
} from './settings-holds.js';
import { MANAGED_SETTINGS_PATH, settingsPaths } from './settings-paths.js';
import { pushSource, type LoadedSource, type SourceRestriction } from './settings-source.js';
import type { ProjectTrust } from './trust-store.js';
import type { SandboxSettings } from '../contract/sandbox.js';
import { mergeSandboxSettings } from './sandbox-settings.js';
import { mergeModelRequestSettings, type ModelRequestSettings } from './model-request-settings.js';

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
   * Which kind of run loads the settings: `interactive` (the terminal UI, whose host asks a person
   * about a folder whose trust is `unknown`) or `headless` (`-p`, SDK). Trust does not depend on
   * it: either way the project's allow rules, `defaultMode`, hooks, MCP servers, env and
   * additional directories apply only in a trusted folder (stricter than the reference, whose
   * headless runs trust the folder). Default `interactive`.
   */
  readonly session?: 'headless' | 'interactive';
  /**
   * `--trust-project`: trust the working folder for this run. `TOOLPLANE_TRUST_PROJECT=1` in
   * `env` does the same; otherwise the trust store (`toolplane trust`) decides.
   */
  readonly trustProject?: boolean;
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
  /** `maxRetries` and `streamIdleTimeoutMs`: how model requests are retried. */
  readonly modelRequests: ModelRequestSettings;
  /** How a trusted project folder came to be trusted (the store, `--trust-project`, the environment). */
  readonly projectTrustGrantedBy?: TrustGrant;
  /**
   * Settings files whose current content a tool call wrote and no person has confirmed: only
   * their deny and ask rules (and those they had before) apply. The terminal UI asks about them.
   */
  readonly heldFiles: readonly (HeldFile & { readonly source: RuleSource })[];
  readonly userDir: string;
};

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

/**
 * Loads and merges every settings source for a run: managed policy, CLI, local project, shared
 * project, user. Lists merge (the permission engine applies precedence; a deny anywhere wins).
 * Missing files are fine; a file that cannot be parsed, or a `--settings FILE` that does not
 * exist, throws `ToolplaneError('SETTINGS_INVALID')` naming the file and the line:column.
 * Project files of a folder nobody trusted (headless runs included) contribute only their deny
 * and ask rules, with a warning naming what was left out and how to trust the folder.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const { env, homeDir, cli, signal } = options;
  const cwd = resolve(options.cwd);
  const paths = settingsPaths({ cwd, env, homeDir });
  const managedFile = options.managedSettingsFile ?? MANAGED_SETTINGS_PATH;
  const known = options.knownToolNames === undefined ? undefined : new Set(options.knownToolNames);
  const warnings: SettingsWarning[] = [];

  const holds = await readHoldTable(paths.heldSettings, signal);
  if (holds.damaged) {
    warnings.push({
      file: paths.heldSettings,
      message:
        'the record of settings changes is damaged; every settings file counts as changed by a tool call until a person confirms it',
    });
  }
  const trust = await resolveProjectTrust({
    storeFile: paths.trustStore,
    projectDir: cwd,
    env,
    holds,
    ...(options.trustProject ? { trustProject: true } : {}),
    ...(signal ? { signal } : {}),
  });
  warnings.push(...trust.warnings);
  const projectTrust = trust.trust;

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

  // A project's own files may tighten the policy, never loosen it, until the folder is trusted.
  const untrusted: SourceRestriction | undefined =
    projectTrust === 'trusted' ? undefined : { reason: 'the project folder is not trusted', remedy: howToTrust(cwd) };
  const project = untrusted ? { restriction: untrusted } : {};
  const candidates: (Omit<LoadedSource, 'settings'> & { text: string | undefined })[] = [
    { source: 'managed', label: managedFile, file: managedFile, root: cwd, text: managedText },
    cliIsInline
      ? { source: 'cli', label: '--settings (inline JSON)', root: cwd, text: cliText }
      : {
          source: 'cli',
          label: cliFile ?? '',
          ...(cliFile === undefined ? {} : { file: cliFile }),
          root: cliFile === undefined ? cwd : dirname(cliFile),
          text: cliText,
        },
    {
      source: 'localSettings',
      label: paths.localSettings,
      file: paths.localSettings,
      root: cwd,
      text: localText,
      ...project,
    },
    {
      source: 'projectSettings',
      label: paths.projectSettings,
      file: paths.projectSettings,
      root: cwd,
      text: projectText,
      ...project,
    },
    {
      source: 'userSettings',
      label: paths.userSettings,
      file: paths.userSettings,
      root: paths.userDir,
      text: userText,
    },
  ];
  const sources: LoadedSource[] = [];
  const heldFiles: (HeldFile & { readonly source: RuleSource })[] = [];
  for (const { text, ...candidate } of candidates) {
    // The managed policy is root's; inline JSON is the command line itself: neither is held.
    const held =
      candidate.file === undefined || candidate.source === 'managed'
        ? undefined
        : await heldFor(holds, candidate.file, text);
    if (text === undefined && held === undefined) continue;
    const parsed = text === undefined ? { settings: {}, warnings: [] } : parseSettingsText(text, candidate.label);
    warnings.push(...parsed.warnings);
    if (held === undefined || candidate.file === undefined) {
      sources.push({ ...candidate, settings: parsed.settings });
      continue;
    }
    heldFiles.push({ file: candidate.file, hash: held.hash, record: held.record, source: candidate.source });
    // An untrusted folder's restriction says more (trusting comes first); a held file keeps its
    // earlier deny and ask rules either way, so rewriting it cannot drop one.
    const restriction = candidate.restriction ?? heldRestriction(held.record);
    sources.push({ ...candidate, restriction, settings: withKeptRules(parsed.settings, held.record) });
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

  const managed = sources.find((loaded) => loaded.source === 'managed')?.settings;
  const hooksOff = sources.find(
    (loaded) => loaded.restriction === undefined && loaded.settings.disableAllHooks === true,
  );
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
    if (loaded.restriction !== undefined) continue;
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
    files: sources.flatMap((loaded) =>
      loaded.file === undefined ? [] : [{ source: loaded.source, path: loaded.file }],
    ),
    projectTrust,
    sandbox: mergeSandboxSettings(
      sources.map((loaded) => ({
        source: loaded.source,
        label: loaded.label,
        sandbox: loaded.settings.sandbox,
        restricted: loaded.restriction !== undefined,
      })),
      { cwd, homeDir },
    ),
    modelRequests: mergeModelRequestSettings(sources),
    ...(trust.grantedBy ? { projectTrustGrantedBy: trust.grantedBy } : {}),
    heldFiles,
    userDir: paths.userDir,
  };
}

async function heldFor(
  holds: HoldTable,
  file: string,
  text: string | undefined,
): Promise<{ hash: string; record: HoldRecord } | undefined> {
  const hash = hashContent(text);
  const record = heldRecord(holds, await holdKey(file), hash);
  return record === undefined ? undefined : { hash, record };
}

function heldRestriction(record: HoldRecord): SourceRestriction {
  const when = record.at.slice(0, 16).replace('T', ' ');
  const session = record.session === undefined ? '' : ` in session ${record.session}`;
  return {
    reason: `it was changed by a tool call${session} (${when} UTC) and is held until a person confirms it`,
    remedy:
      'the terminal UI (toolplane without -p) asks to confirm it when it next starts in this folder; its earlier deny and ask rules apply meanwhile',
  };
}

function withKeptRules(settings: SettingsFile, record: HoldRecord): SettingsFile {
  if (record.kept === undefined) return settings;
  const merged = mergeKept(
    { deny: settings.permissions?.deny ?? [], ask: settings.permissions?.ask ?? [] },
    record.kept,
  );
  return { ...settings, permissions: { ...settings.permissions, deny: [...merged.deny], ask: [...merged.ask] } };
}
