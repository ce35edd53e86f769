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
};

/** Path checks already made during one evaluation (a read is checked for approval and for rules). */
export type PathMemo = Map<string, readonly { readonly forms: PathForms; readonly check: PathCheck }[] | undefined>;

export function checkTarget(
  target: Target,
  options: { readonly scope: PathScope; readonly access: 'read' | 'write'; readonly recursive: boolean; readonly memo: PathMemo },
): readonly { readonly forms: PathForms; readonly check: PathCheck }[] | undefined {
  const word = target.word;
  const key = `${options.access}\u0000${options.recursive}\u0000${target.namesOnly ?? false}\u0000${word.source}\u0000${target.cwds?.join('\u0000') ?? ''}`;
  if (options.memo.has(key)) return options.memo.get(key);
  let checks: { forms: PathForms; check: PathCheck }[] | undefined;
  const unusable =
    !word.static ||
    word.glob ||
    target.cwds === undefined ||
    UNSAFE_PATH_CHARACTERS.test(word.value) ||
    (word.value.startsWith('~') && !word.value.startsWith('~/') && word.value !== '~');
  if (!unusable && target.cwds !== undefined) {
    checks = target.cwds.map((cwd) => {
      const forms = pathForms(word.value, { baseDir: cwd, homeDir: options.scope.homeDir });
      return { forms, check: checkPath(forms, { ...options, namesOnly: target.namesOnly ?? false }) };
    });
  }
  options.memo.set(key, checks);
  return checks;
}

export function readApproved(target: Target, recursive: boolean, scope: PathScope, memo: PathMemo): boolean {
  const checks = checkTarget(target, { scope, access: 'read', recursive, memo });
  if (checks === undefined) {
    if (!target.word.static || !target.word.glob || target.cwds === undefined) return false;
    if (scope.rules.forTool('deny', 'Read').length > 0) return false;
    const segments = target.word.value.split('/');
    const firstGlob = segments.findIndex((segment) => /[*?[{]/.test(segment));
    const folder = segments.slice(0, firstGlob < 0 ? segments.length : firstGlob).join('/') || (target.word.value.startsWith('/') ? '/' : '');
    const base = { ...target.word, value: folder === '' ? '.' : folder, glob: false };
    return readApproved({ word: base, cwds: target.cwds }, true, scope, memo);
  }
  return checks.every(({ check }) => check.deny === undefined && check.denyBelow === undefined && check.ask === undefined && (check.inside || check.allow !== undefined));
}

/** The Edit allow rule that approves writing this target, if one does for every folder it may resolve in. */
export function writeApproved(target: Target, scope: PathScope, memo: PathMemo): CompiledRule | undefined {
  // The reference: a redirect target starting with ~ always needs approval.
  if (target.word.value.startsWith('~')) return undefined;
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
  options: { readonly scope: PathScope; readonly access: 'read' | 'write'; readonly recursive: boolean; readonly memo: PathMemo },
): { readonly inside: boolean; readonly protected: boolean; readonly absolute?: string } {
  const checks = checkTarget(target, options);
  if (checks === undefined) {
    if (options.access === 'write') result.acceptEdits = false;
    return { inside: false, protected: false };
  }
  let inside = true;
  let isProtected = false;
  for (const { forms, check } of checks) {
    const what = `${options.access === 'read' ? 'reading' : 'writing'} ${forms.link}`;
    if (check.secretReason) result.unsafe(`Bash command needs approval: ${check.secretReason}.`, { bypassable: false });
    if (check.deny) result.denyBy('Bash', check.deny, what);
    if (check.denyBelow) result.unsafe(`Bash command needs approval: ${what} may reach files rule ${check.denyBelow.entry.rule} denies.`, { bypassable: false });
    if (check.ask) result.askBy('Bash', check.ask, what);
    if (check.protectedReason) {
      isProtected = true;
      result.unsafe(`Bash command needs approval: ${check.protectedReason}.`, { bypassable: true });
    }
    inside &&= check.inside;
  }
  return { inside, protected: isProtected, absolute: checks[0]?.forms.link };
}
