import { describe, expect, it } from 'vitest';
import { getRefusedInput, inputDepthExceeds, MAX_TOOL_INPUT_DEPTH, refusedInput } from './tool-input-shape.js';

/** `levels` nested arrays, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

describe('inputDepthExceeds', () => {
  it('counts each array and object as a level, and stops at the limit', () => {
    expect(inputDepthExceeds({ a: [1] }, 2)).toBe(false);
    expect(inputDepthExceeds({ a: [1] }, 1)).toBe(true);
    expect(inputDepthExceeds('text', 0)).toBe(false);
    expect(inputDepthExceeds(nested(MAX_TOOL_INPUT_DEPTH))).toBe(false);
    expect(inputDepthExceeds(nested(MAX_TOOL_INPUT_DEPTH + 1))).toBe(true);
  });

  it('walks 100,000 levels and wide inputs without recursion', () => {
    expect(inputDepthExceeds(nested(100_000))).toBe(true);
    const wide = { items: Array.from({ length: 10_000 }, (_, index) => ({ index, tags: ['a', 'b'] })) };
    expect(inputDepthExceeds(wide)).toBe(false);
  });

  it('finds a deep branch next to shallow ones, and counts a cycle as too deep', () => {
    expect(inputDepthExceeds({ shallow: [1, 2], deep: { inner: nested(MAX_TOOL_INPUT_DEPTH) } })).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(inputDepthExceeds(cyclic)).toBe(true);
  });
});

describe('the refused-input placeholder', () => {
  it('carries its reason and is recognised, and an ordinary input is not', () => {
    expect(getRefusedInput(refusedInput('why'))).toBe('why');
    expect(getRefusedInput({ command: 'ls' })).toBeUndefined();
    expect(getRefusedInput(null)).toBeUndefined();
  });
});
