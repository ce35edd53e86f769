import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PERMISSION_MODES, type PermissionMode, type PermissionRuleEntry } from '../../contract/permission.js';
import { explainDecision, type ExplainedDecision } from '../../permissions/explain-decision.js';
import { parseSettingsText } from '../../settings/parse-settings-text.js';
import { configDirectory, createSessionStore } from '../../session/index.js';
import { UsageError } from '../args.js';
import type { CommandIo } from '../headless.js';
import { parseCommandOperands } from './command-args.js';
import { readRecordedCalls, type RecordedCall, type RecordedDecision } from './replay-calls.js';

const USAGE = 'Usage: toolplane permissions replay [TRANSCRIPT…] --settings NEW [--json]';

/** A call whose decision would change under the candidate policy. */
type Change = { readonly call: RecordedCall; readonly now: ExplainedDecision };

/** What the recorded decision was, as the candidate's allow/ask/deny (a person's is an ask). */
function asBehavior(recorded: RecordedDecision): 'allow' | 'deny' | 'ask' | undefined {
  switch (recorded.kind) {
    case 'allow':
    case 'deny':
      return recorded.kind;
    case 'person':
      return 'ask';
    case 'hook':
      return recorded.answer === 'allowed' ? 'allow' : 'deny';
    case 'unknown':
      return recorded.ran ? 'allow' : undefined;
  }
}

function describeRecorded(recorded: RecordedDecision): string {
  switch (recorded.kind) {
    case 'allow':
      return `allowed (${recorded.why})`;
    case 'deny':
      return `denied (${recorded.why})`;
    case 'person':
      return `asked a person, who ${recorded.answer} it`;
    case 'hook':
      return `${recorded.answer} by hook ${recorded.hook} (hooks are not run again)`;
    case 'unknown':
      return recorded.ran ? 'ran (no ledger: who allowed it is not recorded)' : 'refused (no ledger)';
  }
}

/** The candidate policy alone: its rules, anchored at each call's folder, and its default mode. */
async function candidate(path: string) {
  const text = await readFile(path, 'utf8');
  const settings = parseSettingsText(text, path).settings;
  const mode = settings.permissions?.defaultMode;
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode))
    throw new UsageError(`${path}: defaultMode ${mode} is not a permission mode`);
  return {
    mode: (mode ?? 'default') as PermissionMode,
    rulesAt: (root: string): PermissionRuleEntry[] =>
      (['allow', 'deny', 'ask'] as const).flatMap((behavior) =>
        (settings.permissions?.[behavior] ?? []).map((rule) => ({
          rule,
          behavior,
          source: 'cli' as const,
          file: path,
          root,
        })),
      ),
  };
}

/**
 * `toolplane permissions replay [TRANSCRIPT…] --settings NEW`: decides every call of past sessions
 * again under a candidate policy (the permissions of NEW alone, each call's paths resolved against
 * the folder it ran in) and lists the calls whose decision would change. It runs no hook, tool or
 * command: a call a hook or a person decided is labelled so. Without transcripts, this project's
 * toolplane sessions are replayed; a Claude Code transcript (`~/.claude/projects/*\/*.jsonl`) may be given.
 */
export async function runPermissionsReplay(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, operands } = parseCommandOperands(argv, { settings: { type: 'string' }, json: { type: 'boolean' } });
  if (values.settings === undefined) throw new UsageError(`--settings NEW is required.\n${USAGE}`);
  const policy = await candidate(resolve(io.cwd, values.settings));
  const files =
    operands.length > 0
      ? operands.map((file) => resolve(io.cwd, file))
      : (await createSessionStore({ configDir: configDirectory(io.env, io.homeDir), cwd: io.cwd }).list()).map(
          (session) => session.path,
        );
  const calls = (await Promise.all(files.map((file) => readRecordedCalls(file)))).flat();
  const changes: Change[] = [];
  for (const call of calls) {
    const now = await explainDecision({
      toolName: call.tool,
      input: call.input,
      rules: policy.rulesAt(call.cwd || io.cwd),
      mode: policy.mode,
      cwd: call.cwd || io.cwd,
      homeDir: io.homeDir,
    });
    if (asBehavior(call.recorded) !== now.decision) changes.push({ call, now });
  }
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({
        calls: calls.length,
        changes: changes.map(({ call, now }) => ({ ...call, now: { decision: now.decision, reason: now.reason } })),
      })}\n`,
    );
    return 0;
  }
  for (const { call, now } of changes) {
    const input = JSON.stringify(call.input);
    io.stdout.write(
      `${call.tool} ${input.length > 100 ? `${input.slice(0, 100)}…` : input}\n    was: ${describeRecorded(call.recorded)}\n    now: ${now.decision}: ${now.reason}\n    in session ${call.sessionId || '?'} (${call.file})\n`,
    );
  }
  io.stdout.write(`${calls.length} calls decided again, ${changes.length} would change\n`);
  return 0;
}
