import { loadSettings, type LoadedSettings } from '../../settings/load-settings.js';
import type { CommandIo } from '../headless.js';

/**
 * The settings a headless run in the command's folder would read, for subcommands that report on
 * them: the project's loosening settings only when trusted, `--settings` added as a run adds it.
 */
export function loadCommandSettings(
  io: Pick<CommandIo, 'cwd' | 'env' | 'homeDir' | 'managedSettingsFile'>,
  flags: { readonly settings?: string | undefined; readonly trustProject?: boolean | undefined },
): Promise<LoadedSettings> {
  return loadSettings({
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    session: 'headless',
    trustProject: flags.trustProject ?? false,
    ...(io.managedSettingsFile !== undefined ? { managedSettingsFile: io.managedSettingsFile } : {}),
    ...(flags.settings !== undefined ? { cli: { settings: flags.settings } } : {}),
  });
}
