import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from './define-tool.js';
import { ToolplaneError } from '../errors/toolplane-error.js';

describe('defineTool', () => {
  const minimal = defineTool({
    name: 'Sample',
    inputSchema: z.object({ value: z.string() }),
    prompt: 'A sample tool.',
    call: async (input) => input.value,
  });

  it('fills fail-safe defaults', async () => {
    expect(minimal.isEnabled()).toBe(true);
    expect(minimal.isReadOnly({ value: 'x' })).toBe(false);
    expect(minimal.isConcurrencySafe({ value: 'x' })).toBe(false);
    expect(minimal.isDestructive({ value: 'x' })).toBe(false);
    expect(minimal.origin).toBe('builtin');
    expect(minimal.interruptBehavior).toBe('cancel');
    expect(minimal.errorCancelsSiblings).toBe(false);
    expect(minimal.maxResultSizeChars).toBe(DEFAULT_MAX_RESULT_SIZE_CHARS);
    const context = {} as never;
    expect(await minimal.checkPermissions({ value: 'x' }, context)).toEqual({ behavior: 'passthrough' });
    expect(await minimal.validateInput({ value: 'x' }, context)).toEqual({ ok: true });
    expect(minimal.userFacingName(undefined)).toBe('Sample');
  });

  it('maps strings as they are and other output as JSON', () => {
    expect(minimal.mapResult('hello', 'id')).toEqual({ content: 'hello' });
    const tool = defineTool({
      name: 'Json',
      inputSchema: z.object({}),
      prompt: 'x',
      call: async () => ({ a: 1 }),
    });
    expect(tool.mapResult({ a: 1 }, 'id')).toEqual({ content: '{\n  "a": 1\n}' });
  });

  it('rejects names the API would refuse', () => {
    expect(() =>
      defineTool({ name: 'has space', inputSchema: z.object({}), prompt: '', call: async () => '' }),
    ).toThrow(ToolplaneError);
    expect(() =>
      defineTool({ name: 'x'.repeat(65), inputSchema: z.object({}), prompt: '', call: async () => '' }),
    ).toThrow(/does not match/);
  });
});
