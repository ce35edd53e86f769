import { DATA_PATH_OPTIONS, type DataAccess, type DataPathOption } from './data-path-options.js';
import { basename, optionValue, parse, SYNTAX, type Parsed, type Syntax } from './option-syntax.js';
import type { ShellWord } from './shell-words.js';

/**
 * The files one command reads or writes through options, lists, response files and sed or awk
 * scripts (the table in data-path-options.ts), as words to check like redirections.
 */

/** One file the command reads or writes, and what it is for (for messages). */
export type DataPath = {
  readonly word: ShellWord;
  readonly access: Exclude<DataAccess, 'list'>;
  readonly what: string;
};

/** The files a command names, and why some cannot be known (names from a list or stdin). */
export type DataPaths = { readonly paths: readonly DataPath[]; readonly unknowable: readonly string[] };

const BY_PROGRAM: ReadonlyMap<string, readonly DataPathOption[]> = (() => {
  const map = new Map<string, DataPathOption[]>();
  for (const entry of DATA_PATH_OPTIONS)
    for (const program of entry.program) map.set(program, [...(map.get(program) ?? []), entry]);
  return map;
})();

const PROGRAM_TEXT = new Set(['sed', 'awk', 'gawk', 'mawk', 'nawk']);

function textWord(value: string, from: ShellWord): ShellWord {
  return { value, static: from.static, glob: from.static && /[*?[]/.test(value), quoted: from.quoted, source: value };
}

/** `tar cf out.tar x` is `tar -cf out.tar x`: old-style option letters in the first word. */
function normalizeTar(argv: readonly ShellWord[]): readonly ShellWord[] {
  const first = argv[1];
  if (first === undefined || !first.static || !/^[A-Za-z]+$/.test(first.value)) return argv;
  return [argv[0] as ShellWord, { ...first, value: `-${first.value}`, source: `-${first.value}` }, ...argv.slice(2)];
}

/** Whether tar creates, appends to or updates an archive (else it reads one). */
function tarWrites(parsed: Parsed): boolean {
  return parsed.options.some(
    ({ word }) =>
      /^--(create|append|update|catenate|concatenate)$/.test(word) ||
      (/^-[A-Za-z]+$/.test(word) && /[cruA]/.test(word)),
  );
}

/** The value of an option as a word: the next word itself (keeping its quoting), or the text after `=`. */
function valueWord(
  argv: readonly ShellWord[],
  option: { readonly word: string; readonly index: number },
  value: string,
): ShellWord {
  const next = argv[option.index + 1];
  if (next !== undefined && next.value === value && !option.word.endsWith(`=${value}`) && !option.word.endsWith(value))
    return next;
  return textWord(value, argv[option.index] as ShellWord);
}

/** Files a sed script writes (`w FILE`, `W FILE`, `s///w FILE`) or reads (`r FILE`, `R FILE`). */
function sedFiles(script: string): { readonly path: string; readonly access: 'read' | 'write' }[] {
  const files: { path: string; access: 'read' | 'write' }[] = [];
  const address = String.raw`(?:(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)(?:,(?:\d+|\$|/(?:[^/\\\n]|\\.)*/))?)?`;
  for (const match of script.matchAll(
    new RegExp(String.raw`(?:^|[\n;{}])\s*${address}\s*!?\s*([wWrR])[ \t]+([^\n]+)`, 'g'),
  )) {
    files.push({ path: (match[2] as string).trim(), access: /[wW]/.test(match[1] as string) ? 'write' : 'read' });
  }
  for (const match of script.matchAll(
    /s(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gIiMmpe0-9]*w[ \t]+([^\n]+)/g,
  )) {
    files.push({ path: (match[2] as string).trim(), access: 'write' });
  }
  return files;
}

/** Files an awk program writes (`print > "f"`, `>>`) or reads (`getline < "f"`); `undefined` path: an expression. */
function awkFiles(program: string): { readonly path: string | undefined; readonly access: 'read' | 'write' }[] {
  const files: { path: string | undefined; access: 'read' | 'write' }[] = [];
  const target = String.raw`\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;})]+))`;
  for (const match of program.matchAll(new RegExp(String.raw`\bprintf?\b[^;{}\n]*?>>?${target}`, 'g')))
    files.push({ path: match[1], access: 'write' });
  for (const match of program.matchAll(new RegExp(String.raw`\bgetline\b[^;{}\n|]*?<${target}`, 'g')))
    files.push({ path: match[1], access: 'read' });
  return files;
}

/** The program texts of sed and awk (from -e/--expression/--source, else the first operand), and whether one was an option. */
function programTexts(
  argv: readonly ShellWord[],
  parsed: Parsed,
  syntax: Syntax,
): { readonly texts: readonly ShellWord[]; readonly fromOptions: boolean } {
  const texts: ShellWord[] = [];
  let fromOptions = false;
  for (const option of parsed.options) {
    for (const name of ['-e', '--expression', '--source']) {
      const found = optionValue(option.word, option.next, name, syntax);
      if (found?.value !== undefined) texts.push(valueWord(argv, option, found.value));
    }
    if (optionValue(option.word, option.next, '-f', syntax) || optionValue(option.word, option.next, '--file', syntax))
      fromOptions = true;
  }
  if (texts.length > 0) return { texts, fromOptions: true };
  const first = parsed.operands[0];
  return { texts: fromOptions || first === undefined ? [] : [argv[first.index] as ShellWord], fromOptions };
}

/** The files `argv` reads or writes beyond its plain operands (see {@link DataPaths}). */
export function dataPathsOf(argvIn: readonly ShellWord[]): DataPaths {
  const program = argvIn[0]?.static ? basename(argvIn[0].value) : undefined;
  const entries = program === undefined ? undefined : BY_PROGRAM.get(program);
  const syntax = program === undefined ? undefined : SYNTAX.get(program);
  if (program === undefined || entries === undefined || syntax === undefined) return { paths: [], unknowable: [] };
  const argv = program === 'tar' ? normalizeTar(argvIn) : argvIn;
  const parsed = parse(argv, syntax);
  const paths: DataPath[] = [];
  const unknowable: string[] = [];
  const operandWords = [...parsed.operands, ...parsed.afterOptions].map(({ index }) => argv[index] as ShellWord);
  const programText = PROGRAM_TEXT.has(program) ? programTexts(argv, parsed, syntax) : undefined;
  const add = (word: ShellWord, access: DataAccess, what: string): void => {
    if (access !== 'list') {
      paths.push({ word, access, what });
      return;
    }
    if (!(word.static && word.value === '-')) paths.push({ word, access: 'read', what });
    unknowable.push(
      `${program} reads the names of files to open from ${word.static && word.value === '-' ? 'stdin' : word.source}, which nobody has seen`,
    );
  };
  for (const entry of entries) {
    if (
      entry.subcommands !== undefined &&
      (parsed.subcommand === undefined || !entry.subcommands.includes(parsed.subcommand.value))
    )
      continue;
    const access: DataAccess =
      entry.access === 'archive'
        ? tarWrites(parsed)
          ? entry.trigger.kind === 'operands'
            ? 'read'
            : 'write'
          : 'read'
        : entry.access;
    // tar: the operands are disk files only when it creates an archive (else they are member names).
    if (entry.access === 'archive' && entry.trigger.kind === 'operands' && !tarWrites(parsed)) continue;
    const trigger = entry.trigger;
    switch (trigger.kind) {
      case 'option':
        for (const option of parsed.options) {
          for (const name of trigger.names) {
            const found = optionValue(option.word, option.next, name, syntax);
            if (found?.value === undefined) continue;
            // `jq --rawfile NAME FILE`: the file is the second word after the option.
            const value = name === '--rawfile' || name === '--slurpfile' ? argv[option.index + 2]?.value : found.value;
            if (value === undefined) continue;
            if (trigger.prefix !== undefined) {
              const prefix = trigger.prefix.exec(value);
              if (prefix)
                add(textWord(value.slice(prefix[0].length), argv[option.index] as ShellWord), access, entry.what);
              continue;
            }
            add(
              name === '--rawfile' || name === '--slurpfile'
                ? (argv[option.index + 2] as ShellWord)
                : valueWord(argv, option, value),
              access,
              entry.what,
            );
          }
        }
        break;
      case 'flag':
        if (parsed.options.some(({ word }) => trigger.names.includes(word)))
          add({ value: '-', static: true, glob: false, quoted: false, source: '-' }, 'list', entry.what);
        break;
      case 'at-file':
        for (const word of operandWords)
          if (word.value.startsWith('@')) add(textWord(word.value.slice(1), word), access, entry.what);
        break;
      case 'operands': {
        const skipFirst = trigger.which === 'all-but-first' && !(programText?.fromOptions ?? false);
        const local = operandWords.filter(
          (word) =>
            !(program === 'rsync' && /^[^/]*:/.test(word.value)) &&
            !(word.static && word.value === '-') &&
            !word.value.startsWith('@'),
        );
        const chosen =
          trigger.which === 'first'
            ? local.slice(0, 1)
            : trigger.which === 'last'
              ? local.slice(-1)
              : trigger.which === 'all-but-last'
                ? local.slice(0, -1)
                : skipFirst
                  ? local.slice(1)
                  : local;
        // rsync's destination, with a single operand: it only lists, writing nothing.
        if (program === 'rsync' && trigger.which === 'last' && local.length < 2) break;
        for (const word of chosen) add(word, access, entry.what);
        break;
      }
    }
  }
  for (const text of programText?.texts ?? []) {
    if (!text.static) continue;
    const files = program === 'sed' ? sedFiles(text.value) : awkFiles(text.value);
    for (const file of files) {
      if (file.path === undefined) unknowable.push(`${program} opens a file whose name its program computes`);
      else
        add(
          textWord(file.path, text),
          file.access,
          `a file its program ${file.access === 'read' ? 'reads' : 'writes'}`,
        );
    }
  }
  return { paths, unknowable };
}
