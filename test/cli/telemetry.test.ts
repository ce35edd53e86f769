import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';
import { isolatedEnv, runCli } from './run-cli.js';

// The real command exporting to an OTLP/HTTP receiver on 127.0.0.1, in both encodings; what it
// receives is decoded (test/cli/otlp-receiver.ts) and checked against what the session did.

const SECRET_HEADER = 'Bearer otel-secret-4711';

describe('OpenTelemetry export', () => {
  let home: string;
  let project: string;
  let model: MockModelServer | undefined;
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-otel-'));
    project = join(home, 'project');
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await writeFile(join(project, 'secret.txt'), 'the password is swordfish\n');
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await model?.close();
    await receiver.close();
    await rm(home, { recursive: true, force: true });
  });

  /** One turn: a Bash call the mode allows (a hook runs first), a Read a deny rule refuses. */
  async function runSession(env: Record<string, string>, projectSettings: Record<string, unknown> = {}) {
    model = await startMockAnthropicServer({
      replies: [
        {
          content: [
            { type: 'text', text: 'Looking around.' },
            {
              type: 'tool_use',
              id: 'bash-1',
              name: 'Bash',
              input: { command: `env > ${join(project, 'bash-env.txt')}` },
            },
            { type: 'tool_use', id: 'read-1', name: 'Read', input: { file_path: join(project, 'secret.txt') } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    await writeFile(
      join(project, '.toolplane', 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['Read(./secret.txt)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: `env > ${join(project, 'hook-env.txt')}` }] },
          ],
        },
        ...projectSettings,
      }),
    );
    const run = await runCli(['-p', 'look around', '--trust-project', '--permission-mode', 'bypassPermissions'], {
      cwd: project,
      env: isolatedEnv(home, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL, ...env }),
    });
    expect(run.code, run.stderr).toBe(0);
    return run;
  }

  for (const protocol of ['http/json', 'http/protobuf'] as const) {
    it(`exports a turn span with its calls' spans, metrics and decision events over ${protocol}`, async () => {
      await runSession({
        TOOLPLANE_ENABLE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=${encodeURIComponent(SECRET_HEADER)}`,
        OTEL_RESOURCE_ATTRIBUTES: 'team=platform',
      });
      const paths = new Set(receiver.requests.map((request) => request.path));
      expect(paths).toEqual(new Set(['/v1/traces', '/v1/metrics', '/v1/logs']));
      for (const request of receiver.requests) {
        expect(request.headers.authorization).toBe(SECRET_HEADER);
        expect(request.contentType).toContain(protocol === 'http/json' ? 'json' : 'protobuf');
      }
      expect(receiver.resources()[0]).toMatchObject({ 'service.name': 'toolplane', team: 'platform' });

      const spans = receiver.spans();
      const turn = spans.find((span) => span.name === 'invoke_agent toolplane');
      expect(turn?.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.request.model': expect.any(String) as string,
        'toolplane.turn.status': 'success',
      });
      const bash = spans.find((span) => span.name === 'execute_tool Bash');
      const read = spans.find((span) => span.name === 'execute_tool Read');
      expect(bash?.parentSpanId).toBe(turn?.spanId);
      expect(read?.parentSpanId).toBe(turn?.spanId);
      expect(bash?.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'Bash',
        'gen_ai.tool.call.id': 'bash-1',
        'toolplane.permission.decision': 'allow',
        'toolplane.permission.source': 'mode',
        'toolplane.permission.rule': 'bypassPermissions',
        'toolplane.tool.status': 'success',
        'toolplane.hooks': 'PreToolUse',
      });
      expect(read?.attributes).toMatchObject({
        'gen_ai.tool.call.id': 'read-1',
        'toolplane.permission.decision': 'deny',
        'toolplane.permission.source': 'config',
        'toolplane.tool.status': 'denied',
      });
      expect(String(read?.attributes['toolplane.permission.rule'])).toMatch(
        /^Read\(\.\/secret\.txt\) @ .*settings\.json/,
      );
      expect(read?.error).toBe(true);
      // No content without OTEL_LOG_TOOL_DETAILS / OTEL_LOG_USER_PROMPTS.
      const exported = receiver.requests.map((request) => request.body.toString('latin1')).join('\n');
      expect(exported).not.toContain('look around');
      expect(exported).not.toContain('bash-env.txt');

      const metrics = receiver.metrics();
      expect(metrics.get('toolplane.tool.calls')).toBe(2);
      expect(metrics.get('toolplane.tool.denials')).toBe(1);
      expect(metrics.get('toolplane.tool.duration')).toBe(2);
      expect(metrics.get('toolplane.turns')).toBe(1);

      const logs = receiver.logs();
      const decisions = logs.filter((log) => log.eventName === 'tool_decision');
      expect(
        decisions.map((log) => [log.attributes['tool_name'], log.attributes['decision'], log.attributes['source']]),
      ).toEqual(
        expect.arrayContaining([
          ['Bash', 'accept', 'mode'],
          ['Read', 'reject', 'config'],
        ]),
      );
      const results = logs.filter((log) => log.eventName === 'tool_result');
      expect(results.find((log) => log.attributes['tool_name'] === 'Bash')?.attributes).toMatchObject({
        success: 'true',
        decision: 'accept',
        'event.name': 'tool_result',
      });
      expect(logs.find((log) => log.eventName === 'user_prompt')?.attributes['prompt_length']).toBe(
        'look around'.length,
      );

      // The collector's credentials never reach what the session runs, nor the model.
      expect(await readFile(join(project, 'bash-env.txt'), 'utf8')).not.toContain('otel-secret');
      expect(await readFile(join(project, 'hook-env.txt'), 'utf8')).not.toContain('otel-secret');
      expect(JSON.stringify(model?.requests)).not.toContain('otel-secret');
    });
  }

  it('exports prompts and tool inputs and results only with their switches', async () => {
    await runSession({
      TOOLPLANE_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOG_USER_PROMPTS: '1',
      OTEL_LOG_TOOL_DETAILS: '1',
    });
    const turn = receiver.spans().find((span) => span.name === 'invoke_agent toolplane');
    expect(String(turn?.attributes['gen_ai.input.messages'])).toContain('look around');
    const bash = receiver.spans().find((span) => span.name === 'execute_tool Bash');
    expect(String(bash?.attributes['gen_ai.tool.call.arguments'])).toContain('bash-env.txt');
    expect(receiver.logs().find((log) => log.eventName === 'user_prompt')?.attributes['prompt']).toBe('look around');
  });

  it('is off by default, and a project file cannot turn it on or point it elsewhere', async () => {
    // Every module the process loads from outside the bundle is noted: with telemetry off, no
    // OpenTelemetry package may be among them (the start would pay for loading it).
    const loaded = join(home, 'loaded-modules.txt');
    const probe = join(home, 'note-loads.cjs');
    await writeFile(
      probe,
      `const Module = require('node:module'); const fs = require('node:fs'); const load = Module._load;
Module._load = function (request, ...rest) { fs.appendFileSync(${JSON.stringify(loaded)}, request + '\\n'); return load.call(this, request, ...rest); };`,
    );
    await runSession(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        NODE_OPTIONS: `--require ${probe}`,
      },
      {
        env: {
          TOOLPLANE_ENABLE_TELEMETRY: '1',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_LOG_TOOL_DETAILS: '1',
        },
      },
    );
    expect(receiver.requests).toEqual([]);
    const requests = (await readFile(loaded, 'utf8')).split('\n');
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((request) => request.includes('@opentelemetry'))).toEqual([]);
  });

  it('a user settings file can turn it on', async () => {
    await mkdir(join(home, '.toolplane'), { recursive: true });
    await writeFile(
      join(home, '.toolplane', 'settings.json'),
      JSON.stringify({
        env: {
          TOOLPLANE_ENABLE_TELEMETRY: '1',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
      }),
    );
    await runSession({});
    expect(receiver.spans().some((span) => span.name === 'execute_tool Bash')).toBe(true);
  });

  it('a collector that refuses connections is reported once and the session ends normally', async () => {
    const dead = receiver.endpoint;
    await receiver.close();
    receiver = await startOtlpReceiver();
    const run = await runSession({ TOOLPLANE_ENABLE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: dead });
    expect(run.stdout).toContain('done');
    expect(run.stderr.match(/telemetry could not be exported/g)?.length).toBe(1);
  });
});
