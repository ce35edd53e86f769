import type { ModelProvider } from '../contract/provider.js';
import type { PermissionModeStore } from '../contract/permission-mode-store.js';
import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { Message } from '../messages/types.js';
import { query } from '../loop/query.js';
import type { LoopEvent, QueryOptions, QueryResult } from '../loop/types.js';
import type { ApiToolCache } from '../schema/to-api-tool.js';
import type { Conversation } from './conversation.js';

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
    const usage = { inputTokens: 0, outputTokens: 0 };
    return {
      status: 'error_during_execution',
      text: '',
      messages: conversation.messages,
      turns: 0,
      usage,
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
  let messages: readonly Message[] = [...conversation.messages, userMessage];
  context.onMessages(messages);
  const generator = query(
    {
      ...context.loop,
      provider: context.provider,
      model: context.model,
      system: context.system,
      messages,
      signal,
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
  let step = await generator.next();
  while (!step.done) {
    const event = step.value;
    if (event.type === 'assistant-message') {
      const used =
        event.usage.inputTokens + (event.usage.cacheReadInputTokens ?? 0) + (event.usage.cacheCreationInputTokens ?? 0);
      // The partial message of a failed stream reports no usage; the last real figure stands.
      if (used > 0) context.onInputTokens(used);
    }
    yield event;
    if (event.type === 'tool-results' && context.afterTools) {
      // Tool calls just ran: what they changed (a settings file now held) is told at once.
      for (const message of await context.afterTools(signal)) yield { type: 'notice', message };
    }
    step = await generator.next();
  }
  context.onMessages(step.value.messages);
  return step.value;
}
