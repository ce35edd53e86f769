import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { HookDiagnostic } from './hook-types.js';
import type { HttpHookConfig } from '../contract/hook-config.js';
import { callSubject } from './__fixtures__/call-subject.js';
import { createHookGate } from './create-hook-gate.js';
import { expandHeader } from './run-http-hook.js';

const bash = defineTool({
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: 'x',
  call: async () => 'ok',
});
const signal = new AbortController().signal;
const subject = callSubject(bash, { command: 'rm -rf build' });

describe('HTTP hooks', () => {
  let server: Server;
  let url: string;
  let received: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  let answer: (body: Record<string, unknown>) => { status: number; body: string; delayMs?: number };

  beforeEach(async () => {
    received = [];
    server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => {
        const body = JSON.parse(raw) as Record<string, unknown>;
        received.push({ headers: request.headers, body });
        const reply = answer(body);
        setTimeout(() => {
          response.writeHead(reply.status, { 'content-type': 'application/json' });
          response.end(reply.body);
        }, reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function gateWith(config: Partial<HttpHookConfig>, diagnostics: HookDiagnostic[] = []) {
    return createHookGate({
      settings: new Map([
        ['PreToolUse', [{ matcher: 'Bash', source: 'projectSettings', hooks: [{ type: 'http', url, ...config }] }]],
      ]),
      projectDir: '/work',
      env: { PATH: '/usr/bin', HOOK_TOKEN: 'tok-123', OTHER_SECRET: 'nope', ANTHROPIC_API_KEY: 'sk-ant' },
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    });
  }

  it('POSTs the event JSON and applies the decision in the response body', async () => {
    answer = (body) => ({
      status: 200,
      body: JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: `no ${String((body.tool_input as { command: string }).command)}`,
        },
      }),
    });
    const outcome = await gateWith({}).preToolUse(subject, signal);
    expect(outcome).toMatchObject({ decision: 'deny', reason: 'no rm -rf build', hook: url });
    expect(received[0]!.body).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: 'toolu_1',
      cwd: '/work',
    });
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('fills headers only from the environment variables it is allowed, and never from model credentials', async () => {
    answer = () => ({ status: 200, body: '{}' });
    await gateWith({
      headers: { authorization: 'Bearer $HOOK_TOKEN', 'x-other': '${OTHER_SECRET}', 'x-key': '$ANTHROPIC_API_KEY' },
      allowedEnvVars: ['HOOK_TOKEN', 'ANTHROPIC_API_KEY'],
    }).preToolUse(subject, signal);
    expect(received[0]!.headers.authorization).toBe('Bearer tok-123');
    expect(received[0]!.headers['x-other']).toBe('${OTHER_SECRET}');
    expect(received[0]!.headers['x-key']).toBe('');
  });

  it('treats a non-2xx answer, a dead server and a timeout as non-blocking errors, and fails closed when asked to', async () => {
    answer = () => ({ status: 500, body: 'oops' });
    const diagnostics: HookDiagnostic[] = [];
    expect(await gateWith({}, diagnostics).preToolUse(subject, signal)).toEqual({});
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual(['answered HTTP 500']);

    answer = () => ({ status: 200, body: '{}', delayMs: 1_500 });
    const slow: HookDiagnostic[] = [];
    expect(await gateWith({ timeout: 0.2 }, slow).preToolUse(subject, signal)).toEqual({});
    expect(slow[0]?.kind).toBe('timeout');
    expect(await gateWith({ timeout: 0.2, failClosed: true }).preToolUse(subject, signal)).toMatchObject({
      decision: 'deny',
    });

    const dead = createHookGate({
      settings: new Map([
        ['PreToolUse', [{ source: 'projectSettings', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/hook' }] }]],
      ]),
      projectDir: '/work',
      env: {},
    });
    expect(await dead.preToolUse(subject, signal)).toEqual({});
  });

  it('expands $VAR and ${VAR} for allowed names only', () => {
    expect(expandHeader('a $X ${Y} $Z', ['X', 'Y'], { X: '1', Y: '2', Z: '3' })).toBe('a 1 2 $Z');
  });
});
