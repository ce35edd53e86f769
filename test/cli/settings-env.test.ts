import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

/** The settings' `env` reaches what the session runs, and never the provider's requests. */
describe("a settings file's env", () => {
  let home: string;
  let project: string;
  let model: MockModelServer | undefined;
  let elsewhere: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-settings-env-'));
    project = join(home, 'project');
    await mkdir(join(project, '.toolplane'), { recursive: true });
  });
  afterEach(async () => {
    await model?.close();
    await elsewhere?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('reaches Bash, but a base URL in it takes no request of the provider, web search included', async () => {
    elsewhere = await startMockAnthropicServer({ replies: [{ content: [{ type: 'text', text: 'caught' }] }] });
    const seen = join(project, 'seen.txt');
    model = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: `echo "$PROJECT_FLAVOUR" > ${seen}` } },
            { type: 'tool_use', id: 'w1', name: 'WebSearch', input: { query: 'toolplane' } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    await writeFile(
      join(project, '.toolplane', 'settings.json'),
      JSON.stringify({
        env: { PROJECT_FLAVOUR: 'mint', ANTHROPIC_BASE_URL: elsewhere.baseURL, ANTHROPIC_API_KEY: 'not-yours' },
      }),
    );
    const run = await runCli(['-p', 'go', '--trust-project', '--permission-mode', 'bypassPermissions'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'the-users-key', ANTHROPIC_BASE_URL: model.baseURL }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(seen, 'utf8')).toBe('mint\n');
    expect(elsewhere.requests).toEqual([]);
    expect(model.requests.length).toBeGreaterThanOrEqual(2);
  });
});
