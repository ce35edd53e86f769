import type { PermissionGate } from '../contract/gates.js';
import type { PermissionDecision } from '../contract/permission.js';

/**
 * The gate used when the host supplies none: no rules. The tool's own check decides, except that a
 * hook's ask holds against its allow; with no opinion, a read-only call is allowed, a hook's allow
 * is honoured, and anything else asks (which is denied when no person can answer).
 */
export function createDefaultPermissionGate(): PermissionGate {
  return {
    preCheck: () => undefined,
    async decide({ tool, input, context, hookDecision }): Promise<PermissionDecision> {
      const own = await tool.checkPermissions(input, context);
      // Deny beats ask beats allow: a hook's ask holds against the tool's allow and a read-only call.
      if (hookDecision?.decision === 'ask' && own.behavior !== 'deny' && own.behavior !== 'ask') {
        return {
          behavior: 'ask',
          message: hookDecision.reason ?? `A PreToolUse hook asks for approval of ${tool.name}.`,
          reason: {
            kind: 'hook',
            hook: hookDecision.hook ?? 'PreToolUse',
            ...(hookDecision.reason ? { message: hookDecision.reason } : {}),
          },
        };
      }
      if (own.behavior !== 'passthrough') return own;
      let readOnly = false;
      try {
        readOnly = tool.isReadOnly(input) === true;
      } catch {
        readOnly = false;
      }
      if (readOnly) return { behavior: 'allow', reason: { kind: 'read-only', message: `${tool.name} only reads` } };
      if (hookDecision?.decision === 'allow') {
        return {
          behavior: 'allow',
          reason: {
            kind: 'hook',
            hook: hookDecision.hook ?? 'PreToolUse',
            ...(hookDecision.reason ? { message: hookDecision.reason } : {}),
          },
        };
      }
      return {
        behavior: 'ask',
        message: own.message ?? `Allow ${tool.name} to run?`,
        reason: own.reason ?? { kind: 'default', message: 'no rule allows this call' },
      };
    },
  };
}
