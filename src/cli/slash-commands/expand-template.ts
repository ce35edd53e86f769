/** A piece of a command's template: prompt text, or a shell command (`!` then a backtick-quoted command) whose output replaces it. */
export type TemplatePart =
  { readonly kind: 'text'; readonly text: string } | { readonly kind: 'shell'; readonly command: string };

/** `!` at the start of a line or after a space, then a command in backticks on one line. */
const SHELL = /(^|[ \t])!`([^`\n]+)`/gm;

/**
 * Splits a template into text and shell commands, with the arguments put in both: `$ARGUMENTS`
 * is the whole argument text, `$1` … `$9` the words (quotes group words). The shell commands are
 * found before the arguments go in, so an argument can never add a shell command of its own.
 * Arguments given to a template that uses none are added after it as `ARGUMENTS: …`.
 */
export function expandTemplate(template: string, argumentText: string): readonly TemplatePart[] {
  const words = splitArguments(argumentText);
  const fill = (text: string) =>
    text.replace(/\$ARGUMENTS\b|\$([1-9])(?![0-9])/g, (whole, digit?: string) =>
      digit === undefined ? argumentText : (words[Number(digit) - 1] ?? ''),
    );
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(SHELL)) {
    const start = match.index + (match[1] ?? '').length;
    parts.push({ kind: 'text', text: fill(template.slice(last, start)) });
    parts.push({ kind: 'shell', command: fill(match[2] ?? '').trim() });
    last = match.index + match[0].length;
  }
  parts.push({ kind: 'text', text: fill(template.slice(last)) });
  const usesArguments = /\$ARGUMENTS\b|\$[1-9](?![0-9])/.test(template);
  if (!usesArguments && argumentText.trim() !== '')
    parts.push({ kind: 'text', text: `\n\nARGUMENTS: ${argumentText}` });
  return parts.filter((part) => part.kind === 'shell' || part.text !== '');
}

/** The words of an argument text; double or single quotes keep spaces inside one word. */
export function splitArguments(text: string): readonly string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}
