import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { CallApproval, PermissionRuleEntry } from '../../src/contract/permission.js';
import { SANDBOX, type Sandbox, type SandboxProfile } from '../../src/contract/sandbox.js';
import { createServices } from '../../src/contract/services.js';
import { buildSandboxPolicy } from '../../src/permissions/sandbox-policy.js';
import { createBubblewrapSandbox } from '../../src/sandbox/bubblewrap-sandbox.js';
import { createCallContext } from '../../src/testing/call-context.js';
import { bashInputSchema, createBashTool } from '../../src/tools/bash/bash-tool.js';
import { runShellCommand, shellCommandArgv } from '../../src/tools/bash/run-shell-command.js';
import { SPILL_FOLDER, createSpillFolder } from '../../src/tools/bash/spill-folder.js';
import { TASK_REGISTRY, createTaskRegistry } from '../../src/tools/tasks/task-registry.js';

/**
 * Runs attack commands in the real bubblewrap sandbox, the way toolplane does: a sandbox made from
 * `buildSandboxPolicy`, then either `prepare()` and the Bash runner's own spawn (`via: 'sandbox'`),
 * or the real Bash tool with a call context carrying the approval (`via: 'bash'`). The same code
 * runs inside the test process and, bundled, as an unprivileged user (see run-as-nobody.ts), so
 * requests and outcomes are plain data.
 */

/** One command of a job. */
export type SandboxStep = {
  readonly profile: SandboxProfile;
  readonly command: string;
  /** `sandbox`: prepare + spawn; `bash`: the Bash tool (approval from the profile). Default `sandbox`. */
  readonly via?: 'sandbox' | 'bash';
  /** Steps of the same session share one sandbox (and its stub registry); default `main`. */
  readonly session?: string;
  readonly timeoutMs?: number;
  /** Aborts the call's AbortSignal after this long. */
  readonly abortAfterMs?: number;
  /** Bash only: `run_in_background`, then the task registry is disposed after `disposeAfterMs`. */
  readonly background?: boolean;
  readonly disposeAfterMs?: number;
  /** Starts this step this long after the job's previous step started, without waiting for it to end. */
  readonly concurrentAfterMs?: number;
  /** Extra environment for the command (on top of PATH, HOME, LANG). */
  readonly env?: Readonly<Record<string, string>>;
};

/** Steps that run against one fixture, in order. */
export type SandboxJob = {
  readonly id: string;
  readonly cwd: string;
  readonly home: string;
  readonly tmpDir: string;
  readonly rules: readonly PermissionRuleEntry[];
  readonly protectedFiles: readonly string[];
  readonly steps: readonly SandboxStep[];
};

/** How one step ended. `text` is the Bash tool's result for the model (bash steps only). */
export type StepOutcome = {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly text?: string;
  readonly interrupted?: string;
  readonly error?: string;
};

export type JobOutcome = { readonly id: string; readonly steps: readonly StepOutcome[] };

const BASE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Jobs run at once (on fixtures of their own, or as one session on a shared one). */
const CONCURRENT_JOBS = 4;

/**
 * Runs the jobs, a few at a time. Steps of one session in one folder share a sandbox across jobs
 * (jobs on a shared fixture are one session, as commands of one agent would be); every sandbox is
 * disposed once all jobs have ended. Outcomes are in job order.
 */
export async function runJobs(jobs: readonly SandboxJob[]): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = new Array<JobOutcome>(jobs.length);
  const sandboxes = new Map<string, Sandbox>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next;
      next += 1;
      const job = jobs[index] as SandboxJob;
      outcomes[index] = { id: job.id, steps: await runJob(job, sandboxes) };
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_JOBS, jobs.length) }, worker));
  } finally {
    for (const sandbox of sandboxes.values()) await sandbox.dispose?.();
  }
  return outcomes;
}

