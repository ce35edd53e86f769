// Runs the built terminal UI over a fake InteractiveHost that plays scripted loop events, for the
// tmux tests. Usage: node tui-harness.mjs LOG_FILE. Everything the host receives (approval
// responses, interrupts, close, the exit code) is appended to LOG_FILE as JSON lines.
import { appendFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runInteractive } from '../../../../dist/cli/tui/run-interactive.js';

const logFile = process.argv[2];
if (!logFile) {
  process.stderr.write('usage: node tui-harness.mjs LOG_FILE\n');
  process.exit(64);
}
const log = (entry) => appendFileSync(logFile, `${JSON.stringify(entry)}\n`);

/** The command shown for approval: a bidi override, an escape sequence and a zero-width space hide in it. */
export const TRICKY_COMMAND = 'echo safe\u202E\x1b[2K; rm -rf ./build\u200B && echo done';

export const SUGGESTIONS = [
  { rule: 'Bash(echo safe:*)', behavior: 'allow', destination: 'localSettings', covers: 'commands that start with "echo safe"' },
  { rule: 'Bash(echo:*)', behavior: 'allow', destination: 'session', covers: 'every echo command' },
];

const tool = (name) => ({ name, userFacingName: () => name });
const usage = { inputTokens: 0, outputTokens: 0 };
const result = (status, turns = 1) => ({ status, text: '', messages: [], turns, usage, permissionDenials: [] });
const end = (toolUseId, toolName, input, outcome) => ({
  type: 'tool-call-end',
  durationMs: 12,
  record: { toolUseId, toolName, input, outcome, result: { type: 'tool_result', tool_use_id: toolUseId, content: '' } },
});
const wait = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

let approver;
let interactionChannel;
let todos = [];
const todoListeners = new Set();
let callNumber = 0;
const nextId = () => `toolu_${++callNumber}`;

async function* approveScript(signal) {
  const id = nextId();
  const input = { command: TRICKY_COMMAND };
  yield { type: 'request-start', turn: 1, request: {} };
  yield { type: 'text-delta', text: 'I will run the cleanup.' };
  yield { type: 'tool-call-queue', toolUseId: id, toolName: 'Bash', summary: 'echo safe; rm -rf ./build' };
  yield { type: 'tool-call-start', toolUseId: id, toolName: 'Bash', batch: 1 };
  yield { type: 'permission-request', toolUseId: id, toolName: 'Bash', summary: 'cleanup', message: 'Bash wants to delete files.' };
  let response;
  try {
    response = await approver.request(
      {
        tool: tool('Bash'),
        input,
        toolUseId: id,
        message: 'Bash wants to delete files.',
        summary: 'cleanup',
        reason: { kind: 'rule', rule: 'Bash(rm:*)', source: 'projectSettings', file: '.toolplane/settings.json' },
        suggestions: SUGGESTIONS,
      },
      signal,
    );
  } catch (error) {
    log({ kind: 'approval-error', message: String(error) });
    yield end(id, 'Bash', input, { status: 'aborted', cause: 'abort' });
    return result('aborted');
  }
  log({ kind: 'approval', response });
  switch (response.behavior) {
    case 'allow':
      yield end(id, 'Bash', response.updatedInput ?? input, { status: 'success', isError: false });
      yield { type: 'text-delta', text: 'Cleanup finished.' };
      return result('success');
    case 'deny':
      yield end(id, 'Bash', input, { status: 'denied', message: 'no', reason: { kind: 'approver', message: response.feedback } });
      return result('success');
    case 'abort':
      yield end(id, 'Bash', input, { status: 'aborted', cause: 'interrupt' });
      return result('aborted');
  }
}

