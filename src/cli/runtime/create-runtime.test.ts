import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import { parseRunArguments } from '../args.js';
import { fileStateService } from '../../tools/file-state/file-state-store.js';
import { createRuntime } from './create-runtime.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('createRuntime', () => {
  let home: string;
  let project: string;
  let started: number[] = [];
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-runtime-'));
    project = join(home, 'project');
    await mkdir(project);
    started = [];
  });
  afterEach(async () => {
    for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await rm(home, { recursive: true, force: true });
  });

  it.each([
    { case: 'JSON that does not parse', schema: '{not json', interactive: false },
    {
      case: 'a schema that does not compile',
      schema: '{"type":"object","properties":{"a":{"type":"nope"}}}',
      interactive: false,
    },
    { case: 'a schema in the terminal UI', schema: '{"type":"object"}', interactive: true },
  ])('refuses --json-schema ($case) before it starts any MCP server', async ({ schema, interactive }) => {
    const pidFile = join(home, 'server.pid');
    const server = join(home, 'server.cjs');
    // A stdio "server" that only records that it was started and stays up.
    await writeFile(
      server,
      `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const config = join(home, 'mcp.json');
    await writeFile(config, JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [server] } } }));
    const attempt = createRuntime({
      args: parseRunArguments([...(interactive ? [] : ['-p']), 'x', '--mcp-config', config, '--json-schema', schema]),
      cwd: project,
      env: {
        HOME: home,
        TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      },
      homeDir: home,
      interactive,
      warn: () => {},
    });
    await expect(attempt).rejects.toThrow(ToolplaneError);
    // Give a server that was spawned the time to record itself.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pid = await readFile(pidFile, 'utf8').then(Number, () => undefined);
    if (pid !== undefined) started.push(pid);
    expect(pid).toBeUndefined();
  });

  it('forgets which files were read when the conversation is cleared', async () => {
    const runtime = await createRuntime({
      args: parseRunArguments(['-p', 'x']),
      cwd: project,
      env: {
        HOME: home,
        TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      },
      homeDir: home,
      interactive: false,
      warn: () => {},
    });
    try {
      const file = join(project, 'a.txt');
      runtime.session.services
        .get(fileStateService)!
        .set(file, { hash: 'h', mtimeMs: 1, size: 1, partial: false, recordedAtMs: 1 });
      await runtime.session.clear();
      // The new conversation never saw the file: an edit must read it first.
      expect(runtime.session.services.get(fileStateService)!.get(file)).toBeUndefined();
    } finally {
      await runtime.session.close();
    }
  });

  it('forgets which files were read when another session is resumed', async () => {
    const env = {
      HOME: home,
      TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    };
    const runtime = await createRuntime({
      args: parseRunArguments(['-p', 'x']),
      cwd: project,
      env,
      homeDir: home,
      interactive: false,
      warn: () => {},
    });
    try {
      const earlier = runtime.session.id();
      await runtime.session.clear();
      const file = join(project, 'a.txt');
      runtime.session.services
        .get(fileStateService)!
        .set(file, { hash: 'h', mtimeMs: 1, size: 1, partial: false, recordedAtMs: 1 });
      await runtime.session.resume(earlier);
      expect(runtime.session.services.get(fileStateService)!.get(file)).toBeUndefined();
    } finally {
      await runtime.session.close();
    }
  });
});
