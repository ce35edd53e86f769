import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer, MockReply } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';
import { pairing } from './transcript-pairing.js';

describe('the write-ahead transcript survives SIGKILL', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-kill-'));
    project = join(home, 'project');
    await mkdir(project);
    // The sandbox stays on: a SIGKILLed sandboxed command leaves its stand-ins for missing protected
    // paths behind, and the resumed run must sweep them, not trip over them.
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const env = () => isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server!.baseURL });
  const marker = () => join(project, 'runs.txt');
  const transcriptOf = (sessionId: string) =>
    join(home, '.toolplane', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);

  /** Runs `toolplane -p` until the slow call has started (it marked its run), then SIGKILLs it. */
  async function killDuringCall(first: MockReply): Promise<string> {
    server = await startMockAnthropicServer({ replies: [first] });
    let sessionId = '';
    let poll: NodeJS.Timeout | undefined;
    const run = await runCli(
      ['-p', 'work', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'],
      {
        cwd: project,
        env: env(),
        onStdout: (text, child) => {
          sessionId ||= (JSON.parse(text.split('\n')[0]!) as { session_id: string }).session_id;
          poll ??= setInterval(() => {
            if (!existsSync(marker())) return;
            clearInterval(poll);
            child.kill('SIGKILL');
          }, 20);
        },
      },
    );
    clearInterval(poll);
    expect(run.signal, run.stdout + run.stderr).toBe('SIGKILL');
    return sessionId;
  }

  async function resumeAndCheck(sessionId: string): Promise<void> {
    server!.enqueue({ content: [{ type: 'text', text: 'I will check what ran before doing anything again.' }] });
    const resumed = await runCli(
      ['-p', 'go on', '--resume', sessionId, '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
      { cwd: project, env: env() },
    );
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('interrupted and may have run');
    const { uses, answers } = pairing(await readFile(transcriptOf(sessionId), 'utf8'));
    expect([...uses]).toEqual(['slow']);
    for (const id of uses) expect(answers.get(id)).toHaveLength(1);
    expect(answers.get('slow')![0]).toContain('it may or may not have run');
    // The model saw the call and its answer; nothing ran it again.
    const request = JSON.stringify(server!.requests[server!.requests.length - 1]!.body);
    expect(request).toContain('"tool_use_id":"slow"');
    expect((await readFile(marker(), 'utf8')).trim().split('\n')).toEqual(['run']);
  }

  const slowCall = {
    type: 'tool_use',
    id: 'slow',
    name: 'Bash',
    input: { command: 'echo run >> runs.txt && sleep 8' },
  } as const;

  it('killed between a tool_use and the end of its message: the call is on record, answered once on resume, never re-run', async () => {
    const sessionId = await killDuringCall({
      kind: 'turn',
      turn: { content: [slowCall, { type: 'text', text: 'This message is still streaming when the process dies.' }] },
      chunkDelayMs: 600,
    });
    const before = pairing(await readFile(transcriptOf(sessionId), 'utf8'));
    expect(before.assistantMessages).toBe(0);
    expect([...before.uses]).toEqual(['slow']);
    await resumeAndCheck(sessionId);
  });

  it('killed while the call runs after its message completed: answered once on resume, never re-run', async () => {
    const sessionId = await killDuringCall({ content: [slowCall] });
    await resumeAndCheck(sessionId);
  });
  it('forked after a kill: the fork answers the call once, and the killed session is left as it was', async () => {
    const sessionId = await killDuringCall({ content: [slowCall] });
    const before = await readFile(transcriptOf(sessionId), 'utf8');
    server!.enqueue({ content: [{ type: 'text', text: 'Checking first.' }] });
    const forked = await runCli(['-p', 'go on', '--resume', sessionId, '--fork-session', '--output-format', 'json'], {
      cwd: project,
      env: env(),
    });
    expect(forked.code, forked.stdout + forked.stderr).toBe(0);
    const forkId = (JSON.parse(forked.stdout) as { session_id: string }).session_id;
    expect(forkId).not.toBe(sessionId);
    expect(await readFile(transcriptOf(sessionId), 'utf8')).toBe(before);
    const { uses, answers } = pairing(await readFile(transcriptOf(forkId), 'utf8'));
    expect([...uses]).toEqual(['slow']);
    expect(answers.get('slow')).toHaveLength(1);
  });
});
