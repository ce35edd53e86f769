import type { StopReason } from '../contract/provider.js';
import { viewOfMessagesRequest } from '../providers/scripted/check-expectation.js';
import type { PlannedTurn } from '../providers/scripted/scripted-turn.js';
import { getUnparseableInput } from '../messages/types.js';
import {
  startMockModelServer,
  type MockModelServer,
  type MockServerOptions,
  type WireFormat,
} from './mock-model-server.js';

const ERROR_TYPES: ReadonlyMap<number, string> = new Map([
  [400, 'invalid_request_error'],
  [401, 'authentication_error'],
  [402, 'billing_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [413, 'request_too_large'],
  [429, 'rate_limit_error'],
  [500, 'api_error'],
  [504, 'timeout_error'],
  [529, 'overloaded_error'],
]);

function frame(data: { readonly type: string } & Record<string, unknown>): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function modelOf(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['model'] : undefined;
  return typeof model === 'string' ? model : 'mock-model';
}

function usageOf(plan: PlannedTurn): Record<string, number> {
  return {
    input_tokens: plan.usage.inputTokens,
    output_tokens: plan.usage.outputTokens,
    cache_read_input_tokens: plan.usage.cacheReadInputTokens ?? 0,
    cache_creation_input_tokens: plan.usage.cacheCreationInputTokens ?? 0,
  };
}

/** The API's own name for a stop reason; `other` is sent as `end_turn`. */
function wireStopReason(reason: StopReason): string {
  return reason === 'other' ? 'end_turn' : reason;
}

function streamFrames(options: {
  readonly plan: PlannedTurn;
  readonly body: unknown;
  readonly number: number;
}): string[] {
  const { plan, body, number } = options;
  const frames = [
    frame({
      type: 'message_start',
      message: {
        id: `msg_mock_${number}`,
        type: 'message',
        role: 'assistant',
        model: modelOf(body),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usageOf(plan), output_tokens: 1 },
      },
    }),
    'event: ping\ndata: {"type": "ping"}\n\n',
  ];
  plan.blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        frames.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
        for (const text of block.chunks) {
          frames.push(frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
        }
        break;
      case 'tool_use':
        frames.push(
          frame({
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
          }),
        );
        for (const partial of block.chunks) {
          frames.push(
            frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } }),
          );
        }
        break;
      case 'thinking':
        frames.push(
          frame({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          }),
        );
        frames.push(
          frame({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } }),
        );
        frames.push(
          frame({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }),
        );
        break;
      case 'redacted_thinking':
        frames.push(
          frame({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } }),
        );
        break;
    }
    frames.push(frame({ type: 'content_block_stop', index }));
  });
  frames.push(
    frame({
      type: 'message_delta',
      delta: { stop_reason: wireStopReason(plan.stopReason), stop_sequence: null },
      usage: { output_tokens: plan.usage.outputTokens },
    }),
    frame({ type: 'message_stop' }),
  );
  return frames;
}

function jsonBody(options: { readonly plan: PlannedTurn; readonly body: unknown; readonly number: number }): unknown {
  const { plan, body, number } = options;
  return {
    id: `msg_mock_${number}`,
    type: 'message',
    role: 'assistant',
    model: modelOf(body),
    // A whole message can only carry object inputs; a malformed scripted input becomes `{}`.
    content: plan.message.content.map((block) =>
      block.type === 'tool_use' && getUnparseableInput(block.input) !== undefined ? { ...block, input: {} } : block,
    ),
    stop_reason: wireStopReason(plan.stopReason),
    stop_sequence: null,
    usage: usageOf(plan),
  };
}

const anthropicWire: WireFormat = {
  path: '/v1/messages',
  baseURL: (url) => url,
  defaultErrorType: (status) => ERROR_TYPES.get(status) ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
  errorBody: ({ errorType, message }) => ({
    type: 'error',
    error: { type: errorType, message },
    request_id: 'req_mock',
  }),
  streamErrorFrame: ({ errorType, message }) => frame({ type: 'error', error: { type: errorType, message } }),
  view: viewOfMessagesRequest,
  isStreaming: (body) =>
    typeof body === 'object' && body !== null && (body as Record<string, unknown>)['stream'] === true,
  streamFrames,
  jsonBody,
};

/**
 * Starts a mock of Anthropic's Messages API on 127.0.0.1: `POST /v1/messages`, streamed as the
 * real SSE events (`message_start`, `content_block_start/delta/stop` with `text_delta` and
 * `input_json_delta`, `message_delta`, `message_stop`) or as one JSON message when `stream` is
 * not set; errors use the API's `{type:'error', error:{type, message}}` shape. Give `baseURL` to
 * the SDK (or `ANTHROPIC_BASE_URL`).
 */
export function startMockAnthropicServer(options: MockServerOptions = {}): Promise<MockModelServer> {
  return startMockModelServer(anthropicWire, options);
}
