import type {
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '../../contract/provider.js';
import {
  getUnparseableInput,
  type ApiToolDefinition,
  type AssistantContentBlock,
  type Message,
  type UserContentBlock,
} from '../../messages/types.js';

/**
 * The beta that enables `defer_loading` tools and `tool_reference` blocks (tool search). The
 * first-party API has since made tool search generally available; gateways such as Microsoft
 * Foundry still ask for this header, and the API accepts it either way.
 */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

/** A request in the shape the Messages API takes, and the betas to send with it. */
export type AnthropicRequest = {
  readonly params: MessageCreateParamsStreaming;
  readonly betas: readonly string[];
};

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The API only takes an object as tool input: an unparseable or non-object input goes back as `{}`. */
function normalizeAssistantBlock(block: AssistantContentBlock): AssistantContentBlock {
  if (block.type !== 'tool_use') return block;
  if (getUnparseableInput(block.input) !== undefined || !isPlainObject(block.input)) return { ...block, input: {} };
  return block;
}

/** Drops empty text blocks, which the API rejects, unless nothing else would be left. */
function withoutEmptyText<T extends AssistantContentBlock | UserContentBlock>(blocks: readonly T[]): readonly T[] {
  const kept = blocks.filter((block) => block.type !== 'text' || block.text !== '');
  return kept.length > 0 ? kept : blocks;
}

/** A history message in the shape the API takes (tool inputs made objects, empty text dropped). */
export function normalizeMessage(message: Message): Message {
  if (message.role === 'assistant') {
    return { role: 'assistant', content: withoutEmptyText(message.content.map(normalizeAssistantBlock)) };
  }
  return typeof message.content === 'string' ? message : { role: 'user', content: withoutEmptyText(message.content) };
}

function usesToolSearch(request: ModelRequest): boolean {
  if (request.tools.some((tool) => tool.defer_loading === true)) return true;
  return request.messages.some(
    (message) =>
      message.role === 'user' &&
      typeof message.content !== 'string' &&
      message.content.some(
        (block) =>
          block.type === 'tool_result' &&
          typeof block.content !== 'string' &&
          block.content.some((inner) => inner.type === 'tool_reference'),
      ),
  );
}

/** A tool definition in the shape the API takes: only the fields it knows. */
export function toAnthropicTool(tool: ApiToolDefinition): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.input_schema as Tool.InputSchema,
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    ...(tool.defer_loading === undefined ? {} : { defer_loading: tool.defer_loading }),
    ...(tool.cache_control === undefined ? {} : { cache_control: tool.cache_control }),
  };
}

/** What {@link toAnthropicParams} and the prepared body are built for. */
export type AnthropicParamsOptions = { readonly model: string; readonly toolSearchBeta: string | null };

/**
 * Translates a {@link ModelRequest} into Messages API parameters. The internal format is the
 * API's own, so this only normalizes what the API refuses (non-object tool inputs, empty text),
 * leaves out `tools`/`tool_choice` when there are no tools, and adds the tool search beta when
 * tools are deferred or results carry `tool_reference` blocks (unless `toolSearchBeta` is null).
 */
export function toAnthropicParams(request: ModelRequest, options: AnthropicParamsOptions): AnthropicRequest {
  const { params, betas } = toAnthropicEnvelope(request, options);
  // The internal blocks mirror the API's block params field for field; the cast only widens
  // readonly arrays and string media types to the SDK's mutable literal types.
  return {
    params: { ...params, messages: request.messages.map(normalizeMessage) as unknown as MessageParam[] },
    betas,
  };
}

/**
 * The parameters of {@link toAnthropicParams} with `messages` left empty (in its place, so the
 * field order is the same), and the betas, which do depend on the messages.
 */
export function toAnthropicEnvelope(request: ModelRequest, options: AnthropicParamsOptions): AnthropicRequest {
  const system =
    typeof request.system === 'string'
      ? request.system === ''
        ? undefined
        : request.system
      : request.system.length === 0
        ? undefined
        : (request.system as unknown as TextBlockParam[]);
  const tools = request.tools.map(toAnthropicTool);
  const params: MessageCreateParamsStreaming = {
    model: options.model,
    max_tokens: request.maxTokens,
    messages: [],
    stream: true,
    ...(system === undefined ? {} : { system }),
    ...(tools.length === 0 ? {} : { tools }),
    ...(tools.length === 0 || request.toolChoice === undefined ? {} : { tool_choice: { ...request.toolChoice } }),
  };
  const betas = new Set(request.betas ?? []);
  if (options.toolSearchBeta !== null && usesToolSearch(request)) betas.add(options.toolSearchBeta);
  return { params, betas: [...betas] };
}
