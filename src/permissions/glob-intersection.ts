/**
 * Whether two path patterns can name the same path: used where a pattern cannot be expanded
 * against the disk (a git pathspec reaches files only in history; a shell glob that names too
 * many files) to ask whether it may name a file a deny rule covers. Both patterns become small
 * automata (literal characters, `?`, `[…]`, and stars that do or do not cross `/`); the
 * patterns intersect when their product reaches both ends.
 */

type Token =
  | { readonly kind: 'char'; readonly test: (char: string) => boolean; readonly samples: readonly string[] }
  | { readonly kind: 'star'; readonly crossesSlash: boolean }
  /** The `/` of `**\/`, which may also be absent: `a/**\/b` names `a/b`. */
  | { readonly kind: 'optional-slash' };

/** How a pattern's wildcards behave. */
export type PatternSyntax = {
  /** `*` also matches `/` (git pathspecs, fnmatch without FNM_PATHNAME); `**` always does. */
  readonly starCrossesSlash: boolean;
  readonly ignoreCase: boolean;
};

const DEFAULT_SAMPLES = ['x', 'A', '0', '.', '-', '_', '/', ' '];

function literal(char: string, ignoreCase: boolean): Token {
  const wanted = ignoreCase ? char.toLowerCase() : char;
  return {
    kind: 'char',
    test: (candidate) => (ignoreCase ? candidate.toLowerCase() : candidate) === wanted,
    samples: [char],
  };
}

/** Parses a bracket expression starting at `open`; returns the token and the index of its `]`. */
function bracket(
  pattern: string,
  open: number,
  ignoreCase: boolean,
): { readonly token: Token; readonly end: number } | undefined {
  let index = open + 1;
  const negated = pattern[index] === '!' || pattern[index] === '^';
  if (negated) index += 1;
  const members: string[] = [];
  const ranges: [string, string][] = [];
  let first = true;
  for (; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === ']' && !first) break;
    first = false;
    if (char === '\\' && index + 1 < pattern.length) {
      members.push(pattern[index + 1] as string);
      index += 1;
    } else if (pattern[index + 1] === '-' && pattern[index + 2] !== undefined && pattern[index + 2] !== ']') {
      ranges.push([char, pattern[index + 2] as string]);
      index += 2;
    } else {
      members.push(char);
    }
  }
  if (index >= pattern.length) return undefined;
  const fold = (char: string) => (ignoreCase ? char.toLowerCase() : char);
  const inSet = (candidate: string) =>
    members.some((member) => fold(member) === fold(candidate)) ||
    ranges.some(([low, high]) => fold(candidate) >= fold(low) && fold(candidate) <= fold(high));
  const test = (candidate: string) => candidate !== '/' && inSet(candidate) !== negated;
  return { token: { kind: 'char', test, samples: [...members, ...ranges.flat()] }, end: index };
}

/** Turns a pattern into tokens (`\x` is a literal x; `**` is a star that crosses `/`). */
export function tokenize(pattern: string, syntax: PatternSyntax): Token[] {
  const tokens: Token[] = [];
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) {
      tokens.push(literal(pattern[index + 1] as string, syntax.ignoreCase));
      index += 1;
    } else if (char === '*') {
      const double = pattern[index + 1] === '*';
      if (double) index += 1;
      if (double && pattern[index + 1] === '/') {
        tokens.push({ kind: 'star', crossesSlash: true }, { kind: 'optional-slash' });
        index += 1;
        continue;
      }
      const previous = tokens.at(-1);
      // Consecutive stars are one star; keep the one that crosses `/` if either does.
      const crossesSlash = double || syntax.starCrossesSlash;
      if (previous?.kind === 'star')
        tokens[tokens.length - 1] = { kind: 'star', crossesSlash: previous.crossesSlash || crossesSlash };
      else tokens.push({ kind: 'star', crossesSlash });
    } else if (char === '?') {
      tokens.push({ kind: 'char', test: (candidate) => candidate !== '/' || syntax.starCrossesSlash, samples: [] });
    } else if (char === '[') {
      const parsed = bracket(pattern, index, syntax.ignoreCase);
      if (parsed === undefined) tokens.push(literal('[', syntax.ignoreCase));
      else {
        tokens.push(parsed.token);
        index = parsed.end;
      }
    } else {
      tokens.push(literal(char, syntax.ignoreCase));
    }
  }
  return tokens;
}

function accepts(token: Token, char: string): boolean {
  if (token.kind === 'star') return token.crossesSlash || char !== '/';
  if (token.kind === 'optional-slash') return char === '/';
  return token.test(char);
}

/** Some character both tokens accept (stars accept any character, or any but `/`). */
function sharedCharacter(a: Token, b: Token): boolean {
  const samples = [
    ...(a.kind === 'char' ? a.samples : []),
    ...(b.kind === 'char' ? b.samples : []),
    ...DEFAULT_SAMPLES,
  ];
  return samples.some((char) => accepts(a, char) && accepts(b, char));
}

/** Whether some string matches both token lists. */
export function tokensIntersect(a: readonly Token[], b: readonly Token[]): boolean {
  const seen = new Set<number>();
  const width = b.length + 1;
  const pending: [number, number][] = [[0, 0]];
  while (pending.length > 0) {
    const [i, j] = pending.pop() as [number, number];
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const ta = a[i];
    const tb = b[j];
    if (ta?.kind === 'star' || ta?.kind === 'optional-slash') pending.push([i + 1, j]);
    if (tb?.kind === 'star' || tb?.kind === 'optional-slash') pending.push([i, j + 1]);
    if (ta !== undefined && tb !== undefined && sharedCharacter(ta, tb)) {
      pending.push([ta.kind === 'star' ? i : i + 1, tb.kind === 'star' ? j : j + 1]);
    }
  }
  return false;
}

/** Whether two patterns (each with its own syntax) can name the same string. */
export function patternsIntersect(a: string, aSyntax: PatternSyntax, b: string, bSyntax: PatternSyntax): boolean {
  return tokensIntersect(tokenize(a, aSyntax), tokenize(b, bSyntax));
}
