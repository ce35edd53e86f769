import { parseShell, type ShellCommand, type ShellRedirect, type ShellScript } from './bash-parser.js';
import { allowView, denyForms, embeddedScriptsOf, EXACT_RULE_ONLY, shellScriptOf, type AllowView } from './bash-wrappers.js';
import { criticalTargetReason } from './critical-paths.js';
import { EvaluationBuilder, type Evaluation } from './evaluation.js';
import { rulePathFor, type PathScope } from './path-checks.js';
import { classifyReadOnly, findRunsCommands } from './read-only-commands.js';
import { escapePathForRule } from './rule-parser.js';
import { applyPathRules, checkTarget, PROCESS_SECRET_WORD, readApproved, writeApproved, type PathMemo, type Target } from './bash-path-targets.js';
import type { CompiledRule } from './rule-set.js';
import type { ShellWord } from './shell-words.js';


/** What evaluating a Bash command needs besides the command. */
export type BashScope = PathScope & {
  readonly sessionCwd: string;
  readonly additionalDirectories: readonly string[];
  /** Generic rules (bare `Bash`, `Bash(field:value)`) already matched for this call. */
  readonly generic: { readonly deny?: CompiledRule; readonly ask?: CompiledRule; readonly allow?: CompiledRule };
};

/** Commands acceptEdits approves inside the working folders. */
const EDIT_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed']);
const HARMLESS_TARGETS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const MULTI_WORD_PROGRAMS: ReadonlySet<string> = new Set(['npm', 'pnpm', 'yarn', 'bun', 'npx', 'git', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'python', 'node', 'deno', 'gh', 'uv', 'poetry']);
const MAX_NESTED_SHELLS = 3;


type BashRuleIndex = {
  readonly byFirstWord: ReadonlyMap<string, readonly CompiledRule[]>;
  readonly wild: readonly CompiledRule[];
  readonly order: ReadonlyMap<CompiledRule, number>;
};

const indexes = new WeakMap<readonly CompiledRule[], BashRuleIndex>();

/** Indexes Bash rules by their literal first word so a command is tested only against rules that could match it. */
function indexOf(rules: readonly CompiledRule[]): BashRuleIndex {
  const known = indexes.get(rules);
  if (known) return known;
  const byFirstWord = new Map<string, CompiledRule[]>();
  const wild: CompiledRule[] = [];
  const order = new Map<CompiledRule, number>();
  rules.forEach((rule, position) => {
    if (rule.parsed.kind !== 'bash') return;
    order.set(rule, position);
    const word = rule.parsed.pattern.firstWord;
    if (word === undefined) {
      wild.push(rule);
      return;
    }
    // Appended in place: copying the list for each rule made 30,000 rules sharing a first word quadratic.
    const list = byFirstWord.get(word);
    if (list) list.push(rule);
    else byFirstWord.set(word, [rule]);
  });
  const index = { byFirstWord, wild, order };
  indexes.set(rules, index);
  return index;
}

