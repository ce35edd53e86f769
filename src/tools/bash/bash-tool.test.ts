import { mkdtemp, mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext, ToolProgress } from '../../contract/tool.js';
import { TASK_REGISTRY, createTaskRegistry } from '../tasks/task-registry.js';
import { asSent } from '../../testing/as-sent.js';
import { createBashTool, bashInputSchema, type BashInput } from './bash-tool.js';
import { isProcessRunning } from './kill-process-group.js';
import { SPILL_FOLDER, createSpillFolder } from './spill-folder.js';
import { SHELL_STATE, createShellState } from './shell-state.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';
import { governResultSize } from '../../results/govern-size.js';

let root: string;
let spill: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolplane-bash-')));
  spill = path.join(root, 'spill');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type ContextOverrides = Partial<Omit<ToolCallContext, 'services'>> & { services?: ServiceRegistry };

function makeContext(overrides: ContextOverrides = {}): ToolCallContext {
  const services = overrides.services ?? createServices().set(SPILL_FOLDER, createSpillFolder({ path: spill }));
  return {
    toolUseId: 'toolu_1',
    signal: new AbortController().signal,
    cwd: root,
    sessionId: 'session-1',
    agentId: 'main',
    permissionMode: 'default',
    reportProgress: () => undefined,
    ...overrides,
    services,
  };
}

const tool = createBashTool({ env: process.env, killGraceMs: 300 });

async function run(input: BashInput, context: ToolCallContext = makeContext()) {
  const parsed = bashInputSchema.parse(input);
  const output = await tool.call(parsed, context);
  return { output, mapped: asSent(tool.mapResult(output, context.toolUseId)) };
}

