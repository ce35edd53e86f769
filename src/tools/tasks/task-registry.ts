import { randomBytes } from 'node:crypto';
import { defineService } from '../../contract/services.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import { readOutputTail, settledOrTimedOut } from './read-task-output.js';
import type { TaskExit, TaskListener, TaskProcess, TaskRegistry, TaskSnapshot, TaskStatus } from './task-types.js';

export type {
  ReadTaskOutputOptions,
  RegisterTaskOptions,
  TaskExit,
  TaskListener,
  TaskOutputChunk,
  TaskProcess,
  TaskRegistry,
  TaskSnapshot,
  TaskStatus,
  WaitForTaskOptions,
} from './task-types.js';

/** The service key under which the host registers the session's task registry. */
export const TASK_REGISTRY = defineService<TaskRegistry>('task-registry');

const DEFAULT_READ_BYTES = 30_000;

type TaskEntry = {
  snapshot: TaskSnapshot;
  readonly process: TaskProcess;
  readOffset: number;
  stopRequested: boolean;
};

/** Creates an empty task registry for one session. */
export function createTaskRegistry(): TaskRegistry {
  const tasks = new Map<string, TaskEntry>();
  const listeners = new Set<TaskListener>();
  let disposed = false;

  const emit = (snapshot: TaskSnapshot) => {
    for (const listener of listeners) listener(snapshot);
  };

  const newId = () => {
    let id: string;
    do id = `task_${randomBytes(4).toString('hex')}`;
    while (tasks.has(id));
    return id;
  };

  const finish = (entry: TaskEntry, exit: TaskExit) => {
    const status: TaskStatus = entry.stopRequested ? 'killed' : exit.exitCode === 0 ? 'completed' : 'failed';
    entry.snapshot = { ...entry.snapshot, status, exitCode: exit.exitCode, signal: exit.signal, endedAt: Date.now() };
    emit(entry.snapshot);
  };

  return {
    register(options) {
      if (disposed) {
        void options.process.stop();
        throw new ToolplaneError('EXECUTOR_CLOSED', 'The session has ended; no new background tasks can start.');
      }
      const snapshot: TaskSnapshot = {
        id: newId(),
        description: options.description,
        command: options.command,
        status: 'running',
        exitCode: null,
        signal: null,
        outputFile: options.outputFile,
        startedAt: Date.now(),
        endedAt: undefined,
      };
      const entry: TaskEntry = { snapshot, process: options.process, readOffset: 0, stopRequested: false };
      tasks.set(snapshot.id, entry);
      emit(snapshot);
      void options.process.exited.then((exit) => finish(entry, exit));
      return snapshot;
    },

    get: (id) => tasks.get(id)?.snapshot,

    list: () => [...tasks.values()].map((entry) => entry.snapshot),

    async readOutput(id, options) {
      const entry = tasks.get(id);
      if (!entry) return undefined;
      options.signal?.throwIfAborted();
      const { chunk, end } = await readOutputTail({
        file: entry.snapshot.outputFile,
        from: options.from === 'new' ? entry.readOffset : 0,
        maxBytes: options.maxBytes ?? DEFAULT_READ_BYTES,
      });
      entry.readOffset = Math.max(entry.readOffset, end);
      return chunk;
    },

    async waitForExit(id, options) {
      const entry = tasks.get(id);
      if (!entry) return undefined;
      if (entry.snapshot.status !== 'running') return entry.snapshot;
      // `finish` runs in an earlier `then` on the same promise, so the snapshot is updated first.
      await settledOrTimedOut(entry.process.exited, options);
      return entry.snapshot;
    },

    async stop(id) {
      const entry = tasks.get(id);
      if (!entry) return undefined;
      if (entry.snapshot.status !== 'running') return entry.snapshot;
      entry.stopRequested = true;
      await entry.process.stop();
      await entry.process.exited;
      return entry.snapshot;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async dispose() {
      disposed = true;
      const all = [...tasks.values()];
      for (const entry of all) if (entry.snapshot.status === 'running') entry.stopRequested = true;
      // Finished tasks too: a shell that ended after `server &` leaves the server running in its
      // group, and the session's end must not leave it behind. Stopping a group that is gone is a no-op.
      await Promise.all(
        all.map(async (entry) => {
          await entry.process.stop();
          await entry.process.exited;
        }),
      );
    },
  };
}
