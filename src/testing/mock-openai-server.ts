import type { StopReason } from '../contract/provider.js';
import type { RequestView, ResultView } from '../providers/scripted/check-expectation.js';
import type { PlannedTurn } from '../providers/scripted/scripted-turn.js';
import {
  startMockModelServer,
  type MockModelServer,
  type MockServerOptions,
  type WireFormat,
} from './mock-model-server.js';

const ERRORS: ReadonlyMap<number, { readonly type: string; readonly code: string | null }> = new Map([
  [400, { type: 'invalid_request_error', code: null }],
  [401, { type: 'invalid_request_error', code: 'invalid_api_key' }],
  [403, { type: 'invalid_request_error', code: 'unsupported_country_region_territory' }],
  [404, { type: 'invalid_request_error', code: 'model_not_found' }],
  [429, { type: 'requests', code: 'rate_limit_exceeded' }],
  [500, { type: 'server_error', code: null }],
  [503, { type: 'server_error', code: 'engine_overloaded' }],
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('\n');
}

/**
 * Reads a chat completions body for expectation checks: `role:"tool"` messages after the last
 * assistant message are the last results (an error is marked `<tool_use_error>`, as the OpenAI
 * provider writes it), user and tool message texts are searched, function names are the tools.
 */
export function viewOfChatRequest(body: unknown): RequestView {
  const record = isRecord(body) ? body : {};
  const tools = Array.isArray(record['tools']) ? record['tools'] : [];
  const toolNames = tools.flatMap((tool: unknown) => {
    const fn = isRecord(tool) ? tool['function'] : undefined;
    return isRecord(fn) && typeof fn['name'] === 'string' ? [fn['name']] : [];
  });
  const messages = Array.isArray(record['messages']) ? record['messages'] : [];
  const userTexts: string[] = [];
  let lastResults: ResultView[] = [];
  let afterAssistant = false;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    if (message['role'] === 'assistant') {
      lastResults = [];
      afterAssistant = true;
    } else if (message['role'] === 'tool' && typeof message['tool_call_id'] === 'string') {
      const text = textOf(message['content']);
      userTexts.push(text);
      if (afterAssistant)
        lastResults.push({ id: message['tool_call_id'], isError: text.startsWith('<tool_use_error>'), text });
    } else if (message['role'] === 'user') {
      userTexts.push(textOf(message['content']));
      if (lastResults.length === 0) afterAssistant = false;
    }
  }
  return { toolNames, lastResults, userTexts };
}

function finishReason(reason: StopReason): string {
  switch (reason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content_filter';
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
    case 'other':
      return 'stop';
  }
}

function modelOf(body: unknown): string {
  return isRecord(body) && typeof body['model'] === 'string' ? body['model'] : 'mock-model';
}

function usageOf(plan: PlannedTurn): Record<string, unknown> {
  return {
    prompt_tokens: plan.usage.inputTokens,
    completion_tokens: plan.usage.outputTokens,
    total_tokens: plan.usage.inputTokens + plan.usage.outputTokens,
    prompt_tokens_details: { cached_tokens: plan.usage.cacheReadInputTokens ?? 0 },
  };
}

type ToolPlan = Extract<PlannedTurn['blocks'][number], { type: 'tool_use' }>;

function streamFrames(options: {
  readonly plan: PlannedTurn;
  readonly body: unknown;
  readonly number: number;
}): string[] {
  const { plan, body, number } = options;
  const base = {
    id: `chatcmpl-mock-${number}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: modelOf(body),
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames = [chunk({ role: 'assistant', content: '' })];
  const tools: ToolPlan[] = [];
  for (const block of plan.blocks) {
    if (block.type === 'text') for (const content of block.chunks) frames.push(chunk({ content }));
    if (block.type === 'tool_use') tools.push(block);
  }
  tools.forEach((tool, index) => {
    frames.push(
      chunk({ tool_calls: [{ index, id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } }] }),
    );
  });
  // Arguments of parallel calls arrive interleaved, one piece per call in turn.
  const longest = Math.max(0, ...tools.map((tool) => tool.chunks.length));
  for (let piece = 0; piece < longest; piece += 1) {
    tools.forEach((tool, index) => {
      const text = tool.chunks[piece];
      if (text !== undefined) frames.push(chunk({ tool_calls: [{ index, function: { arguments: text } }] }));
    });
  }
  frames.push(chunk({}, finishReason(plan.stopReason)));
  const streamOptions = isRecord(body) ? body['stream_options'] : undefined;
  if (isRecord(streamOptions) && streamOptions['include_usage'] === true) {
    frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage: usageOf(plan) })}\n\n`);
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

function jsonBody(options: { readonly plan: PlannedTurn; readonly body: unknown; readonly number: number }): unknown {
  const { plan, body, number } = options;
  const text = plan.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const calls = plan.blocks.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ id: block.id, type: 'function', function: { name: block.name, arguments: block.json } }]
      : [],
  );
  return {
    id: `chatcmpl-mock-${number}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: modelOf(body),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' ? null : text,
          ...(calls.length === 0 ? {} : { tool_calls: calls }),
        },
        finish_reason: finishReason(plan.stopReason),
      },
    ],
    usage: usageOf(plan),
  };
}

const chatWire: WireFormat = {
  path: '/v1/chat/completions',
  baseURL: (url) => `${url}/v1`,
  defaultErrorType: (status) => ERRORS.get(status)?.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
  errorBody: ({ status, errorType, message }) => ({
    error: { message, type: errorType, param: null, code: ERRORS.get(status)?.code ?? null },
  }),
  streamErrorFrame: ({ errorType, message }) =>
    `data: ${JSON.stringify({ error: { message, type: errorType, param: null, code: null } })}\n\n`,
  view: viewOfChatRequest,
  isStreaming: (body) => isRecord(body) && body['stream'] === true,
  streamFrames,
  jsonBody,
};

/**
 * Starts a mock of an OpenAI-compatible chat completions server on 127.0.0.1:
 * `POST /v1/chat/completions`, streamed as `data:` chunks ending with `data: [DONE]` (parallel tool
 * calls' arguments interleaved by index; usage chunk when `stream_options.include_usage` is set) or
 * as one JSON completion; errors use the `{error:{message, type, param, code}}` shape. Give
 * `baseURL` (`…/v1`) to the SDK (or `OPENAI_BASE_URL`).
 */
export function startMockOpenAIServer(options: MockServerOptions = {}): Promise<MockModelServer> {
  return startMockModelServer(chatWire, options);
}
