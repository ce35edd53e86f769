import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import { createHookGate } from './create-hook-gate.js';
import type { HookSession } from './hook-input.js';
import type { HookDiagnostic } from './hook-types.js';

let dir: string;
let diagnostics: HookDiagnostic[];
const session: HookSession = { sessionId: 'sess', cwd: tmpdir(), permissionMode: 'default' };
const signal = new AbortController().signal;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolplane-lifecycle-'));
  diagnostics = [];
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function script(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/bash\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

function plane(event: HookEventName, groups: { matcher?: string; commands: string[] }[]) {
  const configs: HookMatcherConfig[] = groups.map((group) => ({
    ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
    hooks: group.commands.map((command) => ({ type: 'command' as const, command })),
    source: 'userSettings' as const,
  }));
  return createHookGate({
    settings: new Map([[event, configs]]),
    projectDir: dir,
    env: { PATH: process.env['PATH'] },
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
}

describe('UserPromptSubmit', () => {
  it('adds plain stdout and additionalContext to the prompt', async () => {
    const text = await script('text.sh', `prompt=$(jq -r .prompt)\necho "prompt was: $prompt"`);
    const json = await script(
      'json.sh',
      `printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"today is Monday"}}'`,
    );
    const outcome = await plane('UserPromptSubmit', [{ commands: [text, json] }]).userPromptSubmit({
      session,
      signal,
      prompt: 'fix the bug',
    });
    expect(outcome).toEqual({ additionalContext: ['prompt was: fix the bug', 'today is Monday'] });
  });

  it('rejects the prompt on exit code 2 or decision block, and stops on continue:false', async () => {
    const exit2 = await script('exit2.sh', 'echo "prompt contains a secret" >&2; exit 2');
    expect(
      await plane('UserPromptSubmit', [{ commands: [exit2] }]).userPromptSubmit({ session, signal, prompt: 'x' }),
    ).toEqual({
      blocked: 'prompt contains a secret',
      additionalContext: [],
    });
    const stop = await script('stop.sh', `printf '{"continue":false,"stopReason":"quota reached"}'`);
    expect(
      await plane('UserPromptSubmit', [{ commands: [stop] }]).userPromptSubmit({ session, signal, prompt: 'x' }),
    ).toEqual({
      blocked: 'quota reached',
      additionalContext: [],
      stopReason: 'quota reached',
    });
  });

  it('resolves with nothing when no hook is configured', async () => {
    expect(await plane('Stop', []).userPromptSubmit({ session, signal, prompt: 'x' })).toEqual({
      additionalContext: [],
    });
  });
});

describe('Stop and SubagentStop', () => {
  it('keep the agent working on decision block or exit code 2', async () => {
    const block = await script(
      'block.sh',
      `active=$(jq -r .stop_hook_active)\nprintf '{"decision":"block","reason":"tests still fail (active=%s)"}' "$active"`,
    );
    expect(await plane('Stop', [{ commands: [block] }]).stop({ session, signal, stopHookActive: false })).toEqual({
      continueWith: 'tests still fail (active=false)',
    });
    const exit2 = await script('exit2.sh', 'echo "write the summary first" >&2; exit 2');
    expect(
      await plane('SubagentStop', [{ commands: [exit2] }]).subagentStop({ session, signal, stopHookActive: true }),
    ).toEqual({
      continueWith: 'write the summary first',
    });
  });

  it('let continue:false override a request to keep working', async () => {
    const block = await script('block.sh', `printf '{"decision":"block","reason":"more"}'`);
    const stop = await script('stop.sh', `printf '{"continue":false,"stopReason":"enough"}'`);
    expect(
      await plane('Stop', [{ commands: [block, stop] }]).stop({
        session,
        signal,
        stopHookActive: false,
        lastAssistantMessage: 'done',
      }),
    ).toEqual({
      stopReason: 'enough',
    });
  });

  it('let the agent stop when a hook crashes', async () => {
    const crash = await script('crash.sh', 'exit 1');
    expect(await plane('Stop', [{ commands: [crash] }]).stop({ session, signal, stopHookActive: false })).toEqual({});
    expect(diagnostics).toEqual([expect.objectContaining({ event: 'Stop', kind: 'error' })]);
  });
});

describe('SessionStart, SessionEnd and PreCompact', () => {
  it('SessionStart matches on the source and adds context', async () => {
    const resume = await script('resume.sh', 'echo "resumed: re-read TODO.md"');
    const startup = await script('startup.sh', `model=$(jq -r .model)\necho "fresh start on $model"`);
    const hooks = plane('SessionStart', [
      { matcher: 'resume', commands: [resume] },
      { matcher: 'startup', commands: [startup] },
    ]);
    expect(await hooks.sessionStart({ session, signal, source: 'startup', model: 'm-1' })).toEqual({
      additionalContext: ['fresh start on m-1'],
    });
    expect(await hooks.sessionStart({ session, signal, source: 'resume' })).toEqual({
      additionalContext: ['resumed: re-read TODO.md'],
    });
  });

  it('SessionStart and SessionEnd show exit-2 stderr to the person only', async () => {
    const exit2 = await script('exit2.sh', 'echo "cleanup failed" >&2; exit 2');
    await plane('SessionEnd', [{ commands: [exit2] }]).sessionEnd({ session, signal, reason: 'clear' });
    expect(
      await plane('SessionStart', [{ commands: [exit2] }]).sessionStart({ session, signal, source: 'clear' }),
    ).toEqual({ additionalContext: [] });
    expect(diagnostics.map((diagnostic) => [diagnostic.event, diagnostic.kind, diagnostic.message])).toEqual([
      ['SessionEnd', 'stderr', 'cleanup failed'],
      ['SessionStart', 'stderr', 'cleanup failed'],
    ]);
  });

  it('SessionEnd hooks receive the reason', async () => {
    const record = await script('record.sh', `jq -r .reason > "${dir}/reason.txt"`);
    await plane('SessionEnd', [{ matcher: 'logout', commands: [record] }]).sessionEnd({
      session,
      signal,
      reason: 'other',
    });
    expect(existsSync(join(dir, 'reason.txt'))).toBe(false);
    await plane('SessionEnd', [{ matcher: 'logout', commands: [record] }]).sessionEnd({
      session,
      signal,
      reason: 'logout',
    });
    expect((await readFile(join(dir, 'reason.txt'), 'utf8')).trim()).toBe('logout');
  });

  it('PreCompact blocks compaction on exit code 2 and matches on the trigger', async () => {
    const exit2 = await script('exit2.sh', 'echo "not during a release" >&2; exit 2');
    const hooks = plane('PreCompact', [{ matcher: 'auto', commands: [exit2] }]);
    expect(await hooks.preCompact({ session, signal, trigger: 'auto' })).toEqual({ blocked: 'not during a release' });
    expect(await hooks.preCompact({ session, signal, trigger: 'manual', customInstructions: 'keep todos' })).toEqual(
      {},
    );
  });
});

describe('SubagentStart and PostCompact', () => {
  it("SubagentStart matches on the agent type, sees the agent's id and type, and gives context for its brief", async () => {
    const seen = join(dir, 'seen.json');
    const brief = await script(
      'brief.sh',
      `cat > ${seen}\nprintf '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"use the rubric"}}'`,
    );
    const other = await script('other.sh', `touch ${join(dir, 'other-ran')}`);
    const hooks = plane('SubagentStart', [
      { matcher: 'reviewer', commands: [brief] },
      { matcher: 'explorer', commands: [other] },
    ]);
    const outcome = await hooks.subagentStart({ session, signal, agentId: 'agent-1', agentType: 'reviewer' });
    expect(outcome).toEqual({ additionalContext: ['use the rubric'] });
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_id: 'agent-1',
      agent_type: 'reviewer',
    });
    expect(existsSync(join(dir, 'other-ran'))).toBe(false);
    // Plain stdout is not context here, and a crash gives none.
    const plain = await script('plain.sh', 'echo just talking');
    expect(
      await plane('SubagentStart', [{ commands: [plain] }]).subagentStart({
        session,
        signal,
        agentId: 'a',
        agentType: 'x',
      }),
    ).toEqual({
      additionalContext: [],
    });
  });

  it('PostCompact sees the trigger and the summary, and matches on the trigger', async () => {
    const seen = join(dir, 'post.json');
    const hook = await script('post.sh', `cat > ${seen}`);
    await plane('PostCompact', [{ matcher: 'manual', commands: [hook] }]).postCompact({
      session,
      signal,
      trigger: 'auto',
      compactSummary: 'ignored',
    });
    expect(existsSync(seen)).toBe(false);
    await plane('PostCompact', [{ matcher: 'manual', commands: [hook] }]).postCompact({
      session,
      signal,
      trigger: 'manual',
      compactSummary: 'we fixed the parser',
    });
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'PostCompact',
      trigger: 'manual',
      compact_summary: 'we fixed the parser',
    });
  });
});

