import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { isolatedEnv, runCli } from './run-cli.js';

type RecordedBody = {
  readonly model: string;
  readonly system?: unknown;
  readonly tools?: readonly { readonly name: string; readonly description?: string }[];
};

/**
 * A Claude Code project's subagents (`.claude/agents/*.md`): in a trusted folder the model is
 * offered them by the Agent tool and a call starts one with its prompt, tools and model; in an
 * untrusted one they are left out and the run says why. The real command against a mock server.
 */
describe('agent files of a Claude Code project (toolplane -p)', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-agent-files-'));
    project = join(home, 'project');
    await mkdir(join(project, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(project, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews a change with care\ntools: Read, Grep\nmodel: review-model-1\n---\nYou review code; be strict about tests.\n',
    );
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const run = async (extra: readonly string[]) => {
    server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            {
              type: 'tool_use',
              id: 'a1',
              name: 'Agent',
              input: { description: 'review', prompt: 'Review the change.', subagent_type: 'reviewer' },
            },
          ],
        },
        { content: [{ type: 'text', text: 'Looks fine.' }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const result = await runCli(['-p', 'go', '--output-format', 'json', ...extra], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.baseURL }),
    });
    return { result, bodies: server.requests.map((request) => request.body as RecordedBody) };
  };
  const agentToolText = (body: RecordedBody) => body.tools?.find((tool) => tool.name === 'Agent')?.description ?? '';

  it('in a trusted folder, the Agent tool offers it and a call runs it with its prompt, tools and model', async () => {
    const { result, bodies } = await run(['--trust-project']);
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: 'success', result: 'done' });
    expect(agentToolText(bodies[0]!)).toContain('reviewer');
    expect(agentToolText(bodies[0]!)).toContain('Reviews a change with care');
    const sub = bodies[1]!;
    expect(JSON.stringify(sub.system)).toContain('You review code; be strict about tests.');
    expect(sub.model).toBe('review-model-1');
    expect(sub.tools?.map((tool) => tool.name).sort()).toEqual(['Grep', 'Read']);
  });

  it('disallowedTools takes tools away from all of the parent’s', async () => {
    await writeFile(
      join(project, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews\ndisallowedTools: Bash, Write, Edit\n---\nReview.\n',
    );
    const { bodies } = await run(['--trust-project']);
    const names = bodies[1]!.tools?.map((tool) => tool.name) ?? [];
    expect(names).toContain('Read');
    expect(names).not.toContain('Bash');
    expect(names).not.toContain('Write');
    expect(names).not.toContain('Edit');
  });

  it('in an untrusted folder, the project’s agents are left out and stderr says why', async () => {
    const { result, bodies } = await run([]);
    expect(result.stderr).toContain('not read, this folder is not trusted');
    expect(agentToolText(bodies[0]!)).not.toContain('reviewer');
    // The call naming it is refused as an unknown type; nothing runs as the reviewer.
    expect(bodies.some((body) => JSON.stringify(body.system ?? '').includes('be strict about tests'))).toBe(false);
  });
});
