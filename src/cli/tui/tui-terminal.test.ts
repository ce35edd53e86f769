import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The terminal UI driven through a real terminal: tmux runs the built UI over a fake host
// (__fixtures__/tui-harness.mjs), the test types keys and reads the screen with capture-pane.

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const harness = join(here, '__fixtures__', 'tui-harness.mjs');
const built = join(root, 'dist', 'cli', 'tui', 'run-interactive.js');
// A private tmux server, so sessions start with this environment and never touch anyone else's.
const SOCKET = `toolplane-tui-${process.pid}`;
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const EXACT_COMMAND = 'echo safe<U+202E>\\x1b[2K; rm -rf ./build<U+200B> && echo done';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

/** Builds dist when the UI's sources are newer than the built entry point (the test script may build first instead). */
function ensureBuilt(): void {
  const sources = readdirSync(here).filter((name) => /\.tsx?$/.test(name) && !name.includes('.test.'));
  const newest = Math.max(...sources.map((name) => statSync(join(here, name)).mtimeMs));
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  // Other folders' work in progress may have type errors; the UI's files are still emitted.
  spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--noEmitOnError', 'false'], { cwd: root, stdio: 'ignore' });
  if (!existsSync(built)) throw new Error(`building dist did not produce ${built}`);
}

type Ui = { readonly name: string; readonly folder: string; readonly log: string };
const started: Ui[] = [];
let counter = 0;

async function startUi(options: { readonly closeFails?: boolean } = {}): Promise<Ui> {
  const folder = await mkdtemp(join(tmpdir(), 'toolplane-tui-'));
  const ui: Ui = { name: `tui-${++counter}`, folder, log: join(folder, 'host.jsonl') };
  started.push(ui);
  // Ink behaves differently when CI is set, so the child runs without it.
  const command = `cd ${JSON.stringify(root)} && env -u CI TUI_CLOSE_FAILS=${options.closeFails ? 1 : 0} node ${JSON.stringify(harness)} ${JSON.stringify(ui.log)}; sleep 60`;
  tmux('new-session', '-d', '-s', ui.name, '-x', '120', '-y', '40', command);
  await waitForScreen(ui, (screen) => screen.includes('session sess-harness'));
  return ui;
}

function screenOf(ui: Ui): string {
  return tmux('capture-pane', '-p', '-t', ui.name);
}

