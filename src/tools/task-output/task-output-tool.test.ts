import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createCallContext } from '../../testing/call-context.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { startBackgroundCommand } from '../bash/start-background-command.js';
import { TASK_REGISTRY, createTaskRegistry, type TaskRegistry } from '../tasks/task-registry.js';
import { createTaskOutputTool, taskOutputInputSchema, type TaskOutputInput } from './task-output-tool.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';

let root: string;
let counter = 0;
const registries: TaskRegistry[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolplane-task-output-'));
});

afterAll(async () => {
  await Promise.all(registries.map((registry) => registry.dispose()));
  await rm(root, { recursive: true, force: true });
});

function setup(): { registry: TaskRegistry; services: ServiceRegistry } {
  const registry = createTaskRegistry();
  registries.push(registry);
  return { registry, services: createServices().set(TASK_REGISTRY, registry) };
}

function makeContext(services: ServiceRegistry): ToolCallContext {
  return createCallContext({ toolUseId: 'toolu_1', cwd: root, services: services });
}

async function start(registry: TaskRegistry, command: string, description = command): Promise<string> {
  counter += 1;
  const outputFile = path.join(root, `task-${counter}.log`);
  const started = await startBackgroundCommand({
    command,
    shell: '/bin/sh',
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    outputFile,
    killGraceMs: 300,
  });
  return registry.register({ description, command, outputFile, process: started }).id;
}

const tool = createTaskOutputTool();

async function read(input: TaskOutputInput, services: ServiceRegistry) {
  const output = await tool.call(taskOutputInputSchema.parse(input), makeContext(services));
  return tool.mapResult(output, 'toolu_1');
}

describe('TaskOutput', () => {
  it('waits for a task to finish and returns its output and exit code', async () => {
    const { registry, services } = setup();
    const id = await start(registry, 'echo building; sleep 0.2; echo done', 'build');
    expect(await read({ task_id: id }, services)).toEqual({
      content: `Task ${id} (build): completed (exit code 0).\nOutput:\nbuilding\ndone`,
    });
    expect(await read({ task_id: id }, services)).toEqual({
      content: `Task ${id} (build): completed (exit code 0).\n(no new output)`,
    });
  });

  it('reports a failing task with its exit code', async () => {
    const { registry, services } = setup();
    const id = await start(registry, 'echo broken >&2; exit 7', 'fail');
    expect((await read({ task_id: id }, services)).content).toBe(
      `Task ${id} (fail): failed (exit code 7).\nOutput:\nbroken`,
    );
  });

  it('returns what is there when the wait times out, and only new output after that', async () => {
    const { registry, services } = setup();
    const id = await start(registry, 'echo first; sleep 300', 'server');
    const outputFile = registry.get(id)?.outputFile ?? '';
    for (let attempt = 0; attempt < 400 && (await readFile(outputFile, 'utf8')) !== 'first\n'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const waited = await read({ task_id: id, timeout: 50 }, services);
    expect(waited.content).toBe(
      `Task ${id} (server): running.\nStill running after waiting 50 ms; call TaskOutput again to keep waiting or TaskStop to stop it.\nOutput:\nfirst`,
    );
    expect((await read({ task_id: id, block: false }, services)).content).toBe(
      `Task ${id} (server): running.\n(no new output)`,
    );
  });

  it('cuts long new output to its latest part and names the file', async () => {
    const { registry, services } = setup();
    const small = createTaskOutputTool({ maxOutputBytes: 10 });
    const id = await start(registry, 'printf "0123456789abcdefghij"', 'long');
    await registry.waitForExit(id, { timeoutMs: 10_000 });
    const output = await small.call({ task_id: id }, makeContext(services));
    const file = registry.get(id)?.outputFile;
    expect(small.mapResult(output, 'x').content).toBe(
      `Task ${id} (long): completed (exit code 0).\n[10 earlier bytes of new output skipped; the full output is in ${file}]\nOutput:\nabcdefghij`,
    );
  });

  it('explains an unknown task id, listing the known ones', async () => {
    const { registry, services } = setup();
    expect(await read({ task_id: 'task_missing' }, services)).toEqual({
      content:
        'No background task with id "task_missing" in this session. No background tasks have been started; start one with Bash and run_in_background: true.',
      isError: true,
    });
    const id = await start(registry, 'true', 'noop');
    await registry.waitForExit(id, { timeoutMs: 10_000 });
    const mapped = await read({ task_id: 'task_missing' }, services);
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toContain(`Known tasks: ${id} (noop, completed (exit code 0))`);
  });

  it('fails clearly without a task registry', async () => {
    expect(await read({ task_id: 'task_1' }, createServices())).toEqual({
      content: 'There are no background tasks in this session (no task registry).',
      isError: true,
    });
  });

  it('is read-only and rejects out-of-range timeouts', () => {
    expect(tool.isReadOnly({ task_id: 'x' })).toBe(true);
    expect(tool.isConcurrencySafe({ task_id: 'x' })).toBe(true);
    expect(taskOutputInputSchema.safeParse({ task_id: 'x', timeout: -1 }).success).toBe(false);
    expect(taskOutputInputSchema.safeParse({ task_id: 'x', timeout: 600_001 }).success).toBe(false);
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(tool)]).toMatchSnapshot();
  });
});
