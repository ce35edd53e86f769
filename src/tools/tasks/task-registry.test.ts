import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import { isProcessRunning } from '../bash/kill-process-group.js';
import { startBackgroundCommand } from '../bash/start-background-command.js';
import { createTaskRegistry, type TaskRegistry, type TaskSnapshot } from './task-registry.js';

let root: string;
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolplane-tasks-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function start(registry: TaskRegistry, command: string): Promise<TaskSnapshot> {
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
  return registry.register({ description: command, command, outputFile, process: started });
}

describe('createTaskRegistry', () => {
  it('tracks a task to completion and reads new output once', async () => {
    const registry = createTaskRegistry();
    const seen: string[] = [];
    const unsubscribe = registry.subscribe((task) => seen.push(task.status));
    const task = await start(registry, 'echo one; echo two');
    const done = await registry.waitForExit(task.id, { timeoutMs: 10_000 });
    expect(done).toMatchObject({ status: 'completed', exitCode: 0, signal: null });
    expect(done?.endedAt).toBeGreaterThanOrEqual(task.startedAt);
    expect(await registry.readOutput(task.id, { from: 'new' })).toEqual({
      text: 'one\ntwo\n',
      skippedBytes: 0,
      totalBytes: 8,
    });
    expect(await registry.readOutput(task.id, { from: 'new' })).toEqual({ text: '', skippedBytes: 0, totalBytes: 8 });
    expect(await registry.readOutput(task.id, { from: 'start', maxBytes: 4 })).toEqual({
      text: 'two\n',
      skippedBytes: 4,
      totalBytes: 8,
    });
    expect(seen).toEqual(['running', 'completed']);
    unsubscribe();
    expect(registry.list().map((entry) => entry.id)).toEqual([task.id]);
  });

  it('marks a non-zero exit as failed', async () => {
    const registry = createTaskRegistry();
    const task = await start(registry, 'exit 4');
    expect(await registry.waitForExit(task.id, { timeoutMs: 10_000 })).toMatchObject({ status: 'failed', exitCode: 4 });
  });

  it('stops waiting when the timeout passes or the signal aborts, leaving the task running', async () => {
    const registry = createTaskRegistry();
    const task = await start(registry, 'sleep 300');
    expect(await registry.waitForExit(task.id, { timeoutMs: 20 })).toMatchObject({ status: 'running' });
    const controller = new AbortController();
    controller.abort();
    expect(await registry.waitForExit(task.id, { timeoutMs: 60_000, signal: controller.signal })).toMatchObject({
      status: 'running',
    });
    expect(await registry.stop(task.id)).toMatchObject({ status: 'killed' });
    expect(await registry.stop(task.id)).toMatchObject({ status: 'killed' });
  });

  it('answers undefined for unknown ids', async () => {
    const registry = createTaskRegistry();
    expect(registry.get('task_nope')).toBeUndefined();
    expect(await registry.readOutput('task_nope', { from: 'new' })).toBeUndefined();
    expect(await registry.waitForExit('task_nope', { timeoutMs: 1 })).toBeUndefined();
    expect(await registry.stop('task_nope')).toBeUndefined();
  });

  it('kills every running task on dispose and refuses new ones afterwards', async () => {
    const registry = createTaskRegistry();
    const pidFile = path.join(root, 'dispose.pid');
    const first = await start(registry, `sleep 300 & echo $! > "${pidFile}"; wait`);
    const second = await start(registry, 'sleep 300');
    const { readFile } = await import('node:fs/promises');
    let grandchild = 0;
    for (let attempt = 0; attempt < 200 && grandchild === 0; attempt += 1) {
      grandchild = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim()) || 0;
      if (grandchild === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await registry.dispose();
    expect(registry.get(first.id)?.status).toBe('killed');
    expect(registry.get(second.id)?.status).toBe('killed');
    let gone = false;
    for (let attempt = 0; attempt < 200 && !gone; attempt += 1) {
      gone = !isProcessRunning(grandchild);
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(gone).toBe(true);
    await expect(start(registry, 'sleep 300')).rejects.toThrow(ToolplaneError);
  });

  it('on dispose also kills what a finished task left running in its group', async () => {
    const registry = createTaskRegistry();
    const task = await start(registry, 'sleep 300 & echo $!');
    const done = await registry.waitForExit(task.id, { timeoutMs: 10_000 });
    expect(done?.status).toBe('completed');
    const leftover = Number((await registry.readOutput(task.id, { from: 'start' }))?.text.trim());
    expect(leftover).toBeGreaterThan(0);
    expect(isProcessRunning(leftover)).toBe(true);
    await registry.dispose();
    let gone = false;
    for (let attempt = 0; attempt < 200 && !gone; attempt += 1) {
      gone = !isProcessRunning(leftover);
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (!gone) process.kill(leftover, 'SIGKILL');
    expect(gone).toBe(true);
    expect(registry.get(task.id)?.status).toBe('completed');
  });
});
