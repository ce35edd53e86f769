import path from 'node:path';
import type { AnyTool, BuiltinKind } from '../contract/tool.js';
import { evaluateBash, type BashScope } from './bash-evaluation.js';
import type { ShellScript } from './bash-parser.js';
import { hostnameOf } from './domain-pattern.js';
import { EvaluationBuilder, ruleReason, type Evaluation } from './evaluation.js';
import { checkPath, rulePathFor, type PathScope } from './path-checks.js';
import { pathForms, processFolderReason, UNSAFE_PATH_CHARACTERS } from './path-resolution.js';
import { escapePathForRule, type RuleBehavior } from './rule-parser.js';
import type { CompiledRule } from './rule-set.js';
import {
  canonicalToolName,
  describeBuiltinTool,
  type BuiltinToolDescriptor,
  type ToolFamily,
} from './tool-descriptors.js';
import { claimsReadOnly, declaredPaths, evaluateDeclaredPaths, inputField, safeCall } from './declared-paths.js';

/** What evaluating a call needs to know about the session. */
export type CallScope = PathScope & {
  readonly sessionCwd: string;
  readonly additionalDirectories: readonly string[];
};

/** One call as the evaluation sees it. */
export type CallFacts = {
  readonly tool: AnyTool;
  readonly input: unknown;
  /** The folder relative paths in the input resolve against. */
  readonly cwd: string;
  /** The parsed command, for Bash calls (parsing needs the loaded grammar). */
  readonly script?: ShellScript;
};

/** Built-ins whose path is a folder they search below (the working folder when none is given). */
const RECURSIVE_KINDS: ReadonlySet<BuiltinKind> = new Set(['Glob', 'Grep']);

const field = inputField;

/** The descriptor of a built-in tool, by its built-in mark (never by name: a host's `Grep` has none). */
function descriptorOf(tool: AnyTool): BuiltinToolDescriptor | undefined {
  return tool.builtin === undefined ? undefined : describeBuiltinTool(tool.builtin);
}

/** The rule family that governs a tool: by its built-in mark, else from its declared paths and read-only-ness. */
export function familyOf(tool: AnyTool, input: unknown): ToolFamily {
  const descriptor = descriptorOf(tool);
  if (descriptor) return descriptor.family;
  const paths = declaredPaths(tool, input);
  if (paths.length === 0) return 'other';
  return paths.every((declared) => declared.access === 'read') && claimsReadOnly(tool, input) ? 'read' : 'edit';
}

/**
 * Whether a rule covers this call outside the path, Bash and domain checks. A path rule (or one with
 * a specifier the tool has no grammar for) covers every call of a tool whose paths are not checked
 * (`pathsChecked` false), and a Bash or domain rule every call of a tool that is not the built-in
 * of that name: a deny written for the built-in fails closed on a host's look-alike.
 */
function coversCall(
  rule: CompiledRule,
  input: unknown,
  options: { readonly pathsChecked: boolean; readonly builtin: boolean },
): boolean {
  const { pathsChecked } = options;
  const parsed = rule.parsed;
  switch (parsed.kind) {
    case 'tool':
    case 'mcp-server':
    case 'tool-glob':
      return true;
    case 'opaque':
    case 'path':
      return !pathsChecked;
    case 'param': {
      const value = field(input, parsed.key);
      const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
      return scalar && parsed.test(String(value));
    }
    case 'agent': {
      const type = field(input, 'subagent_type');
      return typeof type === 'string' && type.toLowerCase() === parsed.agentType.toLowerCase();
    }
    case 'bash':
    case 'domain':
      return !options.builtin;
  }
}

/**
 * A quick "none of these can match" test for a rule list made only of input-field rules: one
 * combined regular expression per field instead of one test per rule. The common case — many
 * field rules, none matching — then costs a test per field.
 */
type FieldPrefilter = readonly { readonly key: string; readonly regex: RegExp }[] | undefined;
const prefilters = new WeakMap<readonly CompiledRule[], FieldPrefilter>();

function prefilterFor(rules: readonly CompiledRule[]): FieldPrefilter {
  if (prefilters.has(rules)) return prefilters.get(rules);
  let filter: FieldPrefilter;
  if (rules.length > 2 && rules.every((rule) => rule.parsed.kind === 'param')) {
    const sources = new Map<string, string[]>();
    for (const rule of rules) {
      if (rule.parsed.kind !== 'param') continue;
      const list = sources.get(rule.parsed.key) ?? [];
      list.push(rule.parsed.source);
      sources.set(rule.parsed.key, list);
    }
    filter = [...sources].map(([key, list]) => ({ key, regex: new RegExp(`^(?:${list.join('|')})$`) }));
  }
  prefilters.set(rules, filter);
  return filter;
}

