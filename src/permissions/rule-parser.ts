import { compileBashPattern, type BashPattern } from './bash-pattern.js';
import { compileDomainPattern, type DomainPattern } from './domain-pattern.js';
import { PRIMARY_FIELDS, canonicalToolName, describeBuiltinTool } from './tool-descriptors.js';

/** Which list a rule sits in. */
export type RuleBehavior = 'allow' | 'deny' | 'ask';

/** A rule's meaning, independent of where it was written. */
export type ParsedRule =
  /** `Tool`, `Tool(*)`, `mcp__server__tool`: every call of one tool. */
  | { readonly kind: 'tool'; readonly toolName: string }
  /** `mcp__server` or `mcp__server__*`: every tool of one MCP server. */
  | { readonly kind: 'mcp-server'; readonly server: string }
  /** `*`, `mcp__*`, `B*`, `mcp__server__get_*`: a glob over tool names. */
  | { readonly kind: 'tool-glob'; readonly pattern: string; readonly test: (toolName: string) => boolean }
  | { readonly kind: 'bash'; readonly toolName: 'Bash'; readonly pattern: BashPattern }
  /** `Read(./src/**)`: a gitignore-style path pattern, still unanchored. */
  | { readonly kind: 'path'; readonly toolName: string; readonly pattern: string }
  | { readonly kind: 'domain'; readonly toolName: 'WebFetch'; readonly pattern: DomainPattern }
  /** `Agent(model:opus)`: a top-level scalar input field (deny and ask only). */
  | {
      readonly kind: 'param';
      readonly toolName: string;
      readonly key: string;
      readonly test: (value: string) => boolean;
      /** The glob as an anchored regular-expression source, so rules on one field can be tested together. */
      readonly source: string;
    }
  | { readonly kind: 'agent'; readonly toolName: 'Agent'; readonly agentType: string }
  /**
   * A specifier of a tool that is not a built-in: a path pattern for a tool that declares path
   * fields; otherwise, as a deny or ask, it covers every call (fail-safe) and as an allow nothing.
   */
  | { readonly kind: 'opaque'; readonly toolName: string; readonly specifier: string };

/** A problem with one rule, written for the person who wrote it. */
export type RuleDiagnostic = {
  readonly rule: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
};

/** The outcome of parsing one rule: the rule (absent when it is ignored) and any diagnostic. */
export type RuleParseResult = {
  readonly rule: ParsedRule | undefined;
  readonly diagnostic: RuleDiagnostic | undefined;
};

const PATH_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'Glob',
  'Grep',
  'LS',
]);

/** Path-rule tool names the reference never consults in allow rules (Edit and Read cover them). */
const NEVER_CONSULTED_FOR_ALLOW: ReadonlySet<string> = new Set([
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'NotebookRead',
  'LS',
]);

const TOOL_NAME = /^[A-Za-z0-9_*-]+$/;
const PARAM = /^([A-Za-z_-][A-Za-z0-9_-]*):([\s\S]*)$/;

function globSource(pattern: string): string {
  return pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[\\s\\S]*');
}

function globTest(pattern: string): (value: string) => boolean {
  const regex = new RegExp(`^${globSource(pattern)}$`);
  return (value) => regex.test(value);
}

function result(
  rule: ParsedRule | undefined,
  severity?: 'error' | 'warning',
  text?: string,
  message?: string,
): RuleParseResult {
  return {
    rule,
    diagnostic: severity && message !== undefined ? { rule: text ?? '', severity, message } : undefined,
  };
}

function parseToolName(text: string, name: string, behavior: RuleBehavior): RuleParseResult {
  if (name.includes('*')) {
    const mcpPrefix = /^mcp__[A-Za-z0-9_-]+?__/.exec(name);
    if (behavior === 'allow' && (mcpPrefix === null || mcpPrefix[0].includes('*'))) {
      return result(
        undefined,
        'warning',
        text,
        `Allow rule ${text} is ignored: an allow rule may use * in the tool name only after a literal mcp__<server>__ prefix.`,
      );
    }
    // A server name never holds `__` (mcpServerNameProblem), so `mcp__docs__admin__*` is a glob
    // over server docs's tools whose names start with `admin__`, not every tool of `docs__admin`.
    const serverWide = /^mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__\*$/.exec(name);
    if (serverWide?.[1] !== undefined) {
      return result({ kind: 'mcp-server', server: serverWide[1] });
    }
    return result({ kind: 'tool-glob', pattern: name, test: globTest(name) });
  }
  const server = /^mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)$/.exec(name);
  if (server?.[1] !== undefined && !name.slice(5).includes('__')) {
    return result({ kind: 'mcp-server', server: server[1] });
  }
  return result({ kind: 'tool', toolName: canonicalToolName(name) });
}

/**
 * Parses one permission rule. Never throws: a rule that cannot be used comes back with
 * `rule: undefined` and a diagnostic naming it; a rule used in a narrower sense than written
 * comes back with a warning.
 */
