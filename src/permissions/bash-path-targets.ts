import { escapeGlob, expandPathPattern } from './glob-expansion.js';
import { expandBraces } from './glob-patterns.js';
import { checkPath, type PathCheck, type PathScope } from './path-checks.js';
import { pathForms, UNSAFE_PATH_CHARACTERS, type PathForms } from './path-resolution.js';
import type { EvaluationBuilder } from './evaluation.js';
import type { CompiledRule } from './rule-set.js';
import type { ShellWord } from './shell-words.js';

/**
 * The file paths a Bash command reads and writes, checked against path rules, the working
 * folders, protected paths and process secrets.
 */

/** A path argument and the folders it may resolve in (`undefined`: unknown, after an unresolved `cd`). */
export type Target = {
  readonly word: ShellWord;
  readonly cwds: readonly string[] | undefined;
  /** A recursive read that lists names only (`find`, `ls -R`, `du`), never contents. */
  readonly namesOnly?: boolean;
  /** The script changes glob options (`shopt`): what a glob names cannot be worked out. */
  readonly globsUnknown?: boolean;
  /** A git pathspec: git expands its pattern itself, over history too, with `*` crossing `/`. */
  readonly gitPathspec?: boolean;
};

/** Path checks already made during one evaluation (a read is checked for approval and for rules). */
export type PathMemo = Map<string, readonly { readonly forms: PathForms; readonly check: PathCheck }[] | undefined>;

/** The word as a bash pattern: its own when it still spells the value, else the value with every special character live (a superset). */
function patternOf(word: ShellWord): string {
  if (word.pattern !== undefined && word.pattern.replace(/\\([\s\S])/g, '$1') === word.value) return word.pattern;
  return word.value;
}

export function checkTarget(
  target: Target,
  options: {
    readonly scope: PathScope;
    readonly access: 'read' | 'write';
    readonly recursive: boolean;
    readonly memo: PathMemo;
  },
): readonly { readonly forms: PathForms; readonly check: PathCheck }[] | undefined {
  const word = target.word;
  const key = `${options.access}\u0000${options.recursive}\u0000${target.namesOnly ?? false}\u0000${target.globsUnknown ?? false}\u0000${target.gitPathspec ?? false}\u0000${word.source}\u0000${word.value}\u0000${target.cwds?.join('\u0000') ?? ''}`;
  if (options.memo.has(key)) return options.memo.get(key);
  let checks: { forms: PathForms; check: PathCheck }[] | undefined;
  const unusable =
    !word.static ||
    target.cwds === undefined ||
    UNSAFE_PATH_CHARACTERS.test(word.value) ||
    (word.glob && (target.globsUnknown === true || target.gitPathspec === true)) ||
    (!word.glob && word.value.startsWith('~') && !word.value.startsWith('~/') && word.value !== '~');
  const check = (forms: PathForms) => ({
    forms,
    check: checkPath(forms, { ...options, namesOnly: target.namesOnly ?? false }),
  });
  if (!unusable && target.cwds !== undefined && !word.glob) {
    checks = target.cwds.map((cwd) => check(pathForms(word.value, { baseDir: cwd, homeDir: options.scope.homeDir })));
  } else if (!unusable && target.cwds !== undefined) {
    // `cat .en?`, `cat ~/.ss?/id_rsa`: judged by every file the word names now, as bash expands it.
    const all: { forms: PathForms; check: PathCheck }[] = [];
    for (const cwd of target.cwds) {
      const expansion = expandPathPattern(patternOf(word), { cwd, homeDir: options.scope.homeDir });
      if ('unknown' in expansion) {
        options.memo.set(key, undefined);
        return undefined;
      }
      for (const absolute of expansion.paths)
        all.push(check(pathForms(absolute, { baseDir: cwd, homeDir: options.scope.homeDir })));
    }
    checks = all;
  }
  options.memo.set(key, checks);
  return checks;
}

/**
 * The first deny rule that could cover a path the target's pattern names, for a pattern that
 * cannot be expanded on disk (a git pathspec also names every path below a folder it matches).
 */
function patternMayBeDenied(
  target: Target,
  access: 'read' | 'write',
  scope: PathScope,
  behavior: 'deny' | 'ask' = 'deny',
): CompiledRule | undefined {
  const git = target.gitPathspec === true;
  const alternatives = expandBraces(patternOf(target.word)) ?? [patternOf(target.word)];
  const absolute: string[] = [];
  for (const cwd of target.cwds ?? []) {
    for (const alternative of alternatives) {
      const home = alternative === '~' || alternative.startsWith('~/');
      const rooted = alternative.startsWith('/')
        ? alternative
        : `${escapeGlob(home ? scope.homeDir : cwd)}/${home ? alternative.slice(2) : alternative}`;
      absolute.push(rooted, ...(git ? [`${rooted}/**`] : []));
    }
  }
  const syntax = { starCrossesSlash: git, ignoreCase: scope.caseInsensitive };
  for (const name of access === 'read' ? ['Read'] : ['Read', 'Edit']) {
    const rule = scope.rules
      .forTool(behavior, name)
      .find(
        (candidate) =>
          candidate.path !== undefined && absolute.some((pattern) => candidate.path?.mayMatchPattern(pattern, syntax)),
      );
    if (rule) return rule;
  }
  return undefined;
}

