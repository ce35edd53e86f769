import type { ShellScript } from './bash-parser.js';
import { flatten } from './bash-flatten.js';
import { matchBash } from './bash-rule-index.js';
import { allowView, denyForms, EXACT_RULE_ONLY, type AllowView } from './bash-wrappers.js';
import { editTargets, otherWriteTargets, sedEditIsPlain } from './edit-targets.js';
import { checkDataPaths, readTargetOf } from './bash-data-checks.js';
import { codeRunningOptionIn } from './code-running-match.js';
import { criticalTargetReason } from './critical-paths.js';
import { EvaluationBuilder, type Evaluation } from './evaluation.js';
import { rulePathFor, type PathScope } from './path-checks.js';
import { classifyReadOnly, findRunsCommands } from './read-only-commands.js';
import { escapePathForRule } from './rule-parser.js';
import {
  applyPathRules,
  checkTarget,
  readApproved,
  writeApproved,
  type PathMemo,
  type Target,
} from './bash-path-targets.js';
import { runsInOtherRepository } from './git-repository.js';
import { processSecretReason } from './process-secrets.js';
import type { CompiledRule } from './rule-set.js';

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
const MULTI_WORD_PROGRAMS: ReadonlySet<string> = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'git',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'make',
  'pip',
  'python',
  'node',
  'deno',
  'gh',
  'uv',
  'poetry',
]);

/** How many leading words of the command the rule spells out itself (the first is the program). */
function rulePrefixWords(rule: CompiledRule): number {
  return rule.parsed.kind === 'bash' ? Math.max(1, rule.parsed.pattern.coveredWords) : 1;
}

/** A rendered command with its first word lower-cased. */
function lowerProgram(form: string): string {
  const space = form.indexOf(' ');
  return space < 0 ? form.toLowerCase() : `${form.slice(0, space).toLowerCase()}${form.slice(space)}`;
}

/** Commands whose "always allow" is saved for the exact command only: a prefix would cover too much. */
const EXACT_SUGGESTIONS: ReadonlySet<string> = new Set([
  'rm',
  'rmdir',
  'mv',
  'dd',
  'chmod',
  'chown',
  'kill',
  'pkill',
  'sudo',
]);

