import path from 'node:path';
import type { PathForms } from './path-resolution.js';
import { isWithin, processFolderReason, processSecretReason, protectedPathReason } from './path-resolution.js';
import type { CompiledRule, RuleSet } from './rule-set.js';

/** A working folder in both forms: as configured and symlink-resolved. */
export type WorkingFolder = { readonly given: string; readonly real: string };

/** What path checks need to know about the session. */
export type PathScope = {
  readonly rules: RuleSet;
  readonly homeDir: string;
  readonly workingFolders: readonly WorkingFolder[];
  readonly caseInsensitive: boolean;
  /**
   * Further folders protected like `.git` (writes are never auto-approved): the user's toolplane
   * folder when `TOOLPLANE_CONFIG_DIR` moves it away from `~/.toolplane`.
   */
  readonly protectedFolders?: readonly string[];
};

/** The outcome of checking one path against rules, working folders and protected paths. */
export type PathCheck = {
  readonly deny?: CompiledRule;
  /** A deny rule may cover files below this folder (a recursive read); asks rather than denies. */
  readonly denyBelow?: CompiledRule;
  readonly ask?: CompiledRule;
  /** An allow rule covering both the link and its target. */
  readonly allow?: CompiledRule;
  /** Both the link and its target lie inside the working folders. */
  readonly inside: boolean;
  /** Why writing here is never auto-approved. */
  readonly protectedReason?: string;
  /** The path is a process's environment or memory: never approved without a person. */
  readonly secretReason?: string;
};

const READ_NAMES = ['Read'];
const PROBE_NAME = 'toolplane-probe-entry';
const WRITE_DENY_NAMES = ['Edit', 'Read'];
const WRITE_NAMES = ['Edit'];

function firstMatch(
  rules: RuleSet,
  behavior: 'deny' | 'ask' | 'allow',
  names: readonly string[],
  test: (rule: CompiledRule) => boolean,
): CompiledRule | undefined {
  let best: CompiledRule | undefined;
  let bestIndex = Number.POSITIVE_INFINITY;
  for (const name of names) {
    for (const rule of rules.forTool(behavior, name)) {
      const index = rules.position(rule);
      // Each list is in settings order: nothing later in it can beat the best found so far.
      if (index >= bestIndex) break;
      if (rule.path === undefined || !test(rule)) continue;
      if (index < bestIndex) {
        best = rule;
        bestIndex = index;
      }
    }
  }
  return best;
}

/** Whether a path lies inside one of the working folders (by segments, both forms accepted). */
export function insideWorkingFolders(absolute: string, scope: PathScope): boolean {
  return scope.workingFolders.some(
    (folder) =>
      isWithin(absolute, folder.given, { caseInsensitive: scope.caseInsensitive }) ||
      isWithin(absolute, folder.real, { caseInsensitive: scope.caseInsensitive }),
  );
}

/**
 * Checks a path for reading or writing. Deny and ask rules match if the link or its target
 * matches; allow rules and the working-folder check need both. Read deny rules also cover writes.
 * `toolName` adds that tool's own path rules (`Grep(…)`, `Write(…)`, a host tool's `WriteReport(…)`)
 * to the deny and ask rules; `allowNames` says whose allow rules count.
 */
export function checkPath(
  forms: PathForms,
  options: {
    readonly scope: PathScope;
    readonly access: 'read' | 'write';
    readonly recursive: boolean;
    readonly toolName?: string;
    /** A recursive read that lists names only (Glob, `find`, `ls -R`), not contents. */
    readonly namesOnly?: boolean;
    /** The tools whose allow rules may approve the path; default Read (reads) or Edit (writes). */
    readonly allowNames?: readonly string[];
  },
): PathCheck {
  const { scope, access, recursive } = options;
  const extra =
    options.toolName && options.toolName !== 'Read' && options.toolName !== 'Edit' ? [options.toolName] : [];
  const candidates =
    forms.target === undefined || forms.target === forms.link ? [forms.link] : [forms.link, forms.target];
  // A recursive read of a folder whose every entry a deny rule covers is denied outright.
  const probes = recursive ? candidates.map((candidate) => path.join(candidate, PROBE_NAME)) : [];
  const either = (rule: CompiledRule): boolean =>
    candidates.some((candidate) => rule.path?.matches(candidate) ?? false) ||
    probes.some((probe) => rule.path?.matches(probe) ?? false);
  const both = (rule: CompiledRule): boolean =>
    forms.target !== undefined && candidates.every((candidate) => rule.path?.matches(candidate) ?? false);
  const denyNames = access === 'read' ? [...READ_NAMES, ...extra] : [...WRITE_DENY_NAMES, ...extra];
  const names = access === 'read' ? [...READ_NAMES, ...extra] : [...WRITE_NAMES, ...extra];
  const deny = firstMatch(scope.rules, 'deny', denyNames, either);
  const askEither = (rule: CompiledRule): boolean =>
    candidates.some((candidate) => rule.path?.matches(candidate) ?? false);
  const denyBelow =
    deny === undefined && recursive
      ? firstMatch(scope.rules, 'deny', denyNames, (rule) =>
          candidates.some((candidate) => rule.path?.mayMatchUnder(candidate) ?? false),
        )
      : undefined;
  const ask = firstMatch(scope.rules, 'ask', names, askEither);
  const allowNames = options.allowNames ?? (access === 'read' ? READ_NAMES : WRITE_NAMES);
  const allow = firstMatch(scope.rules, 'allow', allowNames, both);
  const inside = forms.target !== undefined && candidates.every((candidate) => insideWorkingFolders(candidate, scope));
  const protectedReason = access === 'write' ? writeProtection(candidates, scope) : undefined;
  const secretOf = (absolute: string): string | undefined =>
    processSecretReason(absolute) ??
    (recursive ? processFolderReason(absolute, { namesOnly: options.namesOnly ?? false }) : undefined);
  const secretReason = secretOf(forms.link) ?? (forms.target ? secretOf(forms.target) : undefined);
  return {
    ...(secretReason ? { secretReason } : {}),
    ...(deny ? { deny } : {}),
    ...(denyBelow ? { denyBelow } : {}),
    ...(ask ? { ask } : {}),
    ...(allow ? { allow } : {}),
    inside,
    ...(protectedReason ? { protectedReason } : {}),
  };
}

/** Why writing any of these forms of one path is never auto-approved, or undefined. */
function writeProtection(candidates: readonly string[], scope: PathScope): string | undefined {
  for (const candidate of candidates) {
    const reason = protectedPathReason(candidate);
    if (reason) return reason;
    const folder = scope.protectedFolders?.find((protectedFolder) =>
      isWithin(candidate, protectedFolder, { caseInsensitive: scope.caseInsensitive }),
    );
    if (folder) return `${candidate} is inside ${folder}, toolplane's own settings folder`;
  }
  return undefined;
}

/** A path as a rule would name it: `./rel` inside the working folder, `//abs` elsewhere. */
export function rulePathFor(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative))
    return `./${relative.split(path.sep).join('/')}`;
  return `/${absolute.split(path.sep).join('/')}`;
}
