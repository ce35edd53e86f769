import { describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/provider-error.js';
import { describeModelError, describeRetryReason, modelErrorContextOf } from './describe-model-error.js';

const local = {
  provider: 'anthropic',
  model: 'claude-x',
  baseUrl: 'http://127.0.0.1:9',
  baseUrlFrom: 'ANTHROPIC_BASE_URL',
};
const http = (status: number, type: string, message: string, provider = 'anthropic') =>
  new ProviderError({
    provider,
    kind: 'http',
    message: `HTTP ${status} ${type}: ${message}`,
    status,
    apiErrorType: type,
    apiMessage: message,
  });

describe('describeModelError', () => {
  it('names the key variable of the provider for a refused key', () => {
    expect(describeModelError(http(401, 'authentication_error', 'invalid x-api-key'), local)).toBe(
      'anthropic: the API key was refused (HTTP 401 authentication_error: invalid x-api-key). Check ANTHROPIC_API_KEY: it must hold a valid key for http://127.0.0.1:9 (ANTHROPIC_BASE_URL).',
    );
    const openai = { provider: 'openai', model: 'm', baseUrl: 'http://h/v1', baseUrlFrom: 'OPENAI_BASE_URL' };
    expect(describeModelError(http(401, 'invalid_api_key', 'bad', 'openai'), openai)).toContain('Check OPENAI_API_KEY');
  });

  it('says an unknown model was not found and how to choose another, /model only where the UI has it', () => {
    const error = http(404, 'not_found_error', 'model: claude-x');
    const text = describeModelError(error, local);
    expect(text).toContain('the model "claude-x" was not found at http://127.0.0.1:9 (ANTHROPIC_BASE_URL)');
    expect(text).toContain('Choose another with --model NAME, ANTHROPIC_MODEL.');
    expect(describeModelError(error, { ...local, modelCommand: true })).toContain(
      'Choose another with --model NAME, /model, ANTHROPIC_MODEL.',
    );
  });

  it('names the URL and its variable for a refused connection, and asks whether the server runs', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = new ProviderError({
      provider: 'anthropic',
      kind: 'connection',
      message: 'could not reach the API: Connection error.',
      retryable: true,
      cause,
      attempts: 3,
    });
    expect(describeModelError(error, local)).toBe(
      'anthropic: could not connect to http://127.0.0.1:9 (ANTHROPIC_BASE_URL) after 3 attempts: connection refused. Is the server running?',
    );
    expect(describeModelError(error, { provider: 'anthropic', model: 'm' })).toContain(
      'https://api.anthropic.com (the default; ANTHROPIC_BASE_URL sets another)',
    );
  });

  it('keeps the message of any other error', () => {
    expect(describeModelError(http(529, 'overloaded_error', 'Overloaded'), local)).toBe(
      'anthropic: HTTP 529 overloaded_error: Overloaded',
    );
    expect(describeModelError(new Error('the transcript could not be written'), local)).toBe(
      'the transcript could not be written',
    );
  });
});

describe('modelErrorContextOf', () => {
  it('takes --base-url first, then the provider variable', () => {
    const env = { ANTHROPIC_BASE_URL: 'http://env', OPENAI_BASE_URL: 'http://openai' };
    expect(modelErrorContextOf({ provider: 'anthropic', model: 'm', baseUrlFlag: 'http://flag', env })).toMatchObject({
      baseUrl: 'http://flag',
      baseUrlFrom: '--base-url',
    });
    expect(modelErrorContextOf({ provider: 'openai', model: 'm', baseUrlFlag: undefined, env })).toMatchObject({
      baseUrl: 'http://openai',
      baseUrlFrom: 'OPENAI_BASE_URL',
    });
    expect(modelErrorContextOf({ provider: 'anthropic', model: 'm', baseUrlFlag: undefined, env: {} })).toEqual({
      provider: 'anthropic',
      model: 'm',
    });
  });
});

describe('describeRetryReason', () => {
  const retry = (message: string, status?: number) => ({
    type: 'retry' as const,
    attempt: 1,
    maxRetries: 10,
    delayMs: 500,
    message,
    ...(status === undefined ? {} : { status }),
  });
  it.each([
    [retry('HTTP 529 overloaded_error: Overloaded', 529), 'the API is overloaded (HTTP 529)'],
    [retry('HTTP 429 rate_limit_error: slow down', 429), 'rate limited (HTTP 429)'],
    [retry('HTTP 503 api_error: x', 503), 'the server answered HTTP 503'],
    [retry('no event from the API for 300 ms; the stream was abandoned'), 'the response stalled'],
    [
      retry('could not reach the API: fetch failed: connect ECONNREFUSED 127.0.0.1:9'),
      'connection refused at http://127.0.0.1:9: is the server running?',
    ],
  ])('%o → %s', (event, words) => expect(describeRetryReason(event, local)).toBe(words));
});
