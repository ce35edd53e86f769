import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

// A failed model request in a -p run: told once on stderr, in words that say what to fix; the
// json result keeps the error as it was.

describe('errors of the model request in -p runs', () => {
  let home: string;
  let server: MockModelServer | undefined;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-headless-errors-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  it('tells a refused key once, naming ANTHROPIC_API_KEY', async () => {
    const refused = {
      kind: 'error',
      status: 401,
      errorType: 'authentication_error',
      message: 'invalid x-api-key',
    } as const;
    server = await startMockAnthropicServer({ replies: [refused, refused] });
    const env = isolatedEnv(home, { ANTHROPIC_API_KEY: 'sk-bad', ANTHROPIC_BASE_URL: server.baseURL });
    const run = await runCli(['-p', 'hello'], { cwd: home, env });
    expect(run.code).toBe(1);
    expect(run.stderr.split('invalid x-api-key').length - 1).toBe(1);
    expect(run.stderr).toContain(`Check ANTHROPIC_API_KEY: it must hold a valid key for ${server.baseURL}`);
    const json = await runCli(['-p', 'hello', '--output-format', 'json'], { cwd: home, env });
    const result = JSON.parse(json.stdout) as { is_error: boolean; errors: string[] };
    expect(result.is_error).toBe(true);
    expect(result.errors).toEqual(['anthropic: HTTP 401 authentication_error: invalid x-api-key']);
  });

  it('names the URL and its variable when nothing listens there', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const env = isolatedEnv(home, { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url });
    const run = await runCli(['-p', 'hello', '--max-retries', '0'], { cwd: home, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `toolplane: anthropic: could not connect to ${url} (ANTHROPIC_BASE_URL): connection refused. Is the server running?\n`,
    );
  });
});
