import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-server-types.js';
import { CLI } from './run-cli.js';
import { hasTmux, tmuxOn, waitForScreen as waitOn } from './tmux.js';

// The slash commands of the real command in a real terminal: tmux runs `toolplane` against the
// scripted model or the mock Anthropic server (which records every request), the test types
// commands and reads the screen, the requests and the files.

const SOCKET = `toolplane-commands-${process.pid}`;
const tmux = tmuxOn(SOCKET);
const screenOf = () => tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'ui');
const waitForScreen = (test: (screen: string) => boolean, what: string, timeoutMs?: number) =>
  waitOn(screenOf, test, what, timeoutMs);

/** Types `text` into the prompt and sends it once the prompt shows it (keys in the first moments may be lost). */
async function typeLine(text: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    tmux('send-keys', '-t', 'ui', '-l', text);
    try {
      await waitForScreen((screen) => screen.includes(`› ${text}`), `the prompt to show ${text}`, 3_000);
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      for (let index = 0; index < text.length * 2; index += 1) tmux('send-keys', '-t', 'ui', 'BSpace');
    }
  }
  tmux('send-keys', '-t', 'ui', 'Enter');
}

/**
 * Answers the permission dialog with Esc (deny). Keys in its first moments are ignored, so it waits
 * a little first and tries again if the dialog stays; never a second Esc once it closed, which
 * would interrupt the turn.
 */
