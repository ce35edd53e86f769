import { appendFile, mkdir, open, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolplaneError } from '../errors/toolplane-error.js';
import type { Message, ToolUseBlock } from '../messages/types.js';

/** One line of a transcript. */
export type TranscriptLine =
  | { readonly type: 'session'; readonly sessionId: string; readonly cwd: string; readonly createdAt: string }
  | { readonly type: 'message'; readonly message: Message; readonly timestamp: string }
  /** Write-ahead: a `tool_use` block, recorded before its call starts (its message follows when complete). */
  | { readonly type: 'tool-use'; readonly block: ToolUseBlock; readonly timestamp: string }
  /** A compaction: the history from here on starts with these messages. */
  | { readonly type: 'compact'; readonly messages: readonly Message[]; readonly timestamp: string }
  | {
      readonly type: 'event';
      readonly event: { readonly type: string; readonly [key: string]: unknown };
      readonly timestamp: string;
    };

/** An open session: its transcript file and its results folder. */
export type Session = {
  readonly id: string;
  readonly cwd: string;
  /** The transcript (JSONL, mode 0600). */
  readonly path: string;
  /** Where oversized tool results go. */
  readonly resultsDirectory: string;
  appendMessage(message: Message): void;
  /** Records a `tool_use` ahead of its call; resolves once it is written, rejects when it cannot be. */
  appendToolUse(block: ToolUseBlock): Promise<void>;
  appendCompaction(messages: readonly Message[]): void;
  appendEvent(event: { readonly type: string; readonly [key: string]: unknown }): void;
  /** Several events in one write (a batch's ledger entries). */
  appendEvents(events: readonly { readonly type: string; readonly [key: string]: unknown }[]): void;
  /** Resolves when everything appended so far is on disk; rejects with the write failure if there was one. */
  flush(): Promise<void>;
  /**
   * Resolves with the first write that failed (`SESSION_CORRUPT`, the cause attached: a full disk,
   * a folder gone), as soon as it fails; never resolves while writes succeed. After a failure
   * nothing more is written, so the transcript stays a readable prefix of the session.
   */
  readonly failed: Promise<ToolplaneError>;
};

/**
 * Opens the transcript at `path` for appending. A new one (`header` given) gets its folder (0700)
 * and its `session` line first; an existing one is continued on a line of its own.
 */
export function openTranscript(options: {
  readonly id: string;
  readonly cwd: string;
  readonly path: string;
  readonly resultsDirectory: string;
  readonly header?: TranscriptLine;
}): Session {
  const { path, header } = options;
  let failure: ToolplaneError | undefined;
  let reportFailure: (error: ToolplaneError) => void = () => undefined;
  const failed = new Promise<ToolplaneError>((resolve) => {
    reportFailure = resolve;
  });
  const fail = (error: unknown): ToolplaneError => {
    if (!failure) {
      failure = new ToolplaneError('SESSION_CORRUPT', `Could not write the transcript ${path}: ${String(error)}`, {
        cause: error,
      });
      reportFailure(failure);
    }
    return failure;
  };
  // The length of what is whole on disk, so a line cut short by a full disk can be taken back.
  let length = 0;
  const write = async (line: TranscriptLine | readonly TranscriptLine[]) => {
    if (failure) throw failure;
    const text = Array.isArray(line)
      ? line.map((each) => `${JSON.stringify(each)}\n`).join('')
      : `${JSON.stringify(line)}\n`;
    try {
      await appendFile(path, text, { mode: 0o600 });
    } catch (error) {
      await truncate(path, length).catch(() => undefined);
      throw error;
    }
    length += Buffer.byteLength(text);
  };
  const start = async () => {
    if (header) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await write(header);
    } else length = await endWithNewline(path);
  };
  let chain: Promise<void> = start().catch((error: unknown) => {
    fail(error);
  });
  /** Queues a line; resolves when it is written, rejects with the failure when it (or one before it) was not. */
  const append = (line: TranscriptLine | readonly TranscriptLine[]): Promise<void> => {
    const written = chain.then(() => write(line));
    chain = written.catch((error: unknown) => {
      fail(error);
    });
    return written.catch((error: unknown) => {
      throw fail(error);
    });
  };
  const timestamp = () => new Date().toISOString();
  const background = (line: TranscriptLine | readonly TranscriptLine[]) => {
    // A failure is reported through `failed` and `flush`, not by each caller.
    append(line).catch(() => undefined);
  };
  return {
    id: options.id,
    cwd: options.cwd,
    path,
    resultsDirectory: options.resultsDirectory,
    appendMessage: (message) => background({ type: 'message', message, timestamp: timestamp() }),
    appendToolUse: (block) => append({ type: 'tool-use', block, timestamp: timestamp() }),
    appendCompaction: (messages) => background({ type: 'compact', messages, timestamp: timestamp() }),
    appendEvent: (event) => background({ type: 'event', event, timestamp: timestamp() }),
    appendEvents: (events) => {
      if (events.length === 0) return;
      const at = timestamp();
      background(events.map((event) => ({ type: 'event' as const, event, timestamp: at })));
    },
    async flush() {
      await chain;
      if (failure) throw failure;
    },
    failed,
  };
}

/**
 * A transcript torn by a crash mid-write ends without a newline; the next line appended to it would
 * be glued to the torn one and lost with it on load. Returns the transcript's length after.
 */
async function endWithNewline(path: string): Promise<number> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return 0; // Nothing to continue; the first append creates the file.
  }
  let size = 0;
  let torn = false;
  try {
    size = (await handle.stat()).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      torn = last[0] !== 0x0a;
    }
  } finally {
    await handle.close();
  }
  if (!torn) return size;
  await appendFile(path, '\n', { mode: 0o600 });
  return size + 1;
}
