import type { StopReason } from '../contract/provider.js';
import type { ToolExecutor } from '../execution/types.js';
import type { AssistantContentBlock, AssistantMessage, Message, UserMessage } from '../messages/types.js';
import { createApiToolCache, type ApiToolCache } from '../schema/to-api-tool.js';
import { createToolUseAdmission } from './admit-tool-uses.js';
import { buildRequest } from './build-request.js';
import { maybeCompact } from './auto-compact.js';
import { finishRun, streamResponse, type StreamedResponse } from './stream-response.js';
import { DEFAULT_MAX_FAILED_REQUIRED_CALLS, requiredToolCalls } from './required-tool-calls.js';
import { contextTokensOf, createRunAccounting, ZERO_USAGE, type RunAccounting } from './run-accounting.js';
import { assistantText, endOfTurn } from './turn-ending.js';
import type { LoopEvent, LoopStatus, PermissionDenial, QueryOptions, QueryResult } from './types.js';

const DEFAULT_MAX_TURNS = 50;
/** The output limit of a request when the options set none. */
export const DEFAULT_MAX_TOKENS = 8_192;

/** The state of one run, as the turns change it. */
type Run = {
  readonly messages: Message[];
  readonly denials: PermissionDenial[];
  readonly accounting: RunAccounting;
  turns: number;
  lastAssistant: AssistantMessage | undefined;
  requiredInput: unknown;
  reminders: number;
  failedRequiredCalls: number;
  stopHookActive: boolean;
  lastInputTokens: number;
  /** Why the run ended, when a step other than the loop itself ended it with an error. */
  error?: Error;
};

/**
 * The agent loop: an async generator of events that ends with the run's result. Each turn builds
 * the request (system, history, tools from the pool, `tool_choice` auto), streams the response,
 * starts each call as soon as its block is complete (concurrency-safe ones run while the rest
 * streams in), runs everything through the plane, appends the results and goes on until the model
 * stops asking for tools, a limit is reached, or the run is aborted. Model errors are surfaced as
 * `error` events and an `error_during_execution` result; tools are never retried. If the stream
 * fails after calls started, they are aborted and every `tool_use` still gets its result.
 *
 * Everything a request carries is in the history or fixed for the session, so each request is a
 * byte extension of the one before (the prompt-cache prefix holds): the deferred-tools
 * announcement enters the history as a message of its own when the deferred set changes.
 * `toolCache` keeps `tools[]` byte-identical across the queries of one session.
 */
export async function* query(
  options: QueryOptions,
  toolCache: ApiToolCache = createApiToolCache(),
): AsyncGenerator<LoopEvent, QueryResult> {
  const signal = options.signal ?? new AbortController().signal;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const model = options.model ?? options.provider.defaultModel;
  const run: Run = {
    messages: [...options.messages],
    denials: [],
    accounting: createRunAccounting(options.costs),
    turns: 0,
    lastAssistant: undefined,
    requiredInput: undefined,
    reminders: 0,
    failedRequiredCalls: 0,
    stopHookActive: false,
    lastInputTokens: 0,
  };
  const append = (message: Message) => {
    run.messages.push(message);
    options.recorder?.message(message);
  };
  const result = (status: LoopStatus, error?: Error): QueryResult => ({
    status,
    text: assistantText(run.lastAssistant),
    messages: run.messages,
    turns: run.turns,
    ...run.accounting.snapshot(),
    permissionDenials: run.denials,
    ...(run.requiredInput !== undefined ? { requiredToolInput: run.requiredInput } : {}),
    ...(error ? { error } : {}),
  });

  // The calls of the turn in progress: if the consumer stops iterating (break, return, throw),
  // they are aborted rather than left running with no one to take their results.
  let live: ToolExecutor | undefined;
  try {
    while (true) {
      if (signal.aborted) return result('aborted');
      if (run.turns >= maxTurns) return result('error_max_turns');
      if (run.accounting.overBudget(model)) return result('error_max_budget_usd', budgetError(run.accounting, model));

      if (options.compaction) {
        const compacted = yield* maybeCompact({
          messages: run.messages,
          lastInputTokens: run.lastInputTokens,
          compaction: options.compaction,
          hooks: options.hooks,
          signal,
        });
        if (compacted) {
          run.messages.splice(0, run.messages.length, ...compacted);
          options.recorder?.event?.({ type: 'compact', messages: compacted });
        }
      }

      const pool = options.getPool();
      const deferral = options.deferral?.view(run.messages, pool);
      if (deferral?.announcement) append(deferral.announcement);
      const request = buildRequest({
        provider: options.provider,
        model,
        system: options.system,
        messages: run.messages,
        pool,
        deferral,
        toolCache,
        maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
      });
      run.turns++;
      yield { type: 'request-start', turn: run.turns, request };
      const sent = performance.now();

      const admission = createToolUseAdmission(run.messages);
      const streamed = yield* streamResponse({
        options,
        request,
        admission,
        isSchemaLoaded: deferral?.isSchemaLoaded,
        signal,
        onExecutor: (executor) => (live = executor),
      });

      if (streamed.error) {
        run.accounting.waited(performance.now() - sent);
        yield* answerCutStream(streamed, run, append);
        if (signal.aborted) return result('aborted');
        yield { type: 'error', error: streamed.error };
        return result('error_during_execution', streamed.error);
      }

      const done = streamed.completed!;
      run.accounting.response(model, done, performance.now() - sent);
      run.lastInputTokens = contextTokensOf(done.usage);
      run.lastAssistant = admission.settle(done.message);
      append(run.lastAssistant);
      yield { type: 'assistant-message', message: run.lastAssistant, stopReason: done.stopReason, usage: done.usage };

      if (streamed.executor) {
        const status = yield* takeResults({ streamed, executor: streamed.executor, run, options, append, signal });
        if (status) return result(status, run.error);
        continue;
      }

      const ending = yield* endOfTurn({ ...run, options, signal });
      if (ending.kind === 'fail') {
        yield { type: 'error', error: ending.error };
        return result('error_during_execution', ending.error);
      }
      if (ending.kind === 'done') return result(done.stopReason === 'refusal' ? 'error_during_execution' : 'success');
      if (ending.kind === 'remind') run.reminders++;
      else run.stopHookActive = true;
      append(ending.message);
    }
  } finally {
    live?.abort();
    live?.close();
  }
}

