import { randomBytes, randomUUID } from 'node:crypto';
import type { StopReason, Usage } from '../../contract/provider.js';
import type { HookRunEvent, LoopEvent } from '../../session/index.js';
import type { AssistantContentBlock, ToolResultBlock } from '../../messages/types.js';
import type { ToolCallRecord } from '../../execution/types.js';
import { apiStopReason, apiUsageOf } from './sdk-usage.js';

/** What the `init` event tells of a session. */
export type InitFacts = {
  readonly sessionId: string;
  readonly cwd: string;
  readonly model: string;
  readonly tools: readonly string[];
  readonly mcpServers: readonly { readonly name: string; readonly status: string }[];
  readonly permissionMode: string;
  readonly agents: readonly string[];
  /** The custom slash commands' names (without the `/`). */
  readonly slashCommands: readonly string[];
  readonly version: string;
  /** The Anthropic key came from `ANTHROPIC_API_KEY` (else, as for a local model, `none`). */
  readonly keyFromEnv: boolean;
};

/** The `system`/`init` event, in the shape of the Agent SDK's `SDKSystemMessage`. */
export function initMessage(facts: InitFacts) {
  return {
    type: 'system' as const,
    subtype: 'init' as const,
    agents: [...facts.agents],
    apiKeySource: facts.keyFromEnv ? 'ANTHROPIC_API_KEY' : 'none',
    claude_code_version: facts.version,
    cwd: facts.cwd,
    tools: [...facts.tools],
    mcp_servers: facts.mcpServers.map((server) => ({ name: server.name, status: server.status })),
    model: facts.model,
    permissionMode: facts.permissionMode,
    slash_commands: [...facts.slashCommands],
    output_style: 'default',
    skills: [],
    plugins: [],
    uuid: randomUUID(),
    session_id: facts.sessionId,
  };
}

/** A message id in the API's form, for a response our provider gave without one. */
export function newMessageId(): string {
  return `msg_${randomBytes(12).toString('base64url')}`;
}

/** A content block as the Messages API returns it (text carries `citations`; no cache markers). */
function apiBlockOf(block: AssistantContentBlock) {
  switch (block.type) {
    case 'text':
      return { type: 'text' as const, text: block.text, citations: null };
    case 'tool_use':
      return { type: 'tool_use' as const, id: block.id, name: block.name, input: block.input };
    case 'thinking':
      return { type: 'thinking' as const, thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking' as const, data: block.data };
  }
}

/** A whole Messages API `Message` object around `content`. */
export function apiMessage(
  id: string,
  model: string,
  content: readonly ReturnType<typeof apiBlockOf>[],
  stopReason: StopReason | undefined,
  usage: Usage,
) {
  return {
    id,
    type: 'message' as const,
    role: 'assistant' as const,
    model,
    content: [...content],
    stop_reason: apiStopReason(stopReason),
    stop_sequence: null,
    stop_details: null,
    container: null,
    context_management: null,
    diagnostics: null,
    usage: apiUsageOf(usage),
  };
}

/**
 * The `assistant` events of a response: one per content block, all of the same message id, as
 * the reference streams them. Like the reference's, their stop reason is null and their usage not
 * final: the run's stop reason and totals are on the result.
 */
export function assistantMessages(
  event: Extract<LoopEvent, { type: 'assistant-message' }>,
  context: { readonly id: string; readonly model: string; readonly sessionId: string },
) {
  return event.message.content.map((block) => ({
    type: 'assistant' as const,
    message: apiMessage(context.id, context.model, [apiBlockOf(block)], undefined, event.usage),
    parent_tool_use_id: null,
    uuid: randomUUID(),
    session_id: context.sessionId,
  }));
}

/**
 * The `user` events of a batch of results: one per `tool_result` block, each with the call's
 * result as `tool_use_result` (its text; `Error: …` for a refused or failed call).
 */
export function toolResultMessages(
  event: Extract<LoopEvent, { type: 'tool-results' }>,
  records: ReadonlyMap<string, ToolCallRecord>,
  sessionId: string,
) {
  const blocks = typeof event.message.content === 'string' ? [] : event.message.content;
  return blocks.map((block) => ({
    type: 'user' as const,
    message: { role: 'user' as const, content: [block] },
    parent_tool_use_id: null,
    ...(block.type === 'tool_result'
      ? { tool_use_result: toolUseResult(records.get(block.tool_use_id)?.result ?? block) }
      : {}),
    uuid: randomUUID(),
    session_id: sessionId,
  }));
}

function toolUseResult(result: ToolResultBlock): string {
  const text =
    typeof result.content === 'string'
      ? result.content
      : result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  return result.is_error === true ? `Error: ${text}` : text;
}

/** The Agent SDK's name for what made a model request fail, from its HTTP status. */
function apiErrorKind(status: number | undefined) {
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 402) return 'billing_error';
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 400 || status === 413) return 'invalid_request';
  if (status === 404) return 'model_not_found';
  if (status !== undefined && status >= 500) return 'server_error';
  return 'unknown';
}

/**
 * A retry of the model request: the `system`/`api_retry` event (retry `attempt` of `max_retries`,
 * the wait in ms, the HTTP status or null, and the kind of failure).
 */
export function apiRetryMessage(event: Extract<LoopEvent, { type: 'retry' }>, sessionId: string) {
  return {
    type: 'system' as const,
    subtype: 'api_retry' as const,
    attempt: event.attempt,
    max_retries: event.maxRetries,
    retry_delay_ms: event.delayMs,
    error_status: event.status ?? null,
    error: apiErrorKind(event.status),
    uuid: randomUUID(),
    session_id: sessionId,
  };
}

/**
 * `--include-hook-events`: a hook starting (`system`/`hook_started`) or ending
 * (`system`/`hook_response`, with what it printed and how it ended), under the id both share.
 */
export function hookMessage(event: HookRunEvent, sessionId: string) {
  const common = { type: 'system' as const, hook_id: event.id, hook_name: event.hook, hook_event: event.event };
  const { run } = event;
  if (!run) return { ...common, subtype: 'hook_started' as const, uuid: randomUUID(), session_id: sessionId };
  const exitCode = run.status === 'success' ? 0 : run.status === 'blocking' ? 2 : undefined;
  return {
    ...common,
    subtype: 'hook_response' as const,
    output: run.output !== undefined ? JSON.stringify(run.output) : (run.text ?? ''),
    stdout: run.text ?? '',
    stderr: run.status === 'success' ? '' : (run.message ?? ''),
    ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
    outcome:
      run.status === 'success'
        ? ('success' as const)
        : run.status === 'cancelled'
          ? ('cancelled' as const)
          : ('error' as const),
    uuid: randomUUID(),
    session_id: sessionId,
  };
}
