// Hooks and settings benchmark: what the hook gate adds to a call when no hook matches and with
// two in-process function hooks, the cost of one command hook, a command and a prompt hook whose
// `if` does not match (no process, no request) and does, and loading five settings files.
// Run after `npm run build`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../dist/contract/define-tool.js';
import { createServices } from '../dist/contract/services.js';
import { createHookGate } from '../dist/hooks/create-hook-gate.js';
import { initShellParser } from '../dist/permissions/bash-parser.js';
import { createHookConditionJudge } from '../dist/session/hook-conditions.js';
import { defineBuiltinTool } from '../dist/contract/define-builtin-tool.js';
import { loadSettings } from '../dist/settings/load-settings.js';
import { createAnthropicProvider } from '../dist/providers/anthropic/anthropic-provider.js';
import { createHookRunners } from '../dist/session/hook-runners.js';
import { startMockAnthropicServer } from '../dist/testing/mock-anthropic-server.js';

const bash = defineTool({
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: 'Runs a command.',
  call: async () => 'ok',
});
const signal = new AbortController().signal;
const subject = {
  tool: bash,
  input: { command: 'git status' },
  toolUseId: 'toolu_1',
  context: {
    toolUseId: 'toolu_1',
    signal,
    cwd: '/work',
    sessionId: 's',
    agentId: 'main',
    permissionMode: 'default',
    services: createServices(),
  },
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median over rounds of the mean µs per call of a synchronous or asynchronous operation. */
async function perCallMicros(operation, { rounds = 9, iterations = 100_000 } = {}) {
  const samples = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) {
      const result = operation();
      if (result instanceof Promise) await result;
    }
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / iterations);
  }
  return Number(median(samples).toFixed(4));
}

async function medianMillis(operation, runs) {
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    await operation();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return Number(median(samples).toFixed(3));
}

export async function run() {
  const none = createHookGate({ projectDir: '/work', env: {} });
  const unmatched = createHookGate({
    projectDir: '/work',
    env: {},
    functionHooks: [
      {
        event: 'PreToolUse',
        matcher: 'Edit|Write',
        name: 'edits',
        callback: () => ({ hookSpecificOutput: { permissionDecision: 'ask' } }),
      },
      { event: 'PreToolUse', matcher: 'mcp__.*', name: 'mcp', callback: () => undefined },
    ],
  });
  const twoMatching = createHookGate({
    projectDir: '/work',
    env: {},
    functionHooks: [
      { event: 'PreToolUse', matcher: 'Bash', name: 'audit', callback: () => undefined },
      {
        event: 'PreToolUse',
        name: 'policy',
        callback: (input) =>
          input.tool_input.command.startsWith('rm') ? { decision: 'block', reason: 'no rm' } : undefined,
      },
    ],
  });

  const base = await mkdtemp(join(tmpdir(), 'toolplane-bench-hooks-'));
  try {
    const command = createHookGate({
      projectDir: base,
      env: { PATH: process.env.PATH },
      settings: new Map([
        ['PreToolUse', [{ hooks: [{ type: 'command', command: 'cat > /dev/null' }], source: 'projectSettings' }]],
      ]),
    });
    // A command hook with "if": the condition is judged by the rule engine before any process starts.
    await initShellParser();
    const guarded = createHookGate({
      projectDir: base,
      env: { PATH: process.env.PATH },
      settings: new Map([
        [
          'PreToolUse',
          [
            {
              hooks: [{ type: 'command', command: 'cat > /dev/null', if: 'Bash(git push:*)' }],
              source: 'projectSettings',
            },
          ],
        ],
      ]),
      conditionMatches: createHookConditionJudge({ cwd: base, homeDir: base }),
    });
    const builtinBash = defineBuiltinTool('Bash', {
      name: 'Bash',
      inputSchema: z.object({ command: z.string() }),
      prompt: '',
      call: async () => 'ok',
    });
    const callOf = (text) => ({ ...subject, tool: builtinBash, input: { command: text } });
    const project = join(base, 'project');
    const userDir = join(base, 'config');
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await mkdir(userDir, { recursive: true });
    const rules = (prefix) => ({
      permissions: { allow: Array.from({ length: 20 }, (_, i) => `Bash(${prefix}-${i} *)`), deny: ['Read(.env)'] },
    });
    await writeFile(join(base, 'managed.json'), JSON.stringify(rules('managed')));
    await writeFile(join(base, 'cli.json'), JSON.stringify(rules('cli')));
    await writeFile(join(project, '.toolplane', 'settings.local.json'), JSON.stringify(rules('local')));
    await writeFile(
      join(project, '.toolplane', 'settings.json'),
      JSON.stringify({
        ...rules('project'),
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x' }] }] },
      }),
    );
    await writeFile(join(userDir, 'settings.json'), JSON.stringify(rules('user')));
    const load = () =>
      loadSettings({
        cwd: project,
        env: { TOOLPLANE_CONFIG_DIR: userDir },
        homeDir: base,
        managedSettingsFile: join(base, 'managed.json'),
        cli: { settings: join(base, 'cli.json') },
        session: 'headless',
      });

    // A prompt hook with "if": one whose rule the call does not match sends no request to the judge.
    const judge = await startMockAnthropicServer({ recordBodies: false });
    const provider = createAnthropicProvider({ env: { ANTHROPIC_API_KEY: 'k' }, baseURL: judge.baseURL });
    const prompted = createHookGate({
      projectDir: base,
      env: {},
      settings: new Map([
        [
          'PreToolUse',
          [{ hooks: [{ type: 'prompt', prompt: 'Judge', if: 'Bash(git push:*)' }], source: 'projectSettings' }],
        ],
      ]),
      conditionMatches: createHookConditionJudge({ cwd: base, homeDir: base }),
      runners: createHookRunners({
        provider,
        model: () => 'judge',
        mcp: undefined,
        services: createServices(),
        tools: () => undefined,
        plane: () => undefined,
        costs: () => undefined,
        cwd: base,
      }),
    });
    const judged = async () => {
      judge.enqueue({ content: [{ type: 'text', text: '{"ok": true}' }] });
      await prompted.preToolUse(callOf('git push origin main'), signal);
    };
    const promptIfNotMatching = await perCallMicros(() => prompted.preToolUse(callOf('git status'), signal), {
      iterations: 2_000,
    });
    const promptIfMatching = await medianMillis(judged, 30);
    await judge.close();

    return {
      preToolUsePromptHookIfNotMatchingMicros: promptIfNotMatching,
      preToolUsePromptHookIfMatchingMockJudgeMedianMs: promptIfMatching,
      preToolUseNoHooksMicros: await perCallMicros(() => none.preToolUse(subject, signal)),
      preToolUseTwoUnmatchedFunctionHooksMicros: await perCallMicros(() => unmatched.preToolUse(subject, signal)),
      preToolUseTwoMatchingFunctionHooksMicros: await perCallMicros(() => twoMatching.preToolUse(subject, signal)),
      preToolUseOneCommandHookMedianMs: await medianMillis(() => command.preToolUse(subject, signal), 30),
      preToolUseCommandHookIfNotMatchingMicros: await perCallMicros(
        () => guarded.preToolUse(callOf('git status'), signal),
        { iterations: 2_000 },
      ),
      preToolUseCommandHookIfMatchingMedianMs: await medianMillis(
        () => guarded.preToolUse(callOf('git push origin main'), signal),
        30,
      ),
      loadFiveSettingsFilesMedianMs: await medianMillis(load, 50),
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
