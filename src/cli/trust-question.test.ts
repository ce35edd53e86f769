import { describe, expect, it } from 'vitest';
import { readTrustAnswer, refusedTrustWarning } from './trust-question.js';

describe('readTrustAnswer', () => {
  it('trusts only on a typed yes, refuses (remembered) only on a typed no', () => {
    expect(readTrustAnswer('y')).toBe('trusted');
    expect(readTrustAnswer(' YES ')).toBe('trusted');
    expect(readTrustAnswer('n')).toBe('untrusted');
    expect(readTrustAnswer('No')).toBe('untrusted');
  });

  it('answers "not now" for Enter and for anything else', () => {
    for (const answer of ['', '  ', 'x', 'yep', 'nope', '\x1b[A']) expect(readTrustAnswer(answer)).toBe('not-now');
  });

  it('says how to change a remembered refusal', () => {
    expect(refusedTrustWarning('/p')).toMatch(/\/trust .*toolplane trust \/p/);
  });
});
