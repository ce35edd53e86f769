import { resolve } from 'node:path';
import type { HookSettings } from '../contract/hook-config.js';
import type { PermissionMode, PermissionRuleEntry, RuleSource } from '../contract/permission.js';
import type { SandboxSettings } from '../contract/sandbox.js';
import { mergeSettingsSources } from './merge-settings-sources.js';
import { mergeModelPriceSettings, type ModelPriceSettings } from './model-price-settings.js';
import { mergeModelRequestSettings, type ModelRequestSettings } from './model-request-settings.js';
import type { SettingsWarning } from './parse-settings-text.js';
import { readSettingsSources } from './read-settings-sources.js';
import { resolveProjectTrust, type TrustGrant } from './resolve-project-trust.js';
import { mergeSandboxSettings } from './sandbox-settings.js';
import { readHoldTable, type HeldFile } from './settings-holds.js';
import { MANAGED_SETTINGS_PATH, settingsPaths } from './settings-paths.js';
import type { ProjectTrust } from './trust-store.js';

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
  /**
   * `--setting-sources`: the file scopes applied in full (undefined: all). A scope left out still
   * gives its deny and ask rules, like an untrusted project: a host can narrow what the user's
   * files allow, never drop what they forbid.
   */
  readonly settingSources?: readonly SettingScope[];
};

/** The settings file scopes, in Claude Code's words (`--setting-sources user,project,local`). */
export type SettingScope = 'user' | 'project' | 'local';

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
  /**
   * The `env` blocks of the managed, user and `--settings` sources only: what telemetry reads
   * (`TOOLPLANE_ENABLE_TELEMETRY`, `OTEL_*`), never a project's file.
   */
  readonly telemetryEnv: ReadonlyMap<string, string>;
  readonly warnings: readonly SettingsWarning[];
  /** The settings files that existed and were read, highest precedence first. */
  readonly files: readonly { readonly source: RuleSource; readonly path: string }[];
  /** Whether the project's own settings were applied in full. */
  readonly projectTrust: ProjectTrust;
  /** The `sandbox` keys merged: loosening ones only from user, managed and command-line sources. */
  readonly sandbox: SandboxSettings;
  /** `maxRetries` and `streamIdleTimeoutMs`: how model requests are retried. */
  readonly modelRequests: ModelRequestSettings;
  /** `modelPrices` from user, managed and command-line settings, over the built-in price list. */
  readonly modelPrices: ModelPriceSettings;
  /** How a trusted project folder came to be trusted (the store, `--trust-project`, the environment). */
  readonly projectTrustGrantedBy?: TrustGrant;
  /**
   * Settings files whose current content a tool call wrote and no person has confirmed: only
   * their deny and ask rules (and those they had before) apply. The terminal UI asks about them.
   */
  readonly heldFiles: readonly (HeldFile & { readonly source: RuleSource })[];
  readonly userDir: string;
};

/**
 * Loads and merges every settings source for a run: managed policy, CLI, local project, shared
 * project, user. Lists merge (the permission engine applies precedence; a deny anywhere wins).
 * Missing files are fine; a file that cannot be parsed, or a `--settings FILE` that does not
 * exist, throws `ToolplaneError('SETTINGS_INVALID')` naming the file and the line:column.
 * Project files of a folder nobody trusted (headless runs included) contribute only their deny
 * and ask rules, with a warning naming what was left out and how to trust the folder.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const { env, homeDir, signal } = options;
  const cwd = resolve(options.cwd);
  const paths = settingsPaths({ cwd, env, homeDir });
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
  const { sources, heldFiles } = await readSettingsSources({
    cwd,
    paths,
    managedFile: options.managedSettingsFile ?? MANAGED_SETTINGS_PATH,
    cli: options.cli,
    projectTrust: trust.trust,
    holds,
    warnings,
    signal,
  });
  const merged = mergeSettingsSources({
    sources,
    cli: options.cli,
    cwd,
    homeDir,
    knownToolNames: options.knownToolNames === undefined ? undefined : new Set(options.knownToolNames),
    warnings,
  });
  return {
    ...merged,
    warnings,
    files: sources.flatMap((loaded) =>
      loaded.file === undefined ? [] : [{ source: loaded.source, path: loaded.file }],
    ),
    projectTrust: trust.trust,
    sandbox: mergeSandboxSettings(
      sources.map((loaded) => ({
        source: loaded.source,
        label: loaded.label,
        sandbox: loaded.settings.sandbox,
        restricted: loaded.restriction !== undefined,
        ...(loaded.claude ? { claude: true } : {}),
      })),
      { cwd, homeDir },
    ),
    modelRequests: mergeModelRequestSettings(sources),
    modelPrices: mergeModelPriceSettings(sources, warnings),
    ...(trust.grantedBy ? { projectTrustGrantedBy: trust.grantedBy } : {}),
    heldFiles,
    userDir: paths.userDir,
  };
}
