import type { Meter } from '@opentelemetry/api';
import type { Logger } from '@opentelemetry/api-logs';
import type { ToolResultBlock } from '../../messages/types.js';
import type { LedgerEntry, ObservedTurn, QueryResult, SessionObserver } from '../../session/index.js';
import { callAttributes, callDecision, type Attributes } from './call-attributes.js';
import type { TelemetryConfig } from './telemetry-config.js';

/** A span as the recorder sees it: opaque, ended with a time. */
export type RecordedSpan = {
  end(endTime?: number): void;
  setAttributes(attributes: Attributes): unknown;
};

/** Where the recorder's signals go; a signal that is off has no sink. */
export type TelemetrySinks = {
  readonly startSpan?: (
    name: string,
    span: { readonly attributes: Attributes; readonly startTime: number; readonly parent?: RecordedSpan },
  ) => RecordedSpan;
  readonly failSpan?: (span: RecordedSpan, message: string) => void;
  readonly meter?: Meter;
  readonly logger?: Logger;
};

/** Tool content exported with `OTEL_LOG_TOOL_DETAILS`: a call's input and result, each cut to this many characters. */
export const DETAIL_CHARS = 4_096;

type OpenTurn = { readonly span: RecordedSpan | undefined; readonly startedAt: number; readonly turn: ObservedTurn };

/**
 * Turns a session's observed turns and ledger entries into OpenTelemetry signals: a span per turn
 * (`invoke_agent toolplane`) with a child `execute_tool <name>` span per call, timed from the
 * ledger; counters and histograms of calls, denials, durations, turns and tokens; and
 * `tool_decision`, `tool_result` and `user_prompt` log events shaped like the reference's. Prompts
 * and tool content are left out unless the configuration asks for them.
 */
export function createTelemetryRecorder(options: {
  readonly sinks: TelemetrySinks;
  readonly config: Pick<TelemetryConfig, 'logPrompts' | 'logToolDetails'>;
  readonly now?: () => number;
}) {
  const { sinks, config } = options;
  const now = options.now ?? Date.now;
  const instruments = sinks.meter ? createInstruments(sinks.meter) : undefined;
  const turns = new Map<string, OpenTurn>();
  // Inputs and results of ended calls, kept only with tool details on, until their entry comes.
  const details = new Map<string, { readonly input: string; readonly result: string }>();
  let current: OpenTurn | undefined;

  const observer: SessionObserver = {
    turnStart(turn) {
      const startedAt = now();
      const attributes: Attributes = {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'toolplane',
        'gen_ai.conversation.id': turn.sessionId,
        'gen_ai.request.model': turn.model,
        'gen_ai.provider.name': turn.provider,
        'session.id': turn.sessionId,
        'toolplane.prompt.length': turn.prompt.length,
      };
      if (config.logPrompts)
        attributes['gen_ai.input.messages'] = JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: turn.prompt }] },
        ]);
      const span = sinks.startSpan?.('invoke_agent toolplane', { attributes, startTime: startedAt });
      current = { span, startedAt, turn };
      turns.set(turn.sessionId, current);
      emit('user_prompt', {
        'session.id': turn.sessionId,
        prompt_length: turn.prompt.length,
        ...(config.logPrompts ? { prompt: turn.prompt } : {}),
      });
    },
    event(event) {
      if (event.type === 'assistant-message' && current !== undefined) {
        const base = { 'gen_ai.request.model': current.turn.model, 'gen_ai.provider.name': current.turn.provider };
        instruments?.tokens.record(event.usage.inputTokens, { ...base, 'gen_ai.token.type': 'input' });
        instruments?.tokens.record(event.usage.outputTokens, { ...base, 'gen_ai.token.type': 'output' });
      }
      if (event.type === 'tool-call-end' && config.logToolDetails)
        details.set(event.record.toolUseId, {
          input: cut(JSON.stringify(event.record.input) ?? ''),
          result: cut(resultText(event.record.result)),
        });
    },
    calls(entries) {
      for (const entry of entries) recordCall(entry, { sinks, instruments, details, current, emit });
    },
    turnEnd({ sessionId, result, error }) {
      const open = turns.get(sessionId);
      turns.delete(sessionId);
      if (open === current) current = undefined;
      if (open === undefined) return;
      const status = result?.status ?? (error === undefined ? 'interrupted' : 'error_during_execution');
      const seconds = (now() - open.startedAt) / 1000;
      instruments?.turns.add(1, { 'toolplane.turn.status': status });
      instruments?.turnDuration.record(seconds, { 'toolplane.turn.status': status });
      if (open.span === undefined) return;
      open.span.setAttributes({
        'toolplane.turn.status': status,
        ...(result
          ? {
              'gen_ai.usage.input_tokens': result.usage.inputTokens,
              'gen_ai.usage.output_tokens': result.usage.outputTokens,
              'toolplane.cost_usd': result.costUsd,
              'toolplane.turns': result.turns,
            }
          : {}),
      });
      const failure = failureOf(result, error);
      if (failure !== undefined) sinks.failSpan?.(open.span, failure);
      open.span.end();
    },
  };

  function emit(name: string, attributes: Attributes): void {
    sinks.logger?.emit({
      eventName: name,
      body: `toolplane.${name}`,
      timestamp: now(),
      attributes: { 'event.name': name, 'event.timestamp': new Date(now()).toISOString(), ...attributes },
    });
  }

  return {
    observer,
    /** Ends the turns still open (the session closes mid-turn). */
    end(): void {
      for (const [sessionId] of turns) observer.turnEnd?.({ sessionId });
      details.clear();
    },
  };
}

