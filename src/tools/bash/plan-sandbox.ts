import { sandboxProfileFor, type Sandbox, type SandboxLaunch } from '../../contract/sandbox.js';
import type { CallApproval } from '../../contract/permission.js';
import { describeError } from '../../errors/toolplane-error.js';

/** How one Bash command is going to run. */
export type SandboxPlan =
  /** No sandbox in this host, or none can run here and the settings allow running without. */
  | { readonly kind: 'plain'; readonly note?: string }
  /** A person approved this one run outside the sandbox. */
  | { readonly kind: 'outside'; readonly note: string }
  | { readonly kind: 'sandboxed'; readonly launch: SandboxLaunch; readonly note?: string }
  /** Not run: what the model is told. */
  | { readonly kind: 'refused'; readonly message: string };

/**
 * Decides where a command runs. Outside the sandbox only when a person approved this very call
 * (the plane records who approved it; a rule, a mode or a hook never does). Anything that cannot
 * be prepared does not run: the sandbox fails closed.
 */
export async function planSandbox(options: {
  readonly sandbox: Sandbox | undefined;
  readonly command: string;
  readonly requestedOutside: boolean;
  readonly approval: CallApproval | undefined;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}): Promise<SandboxPlan> {
  const { sandbox } = options;
  if (sandbox === undefined) return { kind: 'plain' };
  let status;
  let outside;
  try {
    status = await sandbox.status(options.signal);
    outside = await sandbox.outside({ command: options.command, requested: options.requestedOutside });
  } catch (error) {
    return {
      kind: 'refused',
      message: `The sandbox could not be checked (${describeError(error)}), so the command did not run.`,
    };
  }
  const byPerson = options.approval?.by === 'person';
  if (outside?.verdict === 'refuse') {
    return {
      kind: 'refused',
      message: `The command did not run: ${outside.reason}. Run it without dangerouslyDisableSandbox, or ask the user to run it themselves.`,
    };
  }
  if (outside !== undefined) {
    if (byPerson)
      return {
        kind: 'outside',
        note: `This command ran outside the sandbox, as the user approved (${outside.reason}).`,
      };
    return {
      kind: 'refused',
      message: `The command did not run: ${outside.reason}, and only a person's approval of this one run allows that; it was approved by ${options.approval?.by ?? 'nobody'}.`,
    };
  }
  if (!status.available) return { kind: 'plain' };
  const ignored = options.requestedOutside
    ? 'dangerouslyDisableSandbox was not honoured: only a person approving this one run lets a command out of the sandbox. It ran inside.'
    : undefined;
  try {
    const launch = await sandbox.prepare(
      { profile: sandboxProfileFor(options.approval), argv: options.argv, cwd: options.cwd, env: options.env },
      options.signal,
    );
    return ignored === undefined ? { kind: 'sandboxed', launch } : { kind: 'sandboxed', launch, note: ignored };
  } catch (error) {
    return {
      kind: 'refused',
      message: `The sandbox could not be prepared (${describeError(error)}), so the command did not run.`,
    };
  }
}
