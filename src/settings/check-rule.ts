/** What a settings loader should do with one rule string. */
export type RuleCheck =
  | { readonly verdict: 'keep' }
  | { readonly verdict: 'keep-with-warning'; readonly message: string }
  | { readonly verdict: 'skip'; readonly message: string };

/** Options for {@link checkRule}. */
export type CheckRuleOptions = {
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
  /** Known tool names; when absent, names are not checked. */
  readonly knownToolNames?: ReadonlySet<string>;
};

/** Path-rule tools the reference never consults: Edit and Read rules cover them. */
const NEVER_CONSULTED: ReadonlyMap<string, string> = new Map([
  ['Write', 'Edit'],
  ['MultiEdit', 'Edit'],
  ['NotebookEdit', 'Edit'],
  ['Glob', 'Read'],
]);

const RULE_SHAPE = /^([^()]+?)(?:\((.*)\))?$/s;

/** The tool-name part of a rule (`Bash` for `Bash(git *)`), or undefined when it has no shape. */
export function ruleToolName(rule: string): string | undefined {
  const match = RULE_SHAPE.exec(rule.trim());
  return match?.[1]?.trim();
}

/**
 * Checks one permission rule as the reference does at startup: an allow rule whose tool name is a
 * glob is skipped unless the glob follows a literal `mcp__<server>__` prefix; an unknown tool name
 * is a warning (`mcp__…` names are always accepted); `Write(…)`, `MultiEdit(…)`,
 * `NotebookEdit(…)` and `Glob(…)` path rules are never consulted and say so. Deny and ask rules
 * are never skipped: a rule that cannot be understood is left for the engine to treat strictly.
 */
export function checkRule(options: CheckRuleOptions): RuleCheck {
  const { rule, behavior, knownToolNames } = options;
  if (rule.trim() === '') return { verdict: 'skip', message: 'empty rule ignored' };
  const match = RULE_SHAPE.exec(rule.trim());
  const name = match?.[1]?.trim();
  if (match === null || name === undefined || name === '') {
    return {
      verdict: 'keep-with-warning',
      message: `rule ${JSON.stringify(rule)} is not of the form Tool or Tool(specifier)`,
    };
  }
  if (name.includes('*')) {
    if (behavior === 'allow' && !/^mcp__[^*]+__/.test(name)) {
      return {
        verdict: 'skip',
        message: `allow rule ${JSON.stringify(rule)} ignored: an allow rule may use a tool-name glob only after a literal mcp__<server>__ prefix`,
      };
    }
    return { verdict: 'keep' };
  }
  const specifier = match[2];
  const replacement = NEVER_CONSULTED.get(name);
  if (specifier !== undefined && replacement !== undefined) {
    return {
      verdict: 'keep-with-warning',
      message: `rule ${JSON.stringify(rule)} is never consulted for paths: write ${replacement}(${specifier}) instead`,
    };
  }
  if (name.startsWith('mcp__') || knownToolNames === undefined || knownToolNames.has(name)) return { verdict: 'keep' };
  return {
    verdict: 'keep-with-warning',
    message: `rule ${JSON.stringify(rule)} names an unknown tool ${JSON.stringify(name)}`,
  };
}