/** What recording a call needs from the recorder. */
type CallContext = {
  readonly sinks: TelemetrySinks;
  readonly instruments: ReturnType<typeof createInstruments> | undefined;
  readonly details: Map<string, { readonly input: string; readonly result: string }>;
  readonly current: OpenTurn | undefined;
  readonly emit: (name: string, attributes: Attributes) => void;
};

/** One ended call: its span under the turn's, its metrics, and its `tool_decision` and `tool_result` events. */
function recordCall(entry: LedgerEntry, context: CallContext): void {
  const { sinks, instruments, details, current, emit } = context;
  const sessionId = current?.turn.sessionId ?? '';
  const attributes = callAttributes(entry, sessionId);
  const detail = details.get(entry.toolUseId);
  details.delete(entry.toolUseId);
  if (detail !== undefined) {
    attributes['gen_ai.tool.call.arguments'] = detail.input;
    attributes['gen_ai.tool.call.result'] = detail.result;
  }
  const startTime = entry.startedAt ?? entry.queuedAt ?? entry.endedAt - entry.durationMs;
  const span = sinks.startSpan?.(`execute_tool ${entry.tool}`, {
    attributes,
    startTime,
    ...(current?.span ? { parent: current.span } : {}),
  });
  if (span !== undefined) {
    if (entry.result.isError || entry.status !== 'success')
      sinks.failSpan?.(span, entry.message ?? `the call ended ${entry.status}`);
    span.end(entry.endedAt);
  }
  const decided = callDecision(entry);
  const labels = {
    'gen_ai.tool.name': entry.tool,
    'toolplane.tool.status': entry.status,
    'toolplane.permission.decision': decided.decision,
  };
  instruments?.calls.add(1, labels);
  instruments?.duration.record(entry.durationMs / 1000, labels);
  if (decided.decision === 'deny')
    instruments?.denials.add(1, { 'gen_ai.tool.name': entry.tool, 'toolplane.permission.source': decided.source });
  const common = { 'session.id': sessionId, tool_name: entry.tool, tool_use_id: entry.toolUseId };
  if (decided.decision !== 'none')
    emit('tool_decision', {
      ...common,
      decision: decided.decision === 'allow' ? 'accept' : 'reject',
      source: decided.source,
      ...(decided.rule === undefined ? {} : { rule: decided.rule }),
    });
  emit('tool_result', {
    ...common,
    success: String(entry.status === 'success' && !entry.result.isError),
    status: entry.status,
    duration_ms: entry.durationMs,
    decision: decided.decision === 'none' ? 'none' : decided.decision === 'allow' ? 'accept' : 'reject',
    source: decided.source,
    tool_result_size_chars: entry.result.chars,
    ...(detail === undefined
      ? {}
      : { tool_parameters: detail.input, tool_result: detail.result, ...errorOf(entry, detail.result) }),
  });
}

function createInstruments(meter: Meter) {
  return {
    calls: meter.createCounter('toolplane.tool.calls', {
      description: 'Tool calls that ended, by tool, status and decision',
    }),
    denials: meter.createCounter('toolplane.tool.denials', {
      description: 'Tool calls refused, by tool and by what refused them',
    }),
    duration: meter.createHistogram('toolplane.tool.duration', { description: 'How long a tool call took', unit: 's' }),
    turns: meter.createCounter('toolplane.turns', { description: 'Turns (prompts) that ended, by status' }),
    turnDuration: meter.createHistogram('toolplane.turn.duration', { description: 'How long a turn took', unit: 's' }),
    tokens: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Tokens per model response',
      unit: '{token}',
    }),
  };
}

function failureOf(result: QueryResult | undefined, error: unknown): string | undefined {
  if (error !== undefined) return error instanceof Error ? error.message : String(error);
  if (result === undefined || result.status === 'success') return undefined;
  return result.error?.message ?? result.status;
}

function errorOf(entry: LedgerEntry, result: string): { readonly error?: string } {
  return entry.status === 'success' && !entry.result.isError ? {} : { error: entry.message ?? result };
}

function resultText(block: ToolResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  return block.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

function cut(text: string): string {
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS)}…` : text;
}
