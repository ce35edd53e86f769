import { describe, expect, it } from 'vitest';
import { parseKeyValues, readTelemetryConfig } from './telemetry-config.js';

describe('readTelemetryConfig', () => {
  it('is off unless TOOLPLANE_ENABLE_TELEMETRY (or CLAUDE_CODE_ENABLE_TELEMETRY) is on', () => {
    expect(readTelemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBeUndefined();
    expect(readTelemetryConfig({ TOOLPLANE_ENABLE_TELEMETRY: '0' })).toBeUndefined();
    expect(readTelemetryConfig({ CLAUDE_CODE_ENABLE_TELEMETRY: '1' })?.traces?.url).toBe(
      'http://localhost:4318/v1/traces',
    );
  });

  it('adds the signal path to the general endpoint and takes a per-signal endpoint, protocol and headers as they are', () => {
    const config = readTelemetryConfig({
      TOOLPLANE_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example:4318/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/ingest',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team = a%2Cb',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=traces',
      OTEL_LOGS_EXPORTER: 'none',
    });
    expect(config?.traces).toEqual({
      url: 'https://collector.example:4318/v1/traces',
      protocol: 'http/json',
      headers: { authorization: 'Bearer abc', 'x-team': 'traces' },
      timeoutMs: 10_000,
    });
    expect(config?.metrics?.url).toBe('https://metrics.example/ingest');
    expect(config?.metrics?.headers).toEqual({ authorization: 'Bearer abc', 'x-team': 'a,b' });
    expect(config?.logs).toBeUndefined();
    expect(config?.logPrompts).toBe(false);
    expect(config?.logToolDetails).toBe(false);
  });

  it('turns a signal off, and says so, for grpc, an unknown exporter or an endpoint that is not http(s)', () => {
    const problems: string[] = [];
    const config = readTelemetryConfig(
      {
        TOOLPLANE_ENABLE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'file:///etc/passwd',
        OTEL_METRIC_EXPORT_INTERVAL: 'soon',
      },
      problems,
    );
    expect(config?.traces).toBeUndefined();
    expect(config?.metrics).toBeUndefined();
    expect(config?.logs).toBeUndefined();
    expect(config?.metricIntervalMs).toBe(60_000);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/grpc is not supported/);
  });

  it('skips a header that is not key=value without naming its text, and keeps __proto__ as a name', () => {
    const problems: string[] = [];
    const headers = parseKeyValues(
      'just-a-token-s3cr3t,__proto__=x,bad=%E0%A4%A',
      'OTEL_EXPORTER_OTLP_HEADERS',
      problems,
    );
    expect(Object.keys(headers)).toEqual(['__proto__']);
    expect(headers['__proto__']).toBe('x');
    expect(Object.getPrototypeOf(headers)).toBeNull();
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain('s3cr3t');
  });
});
