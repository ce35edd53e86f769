import { describeListedHook, listHooks } from '../hook-listing.js';
import { parseCommandArgs } from './command-args.js';
import type { CommandIo } from '../headless.js';
import { loadCommandSettings } from './command-settings.js';

/**
 * `toolplane hooks list [--json] [--settings FILE|JSON] [--trust-project]`: every hook a run in
 * this folder would have in force — its event, matcher, `if`, command or URL, timeout,
 * `failClosed` and the file it came from, and a script that cannot run. What the settings leave
 * out (an unsupported type or event, an untrusted project's hooks, `disableAllHooks`) is told on
 * stderr, each naming its file, exactly as a run reports it.
 */
export async function runHooksList(argv: readonly string[], io: CommandIo): Promise<number> {
  const values = parseCommandArgs(argv, {
    json: { type: 'boolean' },
    settings: { type: 'string' },
    'trust-project': { type: 'boolean' },
  });
  const settings = await loadCommandSettings(io, { settings: values.settings, trustProject: values['trust-project'] });
  for (const warning of settings.warnings) io.stderr.write(`warning: ${warning.file}: ${warning.message}\n`);
  const listed = listHooks(settings.hooks, io);
  if (values.json) io.stdout.write(`${JSON.stringify(listed)}\n`);
  else if (listed.length === 0) io.stdout.write('No hooks are in force here.\n');
  else for (const hook of listed) io.stdout.write(`${describeListedHook(hook)}\n`);
  return 0;
}
