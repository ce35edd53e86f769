import type { ModelProvider } from '../contract/provider.js';
import type { ToolCallRecord } from '../execution/types.js';
import type { PermissionModeStore } from '../contract/permission-mode-store.js';
import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';
import { stopFailureOf } from '../hooks/stop-failure-error.js';
import type { Message } from '../messages/types.js';
import { query } from '../loop/query.js';
import { contextTokensOf, createRunAccounting } from '../loop/run-accounting.js';
import type { LoopEvent, QueryOptions, QueryResult } from '../loop/types.js';
import { assistantText } from '../loop/turn-ending.js';
import type { ApiToolCache } from '../schema/to-api-tool.js';
import type { Conversation } from './conversation.js';
import type { DecisionLedger } from './decision-ledger.js';

/** What one turn needs from its session; `conversation` is read when the turn starts. */
export type TurnContext = {
  readonly provider: ModelProvider;
  readonly model: string;
  readonly system: string;
  readonly cwd: string;
  readonly hooks: HookPlane;
  readonly modes: PermissionModeStore;
  readonly conversation: () => Conversation;
  /** The history grew or was replaced (each message, and the result at the end). */
  readonly onMessages: (messages: readonly Message[]) => void;
  readonly onInputTokens: (tokens: number) => void;
  /** Context the next prompt carries (SessionStart hooks); taken once. */
  readonly takeStartContext: () => readonly string[];
  readonly afterTools?: (signal?: AbortSignal) => Promise<readonly string[]>;
  readonly loop: Omit<QueryOptions, 'provider' | 'model' | 'system' | 'messages' | 'signal' | 'recorder' | 'hooks'>;
  readonly toolCache: ApiToolCache;
  /** Records each call's path through the plane in the transcript. */
  readonly ledger?: DecisionLedger;
};

/**
 * One prompt of a session: UserPromptSubmit hooks (a block ends the turn before anything is
 * recorded), the user message recorded, then the loop with Stop and PreCompact hooks wired to the
 * session's hooks and every message written to the transcript as it comes.
 */
export async function* runTurn(
  context: TurnContext,
  prompt: string,
  signal: AbortSignal,
): AsyncGenerator<LoopEvent, QueryResult> {
  const { hooks } = context;
  const conversation = context.conversation();
  const { transcript } = conversation;
  const hookSession = { sessionId: transcript.id, cwd: context.cwd, permissionMode: context.modes.get() };
  const submitted = await hooks.userPromptSubmit({ session: hookSession, signal, prompt });
  if (submitted.blocked !== undefined) {
    const error = new Error(`A UserPromptSubmit hook blocked the prompt: ${submitted.blocked}`);
    yield { type: 'error', error };
    return {
      status: 'error_during_execution',
      text: '',
      messages: conversation.messages,
      turns: 0,
      ...createRunAccounting(undefined).snapshot(),
      permissionDenials: [],
      error,
    };
  }
  const extra = [...context.takeStartContext(), ...submitted.additionalContext].map((text) => ({
    type: 'text' as const,
    text,
  }));
  const userMessage: Message = { role: 'user', content: [{ type: 'text', text: prompt }, ...extra] };
  transcript.appendMessage(userMessage);
  // A transcript that cannot be written (a full disk) ends the turn at once: what runs from then on
  // would leave no record, and a resume could not tell what ran.
  const turnController = new AbortController();
  const abortTurn = () => turnController.abort(signal.reason);
  if (signal.aborted) abortTurn();
  else signal.addEventListener('abort', abortTurn, { once: true });
  let messages: readonly Message[] = [...conversation.messages, userMessage];
  context.onMessages(messages);
  const generator = query(
    {
      ...context.loop,
      provider: context.provider,
      model: context.model,
      system: context.system,
      messages,
      signal: turnController.signal,
      // The session's history follows every append and compaction of the loop as it happens, so
      // what the tools ask of it mid-turn (ContextResults) is what the next request will carry.
      recorder: {
        message: (message) => {
          transcript.appendMessage(message);
          messages = [...messages, message];
          context.onMessages(messages);
        },
        toolUse: (block) => transcript.appendToolUse(block),
        event: (event) => {
          if (event.type === 'compact' && Array.isArray(event.messages)) {
            transcript.appendCompaction(event.messages as Message[]);
            messages = event.messages as Message[];
            context.onMessages(messages);
          }
        },
      },
      hooks: {
        stop: async ({ lastAssistantText, stopHookActive }, stopSignal) => {
          const outcome = await hooks.stop({
            session: hookSession,
            signal: stopSignal,
            stopHookActive,
            lastAssistantMessage: lastAssistantText,
          });
          return outcome.continueWith !== undefined ? { continueWith: outcome.continueWith } : {};
        },
        preCompact: async ({ trigger }, compactSignal) => {
          await hooks.preCompact({ session: hookSession, signal: compactSignal, trigger });
        },
      },
    },
    context.toolCache,
  );
  const failed = transcript.failed.then((error) => ({ failure: error }));
  let writeError: Error | undefined;
  let pending = generator.next();
  try {
    for (;;) {
      const step = writeError ? await pending : await Promise.race([pending, failed]);
      if ('failure' in step || (!step.done && step.value.type === 'error' && (await isFailure(step.value.error)))) {
        // Told once, when it happens (a call refused for it reports the same failure).
        if (!writeError) {
          writeError = 'failure' in step ? step.failure : (step.value as { error: Error }).error;
          turnController.abort(writeError);
          yield { type: 'error', error: writeError };
        }
        if (!('failure' in step)) pending = generator.next();
        continue;
      }
      if (step.done) {
        context.onMessages(step.value.messages);
        if (writeError) return { ...step.value, status: 'error_during_execution', error: writeError };
        await stopFailure({ hooks, session: hookSession, signal, userMessage, result: step.value });
        return step.value;
      }
      const event = step.value;
      yield* turnEvent(context, event, signal, hookSession);
      pending = generator.next();
    }
  } finally {
    signal.removeEventListener('abort', abortTurn);
  }

  /** Whether `error` is the transcript's write failure (already settled when a call reports it). */
  async function isFailure(error: Error): Promise<boolean> {
    return error === (await Promise.race([transcript.failed, Promise.resolve(undefined)]));
  }
}

