import type { AnyTool, PathField } from '../contract/tool.js';
import { ruleReason, type EvaluationBuilder } from './evaluation.js';
import { checkPath, rulePathFor, type PathScope } from './path-checks.js';
import { pathForms, UNSAFE_PATH_CHARACTERS } from './path-resolution.js';
import { escapePathForRule } from './rule-parser.js';
import type { CompiledRule } from './rule-set.js';

/** One path a call names in a field its tool declared (`value` is undefined when it is not a string). */
export type DeclaredPath = PathField & { readonly value: string | undefined };

/** The value of a top-level input field, if the input is an object that has it. */
export function inputField(input: unknown, key: string): unknown {
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, key)) return undefined;
  return (input as Record<string, unknown>)[key];
}

/** Runs a tool's own method, treating a throw as "no answer". */
export function safeCall<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}

/**
 * Whether a call counts as read-only for permissions. An external tool's word for it (an MCP
 * server's `readOnlyHint`) is a claim by the server, not knowledge: it may shape scheduling, but
 * it never lets a call run in plan mode, as a read inside the working folders, or unasked.
 */
export function claimsReadOnly(tool: AnyTool, input: unknown): boolean {
  return tool.origin !== 'external' && safeCall(() => tool.isReadOnly(input)) === true;
}

/**
 * The paths a call of a tool that is not a built-in names: the fields its definition declares
 * (`paths`) that the input holds, else the one path `getPath` returns (a read when the tool calls
 * itself read-only, else a write). Empty when the tool declares none or the input has none.
 */
export function declaredPaths(tool: AnyTool, input: unknown): readonly DeclaredPath[] {
  if (tool.paths.length > 0) {
    return tool.paths
      .filter((declared) => typeof input === 'object' && input !== null && Object.hasOwn(input, declared.field))
      .map((declared) => {
        const value = inputField(input, declared.field);
        return { ...declared, value: typeof value === 'string' ? value : undefined };
      });
  }
  const value = safeCall(() => tool.getPath(input));
  if (value === undefined) return [];
  return [{ field: 'path', access: claimsReadOnly(tool, input) ? 'read' : 'write', value }];
}

/**
 * Checks every declared path of a call against the path rules, as Read and Edit calls are: the
 * tool's own rules (`WriteReport(./reports/**)`) for deny, ask and allow; Read deny rules for every
 * path and Edit deny rules for written ones; Read ask rules for reads and Edit ask rules for writes;
 * symlinks (allow needs link and target, deny either), protected paths and process secrets. The call
 * is approved when a bare allow rule covers it or every path is approved (by the tool's own allow
 * rule, or, for a read-only call, by lying inside the working folders).
 */
export function evaluateDeclaredPaths(options: {
  readonly tool: AnyTool;
  readonly input: unknown;
  readonly cwd: string;
  readonly scope: PathScope & { readonly sessionCwd: string };
  readonly paths: readonly DeclaredPath[];
  readonly result: EvaluationBuilder;
  readonly allow: CompiledRule | undefined;
}): void {
  const { tool, scope, result } = options;
  const name = tool.name;
  const readOnly = options.paths.every((declared) => declared.access === 'read') && claimsReadOnly(tool, options.input);
  result.readOnly = readOnly;
  result.acceptEdits = !readOnly && tool.origin !== 'external';
  let every = true;
  let approvedBy: CompiledRule | undefined;
  for (const declared of options.paths) {
    const raw = declared.value;
    if (raw === undefined || raw === '' || UNSAFE_PATH_CHARACTERS.test(raw) || raw.startsWith('\\\\')) {
      result.unsafe(
        `${name} needs approval: its ${declared.field} is not a usable path (empty, not a string, control characters or a UNC path).`,
        { bypassable: false },
      );
      result.acceptEdits = false;
      every = false;
      continue;
    }
    const forms = pathForms(raw, { baseDir: options.cwd, homeDir: scope.homeDir });
    const check = checkPath(forms, {
      scope,
      access: declared.access,
      recursive: false,
      toolName: name,
      allowNames: [name],
    });
    if (check.deny) result.denyBy(name, check.deny, forms.link);
    if (check.ask) result.askBy(name, check.ask, forms.link);
    if (forms.target === undefined)
      result.unsafe(`${name} needs approval: ${forms.link} is a symlink loop.`, { bypassable: false });
    if (check.secretReason) result.unsafe(`${name} needs approval: ${check.secretReason}.`, { bypassable: false });
    if (declared.access === 'write' && check.protectedReason)
      result.unsafe(`${name} needs approval: ${check.protectedReason}.`, { bypassable: false });
    if (!check.inside || check.protectedReason !== undefined) result.acceptEdits = false;
    if (check.allow) approvedBy ??= check.allow;
    if (check.allow !== undefined || (readOnly && check.inside)) continue;
    every = false;
    result.pending.push(`${declared.access === 'read' ? 'reading' : 'writing'} ${forms.link}`);
    result.suggest({
      rule: `${name}(${escapePathForRule(rulePathFor(forms.link, scope.sessionCwd))})`,
      behavior: 'allow',
      destination: 'localSettings',
      covers: `${name} ${declared.access === 'read' ? 'reading' : 'writing'} ${forms.link}`,
    });
  }
  if (options.allow) result.approved = ruleReason(options.allow);
  else if (every && approvedBy) result.approved = ruleReason(approvedBy);
  else if (every) result.approved = { kind: 'read-only', message: `${name} only reads inside the working folders` };
}
