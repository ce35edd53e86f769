import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ModelRequest } from '../../contract/provider.js';
import {
  getUnparseableInput,
  type AssistantMessage,
  type DocumentBlock,
  type ImageBlock,
  type Message,
  type ToolResultBlock,
  type UserMessage,
} from '../../messages/types.js';

/** How to name the output limit: `max_tokens` (most compatible servers) or `max_completion_tokens` (OpenAI's newer models). */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** Text put in a tool message whose result had images: chat completions only take images from users. */
export const IMAGE_MOVED_NOTE = '[image content follows in the next user message]';

function imagePart(block: ImageBlock): ChatCompletionContentPart {
  const url =
    block.source.type === 'url' ? block.source.url : `data:${block.source.media_type};base64,${block.source.data}`;
  return { type: 'image_url', image_url: { url } };
}

function documentPart(block: DocumentBlock): ChatCompletionContentPart {
  if (block.source.type === 'text') {
    return {
      type: 'text',
      text: block.title === undefined ? block.source.data : `${block.title}\n\n${block.source.data}`,
    };
  }
  return {
    type: 'file',
    file: { file_data: `data:application/pdf;base64,${block.source.data}`, filename: block.title ?? 'document.pdf' },
  };
}

/** Marks an error result in text, since chat completions have no `is_error`; never wrapped twice. */
export function markToolError(text: string): string {
  return text.startsWith('<tool_use_error>') ? text : `<tool_use_error>${text}</tool_use_error>`;
}

function toolMessage(block: ToolResultBlock, carried: ChatCompletionContentPart[]): ChatCompletionMessageParam {
  const texts: string[] = [];
  if (typeof block.content === 'string') texts.push(block.content);
  else {
    for (const inner of block.content) {
      switch (inner.type) {
        case 'text':
          texts.push(inner.text);
          break;
        case 'image':
          carried.push(imagePart(inner));
          texts.push(IMAGE_MOVED_NOTE);
          break;
        case 'document':
          if (inner.source.type === 'text') texts.push(inner.source.data);
          else {
            carried.push(documentPart(inner));
            texts.push(IMAGE_MOVED_NOTE.replace('image', 'document'));
          }
          break;
        case 'tool_reference':
          texts.push(`Tool ${inner.tool_name} is now available.`);
          break;
      }
    }
  }
  const text = texts.join('\n');
  return {
    role: 'tool',
    tool_call_id: block.tool_use_id,
    content: block.is_error === true ? markToolError(text) : text,
  };
}

function userMessages(message: UserMessage): ChatCompletionMessageParam[] {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const tools: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  const carried: ChatCompletionContentPart[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'tool_result':
        tools.push(toolMessage(block, carried));
        break;
      case 'text':
        if (block.text !== '') parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push(imagePart(block));
        break;
      case 'document':
        parts.push(documentPart(block));
        break;
    }
  }
  // Tool messages must directly follow the assistant message that called them.
  const all = [...carried, ...parts];
  if (all.length === 0) return tools;
  const only = all[0];
  const content = all.length === 1 && only?.type === 'text' ? only.text : all;
  return [...tools, { role: 'user', content }];
}

function argumentsOf(input: unknown): string {
  if (getUnparseableInput(input) !== undefined) return '{}';
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? JSON.stringify(input) : '{}';
}

function assistantMessage(message: AssistantMessage): ChatCompletionMessageParam {
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  const calls = message.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [
          {
            id: block.id,
            type: 'function' as const,
            function: { name: block.name, arguments: argumentsOf(block.input) },
          },
        ]
      : [],
  );
  if (calls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls };
}

function toolChoice(choice: NonNullable<ModelRequest['toolChoice']>): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

/** One history message as the chat completions messages it becomes (a user message can become several, or none). */
export function toOpenAIMessages(message: Message): ChatCompletionMessageParam[] {
  return message.role === 'assistant' ? [assistantMessage(message)] : userMessages(message);
}

/** What {@link toOpenAIParams} and the prepared body are built for. */
export type OpenAIParamsOptions = {
  readonly model: string;
  readonly maxTokensField: MaxTokensField;
  readonly streamUsage: boolean;
};

/**
 * Translates a {@link ModelRequest} into chat completions parameters: the system prompt as a
 * system message; `tool_use` blocks as `tool_calls`; each `tool_result` as a `role:"tool"` message
 * (errors marked with `<tool_use_error>`, images moved to a user message after them); user images
 * as `image_url` parts; tools as `type:"function"` with `parameters` = `input_schema`. Deferral,
 * cache markers and thinking blocks have no equivalent and are left out.
 */
export function toOpenAIParams(
  request: ModelRequest,
  options: OpenAIParamsOptions,
): ChatCompletionCreateParamsStreaming {
  const system = toOpenAISystem(request);
  const messages: ChatCompletionMessageParam[] = system === undefined ? [] : [system];
  for (const message of request.messages) messages.push(...toOpenAIMessages(message));
  return { ...toOpenAIEnvelope(request, options), messages };
}

/** The system prompt as a system message; `undefined` when it is empty. */
export function toOpenAISystem(request: ModelRequest): ChatCompletionMessageParam | undefined {
  const system =
    typeof request.system === 'string' ? request.system : request.system.map((block) => block.text).join('\n\n');
  return system === '' ? undefined : { role: 'system', content: system };
}

/** The parameters of {@link toOpenAIParams} with `messages` left empty, in its place. */
export function toOpenAIEnvelope(
  request: ModelRequest,
  options: OpenAIParamsOptions,
): ChatCompletionCreateParamsStreaming {
  const tools = request.tools.map((tool): ChatCompletionTool => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: { ...tool.input_schema },
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    },
  }));
  return {
    model: options.model,
    messages: [],
    stream: true,
    [options.maxTokensField]: request.maxTokens,
    ...(options.streamUsage ? { stream_options: { include_usage: true } } : {}),
    ...(tools.length === 0 ? {} : { tools }),
    ...(tools.length === 0 || request.toolChoice === undefined ? {} : { tool_choice: toolChoice(request.toolChoice) }),
  };
}