async function denyDialog(): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    tmux('send-keys', '-t', 'ui', 'Escape');
    try {
      await waitForScreen((screen) => !screen.includes('allow this call once'), 'the dialog to close', 2_000);
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

async function write(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

function script(turns: readonly unknown[]): string {
  return turns.map((turn) => JSON.stringify(turn)).join('\n');
}

/** The text of the user messages of a recorded request. */
function userText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return JSON.stringify(messages.filter((message) => message.role === 'user'));
}

describe.skipIf(!hasTmux)('slash commands of toolplane, in tmux', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-commands-'));
    project = join(home, 'project');
    await mkdir(project, { recursive: true });
  });
  // A session that lives as long as the suite keeps the private server up between tests: killing
  // the server after each test raced the next test's new-session ("server exited unexpectedly").
  beforeAll(() => void tmux('new-session', '-d', '-s', 'keeper', 'sleep 600'));
  afterAll(() => void spawnSync('tmux', ['-L', SOCKET, 'kill-server']));
  afterEach(async () => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-session', '-t', 'ui']);
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  /** Starts toolplane in tmux; `trusted` trusts the project for this run, otherwise the trust question is answered Enter (No). */
  async function startUi(options: {
    readonly trusted: boolean;
    readonly args: string;
    readonly env?: Readonly<Record<string, string>>;
  }): Promise<void> {
    const env = Object.entries({
      HOME: home,
      TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
      ...(options.trusted ? { TOOLPLANE_TRUST_PROJECT: '1' } : {}),
      ...options.env,
    })
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join(' ');
    const command = `cd ${JSON.stringify(project)} && env -u CI -u TOOLPLANE_TRUST_PROJECT -u ANTHROPIC_API_KEY ${env} node ${JSON.stringify(CLI)} ${options.args}; echo EXIT=$?; sleep 60`;
    tmux('new-session', '-d', '-s', 'ui', '-x', '160', '-y', '50', command);
    if (!options.trusted) {
      await waitForScreen((screen) => screen.includes('Trust this folder?'), 'the trust question');
      // A typed n refuses and is remembered (Enter alone would keep the folder unknown, for this run only).
      tmux('send-keys', '-t', 'ui', 'n', 'Enter');
    }
    await waitForScreen((screen) => /· session \S+/.test(screen), 'the status line');
  }

  async function startScripted(turns: readonly unknown[], trusted = true): Promise<void> {
    const file = join(home, 'script.jsonl');
    await writeFile(file, script(turns));
    await startUi({ trusted, args: `--provider scripted --script ${JSON.stringify(file)}` });
  }

  async function startMock(replies: readonly unknown[], model: string, prompt = ''): Promise<MockModelServer> {
    server = await startMockAnthropicServer({ replies: replies as never });
    await startUi({
      trusted: true,
      args: `--model ${model} ${prompt}`,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL },
    });
    return server;
  }

  it('/model switches the model the next request carries, and /cost prices each model or says it has no price', async () => {
    const mock = await startMock(
      [
        { content: [{ type: 'text', text: 'First answer.' }], usage: { input_tokens: 1000, output_tokens: 10 } },
        { content: [{ type: 'text', text: 'Second answer.' }], usage: { input_tokens: 2000, output_tokens: 20 } },
      ],
      'local-test-model',
    );
    await typeLine('/model');
    await waitForScreen((screen) => screen.includes('Model: local-test-model.'), 'the model shown');
    await typeLine('first question');
    await waitForScreen((screen) => screen.includes('First answer.'), 'the first answer');
    await typeLine('/model claude-haiku-4-5');
    await waitForScreen((screen) => screen.includes('Model: claude-haiku-4-5 (was local-test-model)'), 'the switch');
    await waitForScreen((screen) => screen.includes('anthropic/claude-haiku-4-5'), 'the status line showing it');
    await typeLine('second question');
    await waitForScreen((screen) => screen.includes('Second answer.'), 'the second answer');
    const models = mock.requests.map((request) => (request.body as { model?: string }).model);
    expect(models).toEqual(['local-test-model', 'claude-haiku-4-5']);
    await typeLine('/cost');
    const screen = await waitForScreen((text) => text.includes('Total:'), 'the cost');
    expect(screen).toMatch(/local-test-model: 1,000 input, 10 output tokens — no price known/);
    // Claude Haiku 4.5: $1 per million input tokens, $5 per million output tokens.
    expect(screen).toContain('claude-haiku-4-5: 2,000 input, 20 output tokens — $0.0021 (list price)');
    expect(screen).toContain('Total: $0.0021');
    expect(screen).toContain('modelPrices');
  }, 60_000);

  it('/config, /agents and /doctor show the settings in force, the subagent types and the doctor report', async () => {
    await write(
      join(project, '.toolplane', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }),
    );
    await startScripted([{ content: [{ type: 'text', text: 'unused' }] }], false);
    await typeLine('/config');
    const config = await waitForScreen((screen) => screen.includes('Custom commands:'), 'the config');
    expect(config).toContain('Permission mode: default');
    expect(config).toContain('Model: scripted-model (scripted)');
    expect(config).toMatch(/Project folder: .* — untrusted/);
    expect(config).toMatch(/projectSettings\s+\S+\.toolplane\/settings\.json/);
    expect(config).toContain('Rules: 1 deny, 0 ask, 0 allow');
    expect(config).toMatch(/Sandbox for Bash: (on|not available here)/);
    await typeLine('/agents');
    await waitForScreen((screen) => screen.includes('general-purpose: Researches'), 'the subagent types');
    await typeLine('/doctor');
    const doctor = await waitForScreen((screen) => screen.includes('Not contained by the sandbox'), 'the doctor');
    expect(doctor).toMatch(/sandbox: (working|NOT available|FAILED)/);
    expect(doctor).toContain('platform:');
  }, 60_000);

  it('/init starts a turn asking the model to write AGENTS.md, and the write goes through the dialog', async () => {
    const mock = await startMock(
      [
        {
          content: [
            {
              type: 'tool_use',
              id: 'w',
              name: 'Write',
              input: { file_path: join(project, 'AGENTS.md'), content: '# Agents\n' },
            },
          ],
        },
        { content: [{ type: 'text', text: 'AGENTS.md is written.' }] },
      ],
      'claude-haiku-4-5',
    );
    await typeLine('/init');
    await waitForScreen((screen) => screen.includes('allow this call once'), 'the dialog for the write');
    expect(userText(mock.requests[0]?.body)).toContain('write an AGENTS.md file at its root');
    await waitForScreen((screen) => {
      if (screen.includes('❯ 1.')) return true;
      tmux('send-keys', '-t', 'ui', '1');
      return false;
    }, 'option 1 to be highlighted');
    tmux('send-keys', '-t', 'ui', 'Enter');
    await waitForScreen((screen) => screen.includes('AGENTS.md is written.'), 'the end of the turn');
    expect(existsSync(join(project, 'AGENTS.md'))).toBe(true);
  }, 60_000);

  it('a custom command reaches the model as its prompt, arguments and a ! line output put in', async () => {
    await write(join(project, 'note.txt'), 'from-the-file-42\n');
    await write(
      join(project, '.claude', 'commands', 'team', 'greet.md'),
      '---\ndescription: Greets someone\nargument-hint: NAME [MOOD]\n---\nGreet $1 in a $2 way (all: $ARGUMENTS).\nNote:\n!`cat note.txt`\n',
    );
    await write(join(project, '.toolplane', 'commands', 'help.md'), 'not the help');
    const mock = await startMock([{ content: [{ type: 'text', text: 'Greeted.' }] }], 'claude-haiku-4-5');
    await waitForScreen((screen) => screen.includes('is a built-in command, which stays'), 'the clash reported');
    await typeLine('/help');
    await waitForScreen((screen) => screen.includes('/team:greet NAME [MOOD] Greets someone (project)'), 'help');
    await typeLine('/team:greet Ada "very warm"');
    await waitForScreen((screen) => screen.includes('Greeted.'), 'the answer');
    const sent = userText(mock.requests[0]?.body);
    expect(sent).toContain('Greet Ada in a very warm way (all: Ada \\"very warm\\").');
    expect(sent).toContain('from-the-file-42');
    expect(sent).not.toContain('cat note.txt');
  }, 60_000);

  it('a custom command given as the first prompt on the command line runs as if typed', async () => {
    await write(join(project, '.toolplane', 'commands', 'greet.md'), 'Greet $ARGUMENTS warmly.');
    const mock = await startMock(
      [{ content: [{ type: 'text', text: 'Hello, Grace.' }] }],
      'claude-haiku-4-5',
      "'/greet Grace'",
    );
    await waitForScreen((screen) => screen.includes('Hello, Grace.'), 'the answer');
    expect(userText(mock.requests[0]?.body)).toContain('Greet Grace warmly.');
  }, 60_000);

  it('a project command whose ! line a deny rule forbids is refused even with allowed-tools: Bash; its look-alike runs', async () => {
    await write(
      join(home, '.toolplane', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(touch denied-marker:*)'] } }),
    );
    const command = (marker: string) =>
      `---\ndescription: touches\nallowed-tools: Bash\n---\nDone:\n!\`touch ${marker}\`\n`;
    await write(join(project, '.toolplane', 'commands', 'bad.md'), command('denied-marker'));
    await write(join(project, '.toolplane', 'commands', 'good.md'), command('allowed-marker'));
    await startScripted([
      {
        expect: { includes: ['did not run', 'Bash(touch denied-marker:*)'] },
        content: [{ type: 'text', text: 'Bad done.' }],
      },
      { expect: { excludes: ['allowed-marker` did not run'] }, content: [{ type: 'text', text: 'Good done.' }] },
    ]);
    await typeLine('/bad');
    const refused = await waitForScreen((screen) => screen.includes('Bad done.'), 'the refused command');
    expect(refused).toMatch(/touch denied-marker.*(denied|refused)/);
    expect(existsSync(join(project, 'denied-marker'))).toBe(false);
    await typeLine('/good');
    await waitForScreen((screen) => screen.includes('Good done.'), 'the allowed command');
    expect(existsSync(join(project, 'allowed-marker'))).toBe(true);
  }, 60_000);

  it('allowed-tools grants nothing in a folder not trusted: the dialog asks, and a No leaves nothing made', async () => {
    await write(
      join(project, '.toolplane', 'commands', 'mk.md'),
      '---\nallowed-tools: Bash(touch:*)\n---\nMade:\n!`touch granted-file`\n',
    );
    await startScripted(
      [{ expect: { includes: ['did not run'] }, content: [{ type: 'text', text: 'Refused.' }] }],
      false,
    );
    await typeLine('/mk');
    await waitForScreen((screen) => screen.includes('are not applied: this folder is not trusted'), 'the notice');
    await waitForScreen(
      (screen) => screen.includes('touch granted-file') && screen.includes('allow this call once'),
      'the dialog',
    );
    await denyDialog();
    await waitForScreen((screen) => screen.includes('Refused.'), 'the turn after the refusal');
    expect(existsSync(join(project, 'granted-file'))).toBe(false);
  }, 60_000);

  it('allowed-tools allows in a trusted folder for the command turn only: a later call asks again', async () => {
    await write(
      join(project, '.toolplane', 'commands', 'mk.md'),
      '---\nallowed-tools: Bash(touch:*)\n---\nMade:\n!`touch granted-file`\n',
    );
    await startScripted([
      { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'touch in-turn-file' } }] },
      { expect: { tool_results: ['t1'], errors: [] }, content: [{ type: 'text', text: 'Both made.' }] },
      { content: [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'touch after-turn-file' } }] },
      { expect: { tool_results: ['t2'], errors: ['t2'] }, content: [{ type: 'text', text: 'Not made.' }] },
    ]);
    await typeLine('/mk');
    await waitForScreen((screen) => screen.includes('Both made.'), 'the command turn, with no dialog');
    expect(existsSync(join(project, 'granted-file'))).toBe(true);
    expect(existsSync(join(project, 'in-turn-file'))).toBe(true);
    await typeLine('make another');
    await waitForScreen(
      (screen) => screen.includes('touch after-turn-file') && screen.includes('allow this call once'),
      'the dialog',
    );
    await denyDialog();
    await waitForScreen((screen) => screen.includes('Not made.'), 'the refusal');
    expect(existsSync(join(project, 'after-turn-file'))).toBe(false);
  }, 60_000);
});
