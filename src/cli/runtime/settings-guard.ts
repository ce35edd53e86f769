import { recordGrant } from '../../settings/grant-records.js';
import type { SaveRuleResult } from '../../settings/save-rule.js';
import { hashContent } from '../../settings/settings-holds.js';
import { settingsPaths, type SettingsPaths } from '../../settings/settings-paths.js';
import { createSettingsWatch, type HeldChangeReport, type SettingsWatch } from '../../settings/settings-watch.js';
import type { AfterToolsReport, ConfigChangeSource } from '../../session/index.js';

/** The session's watch over its own settings files, as the runtime uses it. */
export type SettingsGuard = {
  /**
   * After a batch of tool calls: a notice per watched file a call changed (now held), and the
   * settings files among them with their scope, for ConfigChange hooks.
   */
  afterTools(signal?: AbortSignal): Promise<AfterToolsReport>;
  /** toolplane saved a rule a person chose: applies at once unless the file was held. Returns a notice when it stays held. */
  recordSavedRule(saved: SaveRuleResult): Promise<string | undefined>;
  /**
   * toolplane wrote a watched file for the person (the trust store, from `/trust`): the write is
   * theirs, not a tool call's, so it is not held, unless a tool call had changed the file before.
   */
  recordPersonWrite(change: {
    readonly file: string;
    readonly before: string | undefined;
    readonly after: string;
  }): Promise<void>;
};

/** The notice for a person: what happened to the file, what applies meanwhile, how to confirm. */
export function heldNotice(report: HeldChangeReport): string {
  const what = report.deleted ? 'was deleted by a tool call' : 'was changed by a tool call';
  return (
    `${report.file} ${what}. Until a person confirms it, only its deny and ask rules (and those it had before) apply, ` +
    'in this session and later ones, headless runs included; the terminal UI (toolplane without -p) asks to confirm it when it next starts in this folder.'
  );
}

/**
 * The scope of a settings file, as ConfigChange hooks name it; undefined for the other watched
 * files (`.mcp.json`, `--mcp-config` and `--settings` files, the trust store), which Claude Code's
 * settings sources have no name for: they are held and told as notices, without ConfigChange.
 */
export function configChangeSourceOf(file: string, paths: SettingsPaths): ConfigChangeSource | undefined {
  if (file === paths.userSettings || file === paths.claude.userSettings) return 'user_settings';
  if (file === paths.projectSettings || file === paths.claude.projectSettings) return 'project_settings';
  if (file === paths.localSettings || file === paths.claude.localSettings) return 'local_settings';
  return undefined;
}

/**
 * Starts watching the settings files a session's policy comes from (see `watchedConfigFiles`).
 * A failure to read or record is reported and never stops the session: the files then stay as
 * they were loaded at its start.
 */
export async function createSettingsGuard(options: {
  readonly files: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly sessionId: () => string;
  readonly warn: (line: string) => void;
  readonly signal?: AbortSignal;
}): Promise<SettingsGuard> {
  const paths = settingsPaths(options);
  const storeFile = paths.heldSettings;
  let watch: SettingsWatch | undefined;
  try {
    watch = await createSettingsWatch({
      files: options.files,
      storeFile,
      sessionId: options.sessionId,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    options.warn(
      `warning: settings files cannot be watched for changes by tool calls (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return {
    async afterTools(signal) {
      if (watch === undefined) return { notices: [], changedSettings: [] };
      try {
        const reports = await watch.scan(signal);
        return {
          notices: reports.map(heldNotice),
          changedSettings: reports.flatMap((report) => {
            const source = configChangeSourceOf(report.file, paths);
            return source === undefined ? [] : [{ file: report.file, source }];
          }),
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          notices: [`Settings files could not be checked for changes by tool calls: ${message}`],
          changedSettings: [],
        };
      }
    },
    async recordPersonWrite(change) {
      await watch?.recordOwnWrite({
        file: change.file,
        previousHash: hashContent(change.before),
        hash: hashContent(change.after),
        ...(change.before === undefined ? {} : { previousText: change.before }),
      });
    },
    async recordSavedRule(saved) {
      if (!saved.added) return undefined;
      // When and in which session, for `permissions list`; a record that cannot be written loses only that note.
      await recordGrant(paths.grantedRules, {
        rule: saved.rule,
        behavior: saved.behavior,
        file: saved.file,
        sessionId: options.sessionId(),
        grantedAt: new Date().toISOString(),
      }).catch((error: unknown) =>
        options.warn(
          `warning: the grant of ${saved.rule} could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      if (watch === undefined) return undefined;
      const state = await watch.recordOwnWrite({
        file: saved.file,
        previousHash: saved.previousHash,
        hash: saved.hash,
        ...(saved.previousText === undefined ? {} : { previousText: saved.previousText }),
      });
      return state === 'held'
        ? `${saved.file} had been changed by a tool call, so it stays held with the new rule: the rule applies in this session, and in later ones once a person confirms the file.`
        : undefined;
    },
  };
}
