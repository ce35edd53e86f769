import { describe, expect, it } from 'vitest';
import { porterStem } from './porter-stem.js';

describe('porterStem', () => {
  // Examples from Porter's 1980 paper, one or more per step.
  const examples: readonly (readonly [string, string])[] = [
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['cats', 'cat'],
    ['feed', 'feed'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['motoring', 'motor'],
    ['sing', 'sing'],
    ['conflated', 'conflat'],
    ['hopping', 'hop'],
    ['falling', 'fall'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['sky', 'sky'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['digitizer', 'digit'],
    ['operator', 'oper'],
    ['hopefulness', 'hope'],
    ['sensibiliti', 'sensibl'],
    ['triplicate', 'triplic'],
    ['formative', 'form'],
    ['electrical', 'electr'],
    ['goodness', 'good'],
    ['replacement', 'replac'],
    ['adjustment', 'adjust'],
    ['adoption', 'adopt'],
    ['effective', 'effect'],
    ['probate', 'probat'],
    ['rate', 'rate'],
    ['controll', 'control'],
    ['roll', 'roll'],
    ['generalization', 'gener'],
  ];

  it.each(examples)('stems %s to %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('leaves short words, digits and other scripts alone', () => {
    expect(porterStem('is')).toBe('is');
    expect(porterStem('mp3')).toBe('mp3');
    expect(porterStem('café')).toBe('café');
  });

  it('maps inflections of one word to one stem', () => {
    const stems = new Set(['search', 'searches', 'searching', 'searched'].map(porterStem));
    expect([...stems]).toEqual(['search']);
  });
});
