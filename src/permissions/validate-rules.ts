import type { RuleSet, SourcedDiagnostic } from './rule-set.js';

/**
 * The rule set's diagnostics plus a warning for each rule naming a tool that is not in
 * `toolNames` (a typo in a deny rule must not pass silently).
 */
export function validateRuleNames(rules: RuleSet, toolNames: readonly string[]): readonly SourcedDiagnostic[] {
  const known = new Set(toolNames);
  const servers = new Set(toolNames.filter((name) => name.startsWith('mcp__')).map((name) => name.split('__')[1]));
  const diagnostics: SourcedDiagnostic[] = [...rules.diagnostics];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    for (const rule of rules.all(behavior)) {
      const parsed = rule.parsed;
      let unknown: string | undefined;
      if (parsed.kind === 'mcp-server') unknown = servers.has(parsed.server) ? undefined : `mcp__${parsed.server}`;
      else if (parsed.kind === 'tool-glob')
        unknown = toolNames.some((name) => parsed.test(name)) ? undefined : parsed.pattern;
      else if (!known.has(parsed.toolName) && !(parsed.toolName === 'Read' || parsed.toolName === 'Edit'))
        unknown = parsed.toolName;
      if (unknown === undefined) continue;
      diagnostics.push({
        rule: rule.entry.rule,
        severity: 'warning',
        message: `${behavior} rule ${rule.entry.rule} names ${unknown}, which is not a known tool.`,
        behavior,
        source: rule.entry.source,
        ...(rule.entry.file ? { file: rule.entry.file } : {}),
      });
    }
  }
  return diagnostics;
}
