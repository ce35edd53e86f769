import type { PermissionMode, PermissionRuleEntry, RuleSuggestion } from '../../contract/permission.js';
import { createPermissionModeStore, type PermissionModeStore } from '../../contract/permission-mode-store.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import { createPermissionEngine, type PermissionEngine } from '../../permissions/permission-engine.js';
import { loadSettings, type LoadedSettings } from '../../settings/load-settings.js';
import { saveRule, type SaveRuleResult } from '../../settings/save-rule.js';
import { confirmContent, readText } from '../../settings/settings-holds.js';
import { settingsPaths } from '../../settings/settings-paths.js';
import type { RuntimeOptions } from './create-runtime.js';
import { heldConfigFiles } from './held-config-files.js';

/**
 * Loads the settings (asking the person to trust the folder first, in interactive sessions) and
 * builds the permission engine from them. Its `remember` also saves a rule a person chose with
 * "always" to the settings file of the scope they picked. Throws `SETTINGS_INVALID` for a file
 * that cannot be read, or for bypass mode when settings disable it.
 */
export async function loadPermissions(
  options: RuntimeOptions & {
    readonly signal: AbortSignal;
    /** After a rule was saved to a file: the session's settings watch records it (a note when the file stays held). */
    readonly onRuleSaved?: (saved: SaveRuleResult) => Promise<string | undefined>;
  },
): Promise<{
  settings: LoadedSettings;
  engine: PermissionEngine;
  permissions: PermissionEngine;
  modes: PermissionModeStore;
  /** Rules a person chose in a dialog since the start ("always allow", or a deny), each with where it went. */
  remembered: readonly PermissionRuleEntry[];
}> {
  const { args, cwd, env, homeDir, signal } = options;
  const settingsInput = {
    cwd,
    env,
    homeDir,
    session: options.interactive ? ('interactive' as const) : ('headless' as const),
    trustProject: args.trustProject,
    cli: {
      ...(args.settings !== undefined ? { settings: args.settings } : {}),
      allowedTools: args.allowedTools,
      disallowedTools: args.disallowedTools,
      ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}),
      ...(args.settingSources ? { settingSources: args.settingSources } : {}),
    },
    ...(options.managedSettingsFile ? { managedSettingsFile: options.managedSettingsFile } : {}),
    signal,
  };
  let settings = await loadSettings(settingsInput);
  const paths = settingsPaths({ cwd, env, homeDir });
  if (options.interactive && settings.projectTrust === 'unknown' && options.askTrust) {
    const answer = await options.askTrust(cwd);
    // Only a typed answer is remembered: Enter (or a stray key) keeps the folder untrusted for this run.
    if (answer !== 'not-now') {
      const { recordTrustAnswer } = await import('../../settings/record-trust-answer.js');
      await recordTrustAnswer({
        storeFile: paths.trustStore,
        holdsFile: paths.heldSettings,
        projectDir: cwd,
        trust: answer,
      });
      settings = await loadSettings(settingsInput);
    } else options.warn(`Not trusted for this run; you will be asked again next time (or: toolplane trust, /trust).`);
  } else if (options.interactive && settings.projectTrust === 'untrusted') {
    const { refusedTrustWarning } = await import('../trust-question.js');
    options.warn(refusedTrustWarning(cwd));
  }
  if (options.interactive && options.askConfirmHeld) {
    // Files a tool call wrote: a person confirms each before it may loosen anything.
    const held = await heldConfigFiles({
      settings,
      cwd,
      mcpConfigFiles: args.mcpConfig,
      holdsFile: paths.heldSettings,
    });
    let confirmed = false;
    for (const file of held) {
      if (!(await options.askConfirmHeld(file))) continue;
      await confirmContent({ storeFile: paths.heldSettings, file: file.file, text: await readText(file.file) });
      confirmed = true;
    }
    if (confirmed) settings = await loadSettings(settingsInput);
  }
  const mode: PermissionMode = settings.defaultMode;
  const modes = createPermissionModeStore(mode);
  const engine = createPermissionEngine({
    rules: settings.rules,
    modeStore: modes,
    cwd,
    homeDir,
    additionalDirectories: [...settings.additionalDirectories.map((directory) => directory.path), ...args.addDir],
    // Its settings, trust store and held-file records loosen later sessions; no name covers a moved folder.
    protectedFolders: [settings.userDir],
  });
  // The session reports the rules' problems once it knows its tools; a rule the engine has its own
  // word for is not reported twice.
  const reportedBySession = new Set(engine.validateRules().map((problem) => problem.rule));
  for (const warning of settings.warnings) {
    if (warning.rule !== undefined && reportedBySession.has(warning.rule.trim())) continue;
    options.warn(`warning: ${warning.file ? `${warning.file}: ` : ''}${warning.message}`);
  }

  if (mode === 'bypassPermissions') {
    if (settings.bypassPermissionsDisabled)
      throw new ToolplaneError(
        'SETTINGS_INVALID',
        'bypassPermissions mode is disabled by settings (disableBypassPermissionsMode).',
      );
    const { bypassPermissionsNotice } = await import('../../permissions/bypass-notice.js');
    options.warn(bypassPermissionsNotice({ isRoot: typeof process.getuid === 'function' && process.getuid() === 0 }));
  }
  const remembered: PermissionRuleEntry[] = [];
  const permissions: PermissionEngine = Object.assign(Object.create(engine) as PermissionEngine, {
    async remember(suggestion: RuleSuggestion) {
      engine.remember(suggestion);
      const { rule, behavior, destination } = suggestion;
      if (destination === 'session') remembered.push({ rule, behavior, source: 'session', root: cwd });
      if (suggestion.destination !== 'session') {
        const saved = await saveRule({
          destination: suggestion.destination,
          rule: suggestion.rule,
          behavior: suggestion.behavior,
          cwd,
          env,
          homeDir,
        });
        remembered.push({ rule, behavior, source: destination, file: saved.file, root: cwd });
        options.warn(`Saved ${suggestion.behavior} rule ${suggestion.rule} to ${saved.file}`);
        const note = await options.onRuleSaved?.(saved);
        if (note !== undefined) options.warn(note);
      }
    },
  });

  return { settings, engine, permissions, modes, remembered };
}