function genericMatch(options: {
  readonly scope: PathScope;
  readonly behavior: RuleBehavior;
  readonly toolName: string;
  readonly input: unknown;
  readonly pathsChecked: boolean;
  readonly builtin: boolean;
}): CompiledRule | undefined {
  const { scope, behavior, toolName, input } = options;
  const rules = scope.rules.forTool(behavior, toolName);
  const prefilter = prefilterFor(rules);
  if (prefilter) {
    const anyCandidate = prefilter.some(({ key, regex }) => {
      const value = field(input, key);
      return (
        (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
        regex.test(String(value))
      );
    });
    if (!anyCandidate) return undefined;
  }
  for (const rule of rules) {
    if (
      behavior === 'allow' &&
      rule.parsed.kind !== 'tool' &&
      rule.parsed.kind !== 'mcp-server' &&
      rule.parsed.kind !== 'tool-glob'
    )
      continue;
    if (coversCall(rule, input, options)) return rule;
  }
  return undefined;
}

/**
 * Evaluates one call against the rules, the safety checks and the built-in knowledge of tools.
 * Mode, hooks and the tool's own check are left to the engine.
 */
export function evaluateCall(facts: CallFacts, scope: CallScope): Evaluation {
  const { tool, input } = facts;
  const name = canonicalToolName(tool.name);
  const family = familyOf(tool, input);
  const builtin = descriptorOf(tool) !== undefined;
  const paths = builtin ? [] : declaredPaths(tool, input);
  const pathsChecked = builtin ? family === 'read' || family === 'edit' : paths.length > 0;
  const match = (behavior: RuleBehavior) =>
    genericMatch({ scope, behavior, toolName: name, input, pathsChecked, builtin });
  const generic = { deny: match('deny'), ask: match('ask'), allow: match('allow') };
  if (family === 'bash') {
    const command = field(input, 'command');
    if (typeof command === 'string' && facts.script) {
      const bashScope: BashScope = { ...scope, generic: { ...generic } };
      return evaluateBash(command, facts.script, bashScope);
    }
  }
  const result = new EvaluationBuilder();
  if (generic.deny) result.denyBy(name, generic.deny);
  if (generic.ask) result.askBy(name, generic.ask);
  result.readOnly = claimsReadOnly(tool, input);
  result.acceptEdits = false;
  if (family === 'bash') {
    result.unsafe('Bash call without a command string cannot be checked.', { bypassable: false });
    return result.build();
  }
  if (!builtin && paths.length > 0) {
    evaluateDeclaredPaths({ tool, input, cwd: facts.cwd, scope, paths, result, allow: generic.allow });
    return result.build();
  }
  if (family === 'read' || family === 'edit') {
    evaluatePathCall({ facts, scope, family, result, allow: generic.allow });
    return result.build();
  }
  if (family === 'web-fetch') {
    const host = hostnameOf(field(input, 'url'));
    const matches = (behavior: RuleBehavior): CompiledRule | undefined =>
      host === undefined
        ? undefined
        : scope.rules
            .forTool(behavior, name)
            .find((rule) => rule.parsed.kind === 'domain' && rule.parsed.pattern.test(host));
    const deny = matches('deny');
    if (deny) result.denyBy(name, deny, host);
    const ask = matches('ask');
    if (ask) result.askBy(name, ask, host);
    const allow = generic.allow ?? matches('allow');
    if (allow) result.approved = ruleReason(allow);
    else if (host)
      result.suggest({
        rule: `WebFetch(domain:${host})`,
        behavior: 'allow',
        destination: 'localSettings',
        covers: `fetching pages from ${host}`,
      });
    if (!allow) result.pending.push(host ? `fetching from ${host}` : 'fetching a URL that could not be parsed');
    return result.build();
  }
  if (generic.allow) result.approved = ruleReason(generic.allow);
  else if (result.readOnly && family === 'other' && tool.origin !== 'external' && !name.startsWith('mcp__')) {
    result.approved = { kind: 'read-only', message: `${name} only reads` };
  } else {
    result.suggest({ rule: name, behavior: 'allow', destination: 'localSettings', covers: `every ${name} call` });
    result.pending.push(`using ${name}`);
  }
  return result.build();
}

/**
 * The folder a Glob pattern reaches when it leaves its search folder (`/etc/**`, `../../x/*`,
 * `~/.ssh/*`): its literal part before the first wildcard, resolved against the search folder.
 */
function globReach(pattern: unknown, searchFolder: string): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  const leaves = pattern.startsWith('/') || pattern.startsWith('~') || /(^|\/)\.\.(\/|$)/.test(pattern);
  if (!leaves) return undefined;
  const segments = pattern.split('/');
  const firstGlob = segments.findIndex((segment) => /[*?[{]/.test(segment));
  const literal = segments.slice(0, firstGlob < 0 ? segments.length : firstGlob).join('/');
  if (literal === '') return pattern.startsWith('/') ? '/' : searchFolder;
  if (literal.startsWith('/') || literal.startsWith('~')) return literal;
  return `${searchFolder}/${literal}`;
}

/** The literal folder a relative Glob pattern starts with, resolved in the search folder (`proc/*` from `/`: `/proc`). */
function patternFolder(pattern: unknown, searchFolder: string): string | undefined {
  if (typeof pattern !== 'string' || pattern.startsWith('/') || pattern.startsWith('~')) return undefined;
  const segments = pattern.split('/');
  const firstGlob = segments.findIndex((segment) => /[*?[{]/.test(segment));
  const literal = segments.slice(0, firstGlob < 0 ? segments.length - 1 : firstGlob).join('/');
  return literal === '' ? undefined : path.posix.resolve(searchFolder, literal);
}

function evaluatePathCall(options: {
  readonly facts: CallFacts;
  readonly scope: CallScope;
  readonly family: 'read' | 'edit';
  readonly result: EvaluationBuilder;
  readonly allow: CompiledRule | undefined;
}): void {
  const { facts, scope, family, result } = options;
  const { tool, input } = facts;
  const descriptor = descriptorOf(tool);
  let raw = safeCall(() => tool.getPath(input));
  if (raw === undefined && descriptor?.pathField !== undefined) {
    const value = field(input, descriptor.pathField);
    raw = typeof value === 'string' ? value : undefined;
  }
  const recursive = tool.builtin !== undefined && RECURSIVE_KINDS.has(tool.builtin);
  const glob = tool.builtin === 'Glob';
  if (raw === undefined && recursive) raw = facts.cwd;
  const escaping = glob ? globReach(field(input, 'pattern'), raw ?? facts.cwd) : undefined;
  if (escaping !== undefined) raw = escaping;
  if (raw === undefined || raw === '') {
    result.readOnly = family === 'read';
    result.pending.push(`${tool.name} without a path`);
    result.suggest({
      rule: tool.name,
      behavior: 'allow',
      destination: 'localSettings',
      covers: `every ${tool.name} call`,
    });
    if (options.allow) result.approved = ruleReason(options.allow);
    return;
  }
  if (UNSAFE_PATH_CHARACTERS.test(raw) || raw.startsWith('\\\\')) {
    result.unsafe(`${tool.name} needs approval: the path contains control characters or is a UNC path.`, {
      bypassable: false,
    });
    return;
  }
  const forms = pathForms(raw, { baseDir: facts.cwd, homeDir: scope.homeDir });
  const access = family === 'read' ? 'read' : 'write';
  const namesOnly = glob;
  const check = checkPath(forms, { scope, access, recursive, toolName: tool.name, namesOnly });
  // `Glob` from `/` with `proc/*/environ`: the folder its pattern walks into, not only where it starts.
  const walked = glob ? patternFolder(field(input, 'pattern'), forms.link) : undefined;
  const walkedReason = walked === undefined ? undefined : processFolderReason(walked, { namesOnly: true });
  if (walkedReason) result.unsafe(`${tool.name} needs approval: ${walkedReason}.`, { bypassable: false });
  if (check.deny) result.denyBy(tool.name, check.deny, forms.link);
  if (check.ask) result.askBy(tool.name, check.ask, forms.link);
  if (forms.target === undefined)
    result.unsafe(`${tool.name} needs approval: ${forms.link} is a symlink loop.`, { bypassable: false });
  if (check.secretReason) result.unsafe(`${tool.name} needs approval: ${check.secretReason}.`, { bypassable: false });
  if (family === 'read') {
    result.readOnly = true;
    if (options.allow) result.approved = ruleReason(options.allow);
    else if (check.allow) result.approved = ruleReason(check.allow);
    else if (check.inside)
      result.approved = { kind: 'read-only', message: `${forms.link} is inside the working folders` };
    else {
      result.pending.push(`reading ${forms.link} outside the working folders`);
      const folder = recursive ? forms.link : forms.link.slice(0, Math.max(1, forms.link.lastIndexOf('/')));
      result.suggest({
        rule: `Read(${escapePathForRule(rulePathFor(folder, scope.sessionCwd))}/**)`,
        behavior: 'allow',
        destination: 'localSettings',
        covers: `reading files under ${folder}`,
      });
    }
    return;
  }
  result.readOnly = false;
  // Not bypassable: a hook, a git setting or a settings file written in bypass mode runs, or loosens
  // the policy, long after this session.
  if (check.protectedReason)
    result.unsafe(`${tool.name} needs approval: ${check.protectedReason}.`, { bypassable: false });
  // acceptEdits approves the built-in editors; what an external tool does with the path is its own.
  result.acceptEdits = check.inside && check.protectedReason === undefined && tool.origin !== 'external';
  if (options.allow) result.approved = ruleReason(options.allow);
  else if (check.allow) result.approved = ruleReason(check.allow);
  else {
    result.pending.push(`writing ${forms.link}`);
    result.suggest({
      rule: `Edit(${escapePathForRule(rulePathFor(forms.link, scope.sessionCwd))})`,
      behavior: 'allow',
      destination: 'localSettings',
      covers: `edits of ${forms.link}`,
    });
  }
}