/** The literal folder before a glob word's first wildcard (`src/*.ts` → `src`), as a plain word. */
export function globBase(word: ShellWord): ShellWord {
  const segments = word.value.split('/');
  const firstGlob = segments.findIndex((segment) => /[*?[{]/.test(segment));
  const folder =
    segments.slice(0, firstGlob < 0 ? segments.length : firstGlob).join('/') || (word.value.startsWith('/') ? '/' : '');
  const value = folder === '' ? '.' : folder;
  return { value, static: true, glob: false, quoted: false, source: value };
}

export function readApproved(target: Target, recursive: boolean, scope: PathScope, memo: PathMemo): boolean {
  const checks = checkTarget(target, { scope, access: 'read', recursive, memo });
  if (checks === undefined) {
    // A pattern that cannot be expanded: approved when no deny or ask rule can cover what it names
    // and it stays inside the working folders.
    // A shell glob past the expansion limit may follow a symlink out of the folder: only git's own
    // patterns (git does not follow links) are judged by their folder.
    if (!target.word.static || !target.word.glob || target.cwds === undefined || target.gitPathspec !== true)
      return false;
    if (patternMayBeDenied(target, 'read', scope) || patternMayBeDenied(target, 'read', scope, 'ask')) return false;
    const base = checkTarget(
      { word: globBase(target.word), cwds: target.cwds },
      { scope, access: 'read', recursive: false, memo },
    );
    return (
      base !== undefined &&
      base.every(({ check }) => check.inside && check.ask === undefined && check.deny === undefined)
    );
  }
  return checks.every(
    ({ check }) =>
      check.deny === undefined &&
      check.denyBelow === undefined &&
      check.ask === undefined &&
      (check.inside || check.allow !== undefined),
  );
}

/** The Edit allow rule that approves writing this target, if one does for every folder it may resolve in. */
export function writeApproved(target: Target, scope: PathScope, memo: PathMemo): CompiledRule | undefined {
  // The reference: a redirect target starting with ~ or holding a glob always needs approval.
  if (target.word.value.startsWith('~') || target.word.glob) return undefined;
  const checks = checkTarget(target, { scope, access: 'write', recursive: false, memo });
  if (checks === undefined) return undefined;
  let rule: CompiledRule | undefined;
  for (const { check } of checks) {
    if (check.allow === undefined || check.protectedReason !== undefined) return undefined;
    rule ??= check.allow;
  }
  return rule;
}

export function applyPathRules(
  result: EvaluationBuilder,
  target: Target,
  options: {
    readonly scope: PathScope;
    readonly access: 'read' | 'write';
    readonly recursive: boolean;
    readonly memo: PathMemo;
  },
): { readonly inside: boolean; readonly protected: boolean; readonly absolute?: string } {
  const checks = checkTarget(target, options);
  if (checks === undefined) {
    if (options.access === 'write') result.acceptEdits = false;
    // A glob that cannot be expanded may still name a denied file: ask if a deny rule can cover what it names.
    if (target.word.static && target.word.glob && target.cwds !== undefined) {
      const rule = patternMayBeDenied(target, options.access, options.scope);
      if (rule)
        result.unsafe(
          `Bash command needs approval: ${target.word.source} may name a file rule ${rule.entry.rule} denies.`,
          { bypassable: false },
        );
    } else {
      // `F=.env; cat $F`, `cd "$D" && cat x`: the path is only known at run time, so it may be a denied one.
      const names = options.access === 'read' ? ['Read'] : ['Read', 'Edit'];
      const rule = names
        .map((name) => options.scope.rules.forTool('deny', name).find((found) => found.path !== undefined))
        .find((found) => found !== undefined);
      if (rule)
        result.unsafe(
          `Bash command needs approval: ${target.word.source} is only known at run time and may name a file rule ${rule.entry.rule} denies.`,
          { bypassable: false },
        );
    }
    return { inside: false, protected: false };
  }
  let inside = true;
  let isProtected = false;
  for (const { forms, check } of checks) {
    const what = `${options.access === 'read' ? 'reading' : 'writing'} ${forms.link}`;
    if (check.secretReason) result.unsafe(`Bash command needs approval: ${check.secretReason}.`, { bypassable: false });
    if (check.deny) result.denyBy('Bash', check.deny, what);
    if (check.denyBelow)
      result.unsafe(`Bash command needs approval: ${what} may reach files rule ${check.denyBelow.entry.rule} denies.`, {
        bypassable: false,
      });
    if (check.ask) result.askBy('Bash', check.ask, what);
    if (check.protectedReason) {
      isProtected = true;
      result.unsafe(`Bash command needs approval: ${check.protectedReason}.`, { bypassable: false });
    }
    inside &&= check.inside;
  }
  return { inside, protected: isProtected, absolute: checks[0]?.forms.link };
}
