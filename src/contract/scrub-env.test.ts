import { describe, expect, it } from 'vitest';
import { isModelCredentialName, scrubModelCredentials } from './scrub-env.js';

describe('scrubModelCredentials', () => {
  it('removes provider keys and tokens and keeps everything else', () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant',
      ANTHROPIC_AUTH_TOKEN: 'tok',
      OPENAI_API_KEY: 'sk-openai',
      GEMINI_API_KEY: 'g',
      OPENAI_ORG_SECRET: 's',
      ANTHROPIC_BASE_URL: 'http://localhost:1234',
      PATH: '/usr/bin',
      HOME: '/home/x',
      EMPTY: undefined,
    };
    const clean = scrubModelCredentials(env);
    expect({ ...clean }).toEqual({ ANTHROPIC_BASE_URL: 'http://localhost:1234', PATH: '/usr/bin', HOME: '/home/x' });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant');
  });

  it('matches names case-insensitively and treats __proto__ as data', () => {
    expect(isModelCredentialName('openai_api_key')).toBe(true);
    expect(isModelCredentialName('MY_API_KEY')).toBe(false);
    const env = JSON.parse('{"__proto__":"x","Anthropic_Api_Key":"y"}') as Record<string, string>;
    const clean = scrubModelCredentials(env);
    expect(Object.keys(clean)).toEqual(['__proto__']);
  });

  it("removes the telemetry exporters' headers, general and per signal, but keeps the other OTEL_ settings", () => {
    const clean = scrubModelCredentials({
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer t',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=b',
      otel_exporter_otlp_metrics_headers: 'a=b',
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: 'a=b',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_SPANS_HEADERS: 'not a signal',
    });
    expect({ ...clean }).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_SPANS_HEADERS: 'not a signal',
    });
  });
});
