import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { CallSubject } from '../contract/gates.js';
import type { CommandHookConfig, HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import type { PermissionMode } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { createHookGate, type CreateHookGateOptions } from './create-hook-gate.js';
import type { HookDiagnostic } from './hook-types.js';

let dir: string;
let project: string;
let diagnostics: HookDiagnostic[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolplane-hooks-'));
  project = join(dir, 'project');
  await mkdir(project);
  diagnostics = [];
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bash = defineTool({
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: 'Runs a command.',
  call: () => Promise.resolve('ok'),
});
const read = defineTool({
  name: 'Read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: 'Reads a file.',
  call: () => Promise.resolve('ok'),
});
const mcpTool = defineTool({
  name: 'mcp__docs__search',
  inputSchema: z.object({ q: z.string() }),
  prompt: 'Searches docs.',
  origin: 'external',
  external: { server: 'docs', tool: 'search' },
  call: () => Promise.resolve({ hits: 3 }),
});

function subject(
  input: unknown,
  options: { tool?: typeof bash | typeof read | typeof mcpTool; mode?: PermissionMode } = {},
): CallSubject {
  return {
    tool: options.tool ?? bash,
    input,
    toolUseId: 'toolu_01',
    context: {
      toolUseId: 'toolu_01',
      signal: new AbortController().signal,
      cwd: project,
      sessionId: 'session-1',
      agentId: 'main',
      permissionMode: options.mode ?? 'default',
      services: createServices(),
    },
  };
}

/** Writes an executable bash script into the temp folder and returns its path. */
async function script(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/bash\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

function hooks(
  event: HookEventName,
  groups: readonly {
    matcher?: string;
    hooks: readonly (CommandHookConfig | string)[];
    source?: HookMatcherConfig['source'];
  }[],
): Map<HookEventName, HookMatcherConfig[]> {
  return new Map([
    [
      event,
      groups.map((group) => ({
        ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
        source: group.source ?? 'projectSettings',
        hooks: group.hooks.map((hook) =>
          typeof hook === 'string' ? { type: 'command' as const, command: hook } : hook,
        ),
      })),
    ],
  ]);
}

function gate(settings: Map<HookEventName, HookMatcherConfig[]>, extra: Partial<CreateHookGateOptions> = {}) {
  return createHookGate({
    settings,
    projectDir: project,
    env: {
      PATH: process.env['PATH'],
      HOME: dir,
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      OPENAI_API_KEY: 'sk-openai',
      KEEP_ME: 'kept',
    },
    transcriptPath: (sessionId) => join(dir, `${sessionId}.jsonl`),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    ...extra,
  });
}

const signal = new AbortController().signal;
const allowJson = (extra = '') =>
  `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"${extra}}}'`;

describe('PreToolUse command hooks', () => {
  it('blocks with exit code 2 and sends stderr to the model, even when stdout says allow', async () => {
    const hook = await script(
      'block.sh',
      `${allowJson()}\necho "rm is not allowed here; use trash instead" >&2\nexit 2`,
    );
    const outcome = await gate(hooks('PreToolUse', [{ matcher: 'Bash', hooks: [hook] }])).preToolUse(
      subject({ command: 'rm -rf x' }),
      signal,
    );
    expect(outcome).toEqual({ decision: 'deny', hook, reason: 'rm is not allowed here; use trash instead' });
  });

  it('passes the call as stdin JSON with absolute file paths', async () => {
    const hook = await script('record.sh', `cat > "${dir}/stdin.json"`);
    await gate(hooks('PreToolUse', [{ hooks: [hook] }])).preToolUse(
      subject({ file_path: 'src/a.ts' }, { tool: read }),
      signal,
    );
    expect(JSON.parse(await readFile(join(dir, 'stdin.json'), 'utf8'))).toEqual({
      session_id: 'session-1',
      transcript_path: join(dir, 'session-1.jsonl'),
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(project, 'src/a.ts') },
      tool_use_id: 'toolu_01',
    });
  });

  it('rewrites the input of a call it allows', async () => {
    const hook = await script(
      'rewrite.sh',
      allowJson(',"permissionDecisionReason":"made safe","updatedInput":{"command":"echo safe"}'),
    );
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [hook] }])).preToolUse(
      subject({ command: 'echo $SECRET' }),
      signal,
    );
    expect(outcome).toEqual({ decision: 'allow', hook, reason: 'made safe', updatedInput: { command: 'echo safe' } });
  });

  it("denies in bypassPermissions mode: the hook's deny holds whatever the mode", async () => {
    const hook = await script(
      'deny.sh',
      `mode=$(jq -r .permission_mode)\nprintf '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no deploys (mode %s)"}}' "$mode"`,
    );
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [hook] }])).preToolUse(
      subject({ command: 'deploy' }, { mode: 'bypassPermissions' }),
      signal,
    );
    expect(outcome).toMatchObject({ decision: 'deny', reason: 'no deploys (mode bypassPermissions)' });
  });

  it('lets valid JSON decide on a non-blocking exit code, and maps the deprecated decision field', async () => {
    const exitOne = await script('exit1.sh', `printf '{"hookSpecificOutput":{"permissionDecision":"ask"}}'\nexit 1`);
    expect(
      await gate(hooks('PreToolUse', [{ hooks: [exitOne] }])).preToolUse(subject({ command: 'x' }), signal),
    ).toMatchObject({ decision: 'ask' });
    const legacy = await script('legacy.sh', `printf '{"decision":"block","reason":"legacy says no"}'`);
    expect(
      await gate(hooks('PreToolUse', [{ hooks: [legacy] }])).preToolUse(subject({ command: 'x' }), signal),
    ).toMatchObject({
      decision: 'deny',
      reason: 'legacy says no',
    });
  });

  it('stops the turn and does not run the call on continue:false', async () => {
    const hook = await script(
      'stop.sh',
      `printf '{"continue":false,"stopReason":"budget exhausted","hookSpecificOutput":{"permissionDecision":"allow"}}'`,
    );
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [hook] }])).preToolUse(subject({ command: 'x' }), signal);
    expect(outcome).toMatchObject({ decision: 'deny', stopReason: 'budget exhausted', reason: 'budget exhausted' });
  });

  it('times out, kills the whole process group, and does not allow anything', async () => {
    const slow = await script('slow.sh', `sleep 30 &\necho $! > "${dir}/child.pid"\n${allowJson()}\nwait`);
    const allow = await script('allow.sh', allowJson());
    const outcome = await gate(
      hooks('PreToolUse', [{ hooks: [{ type: 'command', command: slow, timeout: 2 }, allow] }]),
    ).preToolUse(subject({ command: 'x' }), signal);
    expect(outcome).toEqual({});
    expect(diagnostics).toEqual([expect.objectContaining({ event: 'PreToolUse', hook: slow, kind: 'timeout' })]);
    const child = Number(await readFile(join(dir, 'child.pid'), 'utf8'));
    await expect.poll(() => isAlive(child), { timeout: 10_000 }).toBe(false);
  });

  it('denies when a fail-closed hook times out', async () => {
    const slow = await script('slow.sh', 'sleep 30');
    const outcome = await gate(
      hooks('PreToolUse', [{ hooks: [{ type: 'command', command: slow, timeout: 0.3, failClosed: true }] }]),
    ).preToolUse(subject({ command: 'x' }), signal);
    expect(outcome).toMatchObject({ decision: 'deny', reason: expect.stringContaining('timed out') as string });
  });

  it('reports a crash as a non-blocking error that allows nothing', async () => {
    const crash = await script('crash.sh', `echo "TypeError: undefined is not a function" >&2\nexit 1`);
    const segv = await script('segv.sh', 'kill -SEGV $$');
    const missing = join(dir, 'does-not-exist.sh');
    const allow = await script('allow.sh', allowJson());
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [crash, segv, missing, allow] }])).preToolUse(
      subject({ command: 'x' }),
      signal,
    );
    expect(outcome).toEqual({});
    expect(diagnostics.map((diagnostic) => [diagnostic.hook, diagnostic.kind, diagnostic.message])).toEqual([
      // At start, before any call: the script is not there.
      [missing, 'error', `its script ${missing} does not exist; it cannot run, so it protects nothing`],
      [crash, 'error', 'exited with code 1: TypeError: undefined is not a function'],
      [segv, 'error', 'was killed by SIGSEGV'],
      [
        missing,
        'error',
        expect.stringContaining('exited with code 127 (its command or script was not found)') as string,
      ],
    ]);
  });

  it('names a hook whose script cannot run at start and on each call; only failClosed makes it block', async () => {
    const hooksDir = join(project, '.claude', 'hooks');
    await mkdir(hooksDir, { recursive: true });
    const notExecutable = join(hooksDir, 'plain.sh');
    await writeFile(notExecutable, '#!/bin/sh\nexit 0\n');
    const published = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh';
    const viaInterpreter = `bash ${notExecutable}`;
    const open = gate(hooks('PreToolUse', [{ hooks: [published, notExecutable, viaInterpreter] }]));
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      `its script ${join(hooksDir, 'guard.sh')} does not exist; it cannot run, so it protects nothing`,
      expect.stringContaining(`its script ${notExecutable} is not executable`) as string,
    ]);
    diagnostics.length = 0;
    expect(await open.preToolUse(subject({ command: 'x' }), signal)).toEqual({});
    expect(diagnostics.map((diagnostic) => [diagnostic.hook, diagnostic.message])).toEqual([
      [published, expect.stringContaining('exited with code 127 (its command or script was not found)') as string],
      [notExecutable, expect.stringContaining('exited with code 126 (its script could not be run') as string],
    ]);
    const closed = gate(hooks('PreToolUse', [{ hooks: [{ type: 'command', command: published, failClosed: true }] }]));
    expect(await closed.preToolUse(subject({ command: 'x' }), signal)).toMatchObject({ decision: 'deny' });
  });

  it('reports garbage on stdout as an error and ignores plain text', async () => {
    const garbage = await script('garbage.sh', `printf '{"hookSpecificOutput": {permissionDecision: allow'`);
    const wrongShape = await script('shape.sh', `printf '{"hookSpecificOutput":{"permissionDecision":"yes"}}'`);
    const text = await script('text.sh', 'echo "looks fine to me"');
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [garbage, wrongShape, text] }])).preToolUse(
      subject({ command: 'x' }),
      signal,
    );
    expect(outcome).toEqual({});
    expect(diagnostics.map((diagnostic) => diagnostic.hook)).toEqual([garbage, wrongShape]);
    expect(diagnostics[0]?.message).toContain('not valid JSON');
  });

  it('does not run a hook whose matcher does not match, and answers synchronously', async () => {
    const hook = await script('marker.sh', `touch "${dir}/ran"`);
    const outcome = gate(hooks('PreToolUse', [{ matcher: 'Edit|Write', hooks: [hook] }])).preToolUse(
      subject({ command: 'x' }),
      signal,
    );
    expect(outcome).toEqual({});
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('runs the hooks of one event in parallel and the most restrictive decision wins', async () => {
    // Each hook waits for the other's marker: run one after the other, the first would time out.
    const wait = (mine: string, other: string, decision: string) =>
      `touch "${dir}/${mine}"\nfor i in $(seq 1 200); do [ -e "${dir}/${other}" ] && break; sleep 0.05; done\n` +
      `[ -e "${dir}/${other}" ] || exit 1\nprintf '{"hookSpecificOutput":{"permissionDecision":"${decision}","permissionDecisionReason":"${mine}"}}'`;
    const first = await script('first.sh', wait('a', 'b', 'allow'));
    const second = await script('second.sh', wait('b', 'a', 'deny'));
    const ask = await script(
      'ask.sh',
      `printf '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"c"}}'`,
    );
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [first, second, ask] }])).preToolUse(
      subject({ command: 'x' }),
      signal,
    );
    expect(outcome).toEqual({ decision: 'deny', hook: second, reason: 'b' });
    expect(diagnostics).toEqual([]);
    const askWins = await gate(
      hooks('PreToolUse', [{ hooks: [await script('allow.sh', allowJson()), ask] }]),
    ).preToolUse(subject({ command: 'x' }), signal);
    expect(askWins).toMatchObject({ decision: 'ask', reason: 'c' });
  });

  it('collects additional context from every hook', async () => {
    const one = await script('one.sh', `printf '{"hookSpecificOutput":{"additionalContext":"branch is main"}}'`);
    const two = await script(
      'two.sh',
      `printf '{"hookSpecificOutput":{"permissionDecision":"allow","additionalContext":"CI is green"}}'`,
    );
    const outcome = await gate(hooks('PreToolUse', [{ hooks: [one, two] }])).preToolUse(
      subject({ command: 'x' }),
      signal,
    );
    expect(outcome).toMatchObject({ decision: 'allow', additionalContext: ['branch is main', 'CI is green'] });
  });

  it('hides model-provider credentials from hooks and gives them the project folder', async () => {
    const hook = await script(
      'env.sh',
      `echo "anthropic=\${ANTHROPIC_API_KEY:-absent} openai=\${OPENAI_API_KEY:-absent} keep=$KEEP_ME project=$TOOLPLANE_PROJECT_DIR claude=$CLAUDE_PROJECT_DIR" > "${dir}/env.txt"`,
    );
    await gate(hooks('PreToolUse', [{ hooks: [hook] }])).preToolUse(subject({ command: 'x' }), signal);
    expect((await readFile(join(dir, 'env.txt'), 'utf8')).trim()).toBe(
      `anthropic=absent openai=absent keep=kept project=${project} claude=${project}`,
    );
  });

  it('never pastes a value into the command string', async () => {
    const evilProject = join(dir, 'p$(touch pwned-dir);');
    await mkdir(evilProject);
    const hook = await script(
      'quiet.sh',
      `cat > "${dir}/stdin.json"; echo "$TOOLPLANE_PROJECT_DIR" > "${dir}/project.txt"`,
    );
    const input = { command: `"; touch ${dir}/pwned-input; # $(touch ${dir}/pwned-sub) \`touch ${dir}/pwned-tick\`` };
    await createHookGate({
      settings: hooks('PreToolUse', [{ hooks: [hook] }]),
      projectDir: evilProject,
      env: { PATH: process.env['PATH'] },
    }).preToolUse(subject(input), signal);
    expect(JSON.parse(await readFile(join(dir, 'stdin.json'), 'utf8'))).toMatchObject({ tool_input: input });
    expect((await readFile(join(dir, 'project.txt'), 'utf8')).trim()).toBe(evilProject);
    for (const name of ['pwned-dir', 'pwned-input', 'pwned-sub', 'pwned-tick']) {
      expect(existsSync(join(dir, name))).toBe(false);
      expect(existsSync(join(project, name))).toBe(false);
    }
  });

  it('runs an identical command from two sources once', async () => {
    const hook = await script('count.sh', `echo run >> "${dir}/count.txt"`);
    await gate(hooks('PreToolUse', [{ hooks: [hook] }, { hooks: [hook], source: 'userSettings' }])).preToolUse(
      subject({ command: 'x' }),
      signal,
    );
    expect(await readFile(join(dir, 'count.txt'), 'utf8')).toBe('run\n');
  });

  it('kills running hooks and denies when the signal aborts', async () => {
    const slow = await script('slow.sh', `sleep 30 &\necho $! > "${dir}/child.pid"\nwait`);
    const controller = new AbortController();
    const pending = gate(hooks('PreToolUse', [{ hooks: [slow] }])).preToolUse(
      subject({ command: 'x' }),
      controller.signal,
    );
    await expect.poll(() => existsSync(join(dir, 'child.pid')), { timeout: 10_000 }).toBe(true);
    controller.abort();
    expect(await pending).toMatchObject({ decision: 'deny' });
    const child = Number(await readFile(join(dir, 'child.pid'), 'utf8'));
    await expect.poll(() => isAlive(child), { timeout: 10_000 }).toBe(false);
  });

  it('reports an invalid matcher', () => {
    const plane = gate(hooks('PreToolUse', [{ matcher: 'Bash(', hooks: ['true'] }]));
    expect(diagnostics).toEqual([
      expect.objectContaining({
        kind: 'error',
        message: expect.stringContaining('not a valid regular expression') as string,
      }),
    ]);
    expect(plane.hasHooks('PreToolUse')).toBe(true);
    expect(plane.hasHooks('Stop')).toBe(false);
  });
});