/** A call whose "always allow" suggestion would allow any code: the dialog must say so. */
async function* anyCodeScript(signal) {
  const id = nextId();
  const input = { command: 'python -c "print(1)"' };
  yield { type: 'request-start', turn: 1, request: {} };
  yield { type: 'tool-call-queue', toolUseId: id, toolName: 'Bash', summary: 'python -c' };
  yield { type: 'tool-call-start', toolUseId: id, toolName: 'Bash', batch: 1 };
  yield { type: 'permission-request', toolUseId: id, toolName: 'Bash', summary: 'python -c', message: 'Bash needs approval.' };
  const suggestions = [{ rule: 'Bash(python:*)', behavior: 'allow', destination: 'localSettings', covers: 'every python command' }];
  const response = await approver.request(
    { tool: tool('Bash'), input, toolUseId: id, message: 'Bash needs approval.', summary: 'python -c', reason: { kind: 'mode', mode: 'default' }, suggestions },
    signal,
  );
  log({ kind: 'approval', response });
  yield end(id, 'Bash', input, { status: 'denied', message: 'no', reason: { kind: 'approver' } });
  return result('success');
}

async function* longBashScript(signal) {
  const id = nextId();
  const input = { command: 'npm run watch' };
  yield { type: 'request-start', turn: 1, request: {} };
  yield { type: 'tool-call-queue', toolUseId: id, toolName: 'Bash', summary: 'npm run watch' };
  yield { type: 'tool-call-start', toolUseId: id, toolName: 'Bash', batch: 1 };
  for (let line = 1; !signal.aborted; line++) {
    yield { type: 'tool-call-progress', toolUseId: id, progress: { kind: 'bash-output', message: `watch line ${line}` } };
    await wait(150, signal);
  }
  log({ kind: 'interrupted', toolUseId: id });
  yield end(id, 'Bash', input, { status: 'aborted', cause: 'interrupt' });
  return result('aborted');
}

async function* writeScript(signal) {
  const id = nextId();
  const filePath = join(dirname(logFile), 'notes.txt');
  writeFileSync(filePath, 'alpha\nbeta\n');
  const input = { file_path: filePath, content: 'alpha\ngamma\n' };
  yield { type: 'request-start', turn: 1, request: {} };
  yield { type: 'tool-call-queue', toolUseId: id, toolName: 'Write', summary: 'notes.txt' };
  yield {
    type: 'assistant-message',
    stopReason: 'tool_use',
    usage,
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Write', input }] },
  };
  yield { type: 'tool-call-start', toolUseId: id, toolName: 'Write', batch: 1 };
  yield { type: 'permission-request', toolUseId: id, toolName: 'Write', summary: 'notes.txt', message: 'Write wants to change a file.' };
  const response = await approver.request(
    { tool: tool('Write'), input, toolUseId: id, message: 'Write wants to change a file.', summary: 'notes.txt', reason: { kind: 'mode', mode: 'default' }, suggestions: [] },
    signal,
  );
  log({ kind: 'approval', response });
  writeFileSync(filePath, input.content);
  yield end(id, 'Write', input, { status: 'success', isError: false });
  return result('success');
}

