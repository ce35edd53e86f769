/**
 * Bash pattern syntax as the shell applies it to file names: `*`, `?` and `[…]` within one path
 * segment (a backslash makes the next character literal), and brace expansion `{a,b}`, `{1..3}`,
 * which is textual and happens before globbing.
 */

/** Whether `pattern` holds an unescaped `*`, `?` or `[`. */
export function hasGlob(pattern: string): boolean {
  return /(^|[^\\])(\\\\)*[*?[]/.test(pattern);
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

/**
 * A regular expression for one segment of a bash pattern (no `/` in it). With `ignoreCase` it
 * matches as `nocaseglob` does.
 */
export function segmentRegExp(segment: string, options: { readonly ignoreCase?: boolean } = {}): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] as string;
    if (char === '\\' && index + 1 < segment.length) {
      source += escapeRegExp(segment[index + 1] as string);
      index += 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = classEnd(segment, index);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      let body = segment.slice(index + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      // POSIX classes ([:alpha:]) mapped to their ASCII meaning; other characters kept literally.
      const inner = body
        .replace(
          /\[:(alpha|digit|alnum|upper|lower|space|punct|xdigit):\]/g,
          (_match, name: string) => POSIX_CLASSES[name] ?? '',
        )
        .replace(/[\\\]^]/g, (match) => `\\${match}`);
      source += negated ? `[^/${inner}]` : `[${inner}]`;
      index = close;
    } else {
      source += escapeRegExp(char);
    }
  }
  return new RegExp(`^${source}$`, options.ignoreCase ? 'i' : '');
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n',
  punct: '!-/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
};

/** Where the `]` closing the class that opens at `open` is, or -1 (then `[` is literal). */
function classEnd(segment: string, open: number): number {
  let index = open + 1;
  if (segment[index] === '!' || segment[index] === '^') index += 1;
  if (segment[index] === ']') index += 1;
  for (; index < segment.length; index += 1) {
    if (segment[index] === '[' && segment[index + 1] === ':') {
      const end = segment.indexOf(':]', index + 2);
      if (end > 0) index = end + 1;
      continue;
    }
    if (segment[index] === ']') return index;
  }
  return -1;
}

/** Whether a bash pattern segment matches a name (`segmentMatches('e?viron', 'environ')`). */
export function segmentMatches(
  segment: string,
  name: string,
  options: { readonly ignoreCase?: boolean } = {},
): boolean {
  return segmentRegExp(segment, options).test(name);
}

/**
 * Brace expansion of a pattern as bash does it before globbing (`a{b,c}d` → `abd`, `acd`;
 * `x{1..3}` → `x1`, `x2`, `x3`). `undefined` when it would make more than `limit` words.
 */
export function expandBraces(pattern: string, limit = 256): readonly string[] | undefined {
  const open = findBrace(pattern);
  if (open === undefined) return [pattern];
  const { start, end, parts } = open;
  const results: string[] = [];
  for (const part of parts) {
    const expanded = expandBraces(`${pattern.slice(0, start)}${part}${pattern.slice(end + 1)}`, limit);
    if (expanded === undefined) return undefined;
    results.push(...expanded);
    if (results.length > limit) return undefined;
  }
  return results;
}

/** The first brace group bash would expand: its bounds and alternatives. */
function findBrace(
  pattern: string,
): { readonly start: number; readonly end: number; readonly parts: readonly string[] } | undefined {
  for (let start = 0; start < pattern.length; start += 1) {
    if (pattern[start] === '\\') {
      start += 1;
      continue;
    }
    if (pattern[start] !== '{' || pattern[start + 1] === '}') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let index = start; index < pattern.length; index += 1) {
      const char = pattern[index];
      if (char === '\\') {
        index += 1;
        continue;
      }
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
      else if (char === ',' && depth === 1) commas.push(index);
      if (depth === 0) {
        const body = pattern.slice(start + 1, index);
        if (commas.length > 0) {
          const bounds = [start, ...commas, index];
          return {
            start,
            end: index,
            parts: bounds.slice(0, -1).map((at, position) => pattern.slice(at + 1, bounds[position + 1])),
          };
        }
        const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
        if (range)
          return {
            start,
            end: index,
            parts: rangeParts(range[1] as string, range[2] as string, Number(range[3] ?? 1)),
          };
        break;
      }
    }
  }
  return undefined;
}

function rangeParts(from: string, to: string, step: number): string[] {
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  const stride = Math.max(1, Math.abs(step)) * (a <= b ? 1 : -1);
  const parts: string[] = [];
  for (let value = a; a <= b ? value <= b : value >= b; value += stride) {
    parts.push(numeric ? String(value) : String.fromCharCode(value));
    if (parts.length > 1024) break;
  }
  return parts;
}
