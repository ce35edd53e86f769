import type { PermissionGate } from '../contract/gates.js';
import type { DenyDecision } from '../contract/permission.js';
import type { ServiceRegistry } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import type { SourcedDiagnostic } from '../permissions/rule-set.js';
import type { RuleCheckInput } from '../permissions/validate-rules.js';
import { READ_DENIED_PATH } from '../tools/fs-helpers/read-denied-path.js';

/** The permission gate of a session, with what the permission engine adds and the session uses. */
export type SessionPermissions = PermissionGate & {
  /** A bare-name deny covers the tool: it is kept out of the pool. */
  readonly isBlanketDenied?: (toolName: string) => boolean;
  /** The rules' problems against the session's tools, reported at start. */
  readonly validateRules?: (known: RuleCheckInput) => readonly SourcedDiagnostic[];
  /** A deny for reading a path: Grep and Glob drop results it covers (registered as their service). */
  readonly pathDenial?: (path: string, access: 'read' | 'write') => DenyDecision | undefined;
};

/** Registers the services a session's gate provides, unless the host registered its own. */
export function registerGateServices(services: ServiceRegistry, permissions: SessionPermissions): void {
  const pathDenial = permissions.pathDenial;
  if (services.get(READ_DENIED_PATH) === undefined && pathDenial !== undefined)
    services.set(READ_DENIED_PATH, (path: string) => pathDenial.call(permissions, path, 'read') !== undefined);
}

/** One rule problem as a line for people: where it was written and what is wrong. */
export function describeRuleProblem(problem: SourcedDiagnostic): string {
  const line = `${problem.severity}: ${problem.file ?? `${problem.source} settings`}: ${problem.message}`;
  // A rule may hold control characters (the problem itself): shown escaped, never sent to the terminal.
  return line.replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The rule problems of a session at start (parse errors, ignored rules, unknown tools, specifiers a
 * tool cannot match), each also given to `warn` once.
 */
export function reportRuleProblems(options: {
  readonly permissions: SessionPermissions;
  readonly tools: readonly AnyTool[];
  readonly mcpServers: readonly string[];
  readonly warn: (line: string) => void;
}): readonly SourcedDiagnostic[] {
  const { permissions } = options;
  const problems =
    permissions.validateRules?.call(permissions, { tools: options.tools, mcpServers: options.mcpServers }) ?? [];
  for (const problem of problems) options.warn(describeRuleProblem(problem));
  return problems;
}
