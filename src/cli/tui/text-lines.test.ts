import { describe, expect, it } from 'vitest';
import { cursorLines, moveVertically } from './text-lines.js';

describe('text lines', () => {
  it('finds the cursor line and column', () => {
    expect(cursorLines({ value: 'ab\ncde\nf', cursor: 5 })).toEqual({ lines: ['ab', 'cde', 'f'], row: 1, column: 2 });
  });

  it('moves up and down to the same column or the shorter line end, and not past the ends', () => {
    const state = { value: 'ab\ncde\nf', cursor: 5 };
    expect(moveVertically(state, 'up')).toEqual({ value: state.value, cursor: 2 });
    expect(moveVertically(state, 'down')).toEqual({ value: state.value, cursor: 8 });
    expect(moveVertically({ value: 'one line', cursor: 3 }, 'up')).toBeUndefined();
    expect(moveVertically({ value: 'one line', cursor: 3 }, 'down')).toBeUndefined();
  });
});