describe('StopFailure, Notification, InstructionsLoaded and ConfigChange', () => {
  /** A hook that writes its input to `name.json`, and one under another matcher that must not start. */
  async function recorded(event: HookEventName, matching: string, other: string) {
    const seen = join(dir, `${event}.json`);
    const record = await script(`${event}.sh`, `cat > ${seen}\necho "ignored" >&2\nexit 2`);
    const wrong = await script(`${event}-other.sh`, `touch ${join(dir, `${event}-other-ran`)}`);
    const hooks = plane(event, [
      { matcher: matching, commands: [record] },
      { matcher: other, commands: [wrong] },
    ]);
    return {
      hooks,
      input: async () => JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>,
      otherRan: () => existsSync(join(dir, `${event}-other-ran`)),
    };
  }

  it('StopFailure sees error, error_details and the last assistant message, matched on error; its exit code is ignored', async () => {
    const { hooks, input, otherRan } = await recorded('StopFailure', 'rate_limit|server_error', 'billing_error');
    await hooks.stopFailure({
      session,
      signal,
      error: 'rate_limit',
      errorDetails: 'anthropic: HTTP 429 (after 3 attempts)',
      lastAssistantMessage: 'Reading the parser',
    });
    expect(await input()).toEqual({
      session_id: 'sess',
      transcript_path: '',
      cwd: session.cwd,
      permission_mode: 'default',
      hook_event_name: 'StopFailure',
      error: 'rate_limit',
      error_details: 'anthropic: HTTP 429 (after 3 attempts)',
      last_assistant_message: 'Reading the parser',
    });
    expect(otherRan()).toBe(false);
    expect(diagnostics).toEqual([]);
  });

  it('Notification sees message, title and notification_type, matched on the type; exit code 2 is shown to the person', async () => {
    const { hooks, input, otherRan } = await recorded('Notification', 'permission_prompt', 'idle_prompt');
    await hooks.notification({
      session,
      signal,
      notificationType: 'permission_prompt',
      message: 'toolplane needs your permission to use Bash',
      title: 'Permission needed',
    });
    expect(await input()).toMatchObject({
      hook_event_name: 'Notification',
      message: 'toolplane needs your permission to use Bash',
      title: 'Permission needed',
      notification_type: 'permission_prompt',
    });
    expect(otherRan()).toBe(false);
    expect(diagnostics.map((diagnostic) => [diagnostic.kind, diagnostic.message])).toEqual([['stderr', 'ignored']]);
  });

  it('InstructionsLoaded sees file_path, memory_type and load_reason, matched on the reason', async () => {
    const { hooks, input, otherRan } = await recorded('InstructionsLoaded', 'session_start', 'compact');
    await hooks.instructionsLoaded({
      session,
      signal,
      filePath: '/work/project/CLAUDE.md',
      memoryType: 'Project',
      loadReason: 'session_start',
    });
    expect(await input()).toMatchObject({
      hook_event_name: 'InstructionsLoaded',
      file_path: '/work/project/CLAUDE.md',
      memory_type: 'Project',
      load_reason: 'session_start',
    });
    expect(otherRan()).toBe(false);
    expect(diagnostics).toEqual([]);
  });

  it('ConfigChange sees source and file_path, matched on the source; exit code 2 or decision block is its blocked reason', async () => {
    const { hooks, input, otherRan } = await recorded('ConfigChange', 'local_settings', 'user_settings');
    const filePath = '/work/project/.claude/settings.local.json';
    expect(await hooks.configChange({ session, signal, source: 'local_settings', filePath })).toEqual({
      blocked: 'ignored',
    });
    expect(await input()).toMatchObject({
      hook_event_name: 'ConfigChange',
      source: 'local_settings',
      file_path: filePath,
    });
    expect(otherRan()).toBe(false);
    const block = await script('block.sh', `printf '{"decision":"block","reason":"settings are frozen"}'`);
    const blocking = plane('ConfigChange', [{ matcher: 'project_settings', commands: [block] }]);
    expect(await blocking.configChange({ session, signal, source: 'project_settings', filePath })).toEqual({
      blocked: 'settings are frozen',
    });
    expect(await blocking.configChange({ session, signal, source: 'user_settings', filePath })).toEqual({});
  });
});