describe('PostToolUse and PostToolUseFailure command hooks', () => {
  it('adds context after a call and sees the raw response', async () => {
    const hook = await script(
      'post.sh',
      `input=$(cat)\nhits=$(echo "$input" | jq -r .tool_response.hits)\nprintf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"%s hits logged"}}' "$hits"`,
    );
    const outcome = await gate(hooks('PostToolUse', [{ hooks: [hook] }])).postToolUse(
      { ...subject({ q: 'x' }, { tool: mcpTool }), output: { hits: 3 } },
      signal,
    );
    expect(outcome).toEqual({ additionalContext: ['3 hits logged'] });
  });

  it("replaces an external tool's output, but not a built-in's", async () => {
    const hook = await script(
      'replace.sh',
      `printf '{"hookSpecificOutput":{"updatedMCPToolOutput":{"hits":0,"redacted":true}}}'`,
    );
    const plane = gate(hooks('PostToolUse', [{ hooks: [hook] }]));
    expect(await plane.postToolUse({ ...subject({ q: 'x' }, { tool: mcpTool }), output: { hits: 3 } }, signal)).toEqual(
      {
        updatedOutput: { hits: 0, redacted: true },
      },
    );
    expect(await plane.postToolUse({ ...subject({ command: 'x' }), output: 'out' }, signal)).toEqual({});
    expect(diagnostics).toEqual([expect.objectContaining({ kind: 'ignored-output' })]);
  });

  it('sends a block reason or exit-2 stderr to the model, and honours continue:false', async () => {
    const block = await script(
      'block.sh',
      `printf '{"decision":"block","reason":"tests now fail","continue":false,"stopReason":"stop"}'`,
    );
    const exit2 = await script('exit2.sh', 'echo "lint errors in a.ts" >&2; exit 2');
    const outcome = await gate(hooks('PostToolUse', [{ hooks: [block, exit2] }])).postToolUse(
      { ...subject({ command: 'x' }), output: 'out' },
      signal,
    );
    expect(outcome).toEqual({ blockReason: 'tests now fail\nlint errors in a.ts', stopReason: 'stop' });
  });

  it('gives PostToolUseFailure hooks the error and returns their context', async () => {
    const hook = await script(
      'fail.sh',
      `err=$(jq -r .error)\nprintf '{"hookSpecificOutput":{"additionalContext":"seen: %s"}}' "$err"\n`,
    );
    const exit2 = await script('exit2.sh', 'echo "try --force" >&2; exit 2');
    const outcome = await gate(hooks('PostToolUseFailure', [{ hooks: [hook, exit2] }])).postToolUseFailure(
      { ...subject({ command: 'x' }), error: 'exit code 1' },
      signal,
    );
    expect(outcome).toEqual({ additionalContext: ['seen: exit code 1', 'try --force'] });
  });
});

