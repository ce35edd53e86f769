import { context, diag, DiagLogLevel, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtobufLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SessionObserver } from '../../session/index.js';
import { createTelemetryRecorder, type TelemetrySinks } from './telemetry-recorder.js';
import type { SignalExport, TelemetryConfig } from './telemetry-config.js';

/** Telemetry running: the observer to give the session, and the flush at its close. */
export type RunningTelemetry = {
  readonly observer: SessionObserver;
  /** Exports what is buffered and stops; waits at most `SHUTDOWN_LIMIT_MS` for a slow collector. */
  shutdown(): Promise<void>;
};

/** How long closing waits for the collector: a dead one must not hold the exit. */
const SHUTDOWN_LIMIT_MS = 5_000;

/**
 * Starts the OpenTelemetry SDK for a session: a tracer, a meter and a logger, each exporting over
 * OTLP/HTTP (JSON or protobuf) to where `config` says, with the resource `service.name` and
 * `OTEL_RESOURCE_ATTRIBUTES`. Nothing is registered globally: only toolplane's own spans, metrics
 * and events go out. An export failure is reported once through `warn` and never stops the session.
 */
export function startTelemetry(options: {
  readonly config: TelemetryConfig;
  readonly version: string;
  readonly warn: (line: string) => void;
}): RunningTelemetry {
  const { config, version } = options;
  const exportFailed = reportExportFailuresOnce(options.warn);
  const resource = resourceFromAttributes({
    ...config.resourceAttributes,
    'service.name': config.serviceName,
    'service.version': version,
  });
  const tracerProvider = config.traces
    ? new TracerProvider({
        resource,
        spanProcessors: [
          new BatchSpanProcessor({ exporter: traceExporter(config.traces), scheduledDelayMillis: config.spanDelayMs }),
        ],
      })
    : undefined;
  const meterProvider = config.metrics
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: metricExporter(config.metrics),
            exportIntervalMillis: config.metricIntervalMs,
            exportTimeoutMillis: Math.min(config.metrics.timeoutMs, config.metricIntervalMs),
          }),
        ],
      })
    : undefined;
  const loggerProvider = config.logs
    ? new LoggerProvider({
        resource,
        processors: [
          new BatchLogRecordProcessor({ exporter: logExporter(config.logs), scheduledDelayMillis: config.logDelayMs }),
        ],
      })
    : undefined;
  const tracer = tracerProvider?.getTracer('toolplane', version);
  const sinks: TelemetrySinks = {
    ...(tracer
      ? {
          startSpan: (name, span) =>
            tracer.startSpan(
              name,
              { kind: SpanKind.INTERNAL, attributes: span.attributes, startTime: span.startTime },
              span.parent === undefined ? undefined : trace.setSpan(context.active(), span.parent as Span),
            ),
          failSpan: (span, message) => (span as Span).setStatus({ code: SpanStatusCode.ERROR, message }),
        }
      : {}),
    ...(meterProvider ? { meter: meterProvider.getMeter('toolplane', version) } : {}),
    ...(loggerProvider ? { logger: loggerProvider.getLogger('toolplane', version) } : {}),
  };
  const recorder = createTelemetryRecorder({ sinks, config });
  return {
    observer: recorder.observer,
    async shutdown() {
      recorder.end();
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), SHUTDOWN_LIMIT_MS);
        timer.unref();
      });
      const providers = [tracerProvider, meterProvider, loggerProvider].filter((provider) => provider !== undefined);
      const ended = await Promise.race([Promise.allSettled(providers.map((provider) => provider.shutdown())), limit]);
      clearTimeout(timer);
      if (ended === 'late')
        exportFailed(
          `the collector did not take the session's last telemetry within ${SHUTDOWN_LIMIT_MS / 1000} s; it is dropped`,
        );
    },
  };
}

function exporterOptions(signal: SignalExport) {
  return { url: signal.url, headers: { ...signal.headers }, timeoutMillis: signal.timeoutMs };
}

function traceExporter(signal: SignalExport) {
  return signal.protocol === 'http/json'
    ? new JsonTraceExporter(exporterOptions(signal))
    : new ProtobufTraceExporter(exporterOptions(signal));
}

function metricExporter(signal: SignalExport) {
  return signal.protocol === 'http/json'
    ? new JsonMetricExporter(exporterOptions(signal))
    : new ProtobufMetricExporter(exporterOptions(signal));
}

function logExporter(signal: SignalExport) {
  return signal.protocol === 'http/json'
    ? new JsonLogExporter(exporterOptions(signal))
    : new ProtobufLogExporter(exporterOptions(signal));
}

/**
 * The SDK reports failed exports through its diagnostic logger: the first failure is told, the rest
 * are not. Returns the same once-only report for toolplane's own findings.
 */
function reportExportFailuresOnce(warn: (line: string) => void): (message: string) => void {
  let told = false;
  const tell = (message: string, ...rest: unknown[]) => {
    if (told) return;
    told = true;
    const detail = rest.map((part) => (part instanceof Error ? part.message : String(part))).join(' ');
    warn(`warning: telemetry could not be exported: ${message}${detail === '' ? '' : ` ${detail}`}`);
  };
  const quiet = () => undefined;
  diag.setLogger(
    { error: tell, warn: quiet, info: quiet, debug: quiet, verbose: quiet },
    { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true },
  );
  return tell;
}