async function waitUntil(check: () => boolean | Promise<boolean>, attempts = 200): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('Bash', () => {
  it('returns stdout of a successful command', async () => {
    const { mapped } = await run({ command: 'echo hello' });
    expect(mapped).toEqual({ content: 'hello', isError: false });
  });

  it('says so when a command prints nothing, and gives it no stdin', async () => {
    const { mapped } = await run({ command: 'cat' });
    expect(mapped.content).toBe('(Bash completed with no output)');
  });

  it('reports a non-zero exit with stderr as an error result', async () => {
    const { output, mapped } = await run({ command: 'echo out; echo oops >&2; exit 3' });
    expect(output.kind === 'ran' && output.exitCode).toBe(3);
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toBe('out\nstderr:\noops\nExit code 3');
  });

  it('keeps the working folder between calls, per session', async () => {
    await mkdir(path.join(root, 'sub dir'), { recursive: true });
    const services = createServices()
      .set(SPILL_FOLDER, createSpillFolder({ path: spill }))
      .set(SHELL_STATE, createShellState());
    const first = await run({ command: 'cd "sub dir"' }, makeContext({ services }));
    expect(first.mapped.content).toBe(`Working folder is now ${path.join(root, 'sub dir')}`);
    const second = await run({ command: 'pwd' }, makeContext({ services }));
    expect(second.mapped.content).toBe(path.join(root, 'sub dir'));
    const otherSession = await run({ command: 'pwd' }, makeContext({ services, sessionId: 'session-2' }));
    expect(otherSession.mapped.content).toBe(root);
    expect(services.get(SHELL_STATE)?.getCwd('session-1')).toBe(path.join(root, 'sub dir'));
  });

  it('asks before running elsewhere than the session folder when no SHELL_STATE lets the permission check see the shell', async () => {
    await mkdir(path.join(root, 'moved'), { recursive: true });
    const own = createBashTool({ env: process.env, killGraceMs: 300 });
    const context = makeContext({ sessionId: 's-moved' });
    expect(await own.checkPermissions(bashInputSchema.parse({ command: 'pwd' }), context)).toEqual({
      behavior: 'passthrough',
    });
    await own.call(bashInputSchema.parse({ command: 'cd moved' }), context);
    const decision = await own.checkPermissions(bashInputSchema.parse({ command: 'git status' }), context);
    expect(decision).toMatchObject({ behavior: 'ask', reason: { kind: 'safety' } });
    // With the service the engine sees the folder itself, and the tool leaves the decision to it.
    const services = createServices()
      .set(SPILL_FOLDER, createSpillFolder({ path: spill }))
      .set(SHELL_STATE, createShellState());
    const shared = makeContext({ sessionId: 's-moved', services });
    await own.call(bashInputSchema.parse({ command: 'cd moved' }), shared);
    expect(await own.checkPermissions(bashInputSchema.parse({ command: 'git status' }), shared)).toEqual({
      behavior: 'passthrough',
    });
  });

  it('records the folder even when the command fails, and survives a syntax error', async () => {
    await mkdir(path.join(root, 'fails'), { recursive: true });
    const services = createServices().set(SPILL_FOLDER, createSpillFolder({ path: spill }));
    const failed = await run({ command: 'cd fails && false' }, makeContext({ services, sessionId: 's-fail' }));
    expect(failed.mapped.isError).toBe(true);
    const syntax = await run({ command: 'if then fi (' }, makeContext({ services, sessionId: 's-fail' }));
    expect(syntax.mapped.isError).toBe(true);
    expect(syntax.mapped.content).toMatch(/syntax error/);
    const where = await run({ command: 'pwd' }, makeContext({ services, sessionId: 's-fail' }));
    expect(where.mapped.content).toBe(path.join(root, 'fails'));
  });

  it('falls back to the session folder when the remembered one is gone', async () => {
    const services = createServices().set(SPILL_FOLDER, createSpillFolder({ path: spill }));
    await mkdir(path.join(root, 'gone'));
    await run({ command: 'cd gone' }, makeContext({ services, sessionId: 's-gone' }));
    await rm(path.join(root, 'gone'), { recursive: true });
    const { mapped } = await run({ command: 'pwd' }, makeContext({ services, sessionId: 's-gone' }));
    expect(mapped.content).toBe(
      `The previous working folder ${path.join(root, 'gone')} no longer exists; this command ran in ${root}.\n${root}`,
    );
  });

  it('works the same with a POSIX sh when bash is not the shell', async () => {
    await mkdir(path.join(root, 'posix'), { recursive: true });
    const sh = createBashTool({ env: process.env, shell: '/bin/sh' });
    const services = createServices().set(SPILL_FOLDER, createSpillFolder({ path: spill }));
    const context = makeContext({ services, sessionId: 's-posix' });
    await sh.call({ command: 'cd posix && echo moved' }, context);
    const output = await sh.call({ command: 'pwd; exit 2' }, context);
    expect(asSent(sh.mapResult(output, 'x'))).toEqual({
      content: `${path.join(root, 'posix')}\nExit code 2`,
      isError: true,
    });
  });

  it('refuses to run in a working folder that does not exist', async () => {
    const context = makeContext({ cwd: path.join(root, 'missing'), sessionId: 's-missing' });
    const { mapped } = await run({ command: 'echo hi' }, context);
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toMatch(/does not exist, so the command did not run/);
  });

  it('kills the whole process group on timeout, including a grandchild that ignores SIGTERM', async () => {
    const pidFile = path.join(root, 'grandchild.pid');
    const command = `echo partial; bash -c "trap '' TERM; exec sleep 300" & echo $! > "${pidFile}"; wait`;
    const { output, mapped } = await run({ command, timeout: 1_500 });
    expect(output.kind === 'ran' && output.interrupted).toBe('timeout');
    // A result, not a failure: the partial output and the limit it hit.
    expect(mapped.isError).toBe(false);
    expect(mapped.content).toMatch(/^partial\nCommand timed out after 1500 ms \(its timeout\)/);
    const grandchild = Number((await readFile(pidFile, 'utf8')).trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntil(() => !isProcessRunning(grandchild))).toBe(true);
  });

  it('kills the process group when the call is aborted mid-run, and streams progress', async () => {
    const controller = new AbortController();
    const progress: ToolProgress[] = [];
    const progressTool = createBashTool({ env: process.env, killGraceMs: 300, progressIntervalMs: 10 });
    const pidFile = path.join(root, 'abort.pid');
    const context = makeContext({
      signal: controller.signal,
      reportProgress: (report) => {
        progress.push(report);
        if (report.kind === 'bash-output') controller.abort();
      },
    });
    const output = await progressTool.call(
      { command: `sleep 300 & echo $! > "${pidFile}"; echo started; wait` },
      context,
    );
    const mapped = asSent(progressTool.mapResult(output, 'toolu_1'));
    expect(output.kind === 'ran' && output.interrupted).toBe('abort');
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toBe(
      'started\nCommand was interrupted by the person; it and every process it started were killed.',
    );
    // Where it runs is reported first (no sandbox service here), then the output.
    expect(progress[0]).toEqual({ kind: 'sandbox', data: { placement: 'plain' } });
    expect(progress[1]).toMatchObject({ kind: 'bash-output', message: 'started', data: { recentLines: ['started'] } });
    const sleeper = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await waitUntil(() => !isProcessRunning(sleeper))).toBe(true);
  });

  it('does not start a command when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = path.join(root, 'never-written');
    const { mapped } = await run({ command: `touch "${marker}"` }, makeContext({ signal: controller.signal }));
    expect(mapped).toEqual({ content: 'The call was aborted before the command started; nothing ran.', isError: true });
    await expect(stat(marker)).rejects.toThrow();
  });

  it('keeps huge output whole in one file, stderr included, and is answered with a preview and its path', async () => {
    const small = createBashTool({ env: process.env, maxOutputBytes: 10_000 });
    const command = "head -c 5000000 /dev/zero | tr '\\0' 'a'; echo; echo END; echo oops >&2; exit 3";
    const output = await small.call({ command }, makeContext());
    const mapped = small.mapResult(output, 'toolu_1');
    expect(output.kind).toBe('ran');
    if (output.kind !== 'ran') return;
    expect(mapped.fullOutput).toEqual({ path: output.stdoutFile, bytes: 5_000_005 + 'stderr:\noops\n'.length });
    const saved = await readFile(output.stdoutFile ?? '', 'utf8');
    expect(saved.startsWith('a'.repeat(5_000_000))).toBe(true);
    expect(saved.endsWith('\nEND\nstderr:\noops\n')).toBe(true);
    const sent = await governResultSize(
      { type: 'tool_result', tool_use_id: 'toolu_1', content: mapped.content },
      { limit: small.maxResultSizeChars, store: undefined, trailer: mapped.trailer, saved: mapped.fullOutput },
    );
    const text = typeof sent.content === 'string' ? sent.content : '';
    expect(text.length).toBeLessThan(2_500);
    expect(text).toContain(`The full output is saved in ${output.stdoutFile}`);
    expect(text).toMatch(/\na{1500,}/);
    expect(text.endsWith('\nExit code 3')).toBe(true);
  });

  it('writes one file for the whole output when only stderr passes the limit', async () => {
    const small = createBashTool({ env: process.env, maxOutputBytes: 1_000 });
    const output = await small.call({ command: "echo out; head -c 5000 /dev/zero | tr '\\0' 'e' >&2" }, makeContext());
    const mapped = small.mapResult(output, 'toolu_1');
    expect(mapped.fullOutput?.path).toMatch(/\.output\.log$/);
    expect(await readFile(mapped.fullOutput?.path ?? '', 'utf8')).toBe(`out\nstderr:\n${'e'.repeat(5_000)}`);
  });

  it('removes model-provider credentials from the child environment', async () => {
    const scrubbed = createBashTool({
      env: {
        PATH: process.env.PATH,
        ANTHROPIC_API_KEY: 'sk-secret-1',
        OPENAI_API_KEY: 'sk-secret-2',
        KEPT_VALUE: 'visible',
      },
    });
    const output = await scrubbed.call({ command: 'env' }, makeContext());
    const content = String(scrubbed.mapResult(output, 'x').content);
    expect(content).toContain('KEPT_VALUE=visible');
    expect(content).not.toContain('sk-secret');
    expect(content).not.toContain('API_KEY');
  });

  it('rejects empty commands and out-of-range timeouts', async () => {
    expect(await tool.validateInput({ command: '  ' }, makeContext())).toMatchObject({ ok: false });
    expect(bashInputSchema.safeParse({ command: 'ls', timeout: 600_001 }).success).toBe(false);
    expect(bashInputSchema.safeParse({ command: 'ls', timeout: 0 }).success).toBe(false);
    expect(bashInputSchema.safeParse({ command: 'ls', extra: 1 }).success).toBe(false);
  });

  it('reports a shell that cannot start', async () => {
    const broken = createBashTool({ env: process.env, shell: path.join(root, 'no-such-shell') });
    const output = await broken.call({ command: 'echo hi' }, makeContext());
    expect(broken.mapResult(output, 'x')).toMatchObject({
      isError: true,
      content: expect.stringMatching(/could not be started/),
    });
    const background = await broken.call(
      { command: 'echo hi', run_in_background: true },
      makeContext({ services: createServices().set(TASK_REGISTRY, createTaskRegistry()) }),
    );
    expect(broken.mapResult(background, 'x')).toMatchObject({
      isError: true,
      content: expect.stringMatching(/could not be started/),
    });
  });

  it('declares its runtime behaviour', () => {
    expect(tool.name).toBe('Bash');
    expect(tool.interruptBehavior).toBe('cancel');
    expect(tool.errorCancelsSiblings).toBe(true);
    expect(tool.isReadOnly({ command: 'ls' })).toBe(false);
    expect(tool.isConcurrencySafe({ command: 'ls' })).toBe(false);
    expect(tool.describeInput({ command: 'ls -la', description: 'List files' })).toBe('List files');
  });
});