/** The first rule (in settings order) whose pattern matches one of the forms. */
function matchBash(rules: readonly CompiledRule[], forms: readonly string[], options: { readonly exactOnly: boolean }): CompiledRule | undefined {
  if (rules.length === 0) return undefined;
  const index = indexOf(rules);
  let best: CompiledRule | undefined;
  let bestPosition = Number.POSITIVE_INFINITY;
  const consider = (candidates: readonly CompiledRule[] | undefined, form: string): void => {
    for (const rule of candidates ?? []) {
      if (rule.parsed.kind !== 'bash') continue;
      const position = index.order.get(rule) ?? Number.POSITIVE_INFINITY;
      if (position >= bestPosition) break;
      if (options.exactOnly && !rule.parsed.pattern.exact) continue;
      if (rule.parsed.pattern.test(form)) {
        best = rule;
        bestPosition = position;
        break;
      }
    }
  };
  for (const form of forms) {
    const space = form.indexOf(' ');
    consider(index.byFirstWord.get(space < 0 ? form : form.slice(0, space)), form);
    consider(index.wild, form);
  }
  return best;
}

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
function editTargets(argv: readonly ShellWord[]): readonly ShellWord[] {
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
const SED_SAFE_COMMAND = /^(?:(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)(?:,(?:\d+|\$|\/(?:[^/\\]|\\.)*\/))?)?\s*(?:[dp]|s\/(?:[^/\\\n]|\\.)*\/(?:[^/\\\n]|\\.)*\/[gIiMmp0-9]*)$/;

/**
 * Whether `sed` only substitutes or deletes lines in the files it is given: its `w`, `W`, `r`,
 * `R` and `e` commands and the `s///e` and `s///w` flags write other files or run commands, and
 * a script file (`-f`) cannot be read here.
 */
function sedEditIsPlain(argv: readonly ShellWord[]): boolean {
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
  return scripts.every((script) => script.value.split(/[;\n]/).every((command) => command.trim() === '' || SED_SAFE_COMMAND.test(command.trim())));
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
function otherWriteTargets(argv: readonly ShellWord[]): readonly ShellWord[] {
  const program = argv[0]?.value;
  if (program === 'ln') return editTargets(argv);
  if (program === 'tee') return argv.slice(1).filter((word) => !(word.static && word.value.startsWith('-') && word.value !== '-'));
  if (program === 'dd') {
    return argv
      .slice(1)
      .filter((word) => word.value.startsWith('of='))
      .map((word) => ({ ...word, value: word.value.slice(3), source: word.source.replace(/^of=/, '') }));
  }
  return [];
}

/** A rendered command with its first word lower-cased. */
function lowerProgram(form: string): string {
  const space = form.indexOf(' ');
  return space < 0 ? form.toLowerCase() : `${form.slice(0, space).toLowerCase()}${form.slice(space)}`;
}

/** Commands whose "always allow" is saved for the exact command only: a prefix would cover too much. */
const EXACT_SUGGESTIONS: ReadonlySet<string> = new Set(['rm', 'rmdir', 'mv', 'dd', 'chmod', 'chown', 'kill', 'pkill', 'sudo']);

function suggestionFor(view: AllowView, exact: boolean): { readonly rule: string; readonly covers: string } {
  if (exact || view.unsafeAssignment !== undefined || EXACT_SUGGESTIONS.has(view.argv[0]?.value ?? '')) return { rule: `Bash(${view.text})`, covers: `exactly the command ${view.text}` };
  const words = view.argv.map((word) => word.value);
  const prefix: string[] = [words[0] ?? ''];
  const plain = (word: string | undefined): word is string => word !== undefined && /^[A-Za-z][\w.:-]*$/.test(word);
  if (plain(words[1]) && MULTI_WORD_PROGRAMS.has(prefix[0] as string)) {
    prefix.push(words[1]);
    if (words[1] === 'run' && plain(words[2])) prefix.push(words[2]);
  }
  const text = prefix.join(' ');
  return { rule: `Bash(${text}:*)`, covers: `commands starting with ${text}` };
}

/** Expands `sh -c '…'` into the commands of its script (recursively, to a small depth). */
function flatten(script: ShellScript, options: { readonly homeDir: string; readonly depth: number }): {
  readonly commands: readonly { readonly command: ShellCommand; readonly transparent: boolean }[];
  readonly redirects: readonly ShellRedirect[];
  readonly concerns: readonly string[];
} {
  const commands: { command: ShellCommand; transparent: boolean }[] = [];
  const redirects = [...script.redirects];
  const concerns = [...script.concerns];
  for (const command of script.commands) {
    const inner = shellScriptOf(allowView(command).argv);
    if (inner === undefined) {
      commands.push({ command, transparent: false });
      // `eval`, `trap`, `alias`, `env sh -c`…: the text they run is checked too; the command itself still needs approval.
      const embedded = embeddedScriptsOf(command);
      if (embedded === 'dynamic' || (embedded.length > 0 && (options.depth >= MAX_NESTED_SHELLS || command.cwds === undefined))) {
        concerns.push(`a command runs text that cannot be read (${command.text.slice(0, 80)})`);
        continue;
      }
      for (const text of embedded) {
        const cwd = command.cwds?.[command.cwds.length - 1] as string;
        const nested = flatten(parseShell(text, { cwd, homeDir: options.homeDir }), { ...options, depth: options.depth + 1 });
        commands.push(...nested.commands);
        redirects.push(...nested.redirects);
        concerns.push(...nested.concerns);
      }
      continue;
    }
    if (inner === 'dynamic' || options.depth >= MAX_NESTED_SHELLS || command.cwds === undefined) {
      concerns.push(`a shell runs a script that cannot be read (${command.text.slice(0, 80)})`);
      commands.push({ command, transparent: false });
      continue;
    }
    commands.push({ command, transparent: true });
    const cwd = command.cwds[command.cwds.length - 1] as string;
    const nested = flatten(parseShell(inner.script, { cwd, homeDir: options.homeDir }), { ...options, depth: options.depth + 1 });
    commands.push(...nested.commands);
    redirects.push(...nested.redirects);
    concerns.push(...nested.concerns);
  }
  return { commands, redirects, concerns };
}

/**
 * Evaluates a Bash command line: every simple command (including those inside substitutions and
 * `sh -c` scripts) against Bash deny, ask and allow rules and the read-only set; file arguments
 * and redirect targets against Read and Edit path rules, working folders and protected paths;
 * `rm` targets against critical paths. Anything the parser cannot account for needs approval.
 */
export function evaluateBash(command: string, script: ShellScript, scope: BashScope): Evaluation {
  const result = new EvaluationBuilder();
  // Anywhere in the command (an argument, `if=`, a variable, a glob): a process's environment or
  // memory holds the session's credentials, so such a command always goes to a person.
  if (PROCESS_SECRET_WORD.test(command)) {
    result.unsafe("Bash command needs approval: it names a process's environment or memory, which holds credentials.", { bypassable: false });
  }
  const memo: PathMemo = new Map();
  const rules = {
    deny: scope.rules.forTool('deny', 'Bash'),
    ask: scope.rules.forTool('ask', 'Bash'),
    allow: scope.rules.forTool('allow', 'Bash'),
  };
  const flat = flatten(script, { homeDir: scope.homeDir, depth: 0 });
  const restrictive =
    rules.deny.length + rules.ask.length > 0 ||
    ['Read', 'Edit'].some((name) => scope.rules.forTool('deny', name).length + scope.rules.forTool('ask', name).length > 0);
  for (const concern of new Set(flat.concerns)) {
    result.unsafe(`Bash command needs approval: ${concern}.`, {
      bypassable: !restrictive && !concern.includes('characters'),
    });
  }
  if (flat.concerns.length > 0) result.readOnly = false;
  if (scope.generic.deny) result.denyBy('Bash', scope.generic.deny);
  if (scope.generic.ask) result.askBy('Bash', scope.generic.ask);
  let allApproved = true;
  let approvedByRule: CompiledRule | undefined = scope.generic.allow;
  const writeTargets: Target[] = [];
  const readTargets: { target: Target; recursive: boolean }[] = [];

  for (const { command: shellCommand, transparent } of flat.commands) {
    const { forms: exactForms, argv: innermost, viaXargs } = denyForms(shellCommand);
    // On a case-insensitive disk `RM -rf x` runs rm: deny and ask rules also see the lower-cased program.
    const forms = scope.caseInsensitive ? [...new Set([...exactForms, ...exactForms.map(lowerProgram)])] : exactForms;
    const denied = matchBash(rules.deny, forms, { exactOnly: false });
    if (denied) result.denyBy('Bash', denied, shellCommand.text);
    const asked = matchBash(rules.ask, forms, { exactOnly: false });
    if (asked) result.askBy('Bash', asked, shellCommand.text);
    const view = allowView(shellCommand);
    const program = view.argv[0]?.static ? view.argv[0].value : undefined;
    const innerProgram = scope.caseInsensitive ? innermost[0]?.value.toLowerCase() : innermost[0]?.value;
    if (innerProgram === 'rm' || innerProgram === 'rmdir') {
      if (viaXargs) result.unsafe('Bash command needs approval: xargs gives rm targets nobody has seen, which could be critical folders.', { bypassable: false });
      for (const target of editTargets(innermost)) {
        const reason = criticalTargetReason(target, { ...scope, cwds: shellCommand.cwds });
        if (reason) result.unsafe(`Bash command needs approval: ${reason}.`, { bypassable: false });
      }
    }
    const hiddenProgram = [shellCommand.words[0], innermost[0]].find((word) => word !== undefined && (!word.static || word.glob));
    if (hiddenProgram) {
      // `/bin/r? -rf x`, `$CMD -rf x`: no rule can tell which program runs.
      result.unsafe(`Bash command needs approval: the program name ${hiddenProgram.source} is only known at run time.`, { bypassable: !restrictive });
    }
    if (view.argv.some((word) => word.static && word.value.startsWith('\\\\'))) {
      result.unsafe('Bash command needs approval: it holds a Windows UNC path.', { bypassable: false });
    }
    if (transparent) continue;
    const exactOnly = (program !== undefined && EXACT_RULE_ONLY.has(program)) || findRunsCommands(view.argv);
    const allowed = matchBash(rules.allow, [view.text], { exactOnly });
    const verdict = view.unsafeAssignment === undefined && !view.viaXargs ? classifyReadOnly(view.argv) : undefined;
    const isEdit = program !== undefined && EDIT_COMMANDS.has(program) && !verdict?.readOnly;
    if (isEdit) for (const word of editTargets(view.argv)) writeTargets.push({ word, cwds: shellCommand.cwds });
    // `sed -i '1e cmd'` or `sed -i 'w /elsewhere'` runs or writes more than the file it edits.
    if (isEdit && program === 'sed' && !sedEditIsPlain(view.argv)) result.acceptEdits = false;
    // `ln -s .git/hooks h` then `> h/pre-commit`, `tee ~/.bashrc`, `dd of=.bashrc`: checked as writes there.
    for (const word of otherWriteTargets(innermost)) writeTargets.push({ word, cwds: shellCommand.cwds });
    let approvedHere = transparent || allowed !== undefined || scope.generic.allow !== undefined;
    if (allowed) approvedByRule ??= allowed;
    if (verdict?.readOnly) {
      for (const read of verdict.reads) readTargets.push({ target: { word: read.word, cwds: shellCommand.cwds }, recursive: read.recursive });
      const gitElsewhere = program === 'git' && (shellCommand.cwds === undefined || shellCommand.cwds.some((cwd) => cwd !== scope.sessionCwd));
      const readsOk = verdict.reads.every((read) => readApproved({ word: read.word, cwds: shellCommand.cwds }, read.recursive, scope, memo));
      if (!gitElsewhere && readsOk) approvedHere = true;
    } else {
      result.readOnly = false;
    }
    if (!approvedHere && !(isEdit && view.unsafeAssignment === undefined)) result.acceptEdits = false;
    if (!approvedHere) {
      allApproved = false;
      const suggestion = suggestionFor(view, exactOnly);
      result.pending.push(shellCommand.text);
      result.suggest({ rule: suggestion.rule, behavior: 'allow', destination: 'localSettings', covers: suggestion.covers });
    }
  }

  for (const redirect of flat.redirects) {
    if (redirect.target.static && HARMLESS_TARGETS.has(redirect.target.value)) continue;
    if (redirect.writes) {
      result.readOnly = false;
      writeTargets.push({ word: redirect.target, cwds: redirect.cwds });
      const approvedBy = writeApproved({ word: redirect.target, cwds: redirect.cwds }, scope, memo);
      if (approvedBy) approvedByRule ??= approvedBy;
      else {
        allApproved = false;
        result.pending.push(`writing ${redirect.target.source}`);
        const link = checkTarget({ word: redirect.target, cwds: redirect.cwds }, { scope, access: 'write', recursive: false, memo })?.[0]?.forms.link;
        if (link) {
          result.suggest({ rule: `Edit(${escapePathForRule(rulePathFor(link, scope.sessionCwd))})`, behavior: 'allow', destination: 'localSettings', covers: `writes to ${link}` });
        }
      }
    } else {
      readTargets.push({ target: { word: redirect.target, cwds: redirect.cwds }, recursive: false });
      if (!readApproved({ word: redirect.target, cwds: redirect.cwds }, false, scope, memo)) {
        allApproved = false;
        result.acceptEdits = false;
        result.pending.push(`reading ${redirect.target.source}`);
      }
    }
  }

  for (const { target, recursive } of readTargets) applyPathRules(result, target, { scope, access: 'read', recursive, memo });
  for (const target of writeTargets) {
    const resolved = applyPathRules(result, target, { scope, access: 'write', recursive: false, memo });
    if (!resolved.inside || resolved.protected) result.acceptEdits = false;

  }
  if (flat.concerns.length > 0) result.suggestions.length = 0;
  if (allApproved) {
    result.approved = approvedByRule
      ? { kind: 'rule', rule: approvedByRule.entry.rule, source: approvedByRule.entry.source, ...(approvedByRule.entry.file ? { file: approvedByRule.entry.file } : {}) }
      : { kind: 'read-only', message: `${command.length > 60 ? 'this command' : command} only reads inside the working folders` };
  }
  return result.build();
}
