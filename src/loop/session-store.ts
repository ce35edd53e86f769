import { randomUUID } from 'node:crypto';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolplaneError } from '../errors/toolplane-error.js';
import type { Message, ToolResultBlock, ToolUseBlock } from '../messages/types.js';
import { openTranscript, type Session } from './transcript-writer.js';

export type { Session, TranscriptLine } from './transcript-writer.js';
import { repairPairing } from '../messages/repair-pairing.js';

/** Where the user's toolplane data lives: `TOOLPLANE_CONFIG_DIR` of `env`, else `.toolplane` in `home`. */
export function configDirectory(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const configured = env['TOOLPLANE_CONFIG_DIR'];
  return configured !== undefined && configured.length > 0 ? configured : join(home, '.toolplane');
}

/** The folder name of a project: its absolute path with every other character made a dash. */
export function projectKey(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** A session read back from disk. */
export type LoadedSession = {
  readonly id: string;
  readonly path: string;
  readonly cwd: string | undefined;
  /** The history, with its pairing repaired. */
  readonly messages: Message[];
  /**
   * Results made at load for calls of the last turn that have none (the run was killed while they
   * ran, or before they started): each says it was interrupted and may have run. Appending them
   * makes the transcript itself whole; nothing is run again.
   */
  readonly interrupted: readonly ToolResultBlock[];
  /** Lines that could not be read (a torn last line after a crash), by line number. */
  readonly skippedLines: readonly number[];
};

export type SessionSummary = {
  readonly id: string;
  readonly path: string;
  readonly modified: Date;
  readonly firstPrompt: string;
};

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Sessions of one project under `<configDir>/projects/<project>/`. */
export function createSessionStore(options: { readonly configDir: string; readonly cwd: string }) {
  const folder = join(options.configDir, 'projects', projectKey(options.cwd));

  const open_ = (id: string, existing: boolean): Session =>
    openTranscript({
      id,
      cwd: options.cwd,
      path: join(folder, `${id}.jsonl`),
      resultsDirectory: join(folder, id, 'tool-results'),
      ...(existing
        ? {}
        : { header: { type: 'session', sessionId: id, cwd: options.cwd, createdAt: new Date().toISOString() } }),
    });

  return {
    folder,
    /** Starts a new session. */
    create(id: string = randomUUID()): Session {
      if (!SESSION_ID.test(id))
        throw new ToolplaneError('SESSION_CORRUPT', `Invalid session id ${JSON.stringify(id)}.`);
      return open_(id, false);
    },
    /** Reopens a session to append to it. */
    reopen(id: string): Session {
      if (!SESSION_ID.test(id))
        throw new ToolplaneError('SESSION_CORRUPT', `Invalid session id ${JSON.stringify(id)}.`);
      return open_(id, true);
    },
    /** Whether a session of this id has a transcript; a folder that cannot be read throws, never says no. */
    async has(id: string): Promise<boolean> {
      if (!SESSION_ID.test(id))
        throw new ToolplaneError('SESSION_CORRUPT', `Invalid session id ${JSON.stringify(id)}.`);
      try {
        await stat(join(folder, `${id}.jsonl`));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw new ToolplaneError('SESSION_CORRUPT', `Cannot tell whether session ${id} exists.`, { cause: error });
      }
    },
    /** Reads a session back; throws SESSION_CORRUPT when it does not exist. */
    async load(id: string): Promise<LoadedSession> {
      if (!SESSION_ID.test(id))
        throw new ToolplaneError('SESSION_CORRUPT', `Invalid session id ${JSON.stringify(id)}.`);
      return loadTranscript(join(folder, `${id}.jsonl`), id);
    },
    /** Sessions of this project, newest first. */
    async list(): Promise<SessionSummary[]> {
      let names: string[];
      try {
        names = await readdir(folder);
      } catch {
        return [];
      }
      const sessions: SessionSummary[] = [];
      for (const name of names) {
        if (!name.endsWith('.jsonl')) continue;
        const path = join(folder, name);
        const info = await stat(path);
        const loaded = await loadTranscript(path, name.slice(0, -6)).catch(() => undefined);
        const first = loaded?.messages.find((message) => message.role === 'user');
        const firstPrompt = first
          ? typeof first.content === 'string'
            ? first.content
            : first.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(' ')
          : '';
        sessions.push({ id: name.slice(0, -6), path, modified: info.mtime, firstPrompt: firstPrompt.slice(0, 120) });
      }
      return sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime());
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/**
 * Reads a transcript: message lines build the history, a compaction line replaces it, and a line
 * that does not parse (a crash mid-write) is skipped — it loses at most that line.
 */
export async function loadTranscript(path: string, id: string): Promise<LoadedSession> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      text = await readFile(handle, 'utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ToolplaneError('SESSION_CORRUPT', `No session ${id} (${path} could not be read).`, { cause: error });
  }
  let messages: Message[] = [];
  // Write-ahead tool_use lines whose message has not (yet) been recorded.
  let pending: ToolUseBlock[] = [];
  const flushPending = () => {
    if (pending.length > 0) messages.push({ role: 'assistant', content: pending });
    pending = [];
  };
  let cwd: string | undefined;
  const skippedLines: number[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      skippedLines.push(index + 1);
      continue;
    }
    if (typeof line !== 'object' || line === null) {
      skippedLines.push(index + 1);
      continue;
    }
    const record = line as Record<string, unknown>;
    if (record.type === 'session' && typeof record.cwd === 'string') cwd = record.cwd;
    else if (record.type === 'tool-use' && isToolUse(record.block)) pending.push(record.block);
    else if (record.type === 'message' && isMessage(record.message)) {
      const recorded = record.message;
      if (recorded.role === 'assistant')
        pending = pending.filter(
          (block) => !recorded.content.some((part) => part.type === 'tool_use' && part.id === block.id),
        );
      flushPending();
      messages.push(recorded);
    } else if (record.type === 'compact' && Array.isArray(record.messages)) {
      pending = [];
      messages = record.messages.filter(isMessage);
    }
  }
  flushPending();
  const repaired = repairPairing(messages);
  return {
    id,
    path,
    cwd,
    messages: repaired.messages,
    interrupted: interruptedResults(repaired.messages, repaired.report.synthesized),
    skippedLines,
  };
}

/** The synthetic results of the last turn's calls, when that is where the repair put them. */
function interruptedResults(messages: readonly Message[], synthesized: readonly string[]): ToolResultBlock[] {
  const last = messages[messages.length - 1];
  if (synthesized.length === 0 || last?.role !== 'user' || typeof last.content === 'string') return [];
  const ids = new Set(synthesized);
  return last.content.filter(
    (block): block is ToolResultBlock => block.type === 'tool_result' && ids.has(block.tool_use_id),
  );
}

function isToolUse(value: unknown): value is ToolUseBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  return block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string';
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  return (
    (message.role === 'user' && (typeof message.content === 'string' || Array.isArray(message.content))) ||
    (message.role === 'assistant' && Array.isArray(message.content))
  );
}

/**
 * The input of the last TodoWrite call of the main agent that did not fail (a call answered with an
 * error never changed the list), to rebuild the todo list on resume.
 */
export function lastTodoWriteInput(messages: readonly Message[]): unknown {
  const failed = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content)
      if (block.type === 'tool_result' && block.is_error === true) failed.add(block.tool_use_id);
  }
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    for (let block = message.content.length - 1; block >= 0; block--) {
      const part = message.content[block]!;
      if (part.type === 'tool_use' && part.name === 'TodoWrite' && !failed.has(part.id)) return part.input;
    }
  }
  return undefined;
}
