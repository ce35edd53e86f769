import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';
import { hasTmux, tmuxOn, waitForScreen as waitOn } from './tmux.js';

// Input, keys, trust and the edit dialog, through the real command in a real terminal: tmux runs
// `toolplane` (the terminal UI over the real runtime, scripted model); the test writes keys the
// way terminals do (several in one write, bracketed pastes) and reads the screen.

const SOCKET = `toolplane-input-${process.pid}`;
const tmux = tmuxOn(SOCKET);
const screenOf = (name: string) => tmux('capture-pane', '-p', '-t', name);
/** Writes `text` to the terminal as one write, as a fast typist or a program would. */
const write = (name: string, text: string) => tmux('send-keys', '-t', name, '-l', text);
const keys = (name: string, ...names: string[]) => tmux('send-keys', '-t', name, ...names);

const waitForScreen = (name: string, test: (screen: string) => boolean, what: string) =>
  waitOn(() => screenOf(name), test, what);

/** Presses `key` until the screen passes `test` (the dialog ignores keys for a moment after it opens). */
async function pressUntil(name: string, key: string, test: (screen: string) => boolean, what: string): Promise<void> {
  await waitForScreen(
    name,
    (screen) => {
      if (test(screen)) return true;
      keys(name, key);
      return false;
    },
    what,
  );
}

type Start = {
  readonly name: string;
  readonly project: string;
  /** Model turns, one per line of the script. */
  readonly turns?: readonly unknown[];
  readonly args?: readonly string[];
  /** Trust the folder for the run (TOOLPLANE_TRUST_PROJECT=1), so no question is asked. */
  readonly trusted?: boolean;
};

let home: string;
let runs = 0;
const sessions: string[] = [];

/** Starts `toolplane` in tmux in `project`; the pane prints EXIT=code when it ends. */
async function start(options: Start): Promise<void> {
  const script = join(home, `script-${++runs}.jsonl`);
  const turns = options.turns ?? [{ content: [{ type: 'text', text: 'Nothing to do.' }] }];
  await writeFile(script, turns.map((turn) => JSON.stringify(turn)).join('\n'));
  const env = [
    'env -u CI',
    `HOME=${JSON.stringify(home)}`,
    `TOOLPLANE_CONFIG_DIR=${JSON.stringify(join(home, '.toolplane'))}`,
    ...(options.trusted === false ? [] : ['TOOLPLANE_TRUST_PROJECT=1']),
  ].join(' ');
  const args = ['--provider', 'scripted', '--script', script, ...(options.args ?? [])].map((arg) =>
    JSON.stringify(arg),
  );
  const command = `cd ${JSON.stringify(options.project)} && ${env} node ${JSON.stringify(CLI)} ${args.join(' ')}; echo EXIT=$?; sleep 60`;
  tmux('new-session', '-d', '-s', options.name, '-x', '120', '-y', '40', command);
  sessions.push(options.name);
}

const started = (screen: string) => screen.includes('Ask, or /help for commands');
const promptLines = (screen: string) =>
  screen
    .split('\n')
    .filter((line) => line.startsWith('│ '))
    .map((line) => line.slice(2).replace(/\s*│$/, ''));

