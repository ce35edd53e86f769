import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';
import { hasTmux, tmuxOn, waitForScreen as waitOn } from './tmux.js';

// The real command in a real terminal: tmux runs `toolplane` (the terminal UI over the real
// runtime, scripted model), the test answers the trust question and the permission dialog.

const SOCKET = `toolplane-cli-${process.pid}`;
const tmux = tmuxOn(SOCKET);
const waitForScreen = (name: string, test: (screen: string) => boolean, what: string, timeoutMs?: number) =>
  waitOn(() => tmux('capture-pane', '-p', '-t', name), test, what, timeoutMs);

describe.skipIf(!hasTmux)('toolplane interactive, in tmux', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-tty-'));
  });
  // A session that lives as long as the suite keeps the private server up between tests: killing
  // the server after each test raced the next test's new-session ("server exited unexpectedly").
  beforeAll(() => void tmux('new-session', '-d', '-s', 'keeper', 'sleep 600'));
  afterAll(() => void spawnSync('tmux', ['-L', SOCKET, 'kill-server']));
  afterEach(async () => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-session', '-t', 'ui']);
    // The program may still be writing its transcript as it exits on the hang-up.
    await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('asks to trust the folder, then runs a turn whose Bash call the person approves once', async () => {
    const project = join(home, 'project');
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await writeFile(join(project, '.toolplane', 'settings.json'), JSON.stringify({ permissions: { allow: ['Read'] } }));
    const script = join(home, 'script.jsonl');
    await writeFile(
      script,
      [
        {
          content: [
            { type: 'text', text: 'Creating the file.' },
            { type: 'tool_use', id: 'mk', name: 'Bash', input: { command: 'touch made-by-agent.txt' } },
          ],
        },
        { expect: { tool_results: ['mk'], errors: [] }, content: [{ type: 'text', text: 'The file is there.' }] },
      ]
        .map((turn) => JSON.stringify(turn))
        .join('\n'),
    );
    expect(existsSync(CLI)).toBe(true);
    const env = `env -u CI HOME=${JSON.stringify(home)} TOOLPLANE_CONFIG_DIR=${JSON.stringify(join(home, '.toolplane'))}`;
    const command = `cd ${JSON.stringify(project)} && ${env} node ${JSON.stringify(CLI)} --provider scripted --script ${JSON.stringify(script)} "make the file"; echo EXIT=$?; sleep 30`;
    tmux('new-session', '-d', '-s', 'ui', '-x', '120', '-y', '40', command);

    await waitForScreen('ui', (screen) => screen.includes('Trust this folder?'), 'the trust question');
    tmux('send-keys', '-t', 'ui', 'y', 'Enter');
    const dialog = await waitForScreen(
      'ui',
      (screen) => screen.includes('touch made-by-agent.txt') && screen.includes('allow this call once'),
      'the permission dialog',
    );
    expect(dialog).toContain('Yes, and always allow');
    // Pick "allow once" (option 1) and confirm; keys in the first moments are ignored, so retry.
    await waitForScreen(
      'ui',
      (screen) => {
        if (screen.includes('❯ 1.')) return true;
        tmux('send-keys', '-t', 'ui', '1');
        return false;
      },
      'option 1 to be highlighted',
    );
    tmux('send-keys', '-t', 'ui', 'Enter');
    await waitForScreen('ui', (screen) => screen.includes('The file is there.'), 'the final answer');
    expect(existsSync(join(project, 'made-by-agent.txt'))).toBe(true);
    const trust = JSON.parse(await readFile(join(home, '.toolplane', 'trusted-projects.json'), 'utf8')) as unknown;
    expect(JSON.stringify(trust)).toContain(project);
    tmux('send-keys', '-t', 'ui', 'C-c');
    tmux('send-keys', '-t', 'ui', 'C-c');
    await waitForScreen('ui', (screen) => screen.includes('EXIT=0'), 'a clean exit');
  }, 60_000);

  it('refuses --json-schema without -p before the terminal UI starts, and creates nothing', async () => {
    // Structured output is for -p runs only: the terminal UI never offers StructuredOutput.
    const config = join(home, '.toolplane');
    const schema = JSON.stringify({ type: 'object', properties: { count: { type: 'integer' } } });
    const env = `env -u CI HOME=${JSON.stringify(home)} TOOLPLANE_CONFIG_DIR=${JSON.stringify(config)}`;
    const command = `cd ${JSON.stringify(home)} && ${env} node ${JSON.stringify(CLI)} --provider scripted --json-schema '${schema}' "count"; echo EXIT=$?; sleep 30`;
    tmux('new-session', '-d', '-s', 'ui', '-x', '200', '-y', '40', command);
    const screen = await waitForScreen('ui', (text) => text.includes('EXIT='), 'the exit');
    expect(screen).toContain('--json-schema needs -p/--print');
    expect(screen).toContain('EXIT=2');
    expect(screen).not.toContain('Trust this folder?');
    // Nothing of a session: at most the launcher's compiled-code cache.
    const made = await readdir(config).catch(() => [] as string[]);
    expect(made.filter((name) => name !== 'cache')).toEqual([]);
  });
});
