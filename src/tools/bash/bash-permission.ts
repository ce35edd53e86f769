import { realpath } from 'node:fs/promises';
import type { PermissionDecision } from '../../contract/permission.js';
import { SANDBOX, SANDBOX_PROGRESS, type SandboxPlacement } from '../../contract/sandbox.js';
import type { ToolCallContext, ToolCheckContext } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import type { BashInput } from './bash-input.js';
import { planSandbox } from './plan-sandbox.js';

/** An ask when the shell's folder is not the call's folder (`pwd -P` may spell it through its real path). */
export async function shellElsewhere(shellCwd: string, callCwd: string): Promise<PermissionDecision> {
  const real = async (folder: string) => realpath(folder).catch(() => folder);
  if ((await real(shellCwd)) === (await real(callCwd))) return { behavior: 'passthrough' };
  const message = `The shell is in ${shellCwd} since an earlier call, and no SHELL_STATE service lets the permission check see that; approve only if the command is safe to run there.`;
  return { behavior: 'ask', message, reason: { kind: 'safety', message } };
}

/**
 * Bash's own say on a call: running outside the sandbox (asked for, an excluded command, or no
 * sandbox here with failIfUnavailable) is a safety ask, which no rule, mode or hook answers — only
 * a person, for this one run; forbidden by the settings, it is denied. Otherwise the rules decide.
 */
export async function sandboxPermission(input: BashInput, context: ToolCheckContext): Promise<PermissionDecision> {
  const sandbox = context.services.get(SANDBOX);
  if (sandbox === undefined) return { behavior: 'passthrough' };
  let outside;
  try {
    outside = await sandbox.outside({ command: input.command, requested: input.dangerouslyDisableSandbox === true });
  } catch (error) {
    const message = `The sandbox could not be checked (${describeError(error)}).`;
    return { behavior: 'ask', message, reason: { kind: 'safety', message } };
  }
  if (outside === undefined) return { behavior: 'passthrough' };
  if (outside.verdict === 'refuse') {
    return {
      behavior: 'deny',
      message: `This command cannot run outside the sandbox: ${outside.reason}.`,
      reason: { kind: 'tool', message: outside.reason },
    };
  }
  const message =
    `Run this command OUTSIDE the sandbox, with your full access to files, network and credentials? ${outside.reason}. ` +
    'Approve only if you trust this exact command.';
  return {
    behavior: 'ask',
    message,
    reason: { kind: 'safety', message: `runs outside the sandbox: ${outside.reason}` },
  };
}

/**
 * Where one command runs (see planSandbox), from the call's input and how it was approved. The
 * placement is reported as the call's progress, so the decision ledger records the profile.
 */
export async function planFor(
  input: BashInput,
  context: ToolCallContext,
  launch: { readonly argv: readonly string[]; readonly cwd: string; readonly env: Readonly<Record<string, string>> },
): ReturnType<typeof planSandbox> {
  const plan = await planSandbox({
    sandbox: context.services.get(SANDBOX),
    command: input.command,
    requestedOutside: input.dangerouslyDisableSandbox === true,
    approval: context.approval,
    ...launch,
    signal: context.signal,
  });
  const placement: SandboxPlacement =
    plan.kind === 'sandboxed'
      ? { placement: 'sandboxed', profile: plan.launch.profile, network: plan.launch.network }
      : { placement: plan.kind };
  context.reportProgress({ kind: SANDBOX_PROGRESS, data: placement });
  return plan;
}