describe('PermissionRequest command hooks', () => {
  const ask = {
    behavior: 'ask' as const,
    message: 'Run x?',
    reason: { kind: 'default' as const, message: 'no rule' },
    suggestions: [{ rule: 'Bash(x)', behavior: 'allow' as const, destination: 'localSettings' as const }],
  };

  it('allows with a rewritten input, seeing the suggestions', async () => {
    const hook = await script(
      'allow.sh',
      `rule=$(jq -r '.permission_suggestions[0].rules[0]')\nprintf '{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"command":"%s"}}}}' "$rule"`,
    );
    const outcome = await gate(hooks('PermissionRequest', [{ hooks: [hook] }])).permissionRequest(
      { ...subject({ command: 'x' }), decision: ask },
      signal,
    );
    expect(outcome).toEqual({ decision: 'allow', hook, updatedInput: { command: 'Bash(x)' } });
  });

  it('passes on the rules an allowing hook asks to save (updatedPermissions addRules)', async () => {
    const hook = await script(
      'remember.sh',
      `printf '{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test:*"},"Read"],"behavior":"allow","destination":"localSettings"},{"type":"setMode","mode":"bypassPermissions"}]}}}'`,
    );
    const outcome = await gate(hooks('PermissionRequest', [{ hooks: [hook] }])).permissionRequest(
      { ...subject({ command: 'x' }), decision: ask },
      signal,
    );
    expect(outcome).toEqual({
      decision: 'allow',
      hook,
      remember: [
        { rule: 'Bash(npm test:*)', behavior: 'allow', destination: 'localSettings' },
        { rule: 'Read', behavior: 'allow', destination: 'localSettings' },
      ],
    });
  });

  it('passes on interrupt with a deny', async () => {
    const hook = await script(
      'stop.sh',
      `printf '{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"stop now","interrupt":true}}}'`,
    );
    const outcome = await gate(hooks('PermissionRequest', [{ hooks: [hook] }])).permissionRequest(
      { ...subject({ command: 'x' }), decision: ask },
      signal,
    );
    expect(outcome).toEqual({ decision: 'deny', hook, message: 'stop now', interrupt: true });
  });

  it('denies when any hook denies, and ignores exit code 2', async () => {
    const allow = await script('allow.sh', `printf '{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}'`);
    const deny = await script(
      'deny.sh',
      `printf '{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not on Fridays"}}}'`,
    );
    const exit2 = await script('exit2.sh', 'echo no >&2; exit 2');
    const plane = gate(hooks('PermissionRequest', [{ hooks: [allow, deny] }]));
    expect(await plane.permissionRequest({ ...subject({ command: 'x' }), decision: ask }, signal)).toEqual({
      decision: 'deny',
      hook: deny,
      message: 'not on Fridays',
    });
    const ignored = await gate(hooks('PermissionRequest', [{ hooks: [exit2] }])).permissionRequest(
      { ...subject({ command: 'x' }), decision: ask },
      signal,
    );
    expect(ignored).toEqual({});
    expect(diagnostics.at(-1)).toMatchObject({ kind: 'stderr' });
  });

  it('denies when a fail-closed hook crashes', async () => {
    const crash = await script('crash.sh', 'exit 3');
    const outcome = await gate(
      hooks('PermissionRequest', [{ hooks: [{ type: 'command', command: crash, failClosed: true }] }]),
    ).permissionRequest({ ...subject({ command: 'x' }), decision: ask }, signal);
    expect(outcome).toMatchObject({ decision: 'deny', message: expect.stringContaining('fail-closed') as string });
  });
});

/** Whether a process runs; a killed child left as a zombie (reparented, not yet reaped) does not. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
