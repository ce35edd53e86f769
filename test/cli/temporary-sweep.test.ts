import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryName } from '../../src/contract/temporary-name.js';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

const HOUR_AGO = new Date(Date.now() - 3_600_000);

async function leftover(path: string, age: Date | null = HOUR_AGO): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, 'half a write');
  if (age) await utimes(path, age, age);
  return path;
}

describe('temporary files of interrupted writes are swept at the next start', () => {
  let home: string;
  let project: string;
  let config: string;
  let server: MockModelServer | undefined;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-sweep-cli-'));
    project = join(home, 'project');
    config = join(home, '.toolplane');
    await mkdir(project);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  it("only ours, only stale ones, only of processes that are gone; this run's own journal is gone after it", async () => {
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    const alive = spawn('sleep', ['30']);
    try {
      const sessions = join(config, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
      // What a killed run leaves: a Write's temporary file beside its target (named in its journal),
      // a result being saved, the settings writer's temporary files.
      const written = await leftover(join(project, 'src', temporaryName(dead)));
      await leftover(join(config, 'in-flight', `${dead}.list`), null);
      await writeFile(join(config, 'in-flight', `${dead}.list`), `${written}\n`);
      const swept = [
        written,
        await leftover(join(sessions, 'old-session', 'tool-results', temporaryName(dead))),
        await leftover(join(config, 'settings.json.2718281828')),
        await leftover(join(project, '.toolplane', 'settings.local.json.1618')),
      ];
      const kept = [
        await leftover(join(sessions, 'old-session', 'tool-results', temporaryName(dead)), null),
        await leftover(join(sessions, 'old-session', 'tool-results', temporaryName(alive.pid!))),
        await leftover(join(project, 'src', temporaryName(dead))), // in no journal: not known to be ours
        await leftover(join(sessions, 'old-session', 'tool-results', 'toolu_1.txt')),
        await leftover(join(project, 'notes.txt.1234')),
      ];
      server = await startMockAnthropicServer({
        replies: [
          {
            content: [
              {
                type: 'tool_use',
                id: 'w',
                name: 'Write',
                input: { file_path: join(project, 'out.txt'), content: 'x' },
              },
            ],
          },
          { content: [{ type: 'text', text: 'Written.' }] },
        ],
      });
      const run = await runCli(['-p', 'write it', '--permission-mode', 'bypassPermissions'], {
        cwd: project,
        env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL }),
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('removed 4 temporary file(s) that interrupted writes left behind');
      for (const path of swept) expect(existsSync(path), path).toBe(false);
      for (const path of kept) expect(existsSync(path), path).toBe(true);
      expect(existsSync(join(config, 'in-flight', `${dead}.list`))).toBe(false);
      expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('x');
      // The run's own journal noted its write and was removed at its clean end.
      expect(await readdir(join(config, 'in-flight'))).toEqual([]);
    } finally {
      alive.kill();
    }
  });
});