function suggestionFor(view: AllowView, exact: boolean): { readonly rule: string; readonly covers: string } {
  if (exact || view.unsafeAssignment !== undefined || EXACT_SUGGESTIONS.has(view.argv[0]?.value ?? ''))
    return { rule: `Bash(${view.text})`, covers: `exactly the command ${view.text}` };
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

/**
 * Evaluates a Bash command line: every simple command (including those inside substitutions and
 * `sh -c` scripts) against Bash deny, ask and allow rules and the read-only set; file arguments
 * and redirect targets against Read and Edit path rules, working folders and protected paths;
 * `rm` targets against critical paths. Anything the parser cannot account for needs approval.
 */
export function evaluateBash(command: string, script: ShellScript, scope: BashScope): Evaluation {
  const result = new EvaluationBuilder();
  const memo: PathMemo = new Map();
  const rules = {
    deny: scope.rules.forTool('deny', 'Bash'),
    ask: scope.rules.forTool('ask', 'Bash'),
    allow: scope.rules.forTool('allow', 'Bash'),
  };
  const flat = flatten(script, { homeDir: scope.homeDir, depth: 0 });
  // `shopt -s nocaseglob dotglob extglob globstar` changes what a glob names: then globs are unknowable.
  const globsUnknown = flat.commands.some(
    ({ command: part }) => part.words[0]?.static === true && part.words[0].value === 'shopt',
  );
  // Anywhere in the command (an argument, `if=`, a variable, a glob, `ps e`): a process's
  // environment, memory or command line holds the session's credentials, so it goes to a person.
  const secret = processSecretReason(
    command,
    flat.commands.map((flatCommand) => flatCommand.command),
  );
  if (secret !== undefined) result.unsafe(`Bash command needs approval: ${secret}.`, { bypassable: false });
  const restrictive =
    rules.deny.length + rules.ask.length > 0 ||
    ['Read', 'Edit'].some(
      (name) => scope.rules.forTool('deny', name).length + scope.rules.forTool('ask', name).length > 0,
    );
  for (const concern of new Set(flat.concerns)) {
    result.unsafe(`Bash command needs approval: ${concern}.`, {
      bypassable: !restrictive && !concern.includes('characters'),
    });
  }
  if (flat.concerns.length > 0) result.readOnly = false;
  if (scope.generic.deny) result.denyBy('Bash', scope.generic.deny);
  if (scope.generic.ask) result.askBy('Bash', scope.generic.ask);
  const run: BashRun = {
    result,
    memo,
    rules,
    scope,
    restrictive,
    globsUnknown,
    writeTargets: [],
    readTargets: [],
    allApproved: true,
    approvedByRule: scope.generic.allow,
  };
  for (const flatCommand of flat.commands) evaluateSimpleCommand(run, flatCommand);
  for (const redirect of flat.redirects) evaluateRedirect(run, redirect);
  const { writeTargets, readTargets, allApproved, approvedByRule } = run;

  for (const { target, recursive } of readTargets)
    applyPathRules(result, target, { scope, access: 'read', recursive, memo });
  for (const target of writeTargets) {
    const resolved = applyPathRules(result, target, { scope, access: 'write', recursive: false, memo });
    if (!resolved.inside || resolved.protected || target.word.glob) result.acceptEdits = false;
  }
  if (flat.concerns.length > 0) result.suggestions.length = 0;
  if (allApproved) {
    result.approved = approvedByRule
      ? {
          kind: 'rule',
          rule: approvedByRule.entry.rule,
          source: approvedByRule.entry.source,
          ...(approvedByRule.entry.file ? { file: approvedByRule.entry.file } : {}),
        }
      : {
          kind: 'read-only',
          message: `${command.length > 60 ? 'this command' : command} only reads inside the working folders`,
        };
  }
  return result.build();
}

/** What the steps of one evaluation share: the verdict being built and what the commands touch. */
type BashRun = {
  readonly result: EvaluationBuilder;
  readonly memo: PathMemo;
  readonly rules: {
    readonly deny: readonly CompiledRule[];
    readonly ask: readonly CompiledRule[];
    readonly allow: readonly CompiledRule[];
  };
  readonly scope: BashScope;
  /** Deny or ask rules exist for Bash, Read or Edit: bypass mode then skips no concern. */
  readonly restrictive: boolean;
  readonly globsUnknown: boolean;
  readonly writeTargets: Target[];
  readonly readTargets: { target: Target; recursive: boolean }[];
  allApproved: boolean;
  approvedByRule: CompiledRule | undefined;
};

type FlatCommand = ReturnType<typeof flatten>['commands'][number];
type FlatRedirect = ReturnType<typeof flatten>['redirects'][number];

/**
 * One simple command: Bash deny and ask rules (on every form a wrapper can hide it in), `rm`
 * targets, hidden program names, then — unless it only passes another command on — allow rules,
 * the read-only set, its write and read targets and the files its options name.
 */
function evaluateSimpleCommand(run: BashRun, flatCommand: FlatCommand): void {
  const { command: shellCommand, transparent } = flatCommand;
  const { forms: exactForms, argv: innermost, viaXargs } = denyForms(shellCommand);
  // On a case-insensitive disk `RM -rf x` runs rm: deny and ask run.rules also see the lower-cased program.
  const forms = run.scope.caseInsensitive ? [...new Set([...exactForms, ...exactForms.map(lowerProgram)])] : exactForms;
  const denied = matchBash(run.rules.deny, forms, { exactOnly: false });
  if (denied) run.result.denyBy('Bash', denied, shellCommand.text);
  const asked = matchBash(run.rules.ask, forms, { exactOnly: false });
  if (asked) run.result.askBy('Bash', asked, shellCommand.text);
  const view = allowView(shellCommand);
  const program = view.argv[0]?.static ? view.argv[0].value : undefined;
  const innerProgram = run.scope.caseInsensitive ? innermost[0]?.value.toLowerCase() : innermost[0]?.value;
  if (innerProgram === 'rm' || innerProgram === 'rmdir') {
    if (viaXargs)
      run.result.unsafe(
        'Bash command needs approval: xargs gives rm targets nobody has seen, which could be critical folders.',
        { bypassable: false },
      );
    for (const target of editTargets(innermost)) {
      const reason = criticalTargetReason(target, { ...run.scope, cwds: shellCommand.cwds });
      if (reason) run.result.unsafe(`Bash command needs approval: ${reason}.`, { bypassable: false });
    }
  }
  const hiddenProgram = [shellCommand.words[0], innermost[0]].find(
    (word) => word !== undefined && (!word.static || word.glob),
  );
  if (hiddenProgram) {
    // `/bin/r? -rf x`, `$CMD -rf x`: no rule can tell which program runs.
    run.result.unsafe(
      `Bash command needs approval: the program name ${hiddenProgram.source} is only known at run time.`,
      { bypassable: !run.restrictive },
    );
  }
  if (view.argv.some((word) => word.static && word.value.startsWith('\\\\'))) {
    run.result.unsafe('Bash command needs approval: it holds a Windows UNC path.', { bypassable: false });
  }
  if (transparent) return;
  const exactOnly = (program !== undefined && EXACT_RULE_ONLY.has(program)) || findRunsCommands(view.argv);
  // An allow rule for git was written for the project's repository; in a nested or foreign one
  // (an earlier `cd vendor/lib`), that repository's configuration can run code, so it asks.
  const otherRepository = program === 'git' && runsInOtherRepository(shellCommand.cwds, run.scope.sessionCwd);
  let allowed = otherRepository ? undefined : matchBash(run.rules.allow, [view.text], { exactOnly });
  // `npm test --node-options=--require=x.js` under Bash(npm test:*): the rule approves npm testing,
  // not the code the option loads. Only the words after the rule's own literal words count.
  const prefixRule = allowed?.parsed.kind === 'bash' && !allowed.parsed.pattern.exact;
  const codeOption =
    allowed !== undefined && prefixRule ? codeRunningOptionIn(view.argv, rulePrefixWords(allowed)) : undefined;
  if (codeOption !== undefined) {
    allowed = undefined;
    run.result.pending.push(
      'entry' in codeOption
        ? `${shellCommand.text.slice(0, 80)} (its options run ${codeOption.entry.runs})`
        : codeOption.unknown,
    );
  }
  const anyCodeOption = codeRunningOptionIn(view.argv);
  const runsCode =
    (codeOption !== undefined && 'entry' in codeOption) || (anyCodeOption !== undefined && 'entry' in anyCodeOption);
  const verdict =
    view.unsafeAssignment === undefined && !view.viaXargs && !runsCode ? classifyReadOnly(view.argv) : undefined;
  const isEdit = program !== undefined && EDIT_COMMANDS.has(program) && !verdict?.readOnly;
  if (isEdit)
    for (const word of editTargets(view.argv))
      run.writeTargets.push({ word, cwds: shellCommand.cwds, globsUnknown: run.globsUnknown });
  // `sed -i '1e cmd'` or `sed -i 'w /elsewhere'` runs or writes more than the file it edits.
  if (isEdit && program === 'sed' && !sedEditIsPlain(view.argv)) run.result.acceptEdits = false;
  // `ln -s .git/hooks h` then `> h/pre-commit`, `tee ~/.bashrc`, `dd of=.bashrc`: checked as writes there.
  for (const word of otherWriteTargets(innermost))
    run.writeTargets.push({ word, cwds: shellCommand.cwds, globsUnknown: run.globsUnknown });
  let approvedHere = transparent || allowed !== undefined || run.scope.generic.allow !== undefined;
  if (allowed) run.approvedByRule ??= allowed;
  if (verdict?.readOnly) {
    for (const read of verdict.reads)
      run.readTargets.push({
        target: readTargetOf(read, shellCommand.cwds, run.globsUnknown),
        recursive: read.recursive,
      });
    const gitElsewhere =
      program === 'git' &&
      (shellCommand.cwds === undefined || shellCommand.cwds.some((cwd) => cwd !== run.scope.sessionCwd));
    const readsOk = verdict.reads.every((read) =>
      readApproved(readTargetOf(read, shellCommand.cwds, run.globsUnknown), read.recursive, run.scope, run.memo),
    );
    if (!gitElsewhere && readsOk) approvedHere = true;
  } else {
    run.result.readOnly = false;
  }
  // Files named by options, lists and scripts (`git commit -F .env`, `tar xf a -C ~/.ssh`, `sed 'r x'`).
  const dataPending = checkDataPaths(run.result, {
    argvs: [view.argv, innermost],
    cwds: shellCommand.cwds,
    viaXargs,
    scope: run.scope,
    memo: run.memo,
    globsUnknown: run.globsUnknown,
    gitReads: program === 'git' && !verdict?.readOnly,
  });
  if (dataPending.length > 0) {
    run.allApproved = false;
    run.result.pending.push(...dataPending);
  }
  if (!approvedHere && !(isEdit && view.unsafeAssignment === undefined)) run.result.acceptEdits = false;
  if (!approvedHere) {
    run.allApproved = false;
    const suggestion = suggestionFor(view, exactOnly || runsCode);
    run.result.pending.push(shellCommand.text);
    run.result.suggest({
      rule: suggestion.rule,
      behavior: 'allow',
      destination: 'localSettings',
      covers: suggestion.covers,
    });
  }
}

/** One redirect: a write checked against Edit rules and protected paths, a read against Read rules. */
function evaluateRedirect(run: BashRun, redirect: FlatRedirect): void {
  if (redirect.target.static && HARMLESS_TARGETS.has(redirect.target.value)) return;
  if (redirect.writes) {
    run.result.readOnly = false;
    run.writeTargets.push({ word: redirect.target, cwds: redirect.cwds, globsUnknown: run.globsUnknown });
    const approvedBy = writeApproved(
      { word: redirect.target, cwds: redirect.cwds, globsUnknown: run.globsUnknown },
      run.scope,
      run.memo,
    );
    if (approvedBy) run.approvedByRule ??= approvedBy;
    else {
      run.allApproved = false;
      run.result.pending.push(`writing ${redirect.target.source}`);
      const link = checkTarget(
        { word: redirect.target, cwds: redirect.cwds, globsUnknown: run.globsUnknown },
        { scope: run.scope, access: 'write', recursive: false, memo: run.memo },
      )?.[0]?.forms.link;
      if (link) {
        run.result.suggest({
          rule: `Edit(${escapePathForRule(rulePathFor(link, run.scope.sessionCwd))})`,
          behavior: 'allow',
          destination: 'localSettings',
          covers: `writes to ${link}`,
        });
      }
    }
  } else {
    run.readTargets.push({
      target: { word: redirect.target, cwds: redirect.cwds, globsUnknown: run.globsUnknown },
      recursive: false,
    });
    if (
      !readApproved(
        { word: redirect.target, cwds: redirect.cwds, globsUnknown: run.globsUnknown },
        false,
        run.scope,
        run.memo,
      )
    ) {
      run.allApproved = false;
      run.result.acceptEdits = false;
      run.result.pending.push(`reading ${redirect.target.source}`);
    }
  }
}
