import type { MappedResult } from '../../contract/tool.js';
import type { InterruptReason } from './run-shell-command.js';
import type { FullOutput } from './save-full-output.js';

/** What a Bash call produced. */
export type BashOutput =
  | {
      readonly kind: 'ran';
      readonly stdout: string;
      readonly stderr: string;
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly interrupted: InterruptReason | undefined;
      readonly timeoutMs: number;
      /** Set when stdout passed the in-memory limit: the file holding all of it. */
      readonly stdoutFile: string | undefined;
      readonly stderrFile: string | undefined;
      /** The working folder after the command. */
      readonly cwd: string;
      readonly cwdChanged: boolean;
      /** Something the model should know about where the command ran. */
      readonly note: string | undefined;
      /** Set when the output passed the in-memory limit: the one file holding all of it. */
      readonly fullOutput?: FullOutput;
      /** What the sandbox blocked and what to do instead, when the failure looks like its doing. */
      readonly sandboxBlock?: string;
    }
  | { readonly kind: 'background'; readonly taskId: string; readonly outputFile: string }
  | { readonly kind: 'not-run'; readonly message: string };

/**
 * Maps a Bash output for the model: stdout, then stderr, then how the command ended (a trailer,
 * kept whole when size governance replaces the output with a preview). A non-zero exit, a signal
 * or an abort is an error result; so is a command that could not run. A timeout is not: the
 * result is the output the command printed before its limit, and the limit it hit.
 */
export function mapBashResult(output: BashOutput): MappedResult {
  switch (output.kind) {
    case 'not-run':
      return { content: output.message, isError: true };
    case 'background':
      return {
        content:
          `Command running in the background with task id ${output.taskId}. ` +
          `Its output is written to ${output.outputFile}. ` +
          `Use TaskOutput with task_id "${output.taskId}" to read it (block: false to check without waiting), ` +
          `and TaskStop to stop it.`,
      };
    case 'ran':
      return mapRan(output);
  }
}

function mapRan(output: Extract<BashOutput, { kind: 'ran' }>): MappedResult {
  const parts: string[] = [];
  if (output.note) parts.push(output.note);
  const stdout = output.stdout.replace(/\n+$/, '');
  const stderr = output.stderr.replace(/\n+$/, '');
  if (stdout) parts.push(stdout);
  if (stderr) parts.push(stdout ? `stderr:\n${stderr}` : stderr);

  const ending: string[] = [];
  let isError = false;
  if (output.interrupted === 'timeout') {
    ending.push(
      `Command timed out after ${output.timeoutMs} ms (its timeout), so it and every process it started were killed; ` +
        `the output above is what it printed until then${stdout || stderr ? '' : ' (nothing)'}. ` +
        'If it needs longer, run it with run_in_background: true, give it a larger timeout (at most 600000), or split it into smaller steps.',
    );
  } else if (output.interrupted === 'abort') {
    isError = true;
    ending.push('Command was interrupted by the person; it and every process it started were killed.');
  } else if (output.exitCode !== 0) {
    isError = true;
    ending.push(
      output.exitCode === null
        ? `Command was killed by signal ${output.signal ?? 'unknown'}.`
        : `Exit code ${output.exitCode}`,
    );
  }
  if (output.cwdChanged) ending.push(`Working folder is now ${output.cwd}`);
  if (output.sandboxBlock) ending.push(output.sandboxBlock);
  if (parts.length === 0 && ending.length === 0) return { content: '(Bash completed with no output)' };
  const trailer = ending.length > 0 ? ending.join('\n') : undefined;
  return {
    content: parts.join('\n'),
    isError,
    ...(trailer === undefined ? {} : { trailer }),
    ...(output.fullOutput === undefined ? {} : { fullOutput: output.fullOutput }),
  };
}
