import type { HookMatcherConfig } from '../../contract/hook-config.js';
import { hookScriptProblem } from '../../session/index.js';
import { loadSettings } from '../../settings/load-settings.js';
import { parseCommandArgs } from './command-args.js';
import type { CommandIo } from '../headless.js';

/** One hook in force, as `hooks list` shows it. */
type ListedHook = {
  readonly event: string;
  readonly matcher: string;
  readonly type: 'command' | 'http';
  readonly run: string;
  readonly if?: string;
  readonly timeout?: number;
  readonly failClosed?: boolean;
  readonly source: string;
  readonly file?: string;
  /** Why it cannot run (its script is missing, not executable), when that is known before it runs. */
  readonly problem?: string;
};

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
  const settings = await loadSettings({
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    session: 'headless',
    trustProject: values['trust-project'] ?? false,
    ...(values.settings !== undefined ? { cli: { settings: values.settings } } : {}),
  });
  for (const warning of settings.warnings) io.stderr.write(`warning: ${warning.file}: ${warning.message}\n`);
  const listed: ListedHook[] = [...settings.hooks].flatMap(([event, groups]) =>
    groups.flatMap((group) => listGroup(event, group, io)),
  );
  if (values.json) io.stdout.write(`${JSON.stringify(listed)}\n`);
  else if (listed.length === 0) io.stdout.write('No hooks are in force here.\n');
  else for (const hook of listed) io.stdout.write(`${describe(hook)}\n`);
  return 0;
}

function listGroup(event: string, group: HookMatcherConfig, io: CommandIo): ListedHook[] {
  return group.hooks.map((hook) => {
    const run = hook.type === 'command' ? hook.command : hook.url;
    // Checked with the variables a run gives hooks, so `"$CLAUDE_PROJECT_DIR"/…` resolves as it will.
    const env = { ...io.env, TOOLPLANE_PROJECT_DIR: io.cwd, CLAUDE_PROJECT_DIR: io.cwd };
    const problem = hook.type === 'command' ? hookScriptProblem(hook.command, { env, cwd: io.cwd }) : undefined;
    return {
      event,
      matcher: group.matcher === undefined || group.matcher === '' ? '*' : group.matcher,
      type: hook.type,
      run,
      ...(hook.if !== undefined ? { if: hook.if } : {}),
      ...(hook.timeout !== undefined ? { timeout: hook.timeout } : {}),
      ...(hook.failClosed !== undefined ? { failClosed: hook.failClosed } : {}),
      source: group.source,
      ...(group.file !== undefined ? { file: group.file } : {}),
      ...(problem !== undefined ? { problem } : {}),
    };
  });
}

function describe(hook: ListedHook): string {
  const parts = [
    `${hook.event}  ${hook.matcher}`,
    hook.if !== undefined ? `if ${hook.if}` : undefined,
    `${hook.type} ${JSON.stringify(hook.run)}`,
    hook.timeout !== undefined ? `timeout ${hook.timeout}s` : undefined,
    hook.failClosed ? 'failClosed' : undefined,
    `(${hook.file ?? hook.source})`,
    hook.problem !== undefined ? `— cannot run: ${hook.problem}` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join('  ');
}
