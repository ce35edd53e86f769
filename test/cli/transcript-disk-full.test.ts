import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** Mounts a real 64 KiB tmpfs at `folder`; false where this machine does not let us. */
function mountSmallDisk(folder: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', folder], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a transcript that cannot be written (disk full)', () => {
  let home: string;
  let project: string;
  let config: string;
  let mounted = false;
  let server: MockModelServer | undefined;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-disk-full-'));
    project = join(home, 'project');
    config = join(home, '.toolplane');
    await mkdir(project);
    await mkdir(config);
    mounted = mountSmallDisk(config);
    // Room for the session's first lines, not for the model's long answer.
    if (mounted) await writeFile(join(config, 'filler'), Buffer.alloc(44 * 1024));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (mounted) execFileSync('umount', [config]);
    await rm(home, { recursive: true, force: true });
  });

  it.for(['json', 'stream-json'])(
    '--output-format %s: told at once, the run ends with an error and a result object',
    async (format, context) => {
      if (!mounted) context.skip('mounting a tmpfs needs root');
      server = await startMockAnthropicServer({
        replies: [
          {
            content: [
              { type: 'text', text: `A long answer. ${'x'.repeat(40_000)}` },
              { type: 'tool_use', id: 'mark', name: 'Bash', input: { command: 'echo ran >> ran.txt' } },
            ],
          },
          { content: [{ type: 'text', text: 'This turn must never be asked for.' }] },
        ],
      });
      const run = await runCli(['-p', 'work', '--output-format', format, '--permission-mode', 'bypassPermissions'], {
        cwd: project,
        env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL }),
      });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toMatch(/Could not write the transcript .*ENOSPC/);
      expect(run.stderr.match(/Could not write the transcript/g)).toHaveLength(1);
      const lines = run.stdout.trim().split('\n');
      const result = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
      expect(result).toMatchObject({ type: 'result', is_error: true, subtype: 'error_during_execution' });
      expect(String((result.errors as string[])[0])).toMatch(/Could not write the transcript .*ENOSPC/);
      // The run stopped at the failure instead of going on without a record.
      expect(server.requests).toHaveLength(1);
      expect(server.pendingReplies).toBe(1);
      // What was written before the failure is still a readable transcript.
      const sessionId = result.session_id as string;
      const folder = join(config, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
      const transcript = await readFile(join(folder, `${sessionId}.jsonl`), 'utf8');
      for (const line of transcript.split('\n').filter(Boolean))
        expect(() => JSON.parse(line) as unknown).not.toThrow();
      expect(existsSync(join(folder, `${sessionId}.jsonl`))).toBe(true);
    },
  );
});
