import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ModelRequest } from '../../contract/provider.js';
import type { Message } from '../../messages/types.js';
import { createEncodingCache, elementsOf, preparedJsonBody, type PreparedBody } from '../prepared-body.js';
import { toOpenAIEnvelope, toOpenAIMessages, toOpenAISystem, type OpenAIParamsOptions } from './to-openai-params.js';

/** A chat completions request: the SDK's params (with `messages` empty) and the bytes to send. */
export type OpenAIPreparedRequest = {
  readonly params: ChatCompletionCreateParamsStreaming;
  readonly body: PreparedBody;
};

const encoder = new TextEncoder();

/**
 * Encodes chat completions requests with each history message turned into bytes once (per
 * object: history messages are immutable), so a request costs what changed since the last one.
 * The body is byte for byte `JSON.stringify` of {@link toOpenAIParams}' params.
 */
export function createOpenAIBodyEncoder(): (
  request: ModelRequest,
  options: OpenAIParamsOptions,
) => OpenAIPreparedRequest {
  const messages = createEncodingCache<Message>(toOpenAIMessages);
  return (request, options) => {
    const params = toOpenAIEnvelope(request, options);
    const system = toOpenAISystem(request);
    const pieces = request.messages.map((message) => elementsOf(messages.bytesOf(message)));
    if (system !== undefined) pieces.unshift(encoder.encode(JSON.stringify(system)));
    return { params, body: preparedJsonBody(params, { messages: pieces }) };
  };
}