describe.skipIf(!hasTmux)('terminal UI input, in tmux', () => {
  let project: string;
  // A session that lives as long as the suite keeps the private server up between tests.
  beforeAll(() => void tmux('new-session', '-d', '-s', 'keeper', 'sleep 600'));
  afterAll(() => void spawnSync('tmux', ['-L', SOCKET, 'kill-server']));
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-input-'));
    project = join(home, 'project');
    await mkdir(project, { recursive: true });
    expect(existsSync(CLI)).toBe(true);
  });
  afterEach(async () => {
    for (const name of sessions.splice(0)) spawnSync('tmux', ['-L', SOCKET, 'kill-session', '-t', name]);
    await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('handles each key of one write: a command then Enter, three Backspaces, text then Enter', async () => {
    const turns = [{ expect: { includes: ['hello there'] }, content: [{ type: 'text', text: 'Hi, I got it.' }] }];
    await start({ name: 'keys', project, turns });
    await waitForScreen('keys', started, 'the prompt');
    write('keys', '/mcp\r');
    await waitForScreen('keys', (screen) => screen.includes('No MCP servers are configured.'), '/mcp to run');
    write('keys', 'abcdef');
    await waitForScreen('keys', (screen) => promptLines(screen).includes('› abcdef'), 'the typed text');
    write('keys', '\x7f\x7f\x7f');
    await waitForScreen('keys', (screen) => promptLines(screen).includes('› abc'), 'three characters deleted');
    write('keys', '\x7f\x7f\x7fhello there\r');
    await waitForScreen('keys', (screen) => screen.includes('Hi, I got it.'), 'the prompt sent and answered');
    expect(screenOf('keys')).toContain('› hello there');
  }, 60_000);

  it('keeps the line breaks of a paste (bracketed or not) and of typed new lines; Enter alone sends', async () => {
    const turns = [
      {
        expect: { includes: ['pasted one\npasted two\nthird line\nfourth line'] },
        content: [{ type: 'text', text: 'Four lines received.' }],
      },
    ];
    await start({ name: 'paste', project, turns });
    await waitForScreen('paste', started, 'the prompt');
    // A bracketed paste: tmux wraps the buffer in ESC[200~ … ESC[201~ (-p), its line feeds as CR.
    tmux('set-buffer', 'pasted one\npasted two\n');
    tmux('paste-buffer', '-p', '-t', 'paste');
    await waitForScreen(
      'paste',
      (screen) => promptLines(screen).join('\n').includes('› pasted one\n  pasted two'),
      'both pasted lines in the prompt',
    );
    // Typed new lines: a backslash then Enter, and Ctrl+J.
    write('paste', 'third line\\');
    keys('paste', 'Enter');
    write('paste', 'fourth line');
    await waitForScreen(
      'paste',
      (screen) => promptLines(screen).join('\n').includes('pasted two\n  third line\n  fourth line'),
      'four lines in the prompt',
    );
    expect(screenOf('paste')).not.toContain('Four lines received.');
    keys('paste', 'Enter');
    await waitForScreen('paste', (screen) => screen.includes('Four lines received.'), 'the four lines sent');
  }, 60_000);

  it('keeps the line breaks of a paste from a terminal without bracketed paste, and Ctrl+J types one', async () => {
    await start({ name: 'plain', project });
    await waitForScreen('plain', started, 'the prompt');
    // Without -p the buffer arrives as plain text in one write: line breaks inside it are text, not Enter.
    tmux('set-buffer', 'alpha\nbeta');
    tmux('paste-buffer', '-t', 'plain');
    keys('plain', 'C-j');
    write('plain', 'gamma');
    await waitForScreen(
      'plain',
      (screen) => promptLines(screen).join('\n').includes('› alpha\n  beta\n  gamma'),
      'three lines in the prompt',
    );
    expect(screenOf('plain')).not.toContain('Nothing to do.');
  }, 60_000);

  it('completes slash commands: the matches with their help under the prompt, Tab completes, arrows choose', async () => {
    await start({ name: 'slash', project });
    await waitForScreen('slash', started, 'the prompt');
    write('slash', '/pe');
    const listed = await waitForScreen('slash', (screen) => screen.includes('❯ /permissions'), 'the completion list');
    expect(listed).toContain('the permission rules in force, their sources, and the mode');
    keys('slash', 'Tab');
    await waitForScreen('slash', (screen) => promptLines(screen).includes('› /permissions'), 'the completed command');
    keys('slash', 'C-u');
    write('slash', '/h');
    await waitForScreen('slash', (screen) => screen.includes('❯ /hooks') && screen.includes('/help'), 'two matches');
    keys('slash', 'Down');
    await waitForScreen('slash', (screen) => screen.includes('❯ /help'), 'the second match highlighted');
    keys('slash', 'Enter');
    await waitForScreen('slash', (screen) => screen.includes('Commands:') && screen.includes('Keys:'), '/help to run');
  }, 60_000);

  it('Shift+Tab cycles default → acceptEdits → plan → default, shown in the status line', async () => {
    await start({ name: 'modes', project });
    await waitForScreen('modes', (screen) => screen.includes('· mode default ·'), 'the default mode');
    for (const mode of ['acceptEdits', 'plan', 'default', 'acceptEdits']) {
      keys('modes', 'BTab');
      await waitForScreen('modes', (screen) => screen.includes(`· mode ${mode} ·`), `mode ${mode}`);
    }
  }, 60_000);

  it('Shift+Tab offers bypassPermissions only to a session that started in it', async () => {
    await start({ name: 'bypass', project, args: ['--permission-mode', 'bypassPermissions'] });
    await waitForScreen('bypass', (screen) => screen.includes('· mode bypassPermissions ·'), 'the bypass mode');
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions']) {
      keys('bypass', 'BTab');
      await waitForScreen('bypass', (screen) => screen.includes(`· mode ${mode} ·`), `mode ${mode}`);
    }
  }, 60_000);

  it('Ctrl+C interrupts a long Bash call, clears typed text, then twice on an empty prompt exits', async () => {
    const turns = [
      {
        content: [
          { type: 'text', text: 'Waiting a while.' },
          { type: 'tool_use', id: 'long', name: 'Bash', input: { command: 'sleep 30' } },
        ],
      },
    ];
    await start({ name: 'ctrlc', project, turns, args: ['--allowedTools', 'Bash(sleep:*)'] });
    await waitForScreen('ctrlc', started, 'the prompt');
    write('ctrlc', 'wait\r');
    await waitForScreen('ctrlc', (screen) => /Bash sleep 30 \[running/.test(screen), 'the running call');
    keys('ctrlc', 'C-c');
    const interrupted = await waitForScreen(
      'ctrlc',
      (screen) => /Bash sleep 30 \[interrupted/.test(screen) && started(screen),
      'the interrupted call',
    );
    expect(interrupted).not.toContain('EXIT=');
    write('ctrlc', 'draft');
    await waitForScreen('ctrlc', (screen) => promptLines(screen).includes('› draft'), 'the typed draft');
    keys('ctrlc', 'C-c');
    await waitForScreen('ctrlc', (screen) => started(screen) && !screen.includes('› draft'), 'the draft cleared');
    expect(screenOf('ctrlc')).not.toContain('press Ctrl+C again');
    keys('ctrlc', 'C-c');
    await waitForScreen('ctrlc', (screen) => screen.includes('press Ctrl+C again to exit'), 'the exit hint');
    keys('ctrlc', 'C-c');
    await waitForScreen('ctrlc', (screen) => screen.includes('EXIT=0'), 'a clean exit');
  }, 60_000);

  it('trust: Enter is "not now" (asked again), n is remembered with a warning, /trust trusts later runs', async () => {
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await writeFile(join(project, '.toolplane', 'settings.json'), JSON.stringify({ permissions: { allow: ['Read'] } }));
    const store = join(home, '.toolplane', 'trusted-projects.json');
    const exitWith = async (name: string) => {
      await waitForScreen(name, started, 'the prompt');
      write(name, '/exit\r');
      await waitForScreen(name, (screen) => screen.includes('EXIT=0'), 'a clean exit');
    };

    await start({ name: 'trust1', project, trusted: false });
    await waitForScreen('trust1', (screen) => screen.includes('Trust this folder? [y/N]'), 'the trust question');
    keys('trust1', 'Enter');
    await waitForScreen('trust1', (screen) => screen.includes('Not trusted for this run'), 'the not-now notice');
    await exitWith('trust1');
    expect(existsSync(store) ? await readFile(store, 'utf8') : '').not.toContain(project);

    await start({ name: 'trust2', project, trusted: false });
    await waitForScreen('trust2', (screen) => screen.includes('Trust this folder? [y/N]'), 'the question, again');
    write('trust2', 'n');
    keys('trust2', 'Enter');
    await exitWith('trust2');
    expect(JSON.parse(await readFile(store, 'utf8'))).toMatchObject({ projects: { [project]: { trusted: false } } });

    await start({ name: 'trust3', project, trusted: false });
    const refused = await waitForScreen('trust3', started, 'the prompt without a question');
    expect(refused).not.toContain('Trust this folder?');
    expect(refused).toContain(`you chose not to trust ${project} earlier`);
    expect(refused).toContain('/trust in the terminal UI, or toolplane trust');
    write('trust3', '/trust\r');
    await waitForScreen('trust3', (screen) => screen.includes('restart toolplane to apply'), 'the /trust notice');
    await exitWith('trust3');
    expect(JSON.parse(await readFile(store, 'utf8'))).toMatchObject({ projects: { [project]: { trusted: true } } });

    await start({ name: 'trust4', project, trusted: false });
    const trusted = await waitForScreen('trust4', started, 'the prompt in a trusted folder');
    expect(trusted).not.toContain('Trust this folder?');
    expect(trusted).not.toContain('you chose not to trust');
    await exitWith('trust4');
  }, 90_000);

  it('edits a Bash command as text in the dialog; the row shows and runs the edited command', async () => {
    const turns = [
      {
        content: [
          { type: 'text', text: 'Making a file.' },
          { type: 'tool_use', id: 'mk', name: 'Bash', input: { command: 'touch old-name.txt' } },
        ],
      },
      { expect: { tool_results: ['mk'], errors: [] }, content: [{ type: 'text', text: 'Made it.' }] },
    ];
    await start({ name: 'edit', project, turns });
    await waitForScreen('edit', started, 'the prompt');
    write('edit', 'make it\r');
    await waitForScreen('edit', (screen) => screen.includes('Edit the input, then allow'), 'the permission dialog');
    const option = /(\d)\. Edit the input/.exec(screenOf('edit'))?.[1] ?? '';
    await pressUntil('edit', option, (screen) => screen.includes(`❯ ${option}. Edit`), 'the edit option highlighted');
    keys('edit', 'Enter');
    await waitForScreen('edit', (screen) => /command:[\s║]+touch old-name\.txt/.test(screen), 'the command editor');
    keys('edit', 'C-u');
    write('edit', 'touch new-name.txt');
    await waitForScreen('edit', (screen) => /command:[\s║]+touch new-name\.txt/.test(screen), 'the edited command');
    keys('edit', 'Enter');
    const done = await waitForScreen('edit', (screen) => screen.includes('Made it.'), 'the final answer');
    expect(done).toMatch(/Bash touch new-name\.txt \[done/);
    expect(done).not.toMatch(/Bash touch old-name\.txt/);
    expect(existsSync(join(project, 'new-name.txt'))).toBe(true);
    expect(existsSync(join(project, 'old-name.txt'))).toBe(false);
  }, 60_000);

  it('edits a Write as JSON in the dialog; the diff of the row shows the edited content', async () => {
    const file = join(project, 'notes.txt');
    const turns = [
      {
        content: [
          { type: 'text', text: 'Writing notes.' },
          { type: 'tool_use', id: 'wr', name: 'Write', input: { file_path: file, content: 'first draft\n' } },
        ],
      },
      { expect: { tool_results: ['wr'], errors: [] }, content: [{ type: 'text', text: 'Notes written.' }] },
    ];
    await start({ name: 'write', project, turns });
    await waitForScreen('write', started, 'the prompt');
    write('write', 'write notes\r');
    await waitForScreen('write', (screen) => screen.includes('Edit the input, then allow'), 'the permission dialog');
    const option = /(\d)\. Edit the input/.exec(screenOf('write'))?.[1] ?? '';
    await pressUntil('write', option, (screen) => screen.includes(`❯ ${option}. Edit`), 'the edit option highlighted');
    keys('write', 'Enter');
    await waitForScreen('write', (screen) => /input JSON:[\s║]+\{/.test(screen), 'the JSON editor');
    keys('write', 'C-u');
    write('write', JSON.stringify({ file_path: file, content: 'final text\n' }));
    keys('write', 'Enter');
    const done = await waitForScreen('write', (screen) => screen.includes('Notes written.'), 'the final answer');
    expect(done).toMatch(/\+\s*final text/);
    expect(done).not.toContain('first draft');
    expect(await readFile(file, 'utf8')).toBe('final text\n');
  }, 60_000);
});
