import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../src/contract/gates.js';
import { parseRunArguments } from '../src/cli/args.js';
import { createRuntime, type Runtime } from '../src/cli/runtime/create-runtime.js';
import { createFakeApprover } from '../src/testing/fake-gates.js';
import { startMockAnthropicServer } from '../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../src/testing/mock-model-server.js';
import { alwaysAskTool } from './fixtures/always-ask-tool.js';

describe('the approval path end to end: pool, schema, decision, approver, result, transcript', () => {
  let home: string;
  let project: string;
  let server: MockModelServer;
  let runtime: Runtime | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-approval-'));
    project = join(home, 'project');
    await mkdir(project);
  });
  afterEach(async () => {
    await runtime?.session.close();
    runtime = undefined;
    await server.close();
    await rm(home, { recursive: true, force: true });
  });

  async function start(
    replies: Parameters<typeof startMockAnthropicServer>[0] extends infer O
      ? O extends { replies?: infer R }
        ? R
        : never
      : never,
  ) {
    server = await startMockAnthropicServer({ replies });
    runtime = await createRuntime({
      args: parseRunArguments(['-p', 'x']),
      cwd: project,
      env: {
        HOME: home,
        TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'),
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: server.baseURL,
      },
      homeDir: home,
      interactive: false,
      warn: () => {},
      extraTools: [alwaysAskTool],
    });
    return runtime;
  }

  async function run(rt: Runtime, prompt: string) {
    const generator = rt.session.submit(prompt, new AbortController().signal);
    let step = await generator.next();
    while (!step.done) step = await generator.next();
    return step.value;
  }

  it('allow once, edit (re-checked), deny with feedback, then always (saved and not asked again)', async () => {
    const rt = await start([
      {
        expect: { tools: ['AlwaysAsk'] },
        content: [{ type: 'tool_use', id: 'once', name: 'AlwaysAsk', input: { action: 'one thing' } }],
      },
      {
        expect: { errors: [], includes: ['did one thing'] },
        content: [{ type: 'tool_use', id: 'edit', name: 'AlwaysAsk', input: { action: 'risky thing' } }],
      },
      {
        expect: { errors: [], includes: ['did safe thing'] },
        content: [{ type: 'tool_use', id: 'deny', name: 'AlwaysAsk', input: { action: 'delete everything' } }],
      },
      {
        expect: { errors: ['deny'], includes: ['The user said: not that'] },
        content: [{ type: 'tool_use', id: 'always', name: 'AlwaysAsk', input: { action: 'routine' } }],
      },
      {
        expect: { errors: [], includes: ['did routine'] },
        content: [{ type: 'tool_use', id: 'again', name: 'AlwaysAsk', input: { action: 'routine again' } }],
      },
      { expect: { errors: [], includes: ['did routine again'] }, content: [{ type: 'text', text: 'finished' }] },
    ]);
    const approver = createFakeApprover((request: ApprovalRequest) => {
      const action = (request.input as { action: string }).action;
      if (action === 'one thing') return { behavior: 'allow' };
      if (action === 'risky thing') return { behavior: 'allow', updatedInput: { action: 'safe thing' } };
      if (action === 'delete everything') return { behavior: 'deny', feedback: 'not that' };
      return { behavior: 'allow', remember: request.suggestions[0]! };
    });
    rt.session.setApprover(approver);
    const result = await run(rt, 'go');
    expect(result.status).toBe('success');
    expect(approver.requests.map((request) => request.summary)).toEqual([
      'always-ask: one thing',
      'always-ask: risky thing',
      'always-ask: delete everything',
      'always-ask: routine',
    ]);
    expect(approver.requests[0]).toMatchObject({ message: 'AlwaysAsk wants to one thing.', reason: { kind: 'tool' } });
    const saved = JSON.parse(await readFile(join(project, '.toolplane', 'settings.local.json'), 'utf8')) as {
      permissions: { allow: string[] };
    };
    expect(saved.permissions.allow).toEqual(['AlwaysAsk']);
    await rt.session.transcript().flush();
    const transcript = await readFile(rt.session.transcript().path, 'utf8');
    expect(transcript).toContain('"tool_use_id":"deny"');
    expect(transcript).toContain('The user said: not that');
    expect(transcript).toContain('did safe thing');
  });

  it('without an approver the ask is denied (fail-closed) and the model is told why', async () => {
    const rt = await start([
      { content: [{ type: 'tool_use', id: 'ask', name: 'AlwaysAsk', input: { action: 'anything' } }] },
      {
        expect: { errors: ['ask'], includes: ['No one is available to approve it'] },
        content: [{ type: 'text', text: 'ok' }],
      },
    ]);
    const result = await run(rt, 'go');
    expect(result.permissionDenials).toEqual([
      { tool_name: 'AlwaysAsk', tool_use_id: 'ask', tool_input: { action: 'anything' } },
    ]);
  });
});
