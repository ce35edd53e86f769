import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSdkMcpServer,
  query,
  tool,
  type PermissionResult,
  type SDKMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { toolResultText } from './request-body.js';
import { CLI, isolatedEnv } from './run-cli.js';

/**
 * The real Claude Agent SDK from npm drives the built command (`pathToClaudeCodeExecutable`), as a
 * program written for Claude Code would, against a mock Anthropic server. Every decision still
 * goes through toolplane's gate chain: canUseTool is asked only where a person would be.
 */
describe('the Claude Agent SDK driving toolplane over stream-json', () => {
  let home: string;
  let project: string;
  let server: MockModelServer | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-agent-sdk-'));
    project = join(home, 'project');
    await mkdir(project);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(home, { recursive: true, force: true });
  });

  const run = async (options: Parameters<typeof query>[0]['options'] & object, prompt = 'go') => {
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt,
      options: {
        pathToClaudeCodeExecutable: CLI,
        executable: 'node',
        cwd: project,
        env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server!.baseURL }),
        ...options,
      },
    }))
      messages.push(message);
    return messages;
  };
  const resultOf = (messages: readonly SDKMessage[]) => messages.find((message) => message.type === 'result');
  const bashReply = (id: string, command: string) => ({
    content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }],
  });

  it('asks canUseTool for a call no rule allows; an allow runs it, and a hook callback sees it', async () => {
    const marker = join(project, 'made');
    server = await startMockAnthropicServer({
      replies: [bashReply('b1', `touch ${marker}`), { content: [{ type: 'text', text: 'done' }] }],
    });
    const asked: string[] = [];
    const hooked: string[] = [];
    const messages = await run({
      canUseTool: (toolName, input): Promise<PermissionResult> => {
        asked.push(`${toolName} ${String(input.command)}`);
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              (input) => {
                hooked.push((input as { tool_name: string }).tool_name);
                return Promise.resolve({});
              },
            ],
          },
        ],
      },
    });
    expect(asked).toEqual([`Bash touch ${marker}`]);
    expect(hooked).toEqual(['Bash']);
    expect(existsSync(marker)).toBe(true);
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', is_error: false });
  });

  it('a canUseTool deny and a hook callback block both keep the call from running', async () => {
    const marker = join(project, 'made');
    server = await startMockAnthropicServer({
      replies: [bashReply('b1', `touch ${marker}`), { content: [{ type: 'text', text: 'done' }] }],
    });
    await run({
      canUseTool: () => Promise.resolve({ behavior: 'deny', message: 'not today' }),
    });
    expect(existsSync(marker)).toBe(false);
    expect(toolResultText(server.requests[1]!.body, 'b1')).toContain('not today');

    await server.close();
    server = await startMockAnthropicServer({
      replies: [bashReply('b2', `touch ${marker}`), { content: [{ type: 'text', text: 'done' }] }],
    });
    await run({
      canUseTool: (_name, input) => Promise.resolve({ behavior: 'allow', updatedInput: input }),
      hooks: {
        PreToolUse: [{ hooks: [() => Promise.resolve({ decision: 'block' as const, reason: 'the hook says no' })] }],
      },
    });
    expect(existsSync(marker)).toBe(false);
    expect(toolResultText(server.requests[1]!.body, 'b2')).toContain('the hook says no');
  });

  it('a deny rule holds where canUseTool would allow: the host is never asked; a read-only command needs no one', async () => {
    const marker = join(project, 'made');
    server = await startMockAnthropicServer({
      replies: [
        bashReply('b1', 'echo made > made'),
        bashReply('b2', 'echo harmless'),
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const asked: string[] = [];
    await run({
      disallowedTools: ['Bash(echo made:*)'],
      canUseTool: (_name, input) => {
        asked.push(String(input.command));
        return Promise.resolve({ behavior: 'allow', updatedInput: { ...input, command: `echo made > ${marker}` } });
      },
    });
    expect(existsSync(marker)).toBe(false);
    // b1 was denied by the rule before anyone was asked; b2 was read-only and needed no one.
    expect(asked).toEqual([]);
    expect(toolResultText(server.requests[2]!.body, 'b2')).toContain('harmless');
  });

  it("an SDK MCP server's tool runs in the host's process, reached over mcp_message, with the host's approval", async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 's1', name: 'ToolSearch', input: { query: 'select:mcp__calc__add' } }] },
        { content: [{ type: 'tool_use', id: 'a1', name: 'mcp__calc__add', input: { a: 2, b: 40 } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const calls: number[][] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, (args) => {
          calls.push([args.a, args.b]);
          return Promise.resolve({ content: [{ type: 'text', text: `sum=${args.a + args.b}` }] });
        }),
      ],
    });
    const asked: string[] = [];
    const messages = await run({
      mcpServers: { calc },
      canUseTool: (name, input) => {
        asked.push(name);
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      },
    });
    expect(calls).toEqual([[2, 40]]);
    expect(asked).toEqual(['mcp__calc__add']);
    expect(toolResultText(server.requests[2]!.body, 'a1')).toContain('sum=42');
    expect(resultOf(messages)).toMatchObject({ subtype: 'success' });
  });

  it('interrupt() stops a running call: its command is killed and the turn ends', async () => {
    const marker = join(project, 'late');
    server = await startMockAnthropicServer({
      replies: [bashReply('b1', `sleep 15 && touch ${marker}`), { content: [{ type: 'text', text: 'done' }] }],
    });
    const session = query({
      prompt: 'go',
      options: {
        pathToClaudeCodeExecutable: CLI,
        executable: 'node',
        cwd: project,
        env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL }),
        canUseTool: (_name, input) => {
          // Interrupted once the call has been allowed and starts.
          setTimeout(() => void session.interrupt().catch(() => undefined), 500);
          return Promise.resolve({ behavior: 'allow', updatedInput: input });
        },
      },
    });
    const messages: SDKMessage[] = [];
    // The SDK ends the iteration by throwing on an error result, naming its `errors`.
    await expect(
      (async () => {
        for await (const message of session) messages.push(message);
      })(),
    ).rejects.toThrow(/interrupted/);
    expect(resultOf(messages)).toMatchObject({ is_error: true, errors: ['interrupted'] });
    // Had the command gone on, the marker would appear after 15 s.
    await new Promise((resolve) => setTimeout(resolve, 16_000));
    expect(existsSync(marker)).toBe(false);
  }, 40_000);
  it('an input canUseTool edits is decided again, and the edited command is what runs', async () => {
    const asked = join(project, 'asked');
    const edited = join(project, 'edited');
    server = await startMockAnthropicServer({
      replies: [
        bashReply('b1', `touch ${asked}`),
        bashReply('b2', `touch ${asked}`),
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    await run({
      disallowedTools: ['Bash(rm:*)'],
      canUseTool: (_name, input, { toolUseID }) =>
        Promise.resolve({
          behavior: 'allow',
          // b1 becomes a harmless other command; b2 becomes one a deny rule refuses.
          updatedInput: { ...input, command: toolUseID === 'b1' ? `touch ${edited}` : `rm -rf ${project}` },
        }),
    });
    expect(existsSync(asked)).toBe(false);
    expect(existsSync(edited)).toBe(true);
    expect(existsSync(project)).toBe(true);
    expect(toolResultText(server.requests[2]!.body, 'b2')).toMatch(/denied|not allowed/i);
  });

  it("resumes a session by its id: the second query sees the first one's conversation", async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'text', text: 'noted: heron' }] },
        { content: [{ type: 'text', text: 'it was heron' }] },
      ],
    });
    const first = await run({});
    const sessionId = resultOf(first)!.session_id;
    const second = await run({ resume: sessionId }, 'what was the code word?');
    expect(resultOf(second)).toMatchObject({ subtype: 'success', session_id: sessionId, result: 'it was heron' });
    const resent = JSON.stringify(server.requests[1]!.body);
    expect(resent).toContain('noted: heron');
    expect(resent).toContain('what was the code word?');
  });

  it('structured output: outputFormat gives the result a validated structured_output', async () => {
    server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'o1', name: 'StructuredOutput', input: { count: 'many' } }] },
        { content: [{ type: 'tool_use', id: 'o2', name: 'StructuredOutput', input: { count: 2 } }] },
      ],
    });
    const messages = await run({
      outputFormat: {
        type: 'json_schema',
        schema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
      },
    });
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', structured_output: { count: 2 } });
    // The first call did not match the schema and was answered with the error.
    expect(toolResultText(server.requests[1]!.body, 'o1')).toMatch(/integer|count/);
  });
});
