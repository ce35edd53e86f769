import type { ApiToolDefinition, AssistantMessage, Message, TextBlock, ToolUseBlock } from '../messages/types.js';

/** Token counts for one model response. */
export type Usage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens?: number;
  readonly cacheCreationInputTokens?: number;
};

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'other';

/** One request to a model, in the internal (Anthropic Messages) format. */
export type ModelRequest = {
  readonly model: string;
  readonly system: string | readonly TextBlock[];
  readonly messages: readonly Message[];
  readonly tools: readonly ApiToolDefinition[];
  readonly toolChoice?: { readonly type: 'auto' | 'any' | 'none' } | { readonly type: 'tool'; readonly name: string };
  readonly maxTokens: number;
  /** Beta features the request needs (`tool_reference` support, …). */
  readonly betas?: readonly string[];
};

/** Events of a streamed model response. */
export type ModelStreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-use-start'; readonly id: string; readonly name: string }
  | { readonly type: 'tool-input-delta'; readonly id: string; readonly partialJson: string }
  /** A tool_use block is complete; its input is parsed (or wrapped as unparseable). */
  | { readonly type: 'tool-use-complete'; readonly block: ToolUseBlock }
  /**
   * The attempt failed before any tool call started and the request is tried again after
   * `delayMs`: text streamed since the request began is void.
   */
  | {
      readonly type: 'retry';
      /** The retry about to happen, from 1. */
      readonly attempt: number;
      readonly maxRetries: number;
      readonly delayMs: number;
      /** What failed, for people. */
      readonly message: string;
      /** HTTP status of the failed attempt, when the API answered with one. */
      readonly status?: number;
    }
  | {
      readonly type: 'message-complete';
      readonly message: AssistantMessage;
      readonly stopReason: StopReason;
      readonly usage: Usage;
    };

/** What a provider can do beyond plain tool calling. */
export type ProviderCapabilities = {
  /** Accepts `tool_reference` blocks and `defer_loading` tools (else full schemas are sent). */
  readonly toolReference: boolean;
  /** Offers a server-side web search tool. */
  readonly webSearch: boolean;
};

/** An adapter to one model API. Retries of the model request (rate limits, overload) are its own. */
export interface ModelProvider {
  readonly name: string;
  readonly defaultModel: string;
  /** A small, fast model of the same API for side requests (prompt hooks); absent when it has none known. */
  readonly smallModel?: string;
  readonly capabilities: ProviderCapabilities;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}
