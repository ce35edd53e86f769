import type { OptionStyle } from './code-running-options.js';
import type { ShellWord } from './shell-words.js';
import { JS_AND_BUILD_SYNTAX } from './syntax-js-build.js';
import { VCS_NETWORK_ARCHIVE_SYNTAX } from './syntax-vcs-network.js';
import { TEXT_TOOL_SYNTAX } from './syntax-text-tools.js';

/**
 * How common developer tools lay out their command lines, and a reader for them: which words are
 * options (in the program's own spellings and abbreviations), which are option values, which is
 * the subcommand, and where the program's options end. Shared by the table of options that run
 * code and the table of options that name files.
 */

/** How a program lays out its command line. */
export type Syntax = {
  readonly style: OptionStyle;
  /** The first word that is not an option (or an option's value) is a subcommand. */
  readonly subcommand: boolean;
  /** Options whose value is the next word, so that word is neither the subcommand nor an end. */
  readonly valueOptions: readonly string[];
  /** Options known to take no value (where an unknown option is assumed to take the next word). */
  readonly flagOptions?: readonly string[];
  /** Where its own options end: at `--` (they may follow operands), or at the first operand. */
  readonly end: 'double-dash' | 'operand' | 'operand-after-subcommand';
  /** Real options that are prefixes of an option in the table, so not abbreviations of it. */
  readonly realOptions?: readonly string[];
  /** Options that take the next two words (`jq --arg NAME VALUE`). */
  readonly pairOptions?: readonly string[];
};

export const SYNTAX: ReadonlyMap<string, Syntax> = new Map([
  ...JS_AND_BUILD_SYNTAX,
  ...VCS_NETWORK_ARCHIVE_SYNTAX,
  ...TEXT_TOOL_SYNTAX,
]);

export function basename(value: string): string {
  return value.slice(value.lastIndexOf('/') + 1);
}

/** A word that could turn into an option at run time (`$X`, `"$(…)"`): its text starts with an expansion. */
function couldBeOption(word: ShellWord): boolean {
  return !word.static && /^["']?[$`]/.test(word.source);
}

export type Parsed = {
  readonly subcommand: { readonly value: string; readonly index: number } | undefined;
  readonly options: readonly { readonly word: string; readonly next: string | undefined; readonly index: number }[];
  readonly operands: readonly { readonly value: string; readonly index: number }[];
  /** The words after `--` (or go's `-args`): operands, never options. */
  readonly afterOptions: readonly { readonly value: string; readonly index: number }[];
  /** Indexes of words known only at run time that could be options. */
  readonly unknown: readonly number[];
};

function normalize(option: string, style: OptionStyle): string {
  return style === 'npm' || style === 'node' ? option.replace(/_/g, '-') : option;
}

function takesValue(option: string, syntax: Syntax): boolean {
  const name = option.includes('=') ? undefined : option;
  if (name === undefined) return false;
  if (syntax.valueOptions.includes(name)) return true;
  // A short cluster (`-cf out.tar`, `-avze ssh`) takes the next word when its last letter does.
  if (syntax.style !== 'go' && /^-[A-Za-z0-9]{2,}$/.test(name)) {
    for (let at = 1; at < name.length; at += 1) {
      if (syntax.valueOptions.includes(`-${name[at] as string}`)) return at === name.length - 1;
    }
    return false;
  }
  if (syntax.flagOptions === undefined || syntax.flagOptions.includes(name)) return false;
  // Where options end at the first operand, an unknown option may take the next word: assume so.
  return syntax.end !== 'double-dash' && name.startsWith('-');
}

/** Splits the words after the program into options, operands and the subcommand. */
export function parse(argv: readonly ShellWord[], syntax: Syntax): Parsed {
  const options: { word: string; next: string | undefined; index: number }[] = [];
  const operands: { value: string; index: number }[] = [];
  const unknown: number[] = [];
  const afterOptions: { value: string; index: number }[] = [];
  let subcommand: { value: string; index: number } | undefined;
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (couldBeOption(word)) unknown.push(index);
    const value = word.value;
    if (word.static && (value === '--' || (syntax.style === 'go' && (value === '-args' || value === '--args')))) {
      for (let rest = index + 1; rest < argv.length; rest += 1)
        afterOptions.push({ value: argv[rest]?.value ?? '', index: rest });
      break;
    }
    if (word.static && value.startsWith('-') && value !== '-') {
      const written = normalize(value, syntax.style);
      options.push({ word: written, next: argv[index + 1]?.value, index });
      if ((syntax.pairOptions ?? []).includes(written)) index += 2;
      else if (takesValue(written, syntax)) index += 1;
      continue;
    }
    if (syntax.subcommand && subcommand === undefined && !value.startsWith('+')) {
      subcommand = { value, index };
      // xargs: the "subcommand" is the command it runs; what follows are that command's words.
      if (basename(argv[0]?.value ?? '') === 'xargs') break;
      continue;
    }
    if (syntax.end === 'operand' || (syntax.end === 'operand-after-subcommand' && subcommand !== undefined)) break;
    operands.push({ value, index });
  }
  return { subcommand, options, operands, afterOptions, unknown };
}

/** The value an option written as `word` (followed by `next`) gives `name`, or undefined when it is not that option. */
export function optionValue(
  word: string,
  next: string | undefined,
  name: string,
  syntax: Syntax,
): { readonly value: string | undefined } | undefined {
  const eq = word.indexOf('=');
  const written = eq < 0 ? word : word.slice(0, eq);
  const inline = eq < 0 ? undefined : word.slice(eq + 1);
  const long = name.startsWith('--') || (syntax.style === 'go' && name.length > 2);
  if (long) {
    const spellings = syntax.style === 'go' ? [name, `-${name}`] : [name];
    if (spellings.includes(written)) return { value: inline ?? next };
    const prefixes = syntax.style === 'getopt' || syntax.style === 'git' || syntax.style === 'npm';
    if (
      prefixes &&
      written.startsWith('--') &&
      written.length >= 4 &&
      name.startsWith(written) &&
      !(syntax.realOptions ?? []).includes(written)
    )
      return { value: inline ?? next };
    return undefined;
  }
  // A short option: alone, with its value attached, or in a cluster of short options.
  const letter = name.slice(1);
  if (word === name) return { value: next };
  if (syntax.style === 'go' || word.startsWith('--') || !word.startsWith('-')) return undefined;
  if (word.startsWith(name) && word.length > name.length) return { value: word.slice(name.length).replace(/^=/, '') };
  // In a cluster (`-avze ssh`), letters up to one that takes a value are options; the rest is that value.
  for (let at = 1; at < word.length; at += 1) {
    const char = word[at] as string;
    if (!/[A-Za-z0-9]/.test(char)) return undefined;
    if (char === letter) {
      const rest = word.slice(at + 1);
      return { value: rest === '' ? next : rest };
    }
    if (syntax.valueOptions.includes(`-${char}`)) return undefined;
  }
  return undefined;
}
