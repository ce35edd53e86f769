import { describe, expect, it } from 'vitest';
import { createWarningRelay } from './warning-relay.js';

describe('createWarningRelay', () => {
  it('writes to the fallback until a listener takes the warnings, and again once it lets go', () => {
    const fallback: string[] = [];
    const taken: string[] = [];
    const relay = createWarningRelay((line) => fallback.push(line));
    relay.warn('before');
    const release = relay.listen((line) => taken.push(line));
    relay.warn('during');
    release();
    release();
    relay.warn('after');
    expect(fallback).toEqual(['before', 'after']);
    expect(taken).toEqual(['during']);
  });

  it('gives the warnings to the last listener only', () => {
    const first: string[] = [];
    const second: string[] = [];
    const relay = createWarningRelay(() => undefined);
    relay.listen((line) => first.push(line));
    const release = relay.listen((line) => second.push(line));
    relay.warn('a');
    release();
    relay.warn('b');
    expect(first).toEqual(['b']);
    expect(second).toEqual(['a']);
  });
});
