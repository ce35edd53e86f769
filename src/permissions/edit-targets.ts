import type { ShellWord } from './shell-words.js';

/**
 * What editing commands (`mkdir`, `touch`, `rm`, `mv`, `cp`, `sed`, `ln`, `tee`, `dd`) create,
 * move, delete or write, and whether a `sed` edit only substitutes text.
 */

/** Per program, the flags of an editing command that take a value (`-m 755`, `-t dir`, `-e script`). */
const EDIT_FLAG_VALUES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['mkdir', new Set(['-m', '--mode', '--context'])],
  ['touch', new Set(['-d', '--date', '-r', '--reference', '-t'])],
  ['cp', new Set(['-t', '--target-directory', '-S', '--suffix'])],
  ['mv', new Set(['-t', '--target-directory', '-S', '--suffix'])],
  ['ln', new Set(['-t', '--target-directory', '-S', '--suffix'])],
  ['sed', new Set(['-e', '--expression', '-f', '--file', '-l', '--line-length'])],
]);

/** The positional arguments of an editing command: the files it creates, moves or deletes. */
export function editTargets(argv: readonly ShellWord[]): readonly ShellWord[] {
  const targets: ShellWord[] = [];
  const program = argv[0]?.value ?? '';
  const isSed = program === 'sed';
  const valueFlags = EDIT_FLAG_VALUES.get(program) ?? new Set<string>();
  const targetFlag = program === 'cp' || program === 'mv' || program === 'ln';
  let scriptSeen = false;
  let endOfFlags = false;
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!endOfFlags && word.static && word.value === '--') {
      endOfFlags = true;
      continue;
    }
    if (!endOfFlags && word.static && word.value.startsWith('-') && word.value !== '-') {
      const value = word.value;
      let flag: string;
      let inline: string | undefined;
      if (value.startsWith('--')) {
        const eq = value.indexOf('=');
        flag = eq < 0 ? value : value.slice(0, eq);
        inline = eq < 0 ? undefined : value.slice(eq + 1);
        if (!valueFlags.has(flag)) continue;
      } else {
        // A short cluster: the first letter that takes a value takes the rest of the word or the next word.
        const at = [...value.slice(1)].findIndex((letter) => valueFlags.has(`-${letter}`));
        if (at < 0) continue;
        flag = `-${value[at + 1] as string}`;
        inline = value.length > at + 2 ? value.slice(at + 2) : undefined;
      }
      const operand = inline !== undefined ? { ...word, value: inline, source: inline } : argv[index + 1];
      if (inline === undefined) index += 1;
      if (flag === '-e' || flag === '--expression' || flag === '-f' || flag === '--file') scriptSeen = true;
      if (targetFlag && (flag === '-t' || flag === '--target-directory') && operand) targets.push(operand);
      continue;
    }
    if (isSed && !scriptSeen) {
      scriptSeen = true;
      continue;
    }
    targets.push(word);
  }
  return targets;
}

/** One `s/re/replacement/flags`, `d` or `p` command, with an optional line or regex address. */
const SED_SAFE_COMMAND =
  /^(?:(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)(?:,(?:\d+|\$|\/(?:[^/\\]|\\.)*\/))?)?\s*(?:[dp]|s\/(?:[^/\\\n]|\\.)*\/(?:[^/\\\n]|\\.)*\/[gIiMmp0-9]*)$/;

/**
 * Whether `sed` only substitutes or deletes lines in the files it is given: its `w`, `W`, `r`,
 * `R` and `e` commands and the `s///e` and `s///w` flags write other files or run commands, and
 * a script file (`-f`) cannot be read here.
 */
export function sedEditIsPlain(argv: readonly ShellWord[]): boolean {
  const scripts: ShellWord[] = [];
  let scriptFromPositional = true;
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!word.static) return false;
    const value = word.value;
    if (value === '--') break;
    if (!value.startsWith('-') || value === '-') continue;
    if (/^(-f|--file|--f|--fi|--fil)/.test(value) || /^-[a-zA-Z]*f/.test(value)) return false;
    const expression = /^--e[a-z]*=(.*)$/s.exec(value) ?? /^-[nrEsuz]*e(.+)$/s.exec(value);
    if (expression) {
      scripts.push({ ...word, value: expression[1] as string });
      scriptFromPositional = false;
    } else if (/^--e[a-z]*$/.test(value) || /^-[nrEsuz]*e$/.test(value)) {
      const next = argv[index + 1];
      if (next === undefined || !next.static) return false;
      scripts.push(next);
      scriptFromPositional = false;
      index += 1;
    }
  }
  if (scriptFromPositional) {
    const script = editTargetsScript(argv);
    if (script === undefined) return false;
    scripts.push(script);
  }
  return scripts.every((script) =>
    script.value.split(/[;\n]/).every((command) => command.trim() === '' || SED_SAFE_COMMAND.test(command.trim())),
  );
}

/** The first positional of `sed` (its script when no -e is given). */
function editTargetsScript(argv: readonly ShellWord[]): ShellWord | undefined {
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!word.static) return undefined;
    if (word.value === '--') return argv[index + 1];
    if (word.value.startsWith('-') && word.value !== '-') {
      if (/^(-l|--line-length)$/.test(word.value)) index += 1;
      continue;
    }
    return word;
  }
  return undefined;
}

/** Files a command writes besides its edit targets: `tee FILE`, `dd of=FILE`, both ends of `ln`. */
export function otherWriteTargets(argv: readonly ShellWord[]): readonly ShellWord[] {
  const program = argv[0]?.value;
  if (program === 'ln') return editTargets(argv);
  if (program === 'tee')
    return argv.slice(1).filter((word) => !(word.static && word.value.startsWith('-') && word.value !== '-'));
  if (program === 'dd') {
    return argv
      .slice(1)
      .filter((word) => word.value.startsWith('of='))
      .map((word) => ({ ...word, value: word.value.slice(3), source: word.source.replace(/^of=/, '') }));
  }
  return [];
}