/** Why the budget stopped a request to `model`, when it is not the amount spent. */
function budgetError(accounting: RunAccounting, model: string): Error | undefined {
  return accounting.cannotPrice(model)
    ? new Error(`--max-budget-usd cannot cap ${model}: it has no price; no request was sent to it`)
    : undefined;
}

/**
 * Waits for the calls of a complete response and appends their results; returns how the run
 * ends, or `undefined` to go on with the next turn.
 */
async function* takeResults(turn: {
  readonly streamed: StreamedResponse;
  readonly executor: ToolExecutor;
  readonly run: Run;
  readonly options: QueryOptions;
  readonly append: (message: Message) => void;
  readonly signal: AbortSignal;
}): AsyncGenerator<LoopEvent, LoopStatus | undefined> {
  const { run } = turn;
  turn.executor.close();
  const ran = yield* finishRun(turn.executor, turn.streamed.events);
  // What arrived while the calls ran (async hooks) goes with their results, in the next request.
  const late = turn.options.lateContext?.() ?? [];
  const message: UserMessage =
    late.length === 0
      ? ran.message
      : { ...ran.message, content: [...ran.message.content, ...late.map((text) => ({ type: 'text' as const, text }))] };
  turn.append(message);
  yield { type: 'tool-results', message };
  for (const record of ran.records)
    if (record.outcome.status === 'denied' || record.outcome.status === 'hook-blocked')
      run.denials.push({ tool_name: record.toolName, tool_use_id: record.toolUseId, tool_input: record.input });
  const requiredTool = turn.options.requiredTool;
  const required = requiredTool ? requiredToolCalls(ran.records, requiredTool.name) : undefined;
  run.requiredInput = required?.input;
  run.failedRequiredCalls += required?.failed ?? 0;
  if (ran.abortedByUser || turn.signal.aborted) return 'aborted';
  if (run.requiredInput !== undefined) return 'success';
  const maxFailed = requiredTool?.maxFailedCalls ?? DEFAULT_MAX_FAILED_REQUIRED_CALLS;
  if (requiredTool && run.failedRequiredCalls >= maxFailed) {
    const error = new Error(
      `The run stopped after ${run.failedRequiredCalls} failed ${requiredTool.name} calls (at most ${maxFailed}).`,
    );
    yield { type: 'error', error };
    run.error = error;
    return 'error_max_structured_output_retries';
  }
  if (ran.stopReason !== undefined) {
    yield { type: 'notice', message: `A hook stopped the run: ${ran.stopReason}` };
    return 'success';
  }
  return undefined;
}

/**
 * A stream that failed after proposing calls: what was proposed is kept so every `tool_use` still
 * gets its result (the calls are aborted); a text-only partial is dropped.
 */
async function* answerCutStream(
  streamed: StreamedResponse,
  run: Run,
  append: (message: Message) => void,
): AsyncGenerator<LoopEvent, void> {
  if (!streamed.executor || streamed.toolUses.length === 0) return;
  const partial: AssistantContentBlock[] = [
    ...(streamed.text ? [{ type: 'text' as const, text: streamed.text }] : []),
    ...streamed.toolUses,
  ];
  run.lastAssistant = { role: 'assistant', content: partial };
  append(run.lastAssistant);
  streamed.executor.abort();
  streamed.executor.close();
  // Consumers (stream-json, the transcript view) see each tool_use before its result.
  yield { type: 'assistant-message', message: run.lastAssistant, stopReason: 'other', usage: ZERO_USAGE };
  const ran = yield* finishRun(streamed.executor, streamed.events);
  append(ran.message);
  yield { type: 'tool-results', message: ran.message };
}

export type { StopReason };