/** A turn that a failed model request ended fires StopFailure, not Stop (the loop ran no Stop hook). */
async function stopFailure(turn: {
  readonly hooks: HookPlane;
  readonly session: HookSession;
  readonly signal: AbortSignal;
  readonly userMessage: Message;
  readonly result: QueryResult;
}): Promise<void> {
  const { result } = turn;
  const cause = result.status === 'error_during_execution' ? stopFailureOf(result.error) : undefined;
  if (cause === undefined) return;
  // This turn's last answer (a partial one the failed stream left included), never an earlier turn's.
  const start = result.messages.lastIndexOf(turn.userMessage);
  const last =
    start < 0 ? undefined : result.messages.slice(start + 1).findLast((message) => message.role === 'assistant');
  const text = last?.role === 'assistant' ? assistantText(last) : '';
  await turn.hooks.stopFailure({
    session: turn.session,
    signal: turn.signal,
    ...cause,
    ...(text === '' ? {} : { lastAssistantMessage: text }),
  });
}

/** One event of the loop, passed on, with the token count and what tool calls changed. */
async function* turnEvent(
  context: TurnContext,
  event: LoopEvent,
  signal: AbortSignal,
  hookSession: HookSession,
): AsyncGenerator<LoopEvent> {
  if (event.type === 'assistant-message') {
    const used = contextTokensOf(event.usage);
    // The partial message of a failed stream reports no usage; the last real figure stands.
    if (used > 0) context.onInputTokens(used);
  }
  context.ledger?.observe(event);
  yield event;
  if (event.type === 'compact')
    await context.hooks.postCompact({ session: hookSession, signal, trigger: 'auto', compactSummary: event.summary });
  if (event.type === 'tool-call-end') await tellPermissionDenied(context.hooks, hookSession, event.record, signal);
  if (event.type === 'tool-results' && context.afterTools) {
    // Tool calls just ran: what they changed (a settings file now held) is told at once.
    for (const message of await context.afterTools(signal)) yield { type: 'notice', message };
  }
}

/**
 * PermissionDenied hooks for a call refused without a person deciding (a person's or a host's no
 * is theirs to know already).
 */
export async function tellPermissionDenied(
  hooks: HookPlane,
  session: HookSession,
  record: ToolCallRecord,
  signal: AbortSignal,
): Promise<void> {
  if (record.outcome.status !== 'denied' || record.outcome.reason.kind === 'approver') return;
  await hooks.permissionDenied({
    session,
    signal,
    toolName: record.toolName,
    toolInput: record.input,
    toolUseId: record.toolUseId,
    reason: record.outcome.message,
  });
}
