import { describe, expect, it } from 'vitest';
import { formatElapsed } from './format-elapsed.js';

describe('formatElapsed', () => {
  it.each([
    [-5, '0.0s'],
    [0, '0.0s'],
    [1_250, '1.3s'],
    [59_900, '59.9s'],
    [61_000, '1m01s'],
    [600_000, '10m00s'],
  ])('%d ms → %s', (ms, shown) => expect(formatElapsed(ms)).toBe(shown));
});
