import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI } from './run-cli.js';
import { hasTmux, tmuxOn, waitForScreen as waitOn } from './tmux.js';

// How results and the assistant's text show in the real command: tmux runs `toolplane` (the
// terminal UI over the real runtime, scripted model written by each test) and reads the screen.

// A private tmux server per test: a server just killed can still hold its socket for a moment.
let socket = '';
let sockets = 0;
const tmux = tmuxOn(() => socket);
const nodeModules = fileURLToPath(new URL('../../node_modules', import.meta.url));

/** The visible screen, or with `history` everything printed since the start. */
function screen(history = false): string {
  return tmux('capture-pane', '-p', '-t', 'ui', ...(history ? ['-S', '-'] : []));
}

const waitForScreen = (test: (text: string) => boolean, what: string, history = false, timeoutMs?: number) =>
  waitOn(() => screen(history), test, what, timeoutMs);

type Turn = { readonly content: readonly Record<string, unknown>[] };

describe.skipIf(!hasTmux)('tool results and assistant text in the terminal UI, in tmux', () => {
  let home: string;
  let project: string;
  beforeEach(async () => {
    socket = `toolplane-output-${process.pid}-${++sockets}`;
    home = await mkdtemp(join(tmpdir(), 'toolplane-output-'));
    project = join(home, 'project');
    await mkdir(project, { recursive: true });
  });
  afterEach(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  /** Starts `toolplane` on a scripted model playing `turns`, trusted, and sends `prompt`. */
  async function start(turns: readonly Turn[], extra: readonly string[] = []): Promise<void> {
    const script = join(home, 'script.jsonl');
    await writeFile(script, turns.map((turn) => JSON.stringify(turn)).join('\n'));
    const config = join(home, '.toolplane');
    // Ink behaves differently when CI is set, so the child runs without it.
    const env = `env -u CI HOME=${JSON.stringify(home)} TOOLPLANE_CONFIG_DIR=${JSON.stringify(config)}`;
    const args = ['--provider', 'scripted', '--script', script, '--trust-project', ...extra, 'go'];
    const command = `cd ${JSON.stringify(project)} && ${env} node ${JSON.stringify(CLI)} ${args.map((arg) => JSON.stringify(arg)).join(' ')}; echo EXIT=$?; sleep 30`;
    tmux('new-session', '-d', '-s', 'ui', '-x', '120', '-y', '40', command);
  }

  const done = (text: string) => text.includes('All done.');
  const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });

  it('keeps the first lines of a result with "+N lines (ctrl+o to expand)"; ctrl+o pages the whole of it, q closes', async () => {
    await start([{ content: [bash('seq', 'seq 1 60')] }, { content: [{ type: 'text', text: 'All done.' }] }]);
    const shown = await waitForScreen(done, 'the end of the turn');
    expect(shown).toMatch(
      /✔ Bash seq 1 60 \[done [\d.]+s\]\n {2}│ 1\n {2}│ 2\n {2}│ 3\n {2}│ 4\n {2}│ \+56 lines \(ctrl\+o to expand\)/,
    );
    tmux('send-keys', '-t', 'ui', 'C-o');
    const paged = await waitForScreen((text) => text.includes('of 60 ·'), 'the expand view');
    expect(paged).toContain('✔ Bash seq 1 60');
    expect(paged).toMatch(/^1\n2\n3\n/m);
    expect(paged).toContain('lines 1–37 of 60');
    tmux('send-keys', '-t', 'ui', 'PgDn');
    const end = await waitForScreen((text) => text.includes('lines 24–60 of 60'), 'the next page');
    expect(end).toMatch(/^60$/m);
    tmux('send-keys', '-t', 'ui', 'q');
    const closed = await waitForScreen((text) => text.includes('Ask, or /help'), 'the prompt again');
    expect(closed).not.toContain('of 60 ·');
  }, 60_000);

  it("shows a failure in the tool's own words, without what only the model needs", async () => {
    await start([
      {
        content: [
          { type: 'tool_use', id: 'gone', name: 'Read', input: { file_path: join(project, 'missing.txt') } },
          { type: 'tool_use', id: 'bad', name: 'Read', input: { path: 'no file_path' } },
        ],
      },
      { content: [{ type: 'text', text: 'All done.' }] },
    ]);
    const shown = await waitForScreen(done, 'the end of the turn');
    expect(shown).toContain(`│ ${join(project, 'missing.txt')} does not exist.`);
    expect(shown).toContain('│ InputValidationError: the input for Read does not match its schema.');
    expect(shown).not.toContain('the tool reported a failure');
    expect(shown).not.toContain('Fix the input');
    expect(shown).not.toContain('tool_use_error');
  }, 60_000);

  it('says where a huge output was saved', async () => {
    await start([{ content: [bash('big', 'seq 1 100000')] }, { content: [{ type: 'text', text: 'All done.' }] }]);
    const shown = await waitForScreen(done, 'the end of the turn');
    // The path is long enough to wrap: read the screen as one line.
    expect(shown.replace(/\n\s*/g, '')).toMatch(
      /│ Output too large: saved to \/\S+\/tool-results\/\S+ \(588895 bytes\)/,
    );
    expect(shown).toMatch(/│ 1\n {2}│ 2\n/);
  }, 60_000);

  it("shows an MCP tool's result like any other", async () => {
    await writeFile(join(project, 'notes.md'), 'hello');
    const config = join(home, 'mcp.json');
    const server = join(nodeModules, '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { files: { command: 'node', args: [server, project], defer: false } } }),
    );
    const list = { type: 'tool_use', id: 'ls', name: 'mcp__files__list_directory', input: { path: project } };
    await start(
      [{ content: [list] }, { content: [{ type: 'text', text: 'All done.' }] }],
      ['--mcp-config', config, '--allowedTools', 'mcp__files__list_directory'],
    );
    const shown = await waitForScreen(done, 'the end of the turn');
    expect(shown).toMatch(/✔ mcp__files__list_directory .*\[done [\d.]+s\]\n {2}│ \[FILE\] notes\.md/);
  }, 60_000);

  it("renders the assistant's markdown: bold without asterisks, a drawn table, a list", async () => {
    const text = [
      'The **answer** is *here*, in `code`.',
      '',
      '| Name | Count |',
      '|------|------:|',
      '| alpha | 1 |',
      '| beta | 22 |',
      '',
      '- first item',
      '- second **item**',
      '',
      'All done.',
    ].join('\n');
    await start([{ content: [{ type: 'text', text }] }]);
    const shown = await waitForScreen(done, 'the answer');
    expect(shown).toContain('The answer is here, in code.');
    expect(shown).not.toContain('**');
    expect(shown).toContain('┌───────┬───────┐');
    expect(shown).toContain('│ Name  │ Count │');
    expect(shown).toContain('│ beta  │    22 │');
    expect(shown).toContain('• second item');
  }, 60_000);

  it('shows 300 parallel Reads as one summary row', async () => {
    const files = Array.from({ length: 300 }, (_, index) => join(project, `file-${index}.txt`));
    await Promise.all(files.map((file, index) => writeFile(file, `content ${index}\n`)));
    const reads = files.map((file, index) => ({
      type: 'tool_use',
      id: `r${index}`,
      name: 'Read',
      input: { file_path: file },
    }));
    // The last one is missing: its failure shows under the summary.
    reads.push({ type: 'tool_use', id: 'r300', name: 'Read', input: { file_path: join(project, 'nope.txt') } });
    await start([{ content: reads }, { content: [{ type: 'text', text: 'All done.' }] }], ['--allowedTools', 'Read']);
    // 301 files read on a busy machine can take a while: a generous limit.
    const shown = await waitForScreen(done, 'the end of the turn', true, 60_000);
    expect(shown).toContain('✘ Read 301 files in parallel [300 ok · 1 failed] (ctrl+o to expand)');
    expect(shown).toContain(`✘ Read ${join(project, 'nope.txt')} [failed`);
    expect(shown).not.toContain('file-17.txt');
    expect(shown).not.toContain('parallel batch');
    tmux('send-keys', '-t', 'ui', 'C-o');
    const paged = await waitForScreen((text) => text.includes('301 calls in parallel'), 'the expand view');
    expect(paged).toContain(`✔ Read ${files[0]}`);
  }, 90_000);

  it('prints the assistant line above a call once after "always allow"', async () => {
    await start([
      { content: [{ type: 'text', text: 'Making the first file.' }, bash('one', 'touch one.txt')] },
      { content: [{ type: 'text', text: 'All done.' }] },
    ]);
    await waitForScreen((text) => text.includes('Yes, and always allow'), 'the permission dialog');
    // Keys in the dialog's first moments are ignored: press 2 until it is highlighted.
    await waitForScreen((text) => {
      if (text.includes('❯ 2.')) return true;
      tmux('send-keys', '-t', 'ui', '2');
      return false;
    }, 'option 2 to be highlighted');
    tmux('send-keys', '-t', 'ui', 'Enter');
    const shown = await waitForScreen(done, 'the end of the turn', true);
    expect(shown.split('Making the first file.').length - 1).toBe(1);
    expect(shown).toContain('Saved allow rule Bash(touch:*)');
  }, 60_000);
});
