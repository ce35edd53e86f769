/** The OTLP encodings toolplane exports in (gRPC is not offered: it would need a native HTTP/2 stack). */
export type OtlpProtocol = 'http/json' | 'http/protobuf';

export type TelemetrySignal = 'traces' | 'metrics' | 'logs';

/** Where one signal goes, and how. */
export type SignalExport = {
  readonly url: string;
  readonly protocol: OtlpProtocol;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
};

/** What telemetry exports and where, read from `OTEL_*` variables (see {@link readTelemetryConfig}). */
export type TelemetryConfig = {
  /** Absent: the signal's exporter is `none`. */
  readonly traces?: SignalExport;
  readonly metrics?: SignalExport;
  readonly logs?: SignalExport;
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  /** Prompts' text goes with turns and `user_prompt` events (`OTEL_LOG_USER_PROMPTS=1`). */
  readonly logPrompts: boolean;
  /** Tool inputs and results go with calls (`OTEL_LOG_TOOL_DETAILS=1`). */
  readonly logToolDetails: boolean;
  readonly metricIntervalMs: number;
  readonly spanDelayMs: number;
  readonly logDelayMs: number;
};

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const PATHS: Record<TelemetrySignal, string> = { traces: 'v1/traces', metrics: 'v1/metrics', logs: 'v1/logs' };
const EXPORTER_VARIABLE: Record<TelemetrySignal, string> = {
  traces: 'OTEL_TRACES_EXPORTER',
  metrics: 'OTEL_METRICS_EXPORTER',
  logs: 'OTEL_LOGS_EXPORTER',
};

/** Whether telemetry is on: `TOOLPLANE_ENABLE_TELEMETRY=1` (or Claude Code's `CLAUDE_CODE_ENABLE_TELEMETRY=1`). */
export function telemetryEnabled(env: Env): boolean {
  return isOn(env['TOOLPLANE_ENABLE_TELEMETRY']) || isOn(env['CLAUDE_CODE_ENABLE_TELEMETRY']);
}

/**
 * Reads the telemetry configuration from the standard OpenTelemetry variables: per-signal
 * `OTEL_{TRACES,METRICS,LOGS}_EXPORTER` (`otlp`, the default, or `none`), endpoints
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/<signal>` added, or the per-signal endpoint used as it
 * is), protocols (`http/protobuf`, the default, or `http/json`), headers (`key=value` pairs, comma
 * separated, values percent-decoded; per-signal ones win), timeouts, export intervals,
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. Returns `undefined` when telemetry is off.
 * A value it cannot use is named in `problems` and that signal, or the setting, falls back: an
 * unknown exporter or `grpc` turns the signal off, never sends it somewhere else.
 */
export function readTelemetryConfig(env: Env, problems: string[] = []): TelemetryConfig | undefined {
  if (!telemetryEnabled(env)) return undefined;
  const signal = (name: TelemetrySignal): SignalExport | undefined => signalExport(env, name, problems);
  const traces = signal('traces');
  const metrics = signal('metrics');
  const logs = signal('logs');
  return {
    ...(traces ? { traces } : {}),
    ...(metrics ? { metrics } : {}),
    ...(logs ? { logs } : {}),
    serviceName: nonEmpty(env['OTEL_SERVICE_NAME']) ?? 'toolplane',
    resourceAttributes: parseKeyValues(env['OTEL_RESOURCE_ATTRIBUTES'], 'OTEL_RESOURCE_ATTRIBUTES', problems),
    logPrompts: isOn(env['OTEL_LOG_USER_PROMPTS']),
    logToolDetails: isOn(env['OTEL_LOG_TOOL_DETAILS']),
    metricIntervalMs: milliseconds(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, problems),
    spanDelayMs: milliseconds(env, 'OTEL_BSP_SCHEDULE_DELAY', 5_000, problems),
    logDelayMs: milliseconds(env, 'OTEL_LOGS_EXPORT_INTERVAL', 5_000, problems),
  };
}

function signalExport(env: Env, signal: TelemetrySignal, problems: string[]): SignalExport | undefined {
  const upper = signal.toUpperCase();
  const exporter = (nonEmpty(env[EXPORTER_VARIABLE[signal]]) ?? 'otlp').toLowerCase();
  if (exporter === 'none') return undefined;
  if (exporter !== 'otlp') {
    problems.push(
      `${EXPORTER_VARIABLE[signal]}=${exporter} is not supported (otlp or none); ${signal} are not exported`,
    );
    return undefined;
  }
  const protocolName =
    nonEmpty(env[`OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`]) ?? nonEmpty(env['OTEL_EXPORTER_OTLP_PROTOCOL']);
  const protocol = protocolName ?? 'http/protobuf';
  if (protocol !== 'http/json' && protocol !== 'http/protobuf') {
    problems.push(
      `OTLP protocol ${protocol} is not supported (http/protobuf or http/json); ${signal} are not exported`,
    );
    return undefined;
  }
  const url = signalUrl(env, signal, problems);
  if (url === undefined) return undefined;
  const headers = {
    ...parseKeyValues(env['OTEL_EXPORTER_OTLP_HEADERS'], 'OTEL_EXPORTER_OTLP_HEADERS', problems),
    ...parseKeyValues(env[`OTEL_EXPORTER_OTLP_${upper}_HEADERS`], `OTEL_EXPORTER_OTLP_${upper}_HEADERS`, problems),
  };
  const general = milliseconds(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 10_000, problems);
  const timeoutMs = milliseconds(env, `OTEL_EXPORTER_OTLP_${upper}_TIMEOUT`, general, problems);
  return { url, protocol, headers, timeoutMs };
}

function signalUrl(env: Env, signal: TelemetrySignal, problems: string[]): string | undefined {
  const own = nonEmpty(env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]);
  const base = nonEmpty(env['OTEL_EXPORTER_OTLP_ENDPOINT']) ?? DEFAULT_ENDPOINT;
  const url = own ?? `${base.replace(/\/+$/, '')}/${PATHS[signal]}`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {
    // Reported below.
  }
  problems.push(`the OTLP endpoint ${JSON.stringify(url)} is not an http(s) URL; ${signal} are not exported`);
  return undefined;
}

/**
 * `key=value` pairs separated by commas, as OpenTelemetry writes headers and resource attributes;
 * keys and values are trimmed and percent-decoded. A pair without `=` is reported and skipped.
 * Keyed in an object without a prototype, so `__proto__` is only a name.
 */
export function parseKeyValues(
  text: string | undefined,
  variable: string,
  problems: string[],
): Readonly<Record<string, string>> {
  const pairs = Object.create(null) as Record<string, string>;
  if (text === undefined) return pairs;
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    const key = at < 0 ? '' : decode(part.slice(0, at).trim());
    if (key === undefined || key === '') {
      // The pair itself may be a secret: only its position is named.
      problems.push(`${variable} has an entry that is not key=value; it is skipped`);
      continue;
    }
    const value = decode(part.slice(at + 1).trim());
    if (value === undefined) {
      problems.push(`${variable} has a value for ${key} that is not valid percent-encoding; it is skipped`);
      continue;
    }
    pairs[key] = value;
  }
  return pairs;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function milliseconds(env: Env, name: string, fallback: number, problems: string[]): number {
  const text = nonEmpty(env[name]);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (Number.isInteger(value) && value > 0) return value;
  problems.push(`${name}=${text} is not a positive whole number of milliseconds; ${fallback} is used`);
  return fallback;
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
