import { NO_PATH } from '../contract/define-tool.js';
import type { AnyTool } from '../contract/tool.js';
import type { CompiledRule, RuleSet, SourcedDiagnostic } from './rule-set.js';

/** What the rules are checked against: the session's tools and the MCP servers it configured. */
export type RuleCheckInput = {
  /** The tools of the session (built-in and the host's own): their names and declared path fields. */
  readonly tools?: readonly AnyTool[];
  /** Further tool names to accept when no tool object is at hand. */
  readonly toolNames?: readonly string[];
  /** Configured MCP servers, whose tools may not have connected yet: rules naming them are kept quiet. */
  readonly mcpServers?: readonly string[];
};

/**
 * The rule set's diagnostics plus, when tools are given, a warning for each rule naming a tool that
 * is not among them (a typo in a deny rule must not pass silently) and for each specifier a tool
 * has no grammar for: it names no path unless the tool declares path fields, so a deny or ask rule
 * covers every call and an allow rule nothing. Without tools only the rule set's own are returned.
 */
export function validateRuleNames(rules: RuleSet, known: RuleCheckInput = {}): readonly SourcedDiagnostic[] {
  const diagnostics: SourcedDiagnostic[] = [...rules.diagnostics];
  if (known.tools === undefined && known.toolNames === undefined) return diagnostics;
  const byName = new Map<string, AnyTool>((known.tools ?? []).map((tool) => [tool.name, tool]));
  const toolNames = [...byName.keys(), ...(known.toolNames ?? [])];
  const names = new Set(toolNames);
  const servers = new Set([
    ...toolNames.filter((name) => name.startsWith('mcp__')).map((name) => name.split('__')[1]),
    ...(known.mcpServers ?? []),
  ]);
  const configuredServer = (name: string): boolean =>
    name.startsWith('mcp__') && servers.has(name.slice(5).split('__')[0]);
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    for (const rule of rules.all(behavior)) {
      const message = problemOf(rule, { byName, names, toolNames, servers, configuredServer });
      if (message === undefined) continue;
      diagnostics.push({
        rule: rule.entry.rule,
        severity: 'warning',
        message,
        behavior,
        source: rule.entry.source,
        ...(rule.entry.file ? { file: rule.entry.file } : {}),
      });
    }
  }
  return diagnostics;
}

function problemOf(
  rule: CompiledRule,
  known: {
    readonly byName: ReadonlyMap<string, AnyTool>;
    readonly names: ReadonlySet<string>;
    readonly toolNames: readonly string[];
    readonly servers: ReadonlySet<string | undefined>;
    readonly configuredServer: (name: string) => boolean;
  },
): string | undefined {
  const parsed = rule.parsed;
  const behavior = rule.entry.behavior;
  const text = rule.entry.rule;
  let unknown: string | undefined;
  if (parsed.kind === 'mcp-server') unknown = known.servers.has(parsed.server) ? undefined : `mcp__${parsed.server}`;
  else if (parsed.kind === 'tool-glob')
    unknown = known.toolNames.some((name) => parsed.test(name)) ? undefined : parsed.pattern;
  else if (
    !known.names.has(parsed.toolName) &&
    !known.configuredServer(parsed.toolName) &&
    parsed.toolName !== 'Read' &&
    parsed.toolName !== 'Edit'
  )
    unknown = parsed.toolName;
  if (unknown !== undefined) return `${behavior} rule ${text} names ${unknown}, which is not a known tool.`;
  if (parsed.kind !== 'opaque') return undefined;
  const tool = known.byName.get(parsed.toolName);
  if (tool === undefined || (tool.builtin === undefined && (tool.paths.length > 0 || tool.getPath !== NO_PATH)))
    return undefined;
  return behavior === 'allow'
    ? `Allow rule ${text} is ignored: ${parsed.toolName} takes no specifier (it declares no path fields); write ${parsed.toolName} to allow every call.`
    : `Rule ${text}: ${parsed.toolName} takes no specifier (it declares no path fields), so this ${behavior} rule covers every ${parsed.toolName} call.`;
}