describe('Bash in the background', () => {
  it('refuses without a task registry', async () => {
    const { mapped } = await run({ command: 'sleep 1', run_in_background: true });
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toMatch(/no task registry/);
  });

  it('refuses to start in a working folder that does not exist', async () => {
    const services = createServices().set(TASK_REGISTRY, createTaskRegistry());
    const context = makeContext({ services, cwd: path.join(root, 'nowhere'), sessionId: 's-bg-missing' });
    const { mapped } = await run({ command: 'sleep 1', run_in_background: true }, context);
    expect(mapped).toEqual({
      content: `The working folder ${path.join(root, 'nowhere')} does not exist, so the command did not start.`,
      isError: true,
    });
  });

  it('returns a task id at once and writes output to a file', async () => {
    const registry = createTaskRegistry();
    const services = createServices()
      .set(SPILL_FOLDER, createSpillFolder({ path: spill }))
      .set(TASK_REGISTRY, registry);
    const { output, mapped } = await run(
      { command: 'echo first; sleep 300', run_in_background: true, description: 'sleeper' },
      makeContext({ services }),
    );
    expect(output.kind).toBe('background');
    if (output.kind !== 'background') return;
    expect(mapped.content).toContain(`task id ${output.taskId}`);
    expect(registry.get(output.taskId)).toMatchObject({ status: 'running', description: 'sleeper' });
    expect(await waitUntil(async () => (await readFile(output.outputFile, 'utf8')) === 'first\n')).toBe(true);
    await registry.dispose();
    expect(registry.get(output.taskId)).toMatchObject({ status: 'killed' });
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(tool)]).toMatchSnapshot();
  });
});
