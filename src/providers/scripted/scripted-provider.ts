import { setTimeout as delay } from 'node:timers/promises';
import type { ModelProvider, ModelRequest, ModelStreamEvent, ProviderCapabilities } from '../../contract/provider.js';
import { ToolplaneError } from '../../errors/index.js';
import { ProviderError } from '../provider-error.js';
import { checkExpectation, describeMismatch, viewOfMessagesRequest } from './check-expectation.js';
import { readScriptFile, scriptFromTurns, type Script } from './parse-script.js';
import { planTurn } from './scripted-turn.js';

/** Where a scripted provider's turns come from: a file (script or transcript) or an array. */
export type ScriptedProviderOptions = (
  | {
      /** A JSONL script of turns, or a session transcript to replay (read on the first request). */
      readonly path: string;
    }
  | {
      /** Turns in memory, each checked like a script line (see `ScriptedTurn`). */
      readonly turns: readonly unknown[];
    }
) & {
  /** Default `scripted`. */
  readonly name?: string;
  /** Default `scripted-model`. */
  readonly defaultModel?: string;
  /** Default: tool references supported (so ToolSearch flows run offline), no web search. */
  readonly capabilities?: Partial<ProviderCapabilities>;
};

/** A {@link ModelProvider} that replays scripted turns, and what it has seen so far. */
export interface ScriptedProvider extends ModelProvider {
  /** Every request received, in order. */
  readonly requests: readonly ModelRequest[];
  /** Turns played so far. */
  readonly turnsPlayed: number;
  /** Turns in the script, once it is loaded (`undefined` before the first request of a file script). */
  readonly turnCount: number | undefined;
}

/**
 * A deterministic offline model: each request gets the next turn of the script, streamed as
 * events (text in a few deltas, tool inputs as JSON deltas). Before playing a turn, its `expect`
 * is checked against the request. Throws `SCRIPT_MISMATCH` when the request differs from `expect`
 * or when the script is exhausted; throws a `ProviderError` of kind `aborted` when `signal` fires.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const name = options.name ?? 'scripted';
  const requests: ModelRequest[] = [];
  let script: Script | undefined = 'turns' in options ? scriptFromTurns(options.turns) : undefined;
  let loading: Promise<Script> | undefined;
  let played = 0;

  async function load(signal: AbortSignal): Promise<Script> {
    if (script !== undefined) return script;
    if (!('path' in options)) throw new ToolplaneError('INTERNAL', 'scripted provider has neither turns nor a path');
    loading ??= readScriptFile(options.path, { signal });
    try {
      script = await loading;
    } catch (error) {
      loading = undefined;
      throw error;
    }
    return script;
  }

  function abortError(): ProviderError {
    return new ProviderError({ provider: name, kind: 'aborted', message: 'the model request was aborted' });
  }

  async function* stream(
    request: ModelRequest,
    signal: AbortSignal,
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    if (signal.aborted) throw abortError();
    const loaded = await load(signal);
    const index = played;
    const turn = loaded.turns[index];
    const label = loaded.labels[index];
    requests.push(request);
    if (turn === undefined || label === undefined) {
      throw new ToolplaneError(
        'SCRIPT_MISMATCH',
        `the script is exhausted: all ${loaded.turns.length} turns were played, but request ${index + 1} arrived. ` +
          'Add a turn to the script, or check why the agent did not stop.',
      );
    }
    played += 1;
    if (turn.expect !== undefined) {
      const differences = checkExpectation(turn.expect, viewOfMessagesRequest(request));
      if (differences.length > 0) throw new ToolplaneError('SCRIPT_MISMATCH', describeMismatch({ label, differences }));
    }
    // Without scripted token counts, report a rough count (4 characters a token) so context
    // meters and compaction see the conversation grow as they would with a real model.
    const scriptedTurn =
      turn.usage?.input_tokens === undefined
        ? { ...turn, usage: { ...turn.usage, input_tokens: estimateTokens(request) } }
        : turn;
    if (turn.delay_ms !== undefined && turn.delay_ms > 0) await pause(turn.delay_ms, signal, abortError);
    const plan = planTurn(scriptedTurn, index + 1);
    for (const block of plan.blocks) {
      if (block.type === 'text') {
        for (const text of block.chunks) {
          if (signal.aborted) throw abortError();
          yield { type: 'text-delta', text };
        }
      } else if (block.type === 'tool_use') {
        if (signal.aborted) throw abortError();
        yield { type: 'tool-use-start', id: block.id, name: block.name };
        for (const partialJson of block.chunks) {
          if (signal.aborted) throw abortError();
          yield { type: 'tool-input-delta', id: block.id, partialJson };
        }
        const complete = plan.message.content.find(
          (candidate) => candidate.type === 'tool_use' && candidate.id === block.id,
        );
        if (complete?.type === 'tool_use') yield { type: 'tool-use-complete', block: complete };
      }
    }
    if (signal.aborted) throw abortError();
    yield { type: 'message-complete', message: plan.message, stopReason: plan.stopReason, usage: plan.usage };
  }

  return {
    name,
    defaultModel: options.defaultModel ?? 'scripted-model',
    capabilities: {
      toolReference: options.capabilities?.toolReference ?? true,
      webSearch: options.capabilities?.webSearch ?? false,
    },
    stream,
    get requests() {
      return requests;
    },
    get turnsPlayed() {
      return played;
    },
    get turnCount() {
      return script?.turns.length;
    },
  };
}

/** Waits `ms`, or throws `abortError()` as soon as `signal` fires. */
function pause(ms: number, signal: AbortSignal, abortError: () => Error): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => {
    throw abortError();
  });
}

function estimateTokens(request: ModelRequest): number {
  const system = typeof request.system === 'string' ? request.system.length : JSON.stringify(request.system).length;
  return Math.ceil((system + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length) / 4);
}
