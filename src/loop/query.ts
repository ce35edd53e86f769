import type { ModelStreamEvent, StopReason, Usage } from '../contract/provider.js';
import { describeError } from '../errors/toolplane-error.js';
import { createToolExecutor } from '../execution/tool-executor.js';
import type { ToolExecutor, ToolRunResult } from '../execution/types.js';
import type { AssistantContentBlock, AssistantMessage, Message, ToolUseBlock } from '../messages/types.js';
import { createApiToolCache, type ApiToolCache } from '../schema/to-api-tool.js';
import { createAsyncQueue } from './async-queue.js';
import { buildRequest } from './build-request.js';
import { maybeCompact } from './auto-compact.js';
import type { LoopEvent, LoopStatus, PermissionDenial, QueryOptions, QueryResult } from './types.js';

const DEFAULT_MAX_TURNS = 50;
const DEFAULT_MAX_TOKENS = 8_192;

const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cacheReadInputTokens: (total.cacheReadInputTokens ?? 0) + (more.cacheReadInputTokens ?? 0),
    cacheCreationInputTokens: (total.cacheCreationInputTokens ?? 0) + (more.cacheCreationInputTokens ?? 0),
  };
}

function assistantText(message: AssistantMessage | undefined): string {
  if (!message) return '';
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/**
 * The agent loop: an async generator of events that ends with the run's result. Each turn builds
 * the request (system, history, tools from the pool, `tool_choice` auto), streams the response,
 * starts each call as soon as its block is complete (concurrency-safe ones run while the rest
 * streams in), runs everything through the plane, appends the results and goes on until the model
 * stops asking for tools, a limit is reached, or the run is aborted. Model errors are surfaced as
 * `error` events and an `error_during_execution` result; tools are never retried. If the stream
 * fails after calls started, they are aborted and every `tool_use` still gets its result.
 *
 * `toolCache` keeps `tools[]` byte-identical across the queries of one session.
 */
export async function* query(
  options: QueryOptions,
  toolCache: ApiToolCache = createApiToolCache(),
): AsyncGenerator<LoopEvent, QueryResult> {
  const messages: Message[] = [...options.messages];
  const signal = options.signal ?? new AbortController().signal;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const model = options.model ?? options.provider.defaultModel;
  const denials: PermissionDenial[] = [];
  let usage = ZERO_USAGE;
  let turns = 0;
  let lastAssistant: AssistantMessage | undefined;
  let requiredInput: unknown;
  let reminders = 0;
  let stopHookActive = false;
  let lastInputTokens = 0;

  const append = (message: Message) => {
    messages.push(message);
    options.recorder?.message(message);
  };
  const result = (status: LoopStatus, error?: Error): QueryResult => ({
    status,
    text: assistantText(lastAssistant),
    messages,
    turns,
    usage,
    permissionDenials: denials,
    ...(requiredInput !== undefined ? { requiredToolInput: requiredInput } : {}),
    ...(error ? { error } : {}),
  });

  // The calls of the turn in progress: if the consumer stops iterating (break, return, throw),
  // they are aborted rather than left running with no one to take their results.
  let live: ToolExecutor | undefined;
  try {
    while (true) {
      if (signal.aborted) return result('aborted');
      if (turns >= maxTurns) return result('error_max_turns');

      if (options.compaction) {
        const compacted = yield* maybeCompact({
          messages,
          lastInputTokens,
          compaction: options.compaction,
          hooks: options.hooks,
          deferral: options.deferral,
          signal,
        });
        if (compacted) {
          messages.splice(0, messages.length, ...compacted);
          options.recorder?.event?.({ type: 'compact', messages: compacted });
        }
      }

      const built = buildRequest({
        provider: options.provider,
        model,
        system: options.system,
        messages,
        pool: options.getPool(),
        deferral: options.deferral,
        toolCache,
        maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
      });
      turns++;
      yield { type: 'request-start', turn: turns, request: built.request };

      const events = createAsyncQueue<LoopEvent>();
      let executor: ToolExecutor | undefined;
      const toolUses: ToolUseBlock[] = [];
      let text = '';
      let completed: Extract<ModelStreamEvent, { type: 'message-complete' }> | undefined;
      let streamError: Error | undefined;
      const startExecutor = () =>
        (live = createToolExecutor({
          ...options.plane,
          pool: options.getPool(),
          signal,
          isSchemaLoaded: built.isSchemaLoaded,
          onEvent: (event) => events.push(event),
        }));

      try {
        for await (const event of options.provider.stream(built.request, signal)) {
          switch (event.type) {
            case 'text-delta':
              text += event.text;
              yield event;
              break;
            case 'tool-use-complete':
              // On record before it can run: a run killed from here on still shows the call.
              await options.recorder?.toolUse?.(event.block);
              toolUses.push(event.block);
              executor ??= startExecutor();
              executor.add(event.block);
              break;
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
              break;
          }
          for (let queued = events.drain(); queued.length > 0; queued = events.drain()) yield* queued;
        }
        if (!completed) throw new Error('the model stream ended without a complete message');
      } catch (error) {
        streamError = error instanceof Error ? error : new Error(describeError(error));
      }

      if (streamError) {
        // Keep what was proposed so every tool_use still gets its result; drop a text-only partial.
        if (toolUses.length > 0) {
          const partial: AssistantContentBlock[] = [...(text ? [{ type: 'text' as const, text }] : []), ...toolUses];
          lastAssistant = { role: 'assistant', content: partial };
          append(lastAssistant);
          executor!.abort();
          executor!.close();
          // Consumers (stream-json, the transcript view) see each tool_use before its result.
          yield { type: 'assistant-message', message: lastAssistant, stopReason: 'other', usage: ZERO_USAGE };
          const run = yield* finishRun(executor!, events);
          append(run.message);
          yield { type: 'tool-results', message: run.message };
        }
        if (signal.aborted) return result('aborted');
        yield { type: 'error', error: streamError };
        return result('error_during_execution', streamError);
      }

      const done = completed!;
      usage = addUsage(usage, done.usage);
      lastInputTokens =
        done.usage.inputTokens + (done.usage.cacheReadInputTokens ?? 0) + (done.usage.cacheCreationInputTokens ?? 0);
      lastAssistant = withToolUses(done.message, toolUses);
      append(lastAssistant);
      yield { type: 'assistant-message', message: lastAssistant, stopReason: done.stopReason, usage: done.usage };

      if (toolUses.length > 0) {
        executor!.close();
        const run = yield* finishRun(executor!, events);
        append(run.message);
        yield { type: 'tool-results', message: run.message };
        for (const record of run.records) {
          if (record.outcome.status === 'denied')
            denials.push({ tool_name: record.toolName, tool_use_id: record.toolUseId, tool_input: record.input });
          if (
            options.requiredTool &&
            record.toolName === options.requiredTool.name &&
            record.outcome.status === 'success' &&
            !record.outcome.isError
          ) {
            requiredInput = record.input;
          }
        }
        if (run.abortedByUser || signal.aborted) return result('aborted');
        if (requiredInput !== undefined) return result('success');
        if (run.stopReason !== undefined) {
          yield { type: 'notice', message: `A hook stopped the run: ${run.stopReason}` };
          return result('success');
        }
        continue;
      }

      if (options.requiredTool && requiredInput === undefined) {
        if (reminders >= options.requiredTool.maxReminders) {
          const error = new Error(
            `The model ended without a successful ${options.requiredTool.name} call after ${reminders} reminders.`,
          );
          yield { type: 'error', error };
          return result('error_during_execution', error);
        }
        reminders++;
        append({
          role: 'user',
          content: [
            {
              type: 'text',
              text: `You must finish by calling the ${options.requiredTool.name} tool with input that matches its schema. Call it now.`,
            },
          ],
        });
        continue;
      }
      if (options.hooks?.stop) {
        let verdict: { readonly continueWith?: string } = {};
        try {
          verdict = await options.hooks.stop(
            { lastAssistantText: assistantText(lastAssistant), stopHookActive },
            signal,
          );
        } catch (error) {
          // The model's answer is complete; a failing hook cannot take it away.
          yield { type: 'notice', message: `The Stop hook failed: ${describeError(error)}` };
        }
        if (verdict.continueWith !== undefined && !stopHookActive) {
          stopHookActive = true;
          append({ role: 'user', content: [{ type: 'text', text: `Stop hook feedback: ${verdict.continueWith}` }] });
          continue;
        }
      }
      return result(done.stopReason === 'refusal' ? 'error_during_execution' : 'success');
    }
  } finally {
    live?.abort();
    live?.close();
  }
}

/** The provider's message, with the tool_use blocks it completed in case the message lacks any. */
function withToolUses(message: AssistantMessage, toolUses: readonly ToolUseBlock[]): AssistantMessage {
  const present = new Set(message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])));
  const missing = toolUses.filter((block) => !present.has(block.id));
  return missing.length === 0 ? message : { role: 'assistant', content: [...message.content, ...missing] };
}

async function* finishRun(
  executor: ToolExecutor,
  events: ReturnType<typeof createAsyncQueue<LoopEvent>>,
): AsyncGenerator<LoopEvent, ToolRunResult> {
  void executor.finished.then(() => events.close());
  for (let event = await events.next(); event !== undefined; event = await events.next()) yield event;
  return executor.finished;
}

export type { StopReason };
