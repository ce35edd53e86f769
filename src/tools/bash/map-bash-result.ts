import type { MappedResult } from '../../contract/tool.js';
import type { InterruptReason } from './run-shell-command.js';

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
      /** What the sandbox blocked and what to do instead, when the failure looks like its doing. */
      readonly sandboxBlock?: string;
    }
  | { readonly kind: 'background'; readonly taskId: string; readonly outputFile: string }
  | { readonly kind: 'not-run'; readonly message: string };

/**
 * Maps a Bash output for the model: stdout, then stderr, then how the command ended. A non-zero
 * exit, a signal, a timeout or an abort is an error result; so is a command that could not run.
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

  let isError = false;
  if (output.interrupted === 'timeout') {
    isError = true;
    parts.push(
      `Command timed out after ${output.timeoutMs} ms; it and every process it started were killed. ` +
        'Run it with run_in_background: true, give it a larger timeout (at most 600000), or split it into smaller steps.',
    );
  } else if (output.interrupted === 'abort') {
    isError = true;
    parts.push('Command was interrupted by the person; it and every process it started were killed.');
  } else if (output.exitCode !== 0) {
    isError = true;
    parts.push(
      output.exitCode === null
        ? `Command was killed by signal ${output.signal ?? 'unknown'}.`
        : `Exit code ${output.exitCode}`,
    );
  }
  if (output.cwdChanged) parts.push(`Working folder is now ${output.cwd}`);
  if (output.sandboxBlock) parts.push(output.sandboxBlock);
  if (parts.length === 0) return { content: '(Bash completed with no output)' };
  return { content: parts.join('\n'), isError };
}