function entriesOf(ui: Ui): Array<Record<string, unknown>> {
  if (!existsSync(ui.log)) return [];
  return readFileSync(ui.log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function poll<T>(
  what: string,
  probe: () => T | undefined,
  describeLast: () => string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last state:\n${describeLast()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForScreen(
  ui: Ui,
  test: (screen: string) => boolean,
  what = 'the screen',
  timeoutMs = 10_000,
): Promise<string> {
  return poll(
    what,
    () => {
      const screen = screenOf(ui);
      return test(screen) ? screen : undefined;
    },
    () => screenOf(ui),
    timeoutMs,
  );
}

async function waitForEntry(ui: Ui, kind: string): Promise<Record<string, unknown>> {
  return poll(
    `a ${kind} entry from the host`,
    () => entriesOf(ui).find((entry) => entry['kind'] === kind),
    () => `${JSON.stringify(entriesOf(ui))}\n${screenOf(ui)}`,
  );
}

function keys(ui: Ui, ...names: string[]): void {
  tmux('send-keys', '-t', ui.name, ...names);
}

function typeText(ui: Ui, text: string): void {
  tmux('send-keys', '-t', ui.name, '-l', text);
}

/** Types a prompt, waits until the prompt box shows it, and sends it. */
async function submit(ui: Ui, prompt: string): Promise<void> {
  typeText(ui, prompt);
  await waitForScreen(ui, (screen) => screen.includes(`│ › ${prompt}`), `the prompt to show "${prompt}"`);
  keys(ui, 'Enter');
}

/** Presses `key` until the screen passes `test` (the dialog ignores keys for a moment after it opens). */
async function pressUntil(ui: Ui, key: string, test: (screen: string) => boolean, what: string): Promise<string> {
  return poll(
    what,
    () => {
      const screen = screenOf(ui);
      if (test(screen)) return screen;
      keys(ui, key);
      return undefined;
    },
    () => screenOf(ui),
  );
}

/** Opens the permission dialog and highlights option `option` (1-based). */
async function openDialogAndChoose(ui: Ui, option: number): Promise<void> {
  await submit(ui, 'approve');
  await waitForScreen(ui, (screen) => screen.includes('Permission needed: Bash'), 'the permission dialog');
  await pressUntil(
    ui,
    String(option),
    (screen) => screen.includes(`❯ ${option}.`),
    `option ${option} to be highlighted`,
  );
}

const approvals = (ui: Ui) => entriesOf(ui).filter((entry) => entry['kind'] === 'approval');

describe.skipIf(!hasTmux)('terminal UI in a real terminal (tmux)', () => {
  beforeAll(() => {
    ensureBuilt();
    // A session that lives as long as the suite keeps the private server up between tests.
    tmux('new-session', '-d', '-s', 'keeper', 'sleep 600');
  }, 240_000);

  afterAll(() => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  });

  afterEach(async () => {
    for (const ui of started.splice(0)) {
      spawnSync('tmux', ['-L', SOCKET, 'kill-session', '-t', ui.name]);
      // The program may still be writing its transcript as it exits on the hang-up.
      await rm(ui.folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  it('the dialog shows every option and the exact command with invisible characters visible; stray Enters do not approve', async () => {
    const ui = await startUi();
    await submit(ui, 'approve');
    const dialog = await waitForScreen(
      ui,
      (screen) => screen.includes('Permission needed: Bash'),
      'the permission dialog',
    );
    keys(ui, 'Enter');
    // Enter after the opening guard still answers nothing: no option is highlighted.
    const screen = await pressUntil(
      ui,
      'Enter',
      (current) => current.includes('Choose an option first'),
      'the dialog to refuse a bare Enter',
    );
    expect(approvals(ui)).toEqual([]);
    expect(screen).toContain('Permission needed: Bash');
    for (const text of [
      EXACT_COMMAND,
      'Why it asks: rule Bash(rm:*) from .toolplane/settings.json',
      'Bash wants to delete files.',
      '1. Yes, allow this call once',
      '2. Yes, and always allow in local project settings (.toolplane/settings.local.json)',
      'saves rule Bash(echo safe:*) — covers commands that start with "echo safe"',
      '3. Yes, and always allow for this session only',
      'saves rule Bash(echo:*) — covers every echo command',
      '4. Edit the input, then allow (checked again)',
      '5. No, and tell the model why',
      '6. No, and stop the turn',
    ]) {
      expect(dialog).toContain(text);
    }
    expect(dialog).toContain('? Bash echo safe; rm -rf ./build [waiting for approval]');
  });

  it('warns in the dialog when "always allow" would save a rule that allows any code', async () => {
    const ui = await startUi();
    await submit(ui, 'any code');
    const dialog = await waitForScreen(
      ui,
      (screen) => screen.includes('Permission needed: Bash'),
      'the permission dialog',
    );
    expect(dialog).toContain('saves rule Bash(python:*) — covers every python command');
    expect(dialog).toContain('⚠ this rule allows any code: python runs whatever script');
  });

  it('allow once reaches the host as a plain allow', async () => {
    const ui = await startUi();
    await openDialogAndChoose(ui, 1);
    keys(ui, 'Enter');
    expect((await waitForEntry(ui, 'approval'))['response']).toEqual({ behavior: 'allow' });
    await waitForScreen(
      ui,
      (screen) => screen.includes('✔ Bash echo safe; rm -rf ./build [done'),
      'the row to show done',
    );
  });

  it('allow always reaches the host with the exact suggestion to save', async () => {
    const ui = await startUi();
    await openDialogAndChoose(ui, 2);
    keys(ui, 'Enter');
    expect((await waitForEntry(ui, 'approval'))['response']).toEqual({
      behavior: 'allow',
      remember: {
        rule: 'Bash(echo safe:*)',
        behavior: 'allow',
        destination: 'localSettings',
        covers: 'commands that start with "echo safe"',
      },
    });
  });

  it('edit sends the edited command for the plane to check again', async () => {
    const ui = await startUi();
    await openDialogAndChoose(ui, 4);
    keys(ui, 'Enter');
    await waitForScreen(ui, (screen) => /command:[\s║]+echo safe/.test(screen), 'the command editor');
    keys(ui, 'C-u');
    await waitForScreen(ui, (screen) => !/command:[\s║]+echo safe/.test(screen), 'the editor to clear');
    typeText(ui, 'echo edited');
    await waitForScreen(ui, (screen) => /command:[\s║]+echo edited/.test(screen), 'the edited command');
    keys(ui, 'Enter');
    expect((await waitForEntry(ui, 'approval'))['response']).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'echo edited' },
    });
  });

  it('deny with a message sends the message for the model', async () => {
    const ui = await startUi();
    await openDialogAndChoose(ui, 5);
    keys(ui, 'Enter');
    await waitForScreen(ui, (screen) => screen.includes('message for the model:'), 'the message line');
    typeText(ui, 'use the clean script');
    await waitForScreen(
      ui,
      (screen) => screen.includes('message for the model: use the clean script'),
      'the typed message',
    );
    keys(ui, 'Enter');
    expect((await waitForEntry(ui, 'approval'))['response']).toEqual({
      behavior: 'deny',
      feedback: 'use the clean script',
    });
    await waitForScreen(ui, (screen) => screen.includes('[denied'), 'the row to show denied');
  });

  it('abort stops the turn and the call shows interrupted', async () => {
    const ui = await startUi();
    await openDialogAndChoose(ui, 6);
    keys(ui, 'Enter');
    expect((await waitForEntry(ui, 'approval'))['response']).toEqual({ behavior: 'abort' });
    await waitForScreen(ui, (screen) => screen.includes('[interrupted'), 'the row to show interrupted');
  });

  it('Esc in the dialog denies, never allows', async () => {
    const ui = await startUi();
    await submit(ui, 'approve');
    await waitForScreen(ui, (screen) => screen.includes('Permission needed: Bash'), 'the permission dialog');
    await poll(
      'an answer after Esc',
      () => {
        if (approvals(ui).length > 0) return true;
        keys(ui, 'Escape');
        return undefined;
      },
      () => screenOf(ui),
    );
    expect(approvals(ui).map((entry) => entry['response'])).toEqual([{ behavior: 'deny' }]);
  });

  it('keys typed while the dialog is open never reach the prompt', async () => {
    const ui = await startUi();
    await submit(ui, 'approve');
    await waitForScreen(ui, (screen) => screen.includes('Permission needed: Bash'), 'the permission dialog');
    typeText(ui, 'zq');
    await pressUntil(ui, '1', (screen) => screen.includes('❯ 1.'), 'option 1 to be highlighted');
    keys(ui, 'Enter');
    await waitForEntry(ui, 'approval');
    const screen = await waitForScreen(
      ui,
      (current) => current.includes('Ask, or /help for commands'),
      'the idle prompt',
    );
    expect(screen).not.toContain('zq');
  });

  it('Esc during a long Bash call interrupts it and the row shows interrupted', async () => {
    const ui = await startUi();
    await submit(ui, 'long bash');
    const running = await waitForScreen(
      ui,
      (screen) => /◐ Bash npm run watch \[running \d+\.\ds\]/.test(screen) && screen.includes('│ watch line'),
      'the running row with its output',
    );
    expect(running).toMatch(/watch line \d+/);
    keys(ui, 'Escape');
    expect(await waitForEntry(ui, 'interrupted')).toMatchObject({ toolUseId: expect.any(String) });
    const screen = await waitForScreen(
      ui,
      (current) => current.includes('■ Bash npm run watch [interrupted'),
      'the interrupted row',
    );
    expect(screen).toContain('Interrupted');
  });

  it('a parallel batch is drawn as one group; Edit shows its diff; the todo list is a panel', async () => {
    const ui = await startUi();
    await submit(ui, 'parallel');
    const screen = await waitForScreen(
      ui,
      (current) => current.includes('All reads finished.') && current.includes('Todos'),
      'the finished turn',
    );
    const lines = screen.split('\n');
    const title = lines.findIndex((line) => line.includes('3 calls in parallel'));
    expect(title).toBeGreaterThan(0);
    expect(lines[title - 1]).toMatch(/^╭─+╮/);
    for (const [offset, path] of [
      [1, 'src/a.ts'],
      [2, 'src/b.ts'],
      [3, 'src/c.ts'],
    ] as const) {
      expect(lines[title + offset]).toMatch(new RegExp(`^│ ✔ Read ${path.replace('.', '\\.')} \\[done`));
    }
    expect(lines[title + 4]).toMatch(/^╰─+╯/);
    expect(lines[title + 5]).toMatch(/^✔ Grep TODO in src \[done/);
    expect(screen).toContain('- const answer = 41;');
    expect(screen).toContain('+ const answer = 42;');
    expect(screen).toContain('☑ Read the sources');
    expect(screen).toContain('◐ Fixing the answer');
    expect(screen).toContain('☐ Run the tests');
  });

  it('Write is shown as a diff against the file on disk, in the dialog and in the row', async () => {
    const ui = await startUi();
    await submit(ui, 'write');
    const dialog = await waitForScreen(ui, (screen) => screen.includes('Permission needed: Write'), 'the Write dialog');
    expect(dialog).toMatch(/- beta/);
    expect(dialog).toMatch(/\+ gamma/);
    expect(dialog).toContain('Why it asks: permission mode default');
    expect(dialog).toContain(`File:`);
    expect(dialog).toContain(join(ui.folder, 'notes.txt'));
    await pressUntil(ui, '1', (screen) => screen.includes('❯ 1.'), 'option 1 to be highlighted');
    keys(ui, 'Enter');
    expect((await waitForEntry(ui, 'approval'))['response']).toEqual({ behavior: 'allow' });
    const row = await waitForScreen(
      ui,
      (screen) => screen.includes('✔ Write notes.txt [done'),
      'the finished Write row',
    );
    // The row keeps the change captured before the write replaced the file.
    expect(row).toMatch(/- beta\n\s*\+ gamma/);
  });

  it('/resume lists the sessions and resumes the one picked; /compact and /clear reach the host', async () => {
    const ui = await startUi();
    await submit(ui, '/resume');
    await waitForScreen(
      ui,
      (screen) => screen.includes('Resume a session') && screen.includes('sess-older'),
      'the session list',
    );
    keys(ui, 'Down');
    await waitForScreen(ui, (screen) => /❯ .*sess-older/.test(screen), 'the second session to be highlighted');
    keys(ui, 'Enter');
    expect(await waitForEntry(ui, 'resume')).toEqual({ kind: 'resume', sessionId: 'sess-older' });
    await waitForScreen(ui, (screen) => screen.includes('Resumed session sess-older.'), 'the resumed notice');
    await submit(ui, '/compact');
    await waitForEntry(ui, 'compact');
    await waitForScreen(ui, (screen) => screen.includes('Compacted 6 messages into a summary.'), 'the compact report');
    await submit(ui, '/clear');
    await waitForEntry(ui, 'clear');
    await waitForScreen(ui, (screen) => screen.includes('New session sess-harness.'), 'the new-session notice');
  });

  it('slash commands show what the host describes; an unknown one says how to get help', async () => {
    const ui = await startUi();
    await submit(ui, '/permissions');
    await waitForScreen(ui, (screen) => screen.includes('allow: Read (user settings)'), 'the permissions text');
    await submit(ui, '/hooks');
    await waitForScreen(ui, (screen) => screen.includes('if Bash(git push:*)'), 'the hooks text');
    await submit(ui, '/nope');
    await waitForScreen(
      ui,
      (screen) => screen.includes('Unknown command /nope. /help lists the commands.'),
      'the unknown-command notice',
    );
  });

  it('AskUserQuestion reaches the person through the interaction channel', async () => {
    const ui = await startUi();
    await submit(ui, 'ask');
    const screen = await waitForScreen(
      ui,
      (current) => current.includes('Question 1 of 1 · Runner'),
      'the question dialog',
    );
    for (const text of ['Which test runner?', '1. vitest', 'fast, ESM', '2. jest', '3. Other: type my own answer'])
      expect(screen).toContain(text);
    await pressUntil(ui, '2', (current) => current.includes('❯ 2. jest'), 'option 2 to be highlighted');
    keys(ui, 'Enter');
    expect(await waitForEntry(ui, 'ask')).toEqual({
      kind: 'ask',
      response: { kind: 'answered', answers: [{ question: 'Which test runner?', selected: ['jest'] }] },
    });
  });

  it('a plan is shown for approval and the answer carries the mode chosen', async () => {
    const ui = await startUi();
    await submit(ui, 'plan');
    const screen = await waitForScreen(ui, (current) => current.includes('The model has a plan'), 'the plan dialog');
    expect(screen).toContain('2. Fix average()');
    await pressUntil(
      ui,
      '1',
      (current) => current.includes('❯ 1. Yes, and auto-accept edits'),
      'option 1 to be highlighted',
    );
    keys(ui, 'Enter');
    expect(await waitForEntry(ui, 'plan')).toEqual({ kind: 'plan', response: { approved: true, mode: 'acceptEdits' } });
  });

  it('a turn that throws shows why and leaves the prompt usable', async () => {
    const ui = await startUi();
    await submit(ui, 'explode');
    await waitForScreen(
      ui,
      (screen) => screen.includes('The turn failed: the provider went away'),
      'the failure notice',
    );
    await submit(ui, 'hello');
    await waitForScreen(ui, (screen) => screen.includes('You said: hello'), 'the next turn');
  });

  it('when closing the host fails, exiting says so and the exit code is 1', async () => {
    const ui = await startUi({ closeFails: true });
    await submit(ui, '/exit');
    expect(await waitForEntry(ui, 'exit')).toEqual({ kind: 'exit', code: 1 });
  });

  it('the demo runs in the terminal UI: parallel batches, a refused Edit, a deny rule, a hook block, a permission dialog, the fix as a diff, then Ctrl+C twice exits with 0', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'toolplane-tui-demo-'));
    const ui: Ui = { name: `tui-${++counter}`, folder, log: join(folder, 'exit.txt') };
    started.push(ui);
    const bin = join(root, 'dist', 'cli', 'bin.js');
    // Pacing is for people; the test does not wait for it.
    const command = `cd ${JSON.stringify(folder)} && env -u CI node ${JSON.stringify(bin)} demo --tui --no-pacing; echo "exit=$?" > ${JSON.stringify(ui.log)}; sleep 60`;
    tmux('new-session', '-d', '-s', ui.name, '-x', '120', '-y', '60', command);
    // The changelog's Write asks: the person allows it once.
    await waitForScreen(ui, (screen) => screen.includes('Permission needed: Write'), 'the permission dialog', 25_000);
    await pressUntil(ui, '1', (screen) => screen.includes('❯ 1.'), 'option 1 to be highlighted');
    keys(ui, 'Enter');
    await waitForScreen(
      ui,
      (current) => current.includes('Ask, or /help for commands') && current.includes('Done.'),
      'the demo to finish',
      25_000,
    );
    // With result previews the demo is taller than the window: read what scrolled up too.
    const screen = tmux('capture-pane', '-p', '-S', '-', '-t', ui.name);
    expect(screen).toMatch(/2 calls in parallel/);
    expect(screen).toMatch(/✘ Edit \S+math\.js \[failed/);
    expect(screen).toMatch(/-\s+return total \/ \(values\.length - 1\);/);
    expect(screen).toMatch(/\+\s+return total \/ values\.length;/);
    expect(screen).toMatch(/✔ Bash .* \[done/);
    const project = /toolplane-demo-\w+\/project/.exec(screen)?.[0];
    expect(project).toBeDefined();
    const changelog = join(tmpdir(), project!, 'CHANGELOG.md');
    expect(readFileSync(changelog, 'utf8')).toContain('average() divides by the number of values');
    keys(ui, 'C-c');
    await waitForScreen(ui, (current) => current.includes('press Ctrl+C again to exit'), 'the exit hint');
    keys(ui, 'C-c');
    await poll(
      'the demo to exit',
      () => (existsSync(ui.log) && readFileSync(ui.log, 'utf8').trim() !== '' ? true : undefined),
      () => screenOf(ui),
    );
    expect(readFileSync(ui.log, 'utf8').trim()).toBe('exit=0');
  });

  it('Ctrl+C twice closes the host and exits with 0', async () => {
    const ui = await startUi();
    keys(ui, 'C-c');
    await waitForScreen(ui, (screen) => screen.includes('press Ctrl+C again to exit'), 'the exit hint');
    expect(entriesOf(ui).map((entry) => entry['kind'])).toEqual(['started']);
    keys(ui, 'C-c');
    expect(await waitForEntry(ui, 'exit')).toEqual({ kind: 'exit', code: 0 });
    expect(entriesOf(ui).map((entry) => entry['kind'])).toEqual(['started', 'closed', 'exit']);
  });

  it('SIGTERM during a long Bash call interrupts the turn, closes the host and exits with 0', async () => {
    const ui = await startUi();
    await submit(ui, 'long bash');
    await waitForScreen(ui, (screen) => screen.includes('│ watch line'), 'the running row');
    const pid = (await waitForEntry(ui, 'started'))['pid'];
    expect(typeof pid).toBe('number');
    process.kill(pid as number, 'SIGTERM');
    expect(await waitForEntry(ui, 'exit')).toEqual({ kind: 'exit', code: 0 });
    expect(entriesOf(ui).map((entry) => entry['kind'])).toEqual(['started', 'submit', 'interrupted', 'closed', 'exit']);
  });
});

if (!hasTmux) {
  describe('terminal UI in a real terminal (tmux)', () => {
    it.skip('skipped: tmux is not installed, and these tests drive the UI through it', () => undefined);
  });
}
