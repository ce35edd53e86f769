import type { StopReason } from '../contract/provider.js';
import { createScriptedProvider, type ScriptedProvider } from '../providers/scripted/scripted-provider.js';
import type { ScriptedTurn, ScriptExpectation } from '../providers/scripted/scripted-turn.js';

/** One tool call of a {@link toolTurn}. */
export type ScriptedToolCall = {
  readonly name: string;
  /** Default: `toolu_script_<turn>_<block>`. */
  readonly id?: string;
  readonly input?: unknown;
  /** Raw input text, streamed as is (may be malformed JSON). */
  readonly inputJson?: string;
};

/** A turn that only says `text`; it ends the run unless a stop reason says otherwise. */
export function textTurn(
  text: string,
  options: { readonly expect?: ScriptExpectation; readonly stopReason?: StopReason } = {},
): ScriptedTurn {
  return {
    content: [{ type: 'text', text }],
    ...(options.stopReason === undefined ? {} : { stop_reason: options.stopReason }),
    ...(options.expect === undefined ? {} : { expect: options.expect }),
  };
}

/** A turn that calls tools (in parallel when several), optionally after some text. */
export function toolTurn(
  calls: readonly ScriptedToolCall[],
  options: { readonly text?: string; readonly expect?: ScriptExpectation } = {},
): ScriptedTurn {
  return {
    content: [
      ...(options.text === undefined ? [] : [{ type: 'text' as const, text: options.text }]),
      ...calls.map((call) => ({
        type: 'tool_use' as const,
        name: call.name,
        ...(call.id === undefined ? {} : { id: call.id }),
        ...(call.input === undefined ? {} : { input: call.input }),
        ...(call.inputJson === undefined ? {} : { input_json: call.inputJson }),
      })),
    ],
    ...(options.expect === undefined ? {} : { expect: options.expect }),
  };
}

/** Turns as the text of a JSONL script file, one turn per line. */
export function toJsonl(turns: readonly ScriptedTurn[]): string {
  return turns.map((turn) => `${JSON.stringify(turn)}\n`).join('');
}

/**
 * A scripted model for tests: a {@link ScriptedProvider} playing `turns` in order, checking each
 * turn's `expect` against the request it answers.
 */
export function scriptedModel(turns: readonly ScriptedTurn[]): ScriptedProvider {
  return createScriptedProvider({ turns });
}
