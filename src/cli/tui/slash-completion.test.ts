import { describe, expect, it } from 'vitest';
import { moveSlashSelection, slashCompletion } from './slash-completion.js';

const commands = new Map([
  ['hooks', 'the hooks in force'],
  ['help', 'this list'],
  ['mcp', 'MCP servers'],
]);

describe('slashCompletion', () => {
  it('lists the commands that start with the typed word, the first highlighted', () => {
    expect(slashCompletion({ value: '/h', commands })).toEqual({
      choices: [
        { name: 'hooks', help: 'the hooks in force' },
        { name: 'help', help: 'this list' },
      ],
      selected: 0,
    });
    expect(slashCompletion({ value: '/', commands })?.choices).toHaveLength(3);
    expect(slashCompletion({ value: '/H', commands })?.choices).toHaveLength(2);
  });

  it('keeps the highlighted command while it still matches', () => {
    expect(slashCompletion({ value: '/he', commands, selected: 'help' })?.selected).toBe(0);
    expect(slashCompletion({ value: '/h', commands, selected: 'help' })?.selected).toBe(1);
    expect(slashCompletion({ value: '/h', commands, selected: 'mcp' })?.selected).toBe(0);
  });

  it('offers nothing for a prompt, an argument, a second line, //text or no match', () => {
    for (const value of ['hello', '/mcp now', '/h\nx', '//h', '/zzz', ''])
      expect(slashCompletion({ value, commands })).toBeUndefined();
  });

  it('moves the highlight with wrap-around', () => {
    const completion = slashCompletion({ value: '/h', commands });
    if (!completion) throw new Error('expected a completion');
    expect(moveSlashSelection(completion, 'down')).toBe('help');
    expect(moveSlashSelection(completion, 'up')).toBe('help');
    expect(moveSlashSelection({ ...completion, selected: 1 }, 'down')).toBe('hooks');
  });
});
