import { describe, expect, it } from 'vitest';
import { openPager, stepPager, type PagerKey } from './pager-state.js';

const none: PagerKey = { upArrow: false, downArrow: false, escape: false, ctrl: false, home: false, end: false };
const text = Array.from({ length: 25 }, (_, index) => `line ${index + 1}`).join('\n');

describe('the pager', () => {
  it('scrolls by line and by page, and stops at both ends', () => {
    let state = openPager({ title: 't', text, height: 10 });
    expect(state.top).toBe(0);
    state = stepPager(state, '', { ...none, upArrow: true })!;
    expect(state.top).toBe(0);
    state = stepPager(state, '', { ...none, downArrow: true })!;
    expect(state.top).toBe(1);
    state = stepPager(state, ' ', none)!;
    expect(state.top).toBe(11);
    state = stepPager(state, '', { ...none, pageDown: true })!;
    expect(state.top).toBe(15);
    state = stepPager(state, '', { ...none, pageUp: true })!;
    expect(state.top).toBe(5);
    state = stepPager(state, 'G', none)!;
    expect(state.top).toBe(15);
    state = stepPager(state, '', { ...none, home: true })!;
    expect(state.top).toBe(0);
    state = stepPager(state, '', { ...none, end: true })!;
    expect(state.top).toBe(15);
    expect(stepPager(state, 'x', none)).toBe(state);
  });

  it('does not scroll a text shorter than the view', () => {
    const state = openPager({ title: 't', text: 'one\ntwo', height: 10 });
    expect(stepPager(state, '', { ...none, end: true })?.top).toBe(0);
    expect(openPager({ title: 't', text: 'x', height: 0 }).height).toBe(1);
  });

  it('closes on q, Esc and ctrl+o', () => {
    const state = openPager({ title: 't', text, height: 10 });
    expect(stepPager(state, 'q', none)).toBeUndefined();
    expect(stepPager(state, '', { ...none, escape: true })).toBeUndefined();
    expect(stepPager(state, 'o', { ...none, ctrl: true })).toBeUndefined();
  });
});
