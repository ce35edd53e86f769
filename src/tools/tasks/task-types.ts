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
