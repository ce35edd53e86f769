import { describe, expect, it } from 'vitest';
import type { ToolCallRecord } from '../../execution/types.js';
import type { HostToolCall, LoopEvent, QueryResult } from '../../session/index.js';
import type { CustomCommand } from './load-custom-commands.js';
import { runCustomCommand, type CustomCommandRun } from './run-custom-command.js';

/** A session that records what it is asked, answers shell calls from `outputs` and ends every turn at once. */
function fakeSession(outputs: Readonly<Record<string, ToolCallRecord['outcome']>>) {
  const seen = { prompts: [] as string[], calls: [] as HostToolCall[], models: [] as string[] };
  let model = 'first-model';
  const session: CustomCommandRun['session'] = {
    model: () => model,
    setModel: (next) => {
      model = next ?? 'first-model';
    },
    async *runToolCall(call) {
      seen.calls.push(call);
      const command = String(call.input['command']);
      const outcome = outputs[command] ?? { status: 'success', isError: false };
      const text = outcome.status === 'success' ? `output of ${command}` : `refused: ${command}`;
      const record: ToolCallRecord = {
        toolUseId: 't',
        toolName: 'Bash',
        input: call.input,
        outcome,
        result: { type: 'tool_result', tool_use_id: 't', content: text },
      };
      return record;
    },
    async *submit(prompt) {
      seen.prompts.push(prompt);
      seen.models.push(model);
      return { status: 'success' } as unknown as QueryResult;
    },
  };
  return { session, seen };
}

function grants() {
  const log: string[] = [];
  const permissions: CustomCommandRun['permissions'] = {
    allowForNow: ({ rules, file }) => {
      log.push(`grant ${rules.join(' ')} from ${file}`);
      return { problems: [], revoke: () => log.push('revoke') };
    },
  };
  return { permissions, log };
}

const command = (body: string, extra: Partial<CustomCommand['file']> = {}): CustomCommand => ({
  name: 'ship',
  scope: 'project',
  path: '/p/.toolplane/commands/ship.md',
  file: { allowedTools: [], body, ...extra },
});

async function run(options: CustomCommandRun): Promise<LoopEvent[]> {
  const events: LoopEvent[] = [];
  const generator = runCustomCommand(options);
  for (let step = await generator.next(); !step.done; step = await generator.next()) events.push(step.value);
  return events;
}

describe('runCustomCommand', () => {
  it('runs the shell lines as Bash calls and sends the prompt with their output or why they did not run', async () => {
    const { session, seen } = fakeSession({
      'rm -rf x': { status: 'denied', message: 'no', reason: { kind: 'rule', rule: 'Bash(rm:*)', source: 'cli' } },
    });
    const { permissions } = grants();
    await run({
      session,
      permissions,
      trusted: true,
      command: command('Ship $1.\n!`git status`\n!`rm -rf x`'),
      argument: 'v2',
      signal: new AbortController().signal,
    });
    expect(seen.calls.map((call) => call.input['command'])).toEqual(['git status', 'rm -rf x']);
    expect(seen.prompts).toEqual([
      'Ship v2.\noutput of git status\n(the command `rm -rf x` did not run: refused: rm -rf x)',
    ]);
  });

  it('grants allowed-tools for the turn only in a trusted folder, and uses the command model for its turn only', async () => {
    const { session, seen } = fakeSession({});
    const trusted = grants();
    const withTools = command('Go.', { allowedTools: ['Bash(git add:*)'], model: 'small-model' });
    await run({
      session,
      permissions: trusted.permissions,
      trusted: true,
      command: withTools,
      argument: '',
      signal: new AbortController().signal,
    });
    expect(trusted.log).toEqual(['grant Bash(git add:*) from /p/.toolplane/commands/ship.md', 'revoke']);
    expect(seen.models).toEqual(['small-model']);
    expect(session.model()).toBe('first-model');
    const untrusted = grants();
    const events = await run({
      session,
      permissions: untrusted.permissions,
      trusted: false,
      command: withTools,
      argument: '',
      signal: new AbortController().signal,
    });
    expect(untrusted.log).toEqual([]);
    // Untrusted, the project's command neither grants tools nor chooses the model.
    expect(events).toEqual([
      { type: 'notice', message: expect.stringContaining('allowed-tools of /ship') as string },
      { type: 'notice', message: 'The model of /ship (small-model) is not applied: this folder is not trusted.' },
    ]);
    expect(seen.models).toEqual(['small-model', 'first-model']);
    // The person's own command keeps its model anywhere.
    await run({
      session,
      permissions: untrusted.permissions,
      trusted: false,
      command: { ...withTools, scope: 'user' },
      argument: '',
      signal: new AbortController().signal,
    });
    expect(seen.models).toEqual(['small-model', 'first-model', 'small-model']);
  });

  it('revokes the grant and sends nothing when interrupted during a shell line', async () => {
    const { session, seen } = fakeSession({});
    const { permissions, log } = grants();
    const controller = new AbortController();
    controller.abort();
    await expect(
      run({
        session,
        permissions,
        trusted: true,
        command: command('!`git status`', { allowedTools: ['Bash'] }),
        argument: '',
        signal: controller.signal,
      }),
    ).rejects.toThrow(/interrupted/);
    expect(seen.prompts).toEqual([]);
    expect(log).toEqual(['grant Bash from /p/.toolplane/commands/ship.md', 'revoke']);
  });
});
