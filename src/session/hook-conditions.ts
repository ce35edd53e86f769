import type { CallSubject } from '../contract/gates.js';
import type { HookSettings } from '../contract/hook-config.js';
import type { PermissionDecision, PermissionRuleEntry } from '../contract/permission.js';
import type { AnyTool } from '../contract/tool.js';
import {
  createPermissionEngine,
  parseUsableRule,
  type ParsedRule,
  type PermissionEngine,
} from '../permissions/index.js';

/** A condition's parsed rule, or why it is not one the engine can use. */
function parseCondition(condition: string): ParsedRule | Error {
  const parsed = parseUsableRule(condition, 'deny');
  return typeof parsed === 'string' ? new Error(`"if" ${condition} is not a permission rule: ${parsed}`) : parsed;
}

/**
 * The judge of hooks' `if` conditions: each condition is a permission rule, judged by the
 * session's rule engine as a deny rule would be — so a rule finds its command inside a compound
 * command, behind wrappers and in `bash -c`, exactly where a deny would; a call it cannot read
 * through counts as a match. A condition that is not a rule the engine can use throws, so the
 * hook runs for every call (a guard must not go quiet).
 */
export function createHookConditionJudge(options: {
  readonly cwd: string;
  readonly homeDir: string;
}): (
  condition: { readonly rule: string; readonly root: string | undefined },
  call: CallSubject,
) => boolean | Promise<boolean> {
  // Each condition compiled once per root: its engine and the tool it names, or why it is not a rule.
  const compiled = new Map<string, { engine: PermissionEngine; toolName: string | undefined } | Error>();
  const compile = (condition: string, root: string) => {
    const parsed = parseCondition(condition);
    if (parsed instanceof Error) return parsed;
    const engine = createPermissionEngine({
      rules: [{ rule: condition, behavior: 'deny', source: 'session', root }],
      cwd: options.cwd,
      homeDir: options.homeDir,
      mode: 'default',
    });
    return { engine, toolName: 'toolName' in parsed ? parsed.toolName : undefined };
  };
  // A rule's deny is a match; so is a call the engine could not read through (a safety ask: a
  // command built at run time, a script piped to a shell, no parser): it may match, so the hook runs.
  const matched = (decision: PermissionDecision) =>
    (decision.behavior === 'deny' && decision.reason?.kind === 'rule') ||
    (decision.behavior === 'ask' && decision.reason?.kind === 'safety');
  return ({ rule: condition, root = options.cwd }, call) => {
    const key = `${root}\0${condition}`;
    let entry = compiled.get(key);
    if (entry === undefined) {
      entry = compile(condition, root);
      compiled.set(key, entry);
    }
    if (entry instanceof Error) throw entry;
    // `bash(git push:*)` on a Bash call: a name that differs only in case is a typo, never a reason to go quiet.
    const { toolName } = entry;
    if (
      toolName !== undefined &&
      toolName !== call.tool.name &&
      toolName.toLowerCase() === call.tool.name.toLowerCase()
    )
      throw new Error(`"if" ${condition} names ${toolName}, not ${call.tool.name}`);
    const decision = entry.engine.decide(call);
    return decision instanceof Promise ? decision.then(matched) : matched(decision);
  };
}

/**
 * Checks every hook's `if` against the session's tools at start, as its permission rules are
 * checked: a condition naming a tool the session does not have (`Shell(…)`) would never match,
 * so its guard would never run. An `mcp_tool` hook naming a server that is not configured is told
 * too. Each problem is told once, naming the hook's file.
 */
export function reportHookConditionProblems(options: {
  readonly hooks?: HookSettings;
  readonly tools: readonly AnyTool[];
  readonly mcpServers: readonly string[];
  readonly cwd: string;
  readonly homeDir: string;
  readonly warn: (line: string) => void;
}): void {
  const conditions: PermissionRuleEntry[] = [];
  for (const [event, groups] of options.hooks ?? [])
    for (const group of groups)
      for (const hook of group.hooks) {
        if (hook.type === 'mcp_tool' && !options.mcpServers.includes(hook.server))
          options.warn(
            `warning: ${group.file ?? `${group.source} settings`}: the ${event} mcp_tool hook ${hook.server}/${hook.tool} names an MCP server that is not configured; it cannot run, so it protects nothing`,
          );
        // One that is not a rule was told when the settings were read.
        if (hook.if !== undefined && !(parseCondition(hook.if) instanceof Error))
          conditions.push({
            rule: hook.if,
            behavior: 'deny',
            source: group.source,
            root: group.root ?? options.cwd,
            ...(group.file !== undefined ? { file: group.file } : {}),
          });
      }
  if (conditions.length === 0) return;
  const engine = createPermissionEngine({ rules: conditions, cwd: options.cwd, homeDir: options.homeDir });
  for (const problem of engine.validateRules({ tools: options.tools, mcpServers: options.mcpServers }))
    options.warn(`warning: ${problem.file ?? `${problem.source} settings`}: a hook's "if": ${problem.message}`);
}
