import { readFile } from 'node:fs/promises';
import { ToolplaneError, describeError } from '../../errors/index.js';
import { getUnparseableInput } from '../../messages/types.js';
import { parseScriptedTurn, type ScriptedBlock, type ScriptedTurn } from './scripted-turn.js';

/** A script ready to play: its turns in order and where each came from. */
export type Script = {
  /** `script` for a file of scripted turns, `transcript` for a recorded session. */
  readonly format: 'script' | 'transcript';
  readonly turns: readonly ScriptedTurn[];
  /** One label per turn for error messages, e.g. `demo.jsonl line 4`. */
  readonly labels: readonly string[];
};

type Line = { readonly number: number; readonly value: unknown; readonly error?: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTranscriptLine(value: unknown): boolean {
  return isRecord(value) && typeof value['type'] === 'string' && !('content' in value);
}

function fromTranscriptBlock(block: unknown): ScriptedBlock | undefined {
  if (!isRecord(block)) return undefined;
  switch (block['type']) {
    case 'text':
      return typeof block['text'] === 'string' ? { type: 'text', text: block['text'] } : undefined;
    case 'tool_use': {
      const { id, name, input } = block;
      if (typeof id !== 'string' || typeof name !== 'string') return undefined;
      const raw = getUnparseableInput(input);
      return raw === undefined
        ? { type: 'tool_use', id, name, input: input ?? {} }
        : { type: 'tool_use', id, name, input_json: raw };
    }
    case 'thinking':
      return typeof block['thinking'] === 'string' && typeof block['signature'] === 'string'
        ? { type: 'thinking', thinking: block['thinking'], signature: block['signature'] }
        : undefined;
    case 'redacted_thinking':
      return typeof block['data'] === 'string' ? { type: 'redacted_thinking', data: block['data'] } : undefined;
    default:
      // Blocks the scripted model cannot produce (server tool results, …) are left out of the replay.
      return undefined;
  }
}

function transcriptTurns(lines: readonly Line[], source: string): Script {
  const turns: ScriptedTurn[] = [];
  const labels: string[] = [];
  const last = lines.at(-1);
  for (const line of lines) {
    if (line.error !== undefined) {
      // A crash mid-write leaves a truncated last line; it loses only itself.
      if (line === last) continue;
      throw new ToolplaneError('SCRIPT_MISMATCH', `${source} line ${line.number} is not valid JSON: ${line.error}`);
    }
    const value = line.value;
    if (!isRecord(value) || value['type'] !== 'message' || !isRecord(value['message'])) continue;
    const message = value['message'];
    if (message['role'] !== 'assistant') continue;
    const content = message['content'];
    const blocks: ScriptedBlock[] = [];
    if (typeof content === 'string') blocks.push({ type: 'text', text: content });
    else if (Array.isArray(content)) {
      for (const block of content) {
        const converted = fromTranscriptBlock(block);
        if (converted !== undefined) blocks.push(converted);
      }
    } else {
      throw new ToolplaneError(
        'SCRIPT_MISMATCH',
        `${source} line ${line.number}: assistant message has no content array`,
      );
    }
    turns.push({ content: blocks });
    labels.push(`${source} line ${line.number}`);
  }
  return { format: 'transcript', turns, labels };
}

/**
 * Parses script text: JSONL, one {@link ScriptedTurn} per non-blank line; or a recorded session
 * transcript (lines `{"type":"message","message":{role, content}}` among other types), whose
 * assistant messages are replayed in order. `source` names the text in errors.
 * Throws `SCRIPT_MISMATCH` naming the line of the first invalid turn.
 */
export function parseScript(text: string, options: { readonly source: string }): Script {
  const { source } = options;
  const lines: Line[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    try {
      lines.push({ number: index + 1, value: JSON.parse(raw) as unknown });
    } catch (error) {
      lines.push({ number: index + 1, value: undefined, error: describeError(error) });
    }
  });
  if (lines.some((line) => isTranscriptLine(line.value))) return transcriptTurns(lines, source);
  const turns: ScriptedTurn[] = [];
  const labels: string[] = [];
  for (const line of lines) {
    const label = `${source} line ${line.number}`;
    if (line.error !== undefined) {
      throw new ToolplaneError('SCRIPT_MISMATCH', `${label} is not valid JSON: ${line.error}`);
    }
    turns.push(parseScriptedTurn(line.value, label));
    labels.push(label);
  }
  return { format: 'script', turns, labels };
}

/** Checks in-memory turns (e.g. from a test) and labels them `turn 1`, `turn 2`, …. */
export function scriptFromTurns(turns: readonly unknown[]): Script {
  const labels = turns.map((_, index) => `turn ${index + 1}`);
  return {
    format: 'script',
    turns: turns.map((turn, index) => parseScriptedTurn(turn, labels[index] ?? `turn ${index + 1}`)),
    labels,
  };
}

/** Reads and parses a script or transcript file (see {@link parseScript}). */
export async function readScriptFile(path: string, options: { readonly signal: AbortSignal }): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, { encoding: 'utf8', signal: options.signal });
  } catch (error) {
    throw new ToolplaneError('SCRIPT_MISMATCH', `cannot read script ${path}: ${describeError(error)}`, {
      cause: error,
    });
  }
  return parseScript(text, { source: path });
}
