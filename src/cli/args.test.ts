import { describe, expect, it } from 'vitest';
import { parseRunArguments, UsageError } from './args.js';
import { modelRequestOptions } from './runtime/choose-provider.js';

describe('the retry flags', () => {
  it('reads --max-retries and --stream-idle-timeout as whole numbers', () => {
    const args = parseRunArguments(['-p', 'hi', '--max-retries', '0', '--stream-idle-timeout', '2500']);
    expect(args.maxRetries).toBe(0);
    expect(args.streamIdleTimeoutMs).toBe(2500);
    expect(parseRunArguments(['-p', 'hi']).maxRetries).toBeUndefined();
  });

  it('refuses values that are not whole numbers in range', () => {
    for (const argv of [
      ['--max-retries', '-1'],
      ['--max-retries', '1.5'],
      ['--max-retries', ''],
      ['--stream-idle-timeout', '0'],
      ['--stream-idle-timeout', 'soon'],
    ]) {
      expect(() => parseRunArguments(['-p', 'hi', ...argv])).toThrow(UsageError);
    }
    expect(() => parseRunArguments(['--max-retries', 'x'])).toThrow(
      '--max-retries must be a whole number of at least 0.',
    );
  });

  it('lets the flags win over the settings, key by key', () => {
    expect(
      modelRequestOptions({ maxRetries: 1, streamIdleTimeoutMs: undefined }, { maxRetries: 5, streamIdleTimeoutMs: 9 }),
    ).toEqual({ maxRetries: 1, streamIdleTimeoutMs: 9 });
    expect(modelRequestOptions({ maxRetries: undefined, streamIdleTimeoutMs: undefined }, {})).toEqual({});
  });
});

describe('flags of Claude Code that toolplane has not built', () => {
  it('refuses those whose absence would loosen the run, and notes the others', () => {
    expect(parseRunArguments(['-p', 'x', '--max-budget-usd', '0.5']).maxBudgetUsd).toBe(0.5);
    expect(() => parseRunArguments(['-p', 'x', '--max-budget-usd', '0'])).toThrow(/must be a number above 0/);
    expect(parseRunArguments(['-p', 'x', '--tools', 'Read,Grep']).tools).toEqual(['Read', 'Grep']);
    expect(parseRunArguments(['-p', 'x', '--tools', '']).tools).toEqual([]);
    expect(parseRunArguments(['-p', 'x', '--strict-mcp-config']).strictMcpConfig).toBe(true);
    expect(parseRunArguments(['-p', 'x', '--setting-sources', 'user,project']).settingSources).toEqual([
      'user',
      'project',
    ]);
    const id = '6f1c2f4e-0b6a-4c11-9d7e-2b2f0f1c9a10';
    expect(parseRunArguments(['-p', 'x', '--session-id', id.toUpperCase()]).sessionId).toBe(id);
    expect(() => parseRunArguments(['-p', 'x', '--session-id', id, '--resume', id])).toThrow(/needs --fork-session/);
    expect(() => parseRunArguments(['-p', 'x', '--resume-session-at', 'm', '--resume', id])).toThrow(/not supported/);
    expect(() => parseRunArguments(['-p', 'x', '--no-session-persistence', '--continue'])).toThrow(/not kept/);
    expect(parseRunArguments(['-p', 'x', '--no-session-persistence']).persistSession).toBe(false);
    expect(parseRunArguments(['-p', 'x', '--tools', 'default']).notices).toEqual([]);
    expect(parseRunArguments(['-p', 'x', '--fallback-model', 'm2', '--ide']).notices).toEqual([
      '--ide has no meaning here; ignored',
      '--fallback-model is not supported by toolplane yet; ignored',
    ]);
  });

  it('parses the line the Agent SDK starts the command with, and names the closest flag for a typo', () => {
    const args = parseRunArguments([
      '--output-format',
      'stream-json',
      '--verbose',
      '--input-format',
      'stream-json',
      '--permission-prompt-tool=stdio',
    ]);
    expect(args).toMatchObject({
      outputFormat: 'stream-json',
      inputFormat: 'stream-json',
      permissionPromptTool: 'stdio',
    });
    expect(() => parseRunArguments(['--verbos'])).toThrow(/did you mean --verbose/);
  });
});
