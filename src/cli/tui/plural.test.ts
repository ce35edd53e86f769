import { describe, expect, it } from 'vitest';
import { plural } from './plural.js';

describe('plural', () => {
  it('uses the singular for exactly one', () => {
    expect(plural(1, 'line')).toBe('1 line');
    expect(plural(0, 'line')).toBe('0 lines');
    expect(plural(2, 'search', 'searches')).toBe('2 searches');
  });
});
