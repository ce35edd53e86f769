import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer, MockReply } from '../../src/testing/mock-model-server.js';
import { startMockOpenAIServer } from '../../src/testing/mock-openai-server.js';
import { CLI } from './run-cli.js';
import { hasTmux, tmuxOn, waitForScreen as waitOn } from './tmux.js';

// The real command in a real terminal: tmux runs `toolplane` against the mock Anthropic server
// or the scripted model, and the test reads the screen: errors told once in words that say what
// to fix, the retry countdown, the welcome panel, the status line, /permissions after "always
// allow", and a resumed session shown on screen.

const SOCKET = `toolplane-status-${process.pid}`;
const tmux = tmuxOn(SOCKET);
const screenOf = (name: string) => tmux('capture-pane', '-p', '-t', name);
const count = (text: string, part: string) => text.split(part).length - 1;
const waitForScreen = (name: string, test: (screen: string) => boolean, what: string, timeoutMs?: number) =>
  waitOn(() => screenOf(name), test, what, timeoutMs);

/** Types a line into the prompt box once it shows, then sends it. */
async function submit(name: string, text: string): Promise<void> {
  await waitForScreen(name, (screen) => screen.includes('Ask, or /help'), 'an idle prompt');
  tmux('send-keys', '-t', name, '-l', text);
  await waitForScreen(name, (screen) => screen.includes(`› ${text}`), `the prompt to show "${text}"`);
  tmux('send-keys', '-t', name, 'Enter');
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

describe.skipIf(!hasTmux)('errors, retries, status line, welcome and resume in the terminal UI (tmux)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;
  let runs = 0;

  const sessions: string[] = [];

  beforeAll(() => {
    // A session that lives as long as the suite keeps the private server up between tests.
    tmux('new-session', '-d', '-s', 'keeper', 'sleep 600');
  });
  afterAll(() => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  });

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-status-'));
    project = join(home, 'project');
    await mkdir(project, { recursive: true });
  });
  afterEach(async () => {
    for (const name of sessions.splice(0)) spawnSync('tmux', ['-L', SOCKET, 'kill-session', '-t', name]);
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  /** Starts `toolplane ARGS` in a new tmux session in the project folder, the folder trusted; returns its name. */
  function start(args: string, env: Record<string, string> = {}): string {
    expect(existsSync(CLI)).toBe(true);
    const name = `ui-${++runs}`;
    sessions.push(name);
    const vars = Object.entries({
      HOME: home,
      TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
      TOOLPLANE_TRUST_PROJECT: '1',
      ...env,
    })
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(' ');
    // Ink behaves differently when CI is set, so the child runs without it.
    const command = `cd ${JSON.stringify(project)} && env -u CI -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u ANTHROPIC_MODEL -u OPENAI_BASE_URL -u OPENAI_API_KEY ${vars} node ${JSON.stringify(CLI)} ${args}; echo EXIT=$?; sleep 60`;
    tmux('new-session', '-d', '-s', name, '-x', '150', '-y', '45', command);
    return name;
  }

  async function anthropic(replies: readonly MockReply[]): Promise<Record<string, string>> {
    server = await startMockAnthropicServer({ replies });
    return { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.baseURL };
  }

  async function script(name: string, turns: readonly unknown[]): Promise<string> {
    const path = join(home, name);
    await writeFile(path, turns.map((turn) => JSON.stringify(turn)).join('\n'));
    return path;
  }

  it('tells a refused key once, naming ANTHROPIC_API_KEY', async () => {
    const env = await anthropic([
      { kind: 'error', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' },
    ]);
    const ui = start('hello', env);
    const screen = await waitForScreen(ui, (text) => text.includes('Check ANTHROPIC_API_KEY'), 'the 401 message');
    await waitForScreen(ui, (text) => text.includes('Ask, or /help'), 'the turn to end');
    const settled = screenOf(ui);
    expect(count(settled, 'invalid x-api-key')).toBe(1);
    expect(settled).not.toContain('The turn failed');
    expect(screen).toContain('the API key was refused');
    expect(screen).toContain(`${server!.baseURL} (ANTHROPIC_BASE_URL)`);
  }, 60_000);

  it('names OPENAI_API_KEY when an OpenAI-compatible server refuses the key', async () => {
    server = await startMockOpenAIServer({
      replies: [{ kind: 'error', status: 401, errorType: 'invalid_api_key', message: 'Incorrect API key provided' }],
    });
    const ui = start('hello', { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-bad' });
    await waitForScreen(ui, (text) => text.includes('Check OPENAI_API_KEY'), 'the 401 message');
    const screen = await waitForScreen(ui, (text) => text.includes('Ask, or /help'), 'the turn to end');
    expect(count(screen, 'Incorrect API key provided')).toBe(1);
    expect(screen).toContain(`${server.baseURL} (OPENAI_BASE_URL)`);
  }, 60_000);

  it('says a model that does not exist was not found, and how to choose another', async () => {
    const env = await anthropic([
      { kind: 'error', status: 404, errorType: 'not_found_error', message: 'model: claude-nope-1' },
    ]);
    const ui = start('--model claude-nope-1 hello', env);
    await waitForScreen(ui, (text) => text.includes('was not found'), 'the 404 message');
    const screen = await waitForScreen(ui, (text) => text.includes('Ask, or /help'), 'the turn to end');
    expect(screen).toContain('the model "claude-nope-1" was not found');
    expect(screen).toMatch(/Choose another with --model NAME, (\/model, )?ANTHROPIC_MODEL\./);
    expect(count(screen, 'model: claude-nope-1')).toBe(1);
  }, 60_000);

  it('names the base URL and its variable when the connection is refused, and asks whether the server runs', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const ui = start('--max-retries 0 hello', { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url });
    const screen = await waitForScreen(ui, (text) => text.includes('Is the server running?'), 'the connection message');
    expect(screen).toContain(
      `could not connect to ${url} (ANTHROPIC_BASE_URL): connection refused. Is the server running?`,
    );
    expect(count(screen, 'could not connect')).toBe(1);
  }, 60_000);

  it('counts down a retry of an overloaded API live, then shows the answer', async () => {
    const env = await anthropic([
      { kind: 'error', status: 529, errorType: 'overloaded_error', message: 'Overloaded', retryAfterSeconds: 4 },
      { content: [{ type: 'text', text: 'Through on the second attempt.' }] },
    ]);
    const ui = start('--max-retries 3 hello', env);
    const first = await waitForScreen(ui, (text) => /retrying in \ds/.test(text), 'the retry countdown');
    // The limit shown is the one --max-retries set.
    expect(first).toContain('(attempt 1 of 3): the API is overloaded (HTTP 529)');
    const seconds = Number(/retrying in (\d)s/.exec(first)![1]);
    // The countdown moves while the UI waits, without any event from the loop.
    await waitForScreen(
      ui,
      (text) => {
        const shown = /retrying in (\d)s/.exec(text);
        return shown !== null && Number(shown[1]) < seconds;
      },
      'the countdown to go down',
    );
    const answered = await waitForScreen(ui, (text) => text.includes('Through on the second attempt.'), 'the answer');
    expect(answered).not.toContain('⟳');
  }, 60_000);

  it('opens with the welcome panel and shows tokens and cost in the status line', async () => {
    const env = await anthropic([
      { content: [{ type: 'text', text: 'Priced answer.' }], usage: { input_tokens: 1000, output_tokens: 500 } },
    ]);
    const ui = start('', env);
    const welcome = await waitForScreen(ui, (text) => text.includes('Ask, or /help'), 'the UI');
    expect(welcome).toMatch(/toolplane \d+\.\d+\.\d+/);
    expect(welcome).toMatch(/model\s+claude-sonnet-5-5 \(anthropic\)/);
    expect(welcome).toMatch(/mode\s+default/);
    expect(welcome).toContain(project);
    expect(welcome).toMatch(/trust\s+trusted/);
    expect(welcome).toContain('/help for commands · Shift+Tab');
    expect(welcome).toContain('0 tokens · $0.00 ·');
    await submit(ui, 'price it');
    // claude-sonnet-5-5: 1000 input tokens at $2/M and 500 output at $10/M.
    const priced = await waitForScreen(ui, (text) => text.includes('1.5k tokens'), 'the tokens used');
    expect(priced).toContain('anthropic/claude-sonnet-5-5 · mode default · 1.5k tokens · $0.0070 · context');
  }, 60_000);

  it('shows tokens only for a model without a price', async () => {
    const path = await script('unpriced.jsonl', [
      { content: [{ type: 'text', text: 'Free answer.' }], usage: { input_tokens: 300, output_tokens: 20 } },
    ]);
    const ui = start(`--provider scripted --script ${JSON.stringify(path)} go`);
    const screen = await waitForScreen(ui, (text) => text.includes('320 tokens'), 'the tokens used');
    expect(screen).toContain('scripted/scripted-model · mode default · 320 tokens · context');
    expect(screen).not.toMatch(/tokens · \$/);
  }, 60_000);

  it('lists a rule saved with "always allow" in /permissions, with its file', async () => {
    const path = await script('always.jsonl', [
      { content: [{ type: 'tool_use', id: 'mk', name: 'Bash', input: { command: 'touch made.txt' } }] },
      { content: [{ type: 'text', text: 'Made it.' }] },
    ]);
    const ui = start(`--provider scripted --script ${JSON.stringify(path)} make`);
    const dialog = await waitForScreen(ui, (text) => text.includes('always allow'), 'the permission dialog');
    const option = /(\d)\. Yes, and always allow/.exec(dialog)![1]!;
    // Keys in the dialog's first moments are ignored: press the number until it is highlighted.
    await waitForScreen(
      ui,
      (text) => {
        if (text.includes(`❯ ${option}. Yes, and always allow`)) return true;
        tmux('send-keys', '-t', ui, option);
        return false;
      },
      'the "always allow" option',
    );
    tmux('send-keys', '-t', ui, 'Enter');
    await waitForScreen(ui, (text) => text.includes('Made it.'), 'the answer');
    await submit(ui, '/permissions');
    const listed = await waitForScreen(ui, (text) => text.includes('Settings files:'), 'the /permissions list');
    const local = join(project, '.toolplane', 'settings.local.json');
    expect(listed).toContain('allow rules (1):');
    expect(listed).toMatch(/Bash\(touch[^)]*\)\s+rule Bash\(touch[^)]*\) from /);
    expect(listed).toContain(`from ${local} (saved from a dialog in this session)`);
    expect(listed).toContain(`Settings files: ${local}`);
  }, 60_000);

  it("words a check it cannot make and the person's own refusal for people", async () => {
    const path = await script('loop.jsonl', [
      { content: [{ type: 'tool_use', id: 'lp', name: 'Bash', input: { command: 'for f in a b; do echo $f; done' } }] },
      { content: [{ type: 'text', text: 'Understood.' }] },
    ]);
    const ui = start(`--provider scripted --script ${JSON.stringify(path)} loop`);
    const dialog = await waitForScreen(ui, (text) => text.includes('Permission needed: Bash'), 'the dialog');
    expect(dialog).toContain('Bash command needs approval: a `for` loop, which toolplane cannot check ahead.');
    expect(dialog).not.toContain('for_statement');
    // Esc denies; keys in the dialog's first moments are ignored, so it is pressed until the dialog closes.
    const denied = await waitForScreen(
      ui,
      (text) => {
        if (text.includes('Understood.')) return true;
        if (text.includes('Permission needed')) tmux('send-keys', '-t', ui, 'Escape');
        return false;
      },
      'the refusal',
    );
    expect(denied).toMatch(/⊘ Bash for f in a b; do echo \$f; done \[denied[^\n]*\n\s+you\n/);
    expect(denied).not.toContain('the person');
    expect(denied).not.toContain('Do not retry');
  }, 60_000);

  it('shows a resumed session on screen, lists no empty session, and replays an interrupted call as interrupted', async () => {
    await writeFile(join(project, 'notes.txt'), 'remember the milk\n');
    const path = await script('resume.jsonl', [
      {
        content: [
          { type: 'text', text: 'Reading the notes.' },
          { type: 'tool_use', id: 'rd', name: 'Read', input: { file_path: join(project, 'notes.txt') } },
        ],
      },
      { content: [{ type: 'text', text: 'Answer one.' }] },
      { content: [{ type: 'tool_use', id: 'zz', name: 'Bash', input: { command: 'sleep 30' } }] },
    ]);
    const scripted = `--provider scripted --script ${JSON.stringify(path)}`;
    // 1: a session with a finished turn, then a call the person interrupts.
    const first = start(`${scripted} --allowedTools "Bash(sleep:*)"`);
    await submit(first, 'first prompt');
    await waitForScreen(first, (text) => text.includes('Answer one.'), 'the first answer');
    await submit(first, 'second prompt');
    await waitForScreen(first, (text) => /Bash sleep 30 \[running/.test(text), 'the running call');
    tmux('send-keys', '-t', first, 'Escape');
    await waitForScreen(first, (text) => text.includes('[interrupted'), 'the interrupted call');
    await submit(first, '/exit');
    await waitForScreen(first, (text) => text.includes('EXIT=0'), 'the first exit');
    // 2: a session without a prompt.
    const empty = start(scripted);
    await submit(empty, '/exit');
    await waitForScreen(empty, (text) => text.includes('EXIT=0'), 'the empty session to close');
    const folder = join(home, '.toolplane', 'projects');
    const transcripts = (await readdir(join(folder, (await readdir(folder))[0]!))).filter((name) =>
      name.endsWith('.jsonl'),
    );
    expect(transcripts).toHaveLength(2);
    // 3: /resume lists only the session with a prompt.
    const third = start(scripted);
    await submit(third, '/resume');
    const picker = await waitForScreen(third, (text) => text.includes('Resume a session'), 'the picker');
    const rows = picker.split('\n').filter((line) => /\d{4}-\d\d-\d\d \d\d:\d\d [0-9a-f-]{36}/.test(line));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('first prompt');
    tmux('send-keys', '-t', third, 'Escape');
    await submit(third, '/exit');
    await waitForScreen(third, (text) => text.includes('EXIT=0'), 'the third exit');
    // 4: -c continues the session with the prompts, past the newer empty ones, and shows it.
    const resumed = start(`${scripted} -c`);
    const screen = await waitForScreen(resumed, (text) => text.includes('Answer one.'), 'the restored conversation');
    expect(screen).toContain('› first prompt');
    expect(screen).toContain('Reading the notes.');
    expect(screen).toMatch(/✔ Read .*notes\.txt.*\[done/);
    expect(screen).toContain('› second prompt');
    expect(screen).toMatch(/■ Bash sleep 30 \[interrupted/);
    expect(screen).not.toContain('failed');
  }, 120_000);
});