async function* parallelScript() {
  const reads = ['src/a.ts', 'src/b.ts', 'src/c.ts'].map((path) => ({ id: nextId(), path }));
  const grep = nextId();
  const edit = nextId();
  yield { type: 'request-start', turn: 1, request: {} };
  yield { type: 'text-delta', text: 'Reading three files at once.' };
  for (const read of reads) yield { type: 'tool-call-queue', toolUseId: read.id, toolName: 'Read', summary: read.path };
  yield { type: 'tool-call-queue', toolUseId: grep, toolName: 'Grep', summary: 'TODO in src' };
  yield { type: 'tool-call-queue', toolUseId: edit, toolName: 'Edit', summary: 'src/a.ts' };
  const editInput = { file_path: 'src/a.ts', old_string: 'const answer = 41;', new_string: 'const answer = 42;' };
  yield {
    type: 'assistant-message',
    stopReason: 'tool_use',
    usage,
    message: {
      role: 'assistant',
      content: [
        ...reads.map((read) => ({ type: 'tool_use', id: read.id, name: 'Read', input: { file_path: read.path } })),
        { type: 'tool_use', id: grep, name: 'Grep', input: { pattern: 'TODO' } },
        { type: 'tool_use', id: edit, name: 'Edit', input: editInput },
      ],
    },
  };
  for (const read of reads) yield { type: 'tool-call-start', toolUseId: read.id, toolName: 'Read', batch: 1 };
  for (const read of reads) yield end(read.id, 'Read', { file_path: read.path }, { status: 'success', isError: false });
  yield { type: 'tool-call-start', toolUseId: grep, toolName: 'Grep', batch: 2 };
  yield end(grep, 'Grep', { pattern: 'TODO' }, { status: 'success', isError: false });
  yield { type: 'tool-call-start', toolUseId: edit, toolName: 'Edit', batch: 3 };
  yield end(edit, 'Edit', editInput, { status: 'success', isError: false });
  todos = [
    { content: 'Read the sources', status: 'completed', activeForm: 'Reading the sources' },
    { content: 'Fix the answer', status: 'in_progress', activeForm: 'Fixing the answer' },
    { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
  ];
  for (const listener of todoListeners) listener(todos);
  yield { type: 'text-delta', text: 'All reads finished.' };
  return result('success');
}

const host = {
  status: () => ({
    provider: 'scripted',
    model: 'fake-model',
    mode: 'default',
    sessionId: 'sess-harness',
    cwd: process.cwd(),
    contextTokens: 12_300,
    contextWindow: 200_000,
  }),
  submit(prompt, signal) {
    log({ kind: 'submit', prompt });
    if (prompt === 'approve') return approveScript(signal);
    if (prompt === 'long bash') return longBashScript(signal);
    if (prompt === 'any code') return anyCodeScript(signal);
    if (prompt === 'parallel') return parallelScript(signal);
    if (prompt === 'write') return writeScript(signal);
    if (prompt === 'ask' || prompt === 'plan') {
      return (async function* interact() {
        yield { type: 'request-start', turn: 1, request: {} };
        const request = { toolUseId: nextId(), agentId: 'main' };
        const response =
          prompt === 'ask'
            ? await interactionChannel.askQuestions(
                {
                  ...request,
                  questions: [
                    {
                      question: 'Which test runner?',
                      header: 'Runner',
                      multiSelect: false,
                      options: [
                        { label: 'vitest', description: 'fast, ESM' },
                        { label: 'jest', description: 'the classic' },
                      ],
                    },
                  ],
                },
                signal,
              )
            : await interactionChannel.reviewPlan({ ...request, plan: '1. Read math.js\n2. Fix average()' }, signal);
        log({ kind: prompt, response });
        return result('success');
      })();
    }
    if (prompt === 'explode') {
      return (async function* explode() {
        yield { type: 'request-start', turn: 1, request: {} };
        throw new Error('the provider went away');
      })();
    }
    return (async function* echo() {
      yield { type: 'request-start', turn: 1, request: {} };
      yield { type: 'text-delta', text: `You said: ${prompt}` };
      return result('success');
    })();
  },
  setApprover(value) {
    approver = value;
  },
  setInteractionChannel(channel) {
    interactionChannel = channel;
  },
  todos: () => todos,
  onTodosChange(listener) {
    todoListeners.add(listener);
    return () => todoListeners.delete(listener);
  },
  describePermissions: () => 'allow: Read (user settings)\nmode: default',
  describeMcp: () => 'no MCP servers',
  describeHooks: () => 'PreToolUse  Bash  if Bash(git push:*)  command "./guard.sh"  (project settings)',
  compact: async () => {
    log({ kind: 'compact' });
    return 'Compacted 6 messages into a summary.';
  },
  listSessions: async () => [
    { id: 'sess-newer', path: '/tmp/sess-newer.jsonl', modified: new Date('2026-11-29T10:00:00Z'), firstPrompt: 'fix the failing test' },
    { id: 'sess-older', path: '/tmp/sess-older.jsonl', modified: new Date('2026-11-28T09:00:00Z'), firstPrompt: 'add a readme' },
  ],
  resume: async (sessionId) => {
    log({ kind: 'resume', sessionId });
  },
  clear: async () => {
    log({ kind: 'clear' });
  },
  transcriptPath: () => '/tmp/transcript.jsonl',
  close: async () => {
    log({ kind: 'closed' });
    if (process.env.TUI_CLOSE_FAILS === '1') throw new Error('the transcript could not be flushed');
  },
};

log({ kind: 'started', pid: process.pid });
const code = await runInteractive(host, {});
log({ kind: 'exit', code });
process.exit(code);
