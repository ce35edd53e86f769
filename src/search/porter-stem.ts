/**
 * The Porter (1980) suffix-stripping stemmer for lower-case English words. Words of one or two
 * letters and words with characters outside `a-z` come back unchanged.
 */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  w = step1a(w);
  w = step1b(w);
  w = step1c(w);
  w = step2(w);
  w = step3(w);
  w = step4(w);
  w = step5(w);
  return w;
}

function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** The number of vowel-consonant sequences in `stem` (Porter's m). */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsWithDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant ending, the last consonant not w, x or y (Porter's *o). */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  if (!isConsonant(w, n - 1) || isConsonant(w, n - 2) || !isConsonant(w, n - 3)) return false;
  const last = w[n - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

/** Replaces the first matching suffix whose stem satisfies `condition`; stops at the first suffix match. */
function replaceSuffix(
  w: string,
  rules: readonly (readonly [string, string])[],
  condition: (stem: string) => boolean,
): string {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, w.length - suffix.length);
      return condition(stem) ? stem + replacement : w;
    }
  }
  return w;
}

function step1a(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies')) return w.slice(0, -2);
  if (w.endsWith('ss')) return w;
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.endsWith('eed')) {
    const stem = w.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : w;
  }
  let stem: string | undefined;
  if (w.endsWith('ed')) stem = w.slice(0, -2);
  else if (w.endsWith('ing')) stem = w.slice(0, -3);
  if (stem === undefined || !hasVowel(stem)) return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  if (endsWithDoubleConsonant(stem)) {
    const last = stem[stem.length - 1];
    return last === 'l' || last === 's' || last === 'z' ? stem : stem.slice(0, -1);
  }
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
}

function step1c(w: string): string {
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) return `${w.slice(0, -1)}i`;
  return w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
];

const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
] as const;

// Longest suffixes first, so that "ement" is tried before "ment" and "ent".
const STEP2_ORDERED = [...STEP2].sort((a, b) => b[0].length - a[0].length);
const STEP3_ORDERED = [...STEP3].sort((a, b) => b[0].length - a[0].length);
const STEP4_ORDERED = [...STEP4].sort((a, b) => b.length - a.length);

function step2(w: string): string {
  return replaceSuffix(w, STEP2_ORDERED, (stem) => measure(stem) > 0);
}

function step3(w: string): string {
  return replaceSuffix(w, STEP3_ORDERED, (stem) => measure(stem) > 0);
}

function step4(w: string): string {
  for (const suffix of STEP4_ORDERED) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    if (measure(stem) <= 1) return w;
    if (suffix === 'ion') {
      const last = stem[stem.length - 1];
      return last === 's' || last === 't' ? stem : w;
    }
    return stem;
  }
  return w;
}

function step5(w: string): string {
  let out = w;
  if (out.endsWith('e')) {
    const stem = out.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) out = stem;
  }
  if (measure(out) > 1 && endsWithDoubleConsonant(out) && out.endsWith('l')) out = out.slice(0, -1);
  return out;
}
