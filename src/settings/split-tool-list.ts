/**
 * Splits a `--allowedTools`/`--disallowedTools` value into rules: entries are separated by commas
 * or whitespace outside parentheses, so `"Bash(git log:*) Read,Edit"` gives three rules and the
 * space inside `Bash(git log:*)` is kept.
 */
export function splitToolList(value: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current !== '') rules.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (current !== '') rules.push(current);
  return rules;
}
