import type { CallSubject } from '../contract/gates.js';
import type { PermissionDecision } from '../contract/permission.js';
import { createPermissionEngine, parseRule, type PermissionEngine } from '../permissions/index.js';

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
}): (condition: string, call: CallSubject) => boolean | Promise<boolean> {
  const engines = new Map<string, PermissionEngine>();
  const engineFor = (condition: string): PermissionEngine => {
    const known = engines.get(condition);
    if (known) return known;
    const parsed = parseRule(condition, 'deny');
    if (parsed.rule === undefined || parsed.diagnostic?.severity === 'error')
      throw new Error(`"if" ${condition} is not a permission rule: ${parsed.diagnostic?.message ?? 'unknown'}`);
    const engine = createPermissionEngine({
      rules: [{ rule: condition, behavior: 'deny', source: 'session', root: options.cwd }],
      cwd: options.cwd,
      homeDir: options.homeDir,
      mode: 'default',
    });
    engines.set(condition, engine);
    return engine;
  };
  // A rule's deny is a match; so is a call the engine could not read through (a safety ask: a
  // command built at run time, a script piped to a shell, no parser): it may match, so the hook runs.
  const matched = (decision: PermissionDecision) =>
    (decision.behavior === 'deny' && decision.reason?.kind === 'rule') ||
    (decision.behavior === 'ask' && decision.reason?.kind === 'safety');
  return (condition, call) => {
    const decision = engineFor(condition).decide(call);
    return decision instanceof Promise ? decision.then(matched) : matched(decision);
  };
}