export function parseRule(text: string, behavior: RuleBehavior): RuleParseResult {
  const trimmed = text.trim();
  if (trimmed === '') return result(undefined, 'error', text, 'Empty permission rule.');
  const open = trimmed.indexOf('(');
  if (open < 0) {
    if (!TOOL_NAME.test(trimmed)) {
      return result(undefined, 'error', text, `Permission rule ${text} is not a tool name or Tool(specifier).`);
    }
    return parseToolName(text, trimmed, behavior);
  }
  if (!trimmed.endsWith(')')) {
    return result(
      undefined,
      'error',
      text,
      `Permission rule ${text} has an unclosed parenthesis; write Tool(specifier).`,
    );
  }
  const name = trimmed.slice(0, open).trim();
  const specifier = trimmed.slice(open + 1, -1).trim();
  if (!TOOL_NAME.test(name)) {
    return result(undefined, 'error', text, `Permission rule ${text} does not start with a tool name.`);
  }
  if (name.includes('*')) {
    return result(undefined, 'error', text, `Permission rule ${text}: a tool-name glob cannot take a specifier.`);
  }
  if (specifier === '') {
    return result(
      undefined,
      'error',
      text,
      `Permission rule ${text} has an empty specifier; write ${name} for every call.`,
    );
  }
  if (specifier === '*') return parseToolName(text, name, behavior);
  const toolName = canonicalToolName(name);
  return parseSpecifier({ text, toolName, specifier, behavior });
}

function parseSpecifier(options: {
  readonly text: string;
  readonly toolName: string;
  readonly specifier: string;
  readonly behavior: RuleBehavior;
}): RuleParseResult {
  const { text, toolName, specifier, behavior } = options;
  const descriptor = describeBuiltinTool(toolName);
  const param = PARAM.exec(specifier);
  const key = param?.[1];
  if (param && key !== undefined && !(toolName === 'WebFetch' && key === 'domain')) {
    const known = descriptor?.params.includes(key) ?? false;
    const isParamRule = PRIMARY_FIELDS.has(key) || known || (descriptor === undefined && toolName !== 'Bash');
    const legacyBash = toolName === 'Bash' && !known && !PRIMARY_FIELDS.has(key);
    if (isParamRule && !legacyBash) {
      if (PRIMARY_FIELDS.has(key)) {
        return result(
          undefined,
          'warning',
          text,
          `Rule ${text} is ignored: ${key} is ${toolName}'s primary field and cannot be matched as ${key}:value (a compound command would slip past it).`,
        );
      }
      if (behavior === 'allow') {
        return result(
          undefined,
          'warning',
          text,
          `Allow rule ${text} is ignored: only deny and ask rules may match an input field.`,
        );
      }
      return result({
        kind: 'param',
        toolName,
        key,
        test: globTest(param[2] ?? ''),
        source: globSource(param[2] ?? ''),
      });
    }
  }
  if (toolName === 'Bash') {
    return result({ kind: 'bash', toolName: 'Bash', pattern: compileBashPattern(specifier) });
  }
  if (toolName === 'WebFetch') {
    if (!specifier.startsWith('domain:')) {
      return result(undefined, 'error', text, `Rule ${text}: WebFetch rules are written WebFetch(domain:example.com).`);
    }
    return result({ kind: 'domain', toolName: 'WebFetch', pattern: compileDomainPattern(specifier.slice(7)) });
  }
  if (toolName === 'Agent') return result({ kind: 'agent', toolName: 'Agent', agentType: specifier });
  if (PATH_TOOLS.has(toolName)) {
    if (behavior === 'allow' && NEVER_CONSULTED_FOR_ALLOW.has(toolName)) {
      const family = toolName === 'Glob' || toolName === 'NotebookRead' || toolName === 'LS' ? 'Read' : 'Edit';
      return result(
        undefined,
        'warning',
        text,
        `Allow rule ${text} is never consulted; write ${family}(${specifier}) instead.`,
      );
    }
    if (/[\u0000-\u001f\u007f]/.test(specifier)) {
      return result(undefined, 'error', text, `Rule ${text} contains a control character.`);
    }
    return result({ kind: 'path', toolName, pattern: specifier });
  }
  if (/[\u0000-\u001f\u007f]/.test(specifier)) {
    return result(undefined, 'error', text, `Rule ${text} contains a control character.`);
  }
  // Whether the specifier is a path depends on the tool (one that declares path fields): the
  // session's rule check says so once the tools are known.
  return result({ kind: 'opaque', toolName, specifier });
}

/**
 * Escapes a path for use inside a path rule, so gitignore syntax in a file name (`[2024-06]`,
 * `*`, `!`, `#`) stays literal when the rule is saved and read back.
 */
export function escapePathForRule(path: string): string {
  return path.replace(/[\\[\]*?!#]/g, (char) => `\\${char}`).replace(/ $/, '\\ ');
}

/** The rule `text` parses to, or the reason it cannot be used (an error diagnostic) as a string. */
export function parseUsableRule(text: string, behavior: RuleBehavior): ParsedRule | string {
  const parsed = parseRule(text, behavior);
  if (parsed.rule === undefined || parsed.diagnostic?.severity === 'error')
    return parsed.diagnostic?.message ?? `Permission rule ${text} cannot be used.`;
  return parsed.rule;
}
