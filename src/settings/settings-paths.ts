import { join, resolve } from 'node:path';

/** Where the reference paths of a run are. */
export type SettingsPathsOptions = {
  /** The working folder: the project root. */
  readonly cwd: string;
  /** The environment to read `TOOLPLANE_CONFIG_DIR` from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The person's home folder. */
  readonly homeDir: string;
};

/** The settings files of one run, and the user folder. */
export type SettingsPaths = {
  /** `TOOLPLANE_CONFIG_DIR` when set, else `~/.toolplane`. */
  readonly userDir: string;
  readonly userSettings: string;
  readonly projectSettings: string;
  readonly localSettings: string;
  /**
   * Claude Code's files of the same three scopes, read below toolplane's own: `.claude/settings.json`,
   * `.claude/settings.local.json`, and the user's (`CLAUDE_CONFIG_DIR`, else `~/.claude`).
   */
  readonly claude: {
    readonly userSettings: string;
    readonly projectSettings: string;
    readonly localSettings: string;
  };
  /** The trust store, in the user folder. */
  readonly trustStore: string;
  /** The record of settings files tool calls changed (held until a person confirms them). */
  readonly heldSettings: string;
  /** When and in which session each rule saved by "always allow" was granted (`permissions list`). */
  readonly grantedRules: string;
};

/** Default location of the managed policy file. */
export const MANAGED_SETTINGS_PATH = '/etc/toolplane/managed-settings.json';

/** Resolves the user folder and the settings files for a working folder. */
export function settingsPaths(options: SettingsPathsOptions): SettingsPaths {
  const override = options.env['TOOLPLANE_CONFIG_DIR'];
  const userDir =
    override !== undefined && override.trim() !== ''
      ? resolve(options.cwd, override)
      : join(options.homeDir, '.toolplane');
  const projectDir = resolve(options.cwd);
  const claudeOverride = options.env['CLAUDE_CONFIG_DIR'];
  const claudeUserDir =
    claudeOverride !== undefined && claudeOverride.trim() !== ''
      ? resolve(options.cwd, claudeOverride)
      : join(options.homeDir, '.claude');
  return {
    userDir,
    userSettings: join(userDir, 'settings.json'),
    projectSettings: join(projectDir, '.toolplane', 'settings.json'),
    localSettings: join(projectDir, '.toolplane', 'settings.local.json'),
    claude: {
      userSettings: join(claudeUserDir, 'settings.json'),
      projectSettings: join(projectDir, '.claude', 'settings.json'),
      localSettings: join(projectDir, '.claude', 'settings.local.json'),
    },
    trustStore: join(userDir, 'trusted-projects.json'),
    heldSettings: join(userDir, 'held-settings.json'),
    grantedRules: join(userDir, 'granted-rules.json'),
  };
}
