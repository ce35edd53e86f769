import { porterStem } from './porter-stem.js';
import { STOP_WORDS } from './stop-words.js';

// Han, Hiragana, Katakana and Hangul: scripts written without spaces between words.
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Splits identifiers and prose into lower-case words, before stemming: CamelCase
 * (`getHTTPResponse` → get, http, response), snake_case, kebab-case, `mcp__server__tool`, dotted
 * and slashed paths. Letters and digits stay together (`base64`, `mp3`). CJK text is left out:
 * see {@link cjkBigrams}.
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(CJK_RUN, ' ')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  const words: string[] = [];
  for (const match of spaced.matchAll(WORD)) words.push(match[0].toLowerCase());
  return words;
}

/**
 * The overlapping character pairs of each run of CJK text (`搜索关键词` → 搜索, 索关, 关键, 键词),
 * the usual unit for matching such text without a dictionary. A run of one character is kept whole.
 */
export function cjkBigrams(text: string): string[] {
  const grams: string[] = [];
  for (const match of text.matchAll(CJK_RUN)) {
    const chars = Array.from(match[0]);
    if (chars.length === 1) {
      grams.push(chars[0] as string);
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i++) grams.push(`${chars[i] as string}${chars[i + 1] as string}`);
  }
  return grams;
}

/** Stems seen so far: a vocabulary is small next to the text it is used in. Bounded. */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 200_000;

/** Normalises one lower-case word to its index term, or `undefined` for a stop word or a lone letter. */
export function normalizeWord(word: string): string | undefined {
  if (STOP_WORDS.has(word)) return undefined;
  if (word.length === 1 && !/\d/.test(word)) return undefined;
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = porterStem(word);
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/**
 * The index terms of a text, in order: words split as {@link splitWords}, stop words and lone
 * letters dropped, stemmed with {@link porterStem}; then CJK character bigrams. Queries and tools
 * go through this same function, so they meet on the same terms.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    const term = normalizeWord(word);
    if (term !== undefined) terms.push(term);
  }
  for (const gram of cjkBigrams(text)) terms.push(gram);
  return terms;
}
