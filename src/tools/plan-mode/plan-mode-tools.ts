import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { PermissionMode } from '../../contract/permission.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { INTERACTION_CHANNEL } from '../ask-user-question/interaction-channel.js';
import { PLAN_MODE_CONTROLLER } from './plan-mode-controller.js';
import { ENTER_PLAN_MODE_PROMPT, EXIT_PLAN_MODE_PROMPT } from './plan-mode-prompt.js';

/** EnterPlanMode takes no input. */
export const enterPlanModeInputSchema = z.strictObject({});
/** A parsed EnterPlanMode input (always empty). */
export type EnterPlanModeInput = z.infer<typeof enterPlanModeInputSchema>;

/** The ExitPlanMode tool's input, with the reference system's names. */
export const exitPlanModeInputSchema = z.strictObject({
  plan: z.string().describe('The plan to present for approval, in Markdown.'),
});
/** A parsed ExitPlanMode input. */
export type ExitPlanModeInput = z.infer<typeof exitPlanModeInputSchema>;

/** What a plan-mode call produced. */
export type PlanModeResult =
  | { readonly kind: 'entered'; readonly previousMode: PermissionMode }
  | { readonly kind: 'approved'; readonly mode: PermissionMode }
  | { readonly kind: 'rejected'; readonly feedback: string | undefined }
  | { readonly kind: 'failed'; readonly message: string };

const NO_CONTROLLER =
  'Plan mode is not available in this session (no plan-mode controller). Describe your plan in your reply instead.';

/** Creates the EnterPlanMode tool, which switches the session through {@link PLAN_MODE_CONTROLLER}. */
export function createEnterPlanModeTool(): Tool<EnterPlanModeInput, PlanModeResult> {
  return defineBuiltinTool<EnterPlanModeInput, PlanModeResult>('EnterPlanMode', {
    name: 'EnterPlanMode',
    services: [PLAN_MODE_CONTROLLER],
    inputSchema: enterPlanModeInputSchema,
    prompt: ENTER_PLAN_MODE_PROMPT,
    searchHint: 'plan mode design approach before editing',
    isReadOnly: () => true,
    // Plan mode only narrows what may run, so entering it needs nobody's approval.
    checkPermissions: () => ({
      behavior: 'allow',
      reason: { kind: 'tool', message: 'entering plan mode only restricts what may run' },
    }),
    async call(_input, context) {
      const controller = context.services.get(PLAN_MODE_CONTROLLER);
      if (!controller) return { kind: 'failed', message: NO_CONTROLLER };
      if (context.agentId !== 'main') {
        return {
          kind: 'failed',
          message: 'Subagents cannot enter plan mode. Do the research you were asked for and report back.',
        };
      }
      if (controller.mode() === 'plan') {
        return {
          kind: 'failed',
          message: 'You are already in plan mode. Keep exploring, then present the plan with ExitPlanMode.',
        };
      }
      return { kind: 'entered', previousMode: controller.enter() };
    },
    mapResult: mapPlanModeResult,
    describeInput: () => 'Enter plan mode',
  });
}

/**
 * Creates the ExitPlanMode tool: it presents the plan to the person through the
 * {@link INTERACTION_CHANNEL} service and, when approved, leaves plan mode through
 * {@link PLAN_MODE_CONTROLLER}. It allows itself (the person's review is the approval), so the
 * permission stage must let it run in plan mode; it is read-only.
 */
export function createExitPlanModeTool(): Tool<ExitPlanModeInput, PlanModeResult> {
  return defineBuiltinTool<ExitPlanModeInput, PlanModeResult>('ExitPlanMode', {
    name: 'ExitPlanMode',
    services: [PLAN_MODE_CONTROLLER],
    optionalServices: [INTERACTION_CHANNEL],
    inputSchema: exitPlanModeInputSchema,
    prompt: EXIT_PLAN_MODE_PROMPT,
    searchHint: 'present plan approval leave plan mode',
    isReadOnly: () => true,
    checkPermissions: () => ({
      behavior: 'allow',
      reason: { kind: 'tool', message: 'the person reviews the plan itself' },
    }),
    validateInput(input) {
      if (input.plan.trim() === '')
        return { ok: false, message: 'The plan is empty. Write the plan in `plan` (Markdown).' };
      return { ok: true };
    },
    async call(input, context) {
      const controller = context.services.get(PLAN_MODE_CONTROLLER);
      if (!controller) return { kind: 'failed', message: NO_CONTROLLER };
      if (controller.mode() !== 'plan') {
        return {
          kind: 'failed',
          message: 'You are not in plan mode, so there is nothing to exit. Go ahead with the task.',
        };
      }
      const channel = context.services.get(INTERACTION_CHANNEL);
      if (!channel) {
        return {
          kind: 'failed',
          message:
            'No person is available to approve the plan, so you stay in plan mode. Present the plan in your reply and stop.',
        };
      }
      try {
        const review = await channel.reviewPlan(
          { plan: input.plan, toolUseId: context.toolUseId, agentId: context.agentId },
          context.signal,
        );
        if (!review.approved) return { kind: 'rejected', feedback: review.feedback };
        return { kind: 'approved', mode: controller.exit(review.mode) };
      } catch (error) {
        if (context.signal.aborted)
          return { kind: 'failed', message: 'The plan review was cancelled; you are still in plan mode.' };
        return {
          kind: 'failed',
          message: `The plan could not be shown to the person: ${describeError(error)}. You are still in plan mode.`,
        };
      }
    },
    mapResult: mapPlanModeResult,
    describeInput: () => 'Present the plan for approval',
  });
}

/** Maps a plan-mode result for the model. */
export function mapPlanModeResult(result: PlanModeResult): MappedResult {
  switch (result.kind) {
    case 'failed':
      return { content: result.message, isError: true };
    case 'entered':
      return {
        content:
          'Entered plan mode. Explore with read-only tools (Read, Glob, Grep, read-only Bash) and design the approach; ' +
          'do not edit files or run commands that change anything. When the plan is ready, present it with ExitPlanMode.',
      };
    case 'approved':
      return {
        content: `The person approved your plan. Plan mode is over; the permission mode is now ${result.mode}. Start implementing the plan, and keep the todo list current.`,
      };
    case 'rejected':
      return {
        content:
          'The person did not approve the plan.' +
          (result.feedback ? ` Their feedback: ${result.feedback}` : ' They gave no reason.') +
          ' You are still in plan mode: revise the plan (ask with AskUserQuestion if something is unclear) and call ExitPlanMode again.',
        isError: true,
      };
  }
}
