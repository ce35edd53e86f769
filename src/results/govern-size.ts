import type { ToolResultBlock, ToolResultContentBlock } from '../messages/types.js';
import type { ResultStore } from './result-store.js';

/** Characters of preview the model gets in place of an oversized result. */
export const PREVIEW_CHARS = 2_000;

/** Default budget for all results of one message together, in characters. */
export const DEFAULT_MESSAGE_BUDGET_CHARS = 200_000;

/** The text the model gets for a call that produced no output. */
export function emptyResultText(toolName: string): string {
  return `(${toolName} completed with no output)`;
}

/** Counts the characters of a result's text parts (images and documents are not counted). */
export function resultTextLength(content: ToolResultBlock['content']): number {
  if (typeof content === 'string') return content.length;
  let total = 0;
  for (const part of content) if (part.type === 'text') total += part.text.length;
  return total;
}

/** True when a result has no content worth sending. */
export function isEmptyContent(content: ToolResultBlock['content']): boolean {
  if (typeof content === 'string') return content.trim().length === 0;
  return content.length === 0 || content.every((part) => part.type === 'text' && part.text.trim().length === 0);
}

function resultText(content: ToolResultBlock['content']): string {
  if (typeof content === 'string') return content;
  return content
    .filter((part): part is Extract<ToolResultContentBlock, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

function preview(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const cut = text.lastIndexOf('\n', PREVIEW_CHARS);
  return text.slice(0, cut > PREVIEW_CHARS / 2 ? cut : PREVIEW_CHARS);
}

/** A file that already holds a result's whole output (a command's spill file). */
export type SavedOutput = { readonly path: string; readonly bytes: number };

/**
 * Replaces a result's text with a ~2 KB preview and the path of a file holding all of it. Images
 * and other non-text parts stay. With `saved`, that file is the one named (the text may be only
 * part of it); else the text is written to the store first, so the path is valid. Without either
 * (no session folder) the text is cut instead, and the result says so.
 */
export async function spillResult(
  block: ToolResultBlock,
  options: {
    readonly store: ResultStore | undefined;
    readonly saved?: SavedOutput;
    readonly signal?: AbortSignal;
  },
): Promise<ToolResultBlock> {
  const text = resultText(block.content);
  const head = preview(text);
  let note: string;
  if (options.saved) {
    note = `[Output too large to show: ${options.saved.bytes} bytes. The full output is saved in ${options.saved.path}; read it in parts (Read with offset and limit) or search it with Grep. The first ${head.length} characters follow.]`;
  } else if (options.store) {
    try {
      const path = await options.store.save(block.tool_use_id, text, options.signal);
      note = `[Output too large to show: ${text.length} characters. The full output is saved in ${path}; read it in parts (Read with offset and limit) or search it with Grep. The first ${head.length} characters follow.]`;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      note = `[Output too large to show: ${text.length} characters; saving it failed (${reason}), so only the first ${head.length} characters follow. Narrow the request to see the rest.]`;
    }
  } else {
    note = `[Output too large to show: ${text.length} characters; only the first ${head.length} characters follow. Narrow the request to see the rest.]`;
  }
  const others = typeof block.content === 'string' ? [] : block.content.filter((part) => part.type !== 'text');
  const textPart = `${note}\n${head}`;
  return {
    ...block,
    content: others.length === 0 ? textPart : [{ type: 'text', text: textPart }, ...others],
  };
}

/**
 * A tool's own size limit on one result: over `limit` characters (trailer included), or when the
 * content is known to be only part of a saved output, the content becomes a preview and a path
 * ({@link spillResult}); the trailer (how a command ended) then follows whole.
 */
export async function governResultSize(
  block: ToolResultBlock,
  options: {
    readonly limit: number;
    readonly store: ResultStore | undefined;
    readonly trailer?: string;
    readonly saved?: SavedOutput;
    readonly signal?: AbortSignal;
  },
): Promise<ToolResultBlock> {
  const trailer = options.trailer ?? '';
  const over = options.saved !== undefined || resultTextLength(block.content) + trailer.length > options.limit;
  const body = over
    ? await spillResult(block, {
        store: options.store,
        ...(options.saved ? { saved: options.saved } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      })
    : block;
  if (trailer === '') return body;
  if (typeof body.content === 'string') {
    return { ...body, content: body.content === '' ? trailer : `${body.content}\n${trailer}` };
  }
  return { ...body, content: [...body.content, { type: 'text', text: trailer }] };
}

/**
 * The per-message budget: while the results of one message together exceed `budget` characters,
 * the largest one not exempt is spilled. Returns the blocks in the same order.
 */
export async function applyMessageBudget(
  blocks: readonly ToolResultBlock[],
  options: {
    readonly budget: number;
    readonly store: ResultStore | undefined;
    /** Ids whose results must not be replaced (tools that limit themselves, like Read). */
    readonly exempt?: ReadonlySet<string>;
    readonly signal?: AbortSignal;
  },
): Promise<ToolResultBlock[]> {
  const out = [...blocks];
  const sizes = out.map((block) => resultTextLength(block.content));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  while (total > options.budget) {
    let largest = -1;
    for (let index = 0; index < out.length; index++) {
      const block = out[index]!;
      if (options.exempt?.has(block.tool_use_id)) continue;
      if (sizes[index]! <= PREVIEW_CHARS * 1.5) continue;
      if (largest === -1 || sizes[index]! > sizes[largest]!) largest = index;
    }
    if (largest === -1) break;
    const replaced = await spillResult(out[largest]!, { store: options.store, signal: options.signal });
    const size = resultTextLength(replaced.content);
    total += size - sizes[largest]!;
    sizes[largest] = size;
    out[largest] = replaced;
  }
  return out;
}

/** Whether a result's content is a preview standing in for a larger output (spilled or cut). */
export function isPreviewContent(content: ToolResultBlock['content']): boolean {
  return resultText(content).startsWith('[Output too large to show:');
}

/**
 * The file holding a spilled result's whole output, read back from its preview's note; undefined
 * when the result was not spilled, or was cut with nowhere to save it.
 */
export function savedOutputPath(content: ToolResultBlock['content']): string | undefined {
  const text = resultText(content);
  if (!text.startsWith('[Output too large to show:')) return undefined;
  const note = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  return /The full output is saved in (.+?); read it in parts/.exec(note)?.[1];
}
