import { describe, expect, it } from 'vitest';
import { EMPTY_HISTORY, newerPrompt, olderPrompt, rememberPrompt } from './prompt-history.js';

describe('prompt history', () => {
  it('recalls earlier prompts with ↑ and returns to the draft with ↓', () => {
    let history = rememberPrompt(rememberPrompt(EMPTY_HISTORY, 'first'), 'second');
    const up1 = olderPrompt(history, 'half-typed')!;
    expect(up1.text).toBe('second');
    const up2 = olderPrompt(up1.history, up1.text)!;
    expect(up2.text).toBe('first');
    expect(olderPrompt(up2.history, up2.text)).toBeUndefined();
    const down1 = newerPrompt(up2.history)!;
    expect(down1.text).toBe('second');
    const down2 = newerPrompt(down1.history)!;
    expect(down2.text).toBe('half-typed');
    expect(newerPrompt(down2.history)).toBeUndefined();
    history = rememberPrompt(down2.history, 'second');
    expect(history.entries).toEqual(['first', 'second']);
  });

  it('ignores blank prompts and has nothing to recall at first', () => {
    expect(rememberPrompt(EMPTY_HISTORY, '   ').entries).toEqual([]);
    expect(olderPrompt(EMPTY_HISTORY, 'x')).toBeUndefined();
  });
});
