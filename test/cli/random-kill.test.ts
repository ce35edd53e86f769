import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_RESULT_TEXT } from '../../src/messages/repair-pairing.js';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer, MockReply } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli, type CliRun } from './run-cli.js';
import { pairing } from './transcript-pairing.js';

/** A small seeded generator (mulberry32), so a failing sequence of kills can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.KILL_SEED ?? 20261202);
const KILLS = 20;
const TURNS_PER_RUN = 6;

describe(`SIGKILL at random moments of a multi-turn session, then resume (seed ${SEED})`, () => {
  let home: string;
  let project: string;
  let next = 0;
  const random = seeded(SEED);
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-random-kill-'));
    project = join(home, 'project');
    await mkdir(project);
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const markers = () => join(project, 'markers.txt');
  const transcriptOf = (sessionId: string) =>
    join(home, '.toolplane', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);

  /** Turns of work: each a Bash call that appends its marker and a Write of a file named after it. */
  function work(turns: number): MockReply[] {
    return Array.from({ length: turns }, () => {
      const id = `t${++next}`;
      return {
        content: [
          { type: 'text', text: `Step ${id}.` },
          { type: 'tool_use', id: `${id}_bash`, name: 'Bash', input: { command: `echo ${id}_bash >> markers.txt` } },
          {
            type: 'tool_use',
            id: `${id}_write`,
            name: 'Write',
            input: { file_path: join(project, `${id}.txt`), content: `${id}_write\n` },
          },
        ],
      } satisfies MockReply;
    });
  }

  /** One run on its own mock server; killed `killAfterMs` after it announced its session, or left to finish. */
  async function run(
    args: readonly string[],
    replies: readonly MockReply[],
    killAfterMs?: number,
  ): Promise<{ run: CliRun; sessionId: string }> {
    const server: MockModelServer = await startMockAnthropicServer({ replies, chunkDelayMs: 15 });
    let sessionId = '';
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await runCli(
        [...args, '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'],
        {
          cwd: project,
          env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL }),
          onStdout: (text, child) => {
            sessionId ||= (JSON.parse(text.split('\n')[0]!) as { session_id: string }).session_id;
            if (killAfterMs !== undefined) timer ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs);
          },
        },
      );
      return { run: result, sessionId };
    } finally {
      clearTimeout(timer);
      await server.close();
    }
  }

  it(`${KILLS} kills, each followed by a resume: nothing re-run, every tool_use answered once`, async () => {
    const first = await run(['-p', 'do the steps'], work(TURNS_PER_RUN), random() * 900);
    const sessionId = first.sessionId;
    expect(sessionId, first.run.stderr).not.toBe('');
    let killed = first.run.signal === 'SIGKILL' ? 1 : 0;
    while (killed < KILLS) {
      const resumed = await run(['-p', 'go on', '--resume', sessionId], work(TURNS_PER_RUN), random() * 900);
      expect(resumed.run.signal === 'SIGKILL' || resumed.run.code !== null, resumed.run.stderr).toBe(true);
      if (resumed.run.signal === 'SIGKILL') killed++;
    }
    const last = await run(
      ['-p', 'what is done?', '--resume', sessionId],
      [{ content: [{ type: 'text', text: 'Done.' }] }],
    );
    expect(last.run.code, last.run.stdout + last.run.stderr).toBe(0);

    const transcript = await readFile(transcriptOf(sessionId), 'utf8');
    const { uses, answers } = pairing(transcript);
    const ran = existsSync(markers()) ? (await readFile(markers(), 'utf8')).split('\n').filter(Boolean) : [];
    expect(uses.size).toBeGreaterThan(0);
    let interrupted = 0;
    for (const id of uses) {
      // Exactly one result for every call, whatever moment the kills hit.
      expect(answers.get(id), `answers of ${id}`).toHaveLength(1);
      const answer = answers.get(id)![0]!;
      const wasInterrupted = answer.includes(JSON.stringify(MISSING_RESULT_TEXT).slice(1, -1));
      if (wasInterrupted) interrupted++;
      if (id.endsWith('_bash')) {
        // Never run twice; a call answered as finished did run.
        expect(ran.filter((line) => line === id).length, `runs of ${id}`).toBeLessThanOrEqual(1);
        if (!wasInterrupted) expect(ran, `${id} answered as finished`).toContain(id);
      } else if (!wasInterrupted) {
        expect(existsSync(join(project, `${id.replace(/_write$/, '')}.txt`)), `${id} answered as written`).toBe(true);
      }
    }
    // Every marker belongs to a call on record.
    for (const line of ran) expect(uses.has(line), `marker ${line}`).toBe(true);
    // The kills did land inside calls: some were answered as interrupted.
    expect(interrupted).toBeGreaterThan(0);
    console.log(`random kills: ${uses.size} calls, ${interrupted} interrupted, ${ran.length} markers`);
  }, 90_000);
});
