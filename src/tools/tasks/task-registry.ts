import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { defineService } from '../../contract/services.js';
import { ToolplaneError } from '../../errors/toolplane-error.js';

/** Where a background task is in its life. */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'killed';

/** How a task's process ended. */
export type TaskExit = { readonly exitCode: number | null; readonly signal: string | null };

/** The process behind a task, as the code that started it hands it over. */
export type TaskProcess = {
  readonly pid: number | undefined;
  /** Settles when the process has exited (never rejects). */
  readonly exited: Promise<TaskExit>;
  /** Kills the process and everything it started; resolves once the kill is delivered. */
  stop(): Promise<void>;
};

/** A plain, serialisable view of one task. */
export type TaskSnapshot = {
  readonly id: string;
  readonly description: string;
  readonly command: string;
  readonly status: TaskStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The file the task's output (stdout and stderr, interleaved) is written to. */
  readonly outputFile: string;
  /** Epoch ms. */
  readonly startedAt: number;
  readonly endedAt: number | undefined;
};

/** Output read from a task's file. */
export type TaskOutputChunk = {
  readonly text: string;
  /** Bytes of new output that were skipped because they exceeded `maxBytes` (the oldest ones). */
  readonly skippedBytes: number;
  /** Total size of the output file at the time of the read. */
  readonly totalBytes: number;
};

/** What `register` needs to adopt a started process. */
export type RegisterTaskOptions = {
  readonly description: string;
  readonly command: string;
  readonly outputFile: string;
  readonly process: TaskProcess;
};

/** Options for `readOutput`. */
export type ReadTaskOutputOptions = {
  /** `new`: only what was written since the previous read (the first read returns everything). */
  readonly from: 'new' | 'start';
  /** At most this many bytes are returned; older ones are skipped. Default 30,000. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
};

/** Options for `waitForExit`. */
export type WaitForTaskOptions = {
  /** Give up waiting after this many ms (the task keeps running). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
};

/** Called with a task's snapshot whenever it starts or changes status. */
export type TaskListener = (task: TaskSnapshot) => void;

/**
 * The background tasks of one session (Bash runs with `run_in_background`). The host creates one
 * per session, registers it under {@link TASK_REGISTRY} and calls `dispose()` when the session
 * ends, which kills every task still running and whatever a finished task left in its group.
 */
export type TaskRegistry = {
  /** Adopts a started process; throws `EXECUTOR_CLOSED` (after stopping it) once disposed. */
  register(options: RegisterTaskOptions): TaskSnapshot;
  get(id: string): TaskSnapshot | undefined;
  list(): readonly TaskSnapshot[];
  /** Reads the task's output; `undefined` for an unknown id. */
  readOutput(id: string, options: ReadTaskOutputOptions): Promise<TaskOutputChunk | undefined>;
  /** Resolves with the snapshot once the task ends, the timeout passes or the signal aborts. */
  waitForExit(id: string, options: WaitForTaskOptions): Promise<TaskSnapshot | undefined>;
  /** Kills the task's process group; `undefined` for an unknown id. A finished task is left as it is. */
  stop(id: string): Promise<TaskSnapshot | undefined>;
  /** Subscribes to task changes; returns the unsubscribe function. */
  subscribe(listener: TaskListener): () => void;
  /** Kills every running task and what finished tasks left running in their groups; later registrations are refused. */
  dispose(): Promise<void>;
};

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
      const maxBytes = options.maxBytes ?? DEFAULT_READ_BYTES;
      const start = options.from === 'new' ? entry.readOffset : 0;
      const handle = await open(entry.snapshot.outputFile, 'r');
      try {
        const { size } = await handle.stat();
        const available = Math.max(0, size - start);
        const length = Math.min(available, maxBytes);
        const position = size - length;
        const buffer = Buffer.alloc(length);
        let read = 0;
        while (read < length) {
          const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
          if (bytesRead === 0) break;
          read += bytesRead;
        }
        entry.readOffset = Math.max(entry.readOffset, position + read);
        return {
          text: decodeFromCharBoundary(buffer.subarray(0, read)),
          skippedBytes: available - length,
          totalBytes: size,
        };
      } finally {
        await handle.close();
      }
    },

    async waitForExit(id, options) {
      const entry = tasks.get(id);
      if (!entry) return undefined;
      if (entry.snapshot.status !== 'running') return entry.snapshot;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, options.timeoutMs);
        options.signal?.addEventListener('abort', done, { once: true });
        if (options.signal?.aborted) done();
        // `finish` runs in an earlier `then` on the same promise, so the snapshot is updated first.
        void entry.process.exited.then(done);
      });
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

/** Decodes UTF-8, dropping continuation bytes cut off at the start of a tail read. */
function decodeFromCharBoundary(bytes: Buffer): string {
  let start = 0;
  while (start < bytes.length && start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString('utf8');
}
