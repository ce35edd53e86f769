import { z } from 'zod';
import type { StopReason, Usage } from '../../contract/provider.js';
import { ToolplaneError } from '../../errors/index.js';
import type { AssistantContentBlock, AssistantMessage } from '../../messages/types.js';
import { parseToolInput } from '../parse-tool-input.js';

/**
 * What an incoming request must contain for a scripted turn to be played. Every listed condition
 * is checked; a difference fails the run with `SCRIPT_MISMATCH`.
 */
export type ScriptExpectation = {
  /** The exact set of `tool_result` ids in the request's last user message (order does not matter). */
  readonly tool_results?: readonly string[];
  /** Ids among the last user message's results that must have `is_error: true`; every other result must not. */
  readonly errors?: readonly string[];
  /** Texts that must occur in some user message of the request (plain text or tool result content). */
  readonly includes?: readonly string[];
  /** Texts that must not occur in any user message of the request. */
  readonly excludes?: readonly string[];
  /** Tool names that must be in the request's `tools[]`. */
  readonly tools?: readonly string[];
  /** Tool names that must not be in the request's `tools[]`. */
  readonly no_tools?: readonly string[];
};

/** A content block of a scripted assistant turn. */
export type ScriptedBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      /** Default: `toolu_script_<turn>_<block>` (both from 1). */
      readonly id?: string;
      readonly name: string;
      /** The input as JSON data. Default `{}`. */
      readonly input?: unknown;
      /** The input as raw text, streamed verbatim; may be malformed JSON. Wins over `input`. */
      readonly input_json?: string;
    }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string };

/**
 * One assistant turn of a script: one line of a script file.
 *
 * ```json
 * {"content":[{"type":"text","text":"Reading both."},
 *             {"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a"}}],
 *  "stop_reason":"tool_use", "expect":{"tools":["Read"]}}
 * ```
 */
export type ScriptedTurn = {
  readonly content: readonly ScriptedBlock[];
  /** Default: `tool_use` when the turn has a tool_use block, else `end_turn`. */
  readonly stop_reason?: StopReason;
  /** Reported token counts. Default: a rough count from the content's length. */
  readonly usage?: {
    readonly input_tokens?: number;
    readonly output_tokens?: number;
    readonly cache_read_input_tokens?: number;
    readonly cache_creation_input_tokens?: number;
  };
  /** What the request answered by this turn must contain. */
  readonly expect?: ScriptExpectation;
  /**
   * Milliseconds to wait before the turn streams, as a model takes time to answer (the demo's
   * pacing, so a person can follow it). The request's signal ends the wait. Default 0.
   */
  readonly delay_ms?: number;
};

const names = z.array(z.string());

const expectationSchema = z.strictObject({
  tool_results: names.optional(),
  errors: names.optional(),
  includes: names.optional(),
  excludes: names.optional(),
  tools: names.optional(),
  no_tools: names.optional(),
});

const blockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({
    type: z.literal('tool_use'),
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    input: z.unknown().optional(),
    input_json: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() }),
]);

const count = z.number().int().nonnegative();

const turnSchema = z.strictObject({
  content: z.array(blockSchema),
  stop_reason: z
    .enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', 'other'])
    .optional(),
  usage: z
    .strictObject({
      input_tokens: count.optional(),
      output_tokens: count.optional(),
      cache_read_input_tokens: count.optional(),
      cache_creation_input_tokens: count.optional(),
    })
    .optional(),
  expect: expectationSchema.optional(),
  delay_ms: count.max(60_000).optional(),
});

/**
 * Checks that `value` is a {@link ScriptedTurn}; `where` names it in the error
 * ("script.jsonl line 3"). Throws `SCRIPT_MISMATCH` listing every problem.
 */
export function parseScriptedTurn(value: unknown, where: string): ScriptedTurn {
  const result = turnSchema.safeParse(value);
  if (!result.success) {
    throw new ToolplaneError(
      'SCRIPT_MISMATCH',
      `${where} is not a valid scripted turn:\n${z.prettifyError(result.error)}`,
    );
  }
  return result.data as ScriptedTurn;
}

/** One block of a planned turn, with the pieces it is streamed in. */
export type PlannedBlock =
  | { readonly type: 'text'; readonly text: string; readonly chunks: readonly string[] }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      /** The raw input text, exactly as streamed. */
      readonly json: string;
      readonly chunks: readonly string[];
    }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string };

/** A scripted turn resolved into what is streamed and what the finished message holds. */
export type PlannedTurn = {
  readonly blocks: readonly PlannedBlock[];
  readonly message: AssistantMessage;
  readonly stopReason: StopReason;
  readonly usage: Usage;
};

/**
 * Splits `text` into at most `parts` pieces of near-equal length, never inside a surrogate pair.
 * Deterministic; empty text gives no pieces.
 */
export function splitIntoChunks(text: string, parts = 3): string[] {
  const characters = Array.from(text);
  if (characters.length === 0) return [];
  const size = Math.ceil(characters.length / Math.max(1, parts));
  const chunks: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    chunks.push(characters.slice(start, start + size).join(''));
  }
  return chunks;
}

/** Resolves a turn (number `turnNumber`, from 1) into its stream plan and finished message. */
export function planTurn(turn: ScriptedTurn, turnNumber: number): PlannedTurn {
  const blocks: PlannedBlock[] = [];
  const content: AssistantContentBlock[] = [];
  let hasToolUse = false;
  let outputChars = 0;
  turn.content.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        blocks.push({ type: 'text', text: block.text, chunks: splitIntoChunks(block.text) });
        content.push({ type: 'text', text: block.text });
        outputChars += block.text.length;
        return;
      case 'tool_use': {
        hasToolUse = true;
        const id = block.id ?? `toolu_script_${turnNumber}_${index + 1}`;
        const json = block.input_json ?? JSON.stringify(block.input ?? {});
        blocks.push({ type: 'tool_use', id, name: block.name, json, chunks: splitIntoChunks(json) });
        content.push({ type: 'tool_use', id, name: block.name, input: parseToolInput(json) });
        outputChars += json.length;
        return;
      }
      case 'thinking':
        blocks.push(block);
        content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        outputChars += block.thinking.length;
        return;
      case 'redacted_thinking':
        blocks.push(block);
        content.push({ type: 'redacted_thinking', data: block.data });
        return;
    }
  });
  const usage: Usage = {
    inputTokens: turn.usage?.input_tokens ?? 0,
    outputTokens: turn.usage?.output_tokens ?? Math.ceil(outputChars / 4),
    ...(turn.usage?.cache_read_input_tokens === undefined
      ? {}
      : { cacheReadInputTokens: turn.usage.cache_read_input_tokens }),
    ...(turn.usage?.cache_creation_input_tokens === undefined
      ? {}
      : { cacheCreationInputTokens: turn.usage.cache_creation_input_tokens }),
  };
  return {
    blocks,
    message: { role: 'assistant', content },
    stopReason: turn.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    usage,
  };
}
