/**
 * The internal message format: Anthropic's Messages API blocks, as plain readonly data.
 * Other providers are adapters at the edge that translate to and from these shapes.
 */

/** Prompt-cache breakpoint marker, as the Messages API takes it. */
export type CacheControl = { readonly type: 'ephemeral'; readonly ttl?: '5m' | '1h' };

export type TextBlock = {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: CacheControl;
};

export type ImageSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string };

export type ImageBlock = {
  readonly type: 'image';
  readonly source: ImageSource;
  readonly cache_control?: CacheControl;
};

export type DocumentBlock = {
  readonly type: 'document';
  readonly source:
    | { readonly type: 'base64'; readonly media_type: 'application/pdf'; readonly data: string }
    | { readonly type: 'text'; readonly media_type: 'text/plain'; readonly data: string };
  readonly title?: string;
  readonly cache_control?: CacheControl;
};

/** A reference to a deferred tool, returned by ToolSearch; the API expands it to the tool's schema. */
export type ToolReferenceBlock = { readonly type: 'tool_reference'; readonly tool_name: string };

export type ThinkingBlock = { readonly type: 'thinking'; readonly thinking: string; readonly signature: string };
export type RedactedThinkingBlock = { readonly type: 'redacted_thinking'; readonly data: string };

export type ToolUseBlock = {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  /** What the model sent. `unknown` until the plane parses it against the tool's schema. */
  readonly input: unknown;
  readonly cache_control?: CacheControl;
};

/** Content a tool result may carry. */
export type ToolResultContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolReferenceBlock;

export type ToolResultBlock = {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string | readonly ToolResultContentBlock[];
  readonly is_error?: boolean;
  readonly cache_control?: CacheControl;
};

export type AssistantContentBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;
export type UserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock;

export type AssistantMessage = {
  readonly role: 'assistant';
  readonly content: readonly AssistantContentBlock[];
};

export type UserMessage = {
  readonly role: 'user';
  readonly content: string | readonly UserContentBlock[];
};

export type Message = AssistantMessage | UserMessage;

/** Any block that can appear in a message. */
export type ContentBlock = AssistantContentBlock | UserContentBlock;

/** One entry of the API's `tools[]`, in the Messages API shape. */
export type ApiToolDefinition = {
  readonly name: string;
  readonly description: string;
  readonly input_schema: { readonly [key: string]: unknown };
  readonly strict?: boolean;
  readonly defer_loading?: boolean;
  readonly cache_control?: CacheControl;
};

/**
 * The key under which a provider stores a tool input that was not valid JSON, so that the plane
 * answers it with a parse error instead of the stream crashing. Normalization sends `{}` instead.
 */
export const UNPARSEABLE_INPUT_KEY = '__toolplane_unparseable_input__';

/** Wraps the raw text of a tool input that did not parse as JSON. */
export function unparseableInput(raw: string): { readonly [UNPARSEABLE_INPUT_KEY]: string } {
  return { [UNPARSEABLE_INPUT_KEY]: raw };
}

/** The raw text if `input` is a wrapped unparseable input, else `undefined`. */
export function getUnparseableInput(input: unknown): string | undefined {
  return markerText(input, UNPARSEABLE_INPUT_KEY);
}

/** The text under `key` when `input` is one of the plane's marker objects (`{ [key]: text }`), else `undefined`. */
export function markerText(input: unknown, key: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const text = (input as Record<string, unknown>)[key];
  return typeof text === 'string' ? text : undefined;
}
