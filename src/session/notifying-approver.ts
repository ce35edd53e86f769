import type { Approver } from '../contract/gates.js';
import type { HookPlane } from '../hooks/create-hook-gate.js';
import type { HookSession } from '../hooks/hook-input.js';

/**
 * The session's approver, with Notification hooks (`permission_prompt`) told each time it asks a
 * person. They run while the question is put, so a slow hook never holds the question back; the
 * call goes on once the person answered and the hooks ended. A failing hook is reported, never the
 * answer's business.
 */
export function notifyingApprover(
  approver: Approver,
  context: { readonly hooks: HookPlane; readonly hookSession: () => HookSession },
): Approver {
  return {
    async request(request, signal) {
      if (!context.hooks.hasHooks('Notification')) return approver.request(request, signal);
      const told = context.hooks
        .notification({
          session: context.hookSession(),
          signal,
          notificationType: 'permission_prompt',
          message: `toolplane needs your permission to use ${request.tool.name}`,
          title: 'Permission needed',
        })
        .catch(() => undefined);
      try {
        return await approver.request(request, signal);
      } finally {
        await told;
      }
    },
  };
}
