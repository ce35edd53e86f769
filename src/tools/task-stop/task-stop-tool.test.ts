import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createCallContext } from '../../testing/call-context.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { isProcessRunning } from '../bash/kill-process-group.js';
import { startBackgroundCommand } from '../bash/start-background-command.js';
import { TASK_REGISTRY, createTaskRegistry, type TaskRegistry } from '../tasks/task-registry.js';
import { createTaskStopTool } from './task-stop-tool.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';

let root: string;
const registry: TaskRegistry = createTaskRegistry();
const services: ServiceRegistry = createServices().set(TASK_REGISTRY, registry);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolplane-task-stop-'));
});

afterAll(async () => {
  await registry.dispose();
  await rm(root, { recursive: true, force: true });
});

function makeContext(withServices: ServiceRegistry = services): ToolCallContext {
  return createCallContext({ toolUseId: 'toolu_1', cwd: root, services: withServices });
}

async function start(command: string, name: string): Promise<string> {
  const outputFile = path.join(root, `${name}.log`);
  const started = await startBackgroundCommand({
    command,
    shell: '/bin/sh',
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    outputFile,
    killGraceMs: 300,
  });
  return registry.register({ description: name, command, outputFile, process: started }).id;
}

const tool = createTaskStopTool();

describe('TaskStop', () => {
  it('kills a running task and every process it started', async () => {
    const pidFile = path.join(root, 'child.pid');
    const id = await start(`sleep 300 & echo $! > "${pidFile}"; wait`, 'server');
    let child = 0;
    for (let attempt = 0; attempt < 200 && child === 0; attempt += 1) {
      child = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim()) || 0;
      if (child === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const output = await tool.call({ task_id: id }, makeContext());
    expect(tool.mapResult(output, 'x')).toEqual({
      content: `Stopped task ${id} (server) and every process it started. Its output remains in ${path.join(root, 'server.log')}.`,
    });
    expect(registry.get(id)?.status).toBe('killed');
    let gone = false;
    for (let attempt = 0; attempt < 200 && !gone; attempt += 1) {
      gone = !isProcessRunning(child);
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(gone).toBe(true);
  });

  it('says so when the task already finished', async () => {
    const id = await start('exit 0', 'quick');
    await registry.waitForExit(id, { timeoutMs: 10_000 });
    const output = await tool.call({ task_id: id }, makeContext());
    expect(tool.mapResult(output, 'x')).toEqual({
      content: `Task ${id} (quick) had already finished: completed (exit code 0). Nothing was stopped.`,
    });
  });

  it('explains an unknown task id', async () => {
    const output = await tool.call({ task_id: 'task_unknown' }, makeContext());
    const mapped = tool.mapResult(output, 'x');
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toMatch(/^No background task with id "task_unknown" in this session\. Known tasks: /);
  });

  it('fails clearly without a task registry', async () => {
    const output = await tool.call({ task_id: 'task_1' }, makeContext(createServices()));
    expect(tool.mapResult(output, 'x')).toEqual({
      content: 'There are no background tasks in this session (no task registry).',
      isError: true,
    });
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(tool)]).toMatchSnapshot();
  });
});