async function runJob(job: SandboxJob, sandboxes: Map<string, Sandbox>): Promise<StepOutcome[]> {
  const sandboxFor = (session: string): Sandbox => {
    const key = `${job.cwd}\0${session}`;
    let sandbox = sandboxes.get(key);
    if (sandbox === undefined) {
      sandbox = createBubblewrapSandbox({
        policy: buildSandboxPolicy({
          rules: job.rules,
          cwd: job.cwd,
          homeDir: job.home,
          tmpDir: job.tmpDir,
          protectedFiles: job.protectedFiles,
        }),
      });
      sandboxes.set(key, sandbox);
    }
    return sandbox;
  };
  const running: Promise<StepOutcome>[] = [];
  for (const step of job.steps) {
    if (step.concurrentAfterMs === undefined) await Promise.all(running);
    else await new Promise((resolve) => setTimeout(resolve, step.concurrentAfterMs));
    const env: Record<string, string> = { PATH: BASE_PATH, HOME: job.home, LANG: 'C.UTF-8', ...step.env };
    const sandbox = sandboxFor(step.session ?? 'main');
    running.push(
      (step.via === 'bash' ? runBashStep(sandbox, job, step, env) : runSandboxStep(sandbox, job, step, env)).catch(
        (error: unknown) => ({
          code: null,
          stdout: '',
          stderr: '',
          error: error instanceof Error ? error.message : String(error),
        }),
      ),
    );
  }
  return Promise.all(running);
}

async function runSandboxStep(
  sandbox: Sandbox,
  job: SandboxJob,
  step: SandboxStep,
  env: Record<string, string>,
): Promise<StepOutcome> {
  const controller = new AbortController();
  const abortTimer =
    step.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), step.abortAfterMs);
  const launch = await sandbox.prepare({
    profile: step.profile,
    argv: shellCommandArgv('/bin/bash', step.command),
    cwd: job.cwd,
    env,
  });
  const base = path.join(job.tmpDir, `..`, `spill-${randomUUID()}`);
  try {
    const result = await runShellCommand({
      command: step.command,
      shell: '/bin/bash',
      cwd: job.cwd,
      env,
      launch,
      timeoutMs: step.timeoutMs ?? 20_000,
      signal: controller.signal,
      stdoutFile: `${base}.stdout`,
      stderrFile: `${base}.stderr`,
      maxOutputBytes: 200_000,
      killGraceMs: 300,
    });
    return {
      code: result.exitCode,
      stdout: result.stdout.text,
      stderr: result.stderr.text,
      ...(result.interrupted ? { interrupted: result.interrupted } : {}),
    };
  } finally {
    if (abortTimer) clearTimeout(abortTimer);
    await launch.release();
  }
}

async function runBashStep(
  sandbox: Sandbox,
  job: SandboxJob,
  step: SandboxStep,
  env: Record<string, string>,
): Promise<StepOutcome> {
  const registry = createTaskRegistry();
  const services = createServices()
    .set(SANDBOX, sandbox)
    .set(TASK_REGISTRY, registry)
    .set(SPILL_FOLDER, createSpillFolder({ path: path.join(job.tmpDir, '..', 'spill') }));
  const approval: CallApproval =
    step.profile === 'read-only' ? { by: 'read-only', readOnly: true } : { by: 'rule', readOnly: false };
  const controller = new AbortController();
  const abortTimer =
    step.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), step.abortAfterMs);
  const tool = createBashTool({ env, killGraceMs: 300, shell: '/bin/bash' });
  const context = createCallContext({ services, cwd: job.cwd, approval, signal: controller.signal });
  try {
    const input = bashInputSchema.parse({
      command: step.command,
      ...(step.timeoutMs ? { timeout: step.timeoutMs } : {}),
      ...(step.background ? { run_in_background: true } : {}),
    });
    const output = await tool.call(input, context);
    const mapped = tool.mapResult(output, context.toolUseId);
    const content = typeof mapped.content === 'string' ? mapped.content : JSON.stringify(mapped.content);
    const text = [content, mapped.trailer].filter((part) => part !== undefined && part !== '').join('\n');
    if (step.background) {
      await new Promise((resolve) => setTimeout(resolve, step.disposeAfterMs ?? 500));
      await registry.dispose();
    }
    if (output.kind === 'ran') {
      return {
        code: output.exitCode,
        stdout: output.stdout,
        stderr: output.stderr,
        text,
        ...(output.interrupted ? { interrupted: output.interrupted } : {}),
      };
    }
    return { code: null, stdout: '', stderr: '', text };
  } finally {
    if (abortTimer) clearTimeout(abortTimer);
    await registry.dispose();
  }
}
