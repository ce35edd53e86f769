import type { PermissionRuleEntry } from '../contract/permission.js';
import { compilePathPattern, type PathMatcher } from './path-rule.js';
import { parseRule, type ParsedRule, type RuleBehavior, type RuleDiagnostic } from './rule-parser.js';

/** A rule ready to match: its entry (for reasons) and its parsed, anchored form. */
export type CompiledRule = {
  readonly entry: PermissionRuleEntry;
  readonly parsed: ParsedRule;
  /** Present for path rules, and for specifiers of other tools (path rules of tools that declare paths). */
  readonly path?: PathMatcher;
};

/** A diagnostic with the settings source it came from. */
export type SourcedDiagnostic = RuleDiagnostic & {
  readonly behavior: RuleBehavior;
  readonly source: PermissionRuleEntry['source'];
  readonly file?: string;
};

/** Where path rules are anchored. */
export type RuleAnchors = {
  readonly cwd: string;
  readonly homeDir: string;
  readonly caseInsensitive: boolean;
};

/**
 * The rules of one session, indexed by tool name so a call of a tool no rule names costs one map
 * lookup. Rules keep their order within each behavior: the first match wins.
 */
export type RuleSet = {
  /** Rules of this behavior that name `toolName` exactly, by MCP server, or by a name glob. */
  forTool(behavior: RuleBehavior, toolName: string): readonly CompiledRule[];
  /** Every compiled rule of a behavior, in order. */
  all(behavior: RuleBehavior): readonly CompiledRule[];
  /** Where a rule stands among the rules of its behavior (first match wins); Infinity if not in the set. */
  position(rule: CompiledRule): number;
  add(entry: PermissionRuleEntry): RuleDiagnostic | undefined;
  /** Takes out the rule `add` compiled from this very entry object (a grant that ends); unknown entries are ignored. */
  remove(entry: PermissionRuleEntry): void;
  readonly diagnostics: readonly SourcedDiagnostic[];
};

function nameOf(parsed: ParsedRule): string | undefined {
  switch (parsed.kind) {
    case 'tool':
    case 'bash':
    case 'path':
    case 'domain':
    case 'param':
    case 'agent':
    case 'opaque':
      return parsed.toolName;
    case 'mcp-server':
    case 'tool-glob':
      return undefined;
  }
}

function coversName(parsed: ParsedRule, toolName: string): boolean {
  if (parsed.kind === 'mcp-server') return toolName.startsWith(`mcp__${parsed.server}__`);
  if (parsed.kind === 'tool-glob') return parsed.test(toolName);
  return false;
}

/** Compiles rule entries (invalid ones are kept out and reported in `diagnostics`). */
export function createRuleSet(entries: readonly PermissionRuleEntry[], anchors: RuleAnchors): RuleSet {
  const lists = new Map<RuleBehavior, CompiledRule[]>([
    ['deny', []],
    ['ask', []],
    ['allow', []],
  ]);
  const byName = new Map<string, CompiledRule[]>();
  const wide = new Map<RuleBehavior, CompiledRule[]>([
    ['deny', []],
    ['ask', []],
    ['allow', []],
  ]);
  const cache = new Map<string, readonly CompiledRule[]>();
  const positions = new Map<CompiledRule, number>();
  const diagnostics: SourcedDiagnostic[] = [];

  const add = (entry: PermissionRuleEntry): RuleDiagnostic | undefined => {
    const { rule, diagnostic } = parseRule(entry.rule, entry.behavior);
    if (diagnostic) {
      diagnostics.push({
        ...diagnostic,
        behavior: entry.behavior,
        source: entry.source,
        ...(entry.file ? { file: entry.file } : {}),
      });
    }
    if (rule === undefined) return diagnostic;
    const pattern = rule.kind === 'path' ? rule.pattern : rule.kind === 'opaque' ? rule.specifier : undefined;
    const compiled: CompiledRule =
      pattern === undefined
        ? { entry, parsed: rule }
        : {
            entry,
            parsed: rule,
            path: compilePathPattern(pattern, { ...anchors, root: entry.root, behavior: entry.behavior }),
          };
    const list = lists.get(entry.behavior);
    positions.set(compiled, list?.length ?? 0);
    list?.push(compiled);
    const name = nameOf(rule);
    if (name === undefined) wide.get(entry.behavior)?.push(compiled);
    else {
      const key = `${entry.behavior}\u0000${name}`;
      const named = byName.get(key) ?? [];
      named.push(compiled);
      byName.set(key, named);
    }
    cache.clear();
    return diagnostic;
  };

  const remove = (entry: PermissionRuleEntry): void => {
    const list = lists.get(entry.behavior) ?? [];
    const compiled = list.find((rule) => rule.entry === entry);
    if (compiled === undefined) return;
    const drop = (rules: CompiledRule[] | undefined) => {
      const index = rules?.indexOf(compiled) ?? -1;
      if (index >= 0) rules?.splice(index, 1);
    };
    drop(list);
    drop(wide.get(entry.behavior));
    for (const rules of byName.values()) drop(rules);
    positions.delete(compiled);
    // Later rules move up one place: first match still goes by the order they were added in.
    list.forEach((rule, index) => positions.set(rule, index));
    cache.clear();
  };

  for (const entry of entries) add(entry);

  return {
    forTool(behavior, toolName) {
      const key = `${behavior}\u0000${toolName}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const named = byName.get(key) ?? [];
      const globbed = (wide.get(behavior) ?? []).filter((rule) => coversName(rule.parsed, toolName));
      const wanted = new Set([...named, ...globbed]);
      // A new list on each change (the cache is cleared): lookups cache per list (the Bash rule
      // index is keyed by the list itself), so a list that changed in place would keep a stale index.
      const ordered =
        globbed.length === 0 ? [...named] : (lists.get(behavior) ?? []).filter((rule) => wanted.has(rule));
      cache.set(key, ordered);
      return ordered;
    },
    all: (behavior) => lists.get(behavior) ?? [],
    position: (rule) => positions.get(rule) ?? Number.POSITIVE_INFINITY,
    add,
    remove,
    diagnostics,
  };
}
