import type { ModelRequest, ModelStreamEvent } from '../contract/provider.js';
import type { AnyTool } from '../contract/tool.js';
import { describeError } from '../errors/toolplane-error.js';
import { createToolExecutor } from '../execution/tool-executor.js';
import type { ToolExecutor, ToolRunResult } from '../execution/types.js';
import type { ToolUseBlock } from '../messages/types.js';
import type { ToolUseAdmission } from './admit-tool-uses.js';
import { createAsyncQueue, type AsyncQueue } from './async-queue.js';
import type { LoopEvent, QueryOptions } from './types.js';

/** What one streamed response left behind: its calls (already started) and how it ended. */
export type StreamedResponse = {
  readonly text: string;
  readonly toolUses: readonly ToolUseBlock[];
  readonly completed: Extract<ModelStreamEvent, { type: 'message-complete' }> | undefined;
  readonly error: Error | undefined;
  /** Runs the calls; present when the response proposed any. */
  readonly executor: ToolExecutor | undefined;
  /** The executor's events not yet passed on. */
  readonly events: AsyncQueue<LoopEvent>;
};

/**
 * Streams one response: text deltas are passed on, each `tool_use` is put on record
 * (write-ahead) and started as soon as its block is complete, so safe calls run while the rest
 * streams in. A stream that fails is returned as `error`, with the calls it already started.
 */
export async function* streamResponse(turn: {
  readonly options: QueryOptions;
  readonly request: ModelRequest;
  readonly isSchemaLoaded: ((tool: AnyTool) => boolean) | undefined;
  readonly signal: AbortSignal;
  /** Where each `tool_use` enters the plane (reused ids and too-deep inputs are refused there). */
  readonly admission: ToolUseAdmission;
  /** Called with the executor once it exists, so the caller can abort it if iteration stops. */
  readonly onExecutor: (executor: ToolExecutor) => void;
}): AsyncGenerator<LoopEvent, StreamedResponse> {
  const { options, signal } = turn;
  const events = createAsyncQueue<LoopEvent>();
  const toolUses: ToolUseBlock[] = [];
  let executor: ToolExecutor | undefined;
  let text = '';
  let completed: StreamedResponse['completed'];
  let error: Error | undefined;
  const startExecutor = () => {
    const started = createToolExecutor({
      ...options.plane,
      pool: options.getPool(),
      signal,
      ...(turn.isSchemaLoaded ? { isSchemaLoaded: turn.isSchemaLoaded } : {}),
      onEvent: (event) => events.push(event),
    });
    turn.onExecutor(started);
    return started;
  };
  try {
    for await (const event of options.provider.stream(turn.request, signal)) {
      switch (event.type) {
        case 'text-delta':
          text += event.text;
          yield event;
          break;
        case 'tool-use-complete': {
          // A reused id or a too-deep input is replaced here, before anything records or walks it.
          const block = turn.admission.admit(event.block);
          // On record before it can run: a run killed from here on still shows the call.
          await options.recorder?.toolUse?.(block);
          toolUses.push(block);
          executor ??= startExecutor();
          executor.add(block);
          break;
        }
        case 'message-complete':
          completed = event;
          break;
        case 'retry':
          // The failed attempt's text is void: the retried response replaces it.
          text = '';
          yield event;
          break;
        case 'tool-use-start':
        case 'tool-input-delta':
          yield event;
          break;
      }
      for (let queued = events.drain(); queued.length > 0; queued = events.drain()) yield* queued;
    }
    if (!completed) throw new Error('the model stream ended without a complete message');
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(describeError(caught));
  }
  return { text, toolUses, completed, error, executor, events };
}

/** Passes on the executor's events until every call has its result, then returns the run. */
export async function* finishRun(
  executor: ToolExecutor,
  events: AsyncQueue<LoopEvent>,
): AsyncGenerator<LoopEvent, ToolRunResult> {
  void executor.finished.then(() => events.close());
  for (let event = await events.next(); event !== undefined; event = await events.next()) yield event;
  return executor.finished;
}
