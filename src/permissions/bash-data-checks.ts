import path from 'node:path';
import { applyPathRules, checkTarget, readApproved, type PathMemo, type Target } from './bash-path-targets.js';
import { dataPathsOf } from './data-paths.js';
import { gitPaths } from './git-paths.js';
import { repositoryRoot } from './git-repository.js';
import { escapeGlob } from './glob-expansion.js';
import type { ReadPath } from './read-only-commands.js';
import type { EvaluationBuilder } from './evaluation.js';
import type { PathScope } from './path-checks.js';
import type { ShellWord } from './shell-words.js';

/**
 * The files a command reads or writes through its options, lists and scripts (data-paths.ts),
 * checked like redirections: deny and ask rules and protected paths in every mode; outside the
 * working folders the command needs approval even when a rule allows it; names nobody has seen
 * (a list, stdin, xargs) are a concern while a deny rule could cover one of them.
 */

/**
 * The target a path a read-only command reads stands for: a git path relative to the repository's
 * top folder is resolved there, and a git pattern is left for git to expand.
 */
export function readTargetOf(read: ReadPath, cwds: readonly string[] | undefined, globsUnknown: boolean): Target {
  const base = {
    cwds,
    globsUnknown,
    ...(read.namesOnly ? { namesOnly: true } : {}),
    ...(read.gitPattern ? { gitPathspec: true } : {}),
  };
  const top =
    read.fromTop && cwds !== undefined && cwds.length > 0 ? (repositoryRoot(cwds[0] as string) ?? cwds[0]) : undefined;
  if (top === undefined || read.word.value.startsWith('/')) return { word: read.word, ...base };
  const value = path.join(top, read.word.value);
  const pattern = `${escapeGlob(top)}/${read.word.pattern ?? escapeGlob(read.word.value)}`;
  return { word: { ...read.word, value, source: read.word.source, pattern }, ...base };
}

/** Whether a Read (or for writes, an Edit) deny or ask rule exists that names a path. */
function pathRulesExist(scope: PathScope): boolean {
  return ['Read', 'Edit'].some((name) =>
    [...scope.rules.forTool('deny', name), ...scope.rules.forTool('ask', name)].some((rule) => rule.path !== undefined),
  );
}

/**
 * Checks the data paths of a command (its allow view and, behind wrappers, its innermost argv).
 * Returns what still needs approval, in words; empty when nothing does.
 */
export function checkDataPaths(
  result: EvaluationBuilder,
  options: {
    readonly argvs: readonly (readonly ShellWord[])[];
    readonly cwds: readonly string[] | undefined;
    readonly viaXargs: boolean;
    readonly scope: PathScope;
    readonly memo: PathMemo;
    readonly globsUnknown: boolean;
    /** Also check the files git's operands name (for git commands the read-only set did not take). */
    readonly gitReads: boolean;
  },
): string[] {
  const { scope, memo, cwds, globsUnknown } = options;
  const pending: string[] = [];
  const seen = new Set<ShellWord>();
  const unknowable = new Set<string>();
  const argvs = options.argvs.filter((argv, index) => {
    const first = options.argvs[0] as readonly ShellWord[];
    // The innermost command is often the allow view itself (no wrapper): read it once.
    return index === 0 || argv.length !== first.length || argv.some((word, at) => word !== first[at]);
  });
  for (const argv of argvs) {
    const data = dataPathsOf(argv);
    for (const reason of data.unknowable) unknowable.add(reason);
    for (const { word, access, what } of data.paths) {
      if (seen.has(word)) continue;
      seen.add(word);
      const target = { word, cwds, globsUnknown };
      if (access === 'read') {
        applyPathRules(result, target, { scope, access: 'read', recursive: false, memo });
        if (!readApproved(target, false, scope, memo)) pending.push(`reading ${word.source} (${what})`);
        continue;
      }
      const recursive = access === 'write-folder';
      const resolved = applyPathRules(result, target, { scope, access: 'write', recursive, memo });
      if (!resolved.inside || resolved.protected) result.acceptEdits = false;
      const checks = checkTarget(target, { scope, access: 'write', recursive, memo });
      const fine =
        checks !== undefined &&
        checks.every(
          ({ check }) =>
            check.inside &&
            check.protectedReason === undefined &&
            check.ask === undefined &&
            check.denyBelow === undefined,
        );
      if (!fine) pending.push(`writing ${word.source} (${what})`);
    }
  }
  // `git archive HEAD .env`, `git grep x -- '.en?'`: git commands that are not read-only print or pack files too.
  if (options.gitReads) {
    for (const argv of options.argvs.slice(0, 1)) {
      for (const found of gitPaths(argv)) {
        const target = readTargetOf(
          {
            word: found.word,
            recursive: false,
            ...(found.fromTop ? { fromTop: true } : {}),
            ...(found.pattern ? { gitPattern: true } : {}),
          },
          cwds,
          globsUnknown,
        );
        applyPathRules(result, target, { scope, access: 'read', recursive: false, memo });
        if (!readApproved(target, false, scope, memo)) pending.push(`reading ${found.word.source}`);
      }
    }
  }
  // `echo .env | xargs cat`: the files xargs hands to a command come from input nobody has seen.
  if (options.viaXargs) unknowable.add('xargs gives the command file names from input nobody has seen');
  if (unknowable.size > 0 && pathRulesExist(scope)) {
    for (const reason of unknowable)
      result.unsafe(`Bash command needs approval: ${reason}, and a deny or ask rule could cover one of them.`, {
        bypassable: false,
      });
  }
  return pending;
}
