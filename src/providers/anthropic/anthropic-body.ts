import type { ModelRequest } from '../../contract/provider.js';
import type { ApiToolDefinition, Message } from '../../messages/types.js';
import { createEncodingCache, preparedJsonBody, type PreparedBody } from '../prepared-body.js';
import {
  normalizeMessage,
  toAnthropicEnvelope,
  toAnthropicTool,
  type AnthropicParamsOptions,
  type AnthropicRequest,
} from './to-anthropic-params.js';

/** A request for the Messages API: the SDK's params (with `messages` empty) and the bytes to send. */
export type AnthropicPreparedRequest = AnthropicRequest & { readonly body: PreparedBody };

/**
 * Encodes Messages API requests with each history message and tool definition turned into bytes
 * once (per object: history messages are immutable), so a request costs what changed since the
 * last one. The body is byte for byte `JSON.stringify` of {@link toAnthropicParams}' params.
 */
export function createAnthropicBodyEncoder(): (
  request: ModelRequest,
  options: AnthropicParamsOptions,
) => AnthropicPreparedRequest {
  const messages = createEncodingCache<Message>(normalizeMessage);
  const tools = createEncodingCache<ApiToolDefinition>(toAnthropicTool);
  return (request, options) => {
    const { params, betas } = toAnthropicEnvelope(request, options);
    const body = preparedJsonBody(params, {
      messages: request.messages.map(messages.bytesOf),
      ...(params.tools === undefined ? {} : { tools: request.tools.map(tools.bytesOf) }),
    });
    return { params, betas, body };
  };
}
