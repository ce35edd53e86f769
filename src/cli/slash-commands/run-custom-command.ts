import type { ToolCallRecord } from '../../execution/types.js';
import type { PermissionEngine, TemporaryGrant } from '../../permissions/permission-engine.js';
import type { AgentSession, LoopEvent, QueryResult } from '../../session/index.js';
import { expandTemplate } from './expand-template.js';
import type { CustomCommand } from './load-custom-commands.js';

/** What running a custom command needs of the session. */
export type CustomCommandRun = {
  readonly session: Pick<AgentSession, 'submit' | 'runToolCall' | 'model' | 'setModel'>;
  readonly permissions: Pick<PermissionEngine, 'allowForNow'>;
  /** Whether the project folder is trusted: `allowed-tools` applies only then. */
  readonly trusted: boolean;
  readonly command: CustomCommand;
  /** What followed the command's name on the line. */
  readonly argument: string;
  readonly signal: AbortSignal;
};

/**
 * Runs a custom slash command as one turn: its `allowed-tools` become session allow rules for
 * this turn only (in a trusted folder; they never outweigh a deny or ask rule), its `model` is
 * used for this turn only (a project's only in a trusted folder), each `!` shell command runs as a Bash call through the session's plane
 * (rules, hooks, sandbox, the person's dialog) and its output, or why it did not run, replaces it
 * in the prompt, and the prompt then goes to the model. Yields the shell calls' events and the
 * turn's; an interrupt during the shell commands ends it before anything is sent (it throws).
 */
export async function* runCustomCommand(run: CustomCommandRun): AsyncGenerator<LoopEvent, QueryResult> {
  const { session, command, signal } = run;
  const grant = yield* grantAllowedTools(run);
  const previousModel = session.model();
  // A repository's command chooses the model (and so the cost) only in a folder someone trusted.
  const model = command.scope === 'user' || run.trusted ? command.file.model : undefined;
  if (model === undefined && command.file.model !== undefined)
    yield {
      type: 'notice',
      message: `The model of /${command.name} (${command.file.model}) is not applied: this folder is not trusted.`,
    };
  if (model !== undefined) session.setModel(model);
  try {
    let prompt = '';
    for (const part of expandTemplate(command.file.body, run.argument)) {
      if (part.kind === 'text') {
        prompt += part.text;
        continue;
      }
      const record = yield* session.runToolCall(
        { name: 'Bash', input: { command: part.command, description: `/${command.name}: ${part.command}` } },
        signal,
      );
      if (signal.aborted) throw new Error(`/${command.name} was interrupted before its prompt was sent`);
      prompt += shellOutput(part.command, record);
    }
    return yield* session.submit(prompt, signal);
  } finally {
    grant?.revoke();
    if (model !== undefined) session.setModel(previousModel);
  }
}

/** The command's `allowed-tools` in force, or notices of why not. */
async function* grantAllowedTools(run: CustomCommandRun): AsyncGenerator<LoopEvent, TemporaryGrant | undefined> {
  const { command } = run;
  const rules = command.file.allowedTools;
  if (rules.length === 0) return undefined;
  if (!run.trusted) {
    yield {
      type: 'notice',
      message: `The allowed-tools of /${command.name} (${rules.join(', ')}) are not applied: this folder is not trusted. Its calls are decided by the rules in force and by you.`,
    };
    return undefined;
  }
  const grant = run.permissions.allowForNow({ rules, file: command.path });
  for (const problem of grant.problems)
    yield { type: 'notice', message: `${command.path}: allowed-tools ${problem.rule}: ${problem.message}` };
  return grant;
}

/** What replaces a shell command in the prompt: its output, or why it did not run. */
function shellOutput(command: string, record: ToolCallRecord): string {
  const text = resultText(record).trim();
  if (record.outcome.status === 'success') return text;
  return `(the command \`${command}\` did not run: ${text})`;
}

function resultText(record: ToolCallRecord): string {
  const { content } = record.result;
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
