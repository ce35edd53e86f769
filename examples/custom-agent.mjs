#!/usr/bin/env node
// A small agent built on toolplane's public API: a custom tool, two built-in tools, permission
// rules, an in-process hook, and the agent loop. Offline by default (a scripted model); with
// ANTHROPIC_API_KEY or OPENAI_BASE_URL set and `--live`, it talks to a real model.
//
//   node examples/custom-agent.mjs            # offline, scripted
//   node examples/custom-agent.mjs --live "What is in this folder?"
import { z } from 'zod';
import {
  assembleToolPool,
  createAnthropicProvider,
  createHookGate,
  createOpenAIProvider,
  createPermissionEngine,
  createScriptedProvider,
  createServices,
  defineTool,
  initShellParser,
  query,
} from 'toolplane';
import { createFileStateStore, createGlobTool, createReadTool, fileStateService } from 'toolplane/tools';

const cwd = process.cwd();
const live = process.argv.includes('--live');
const prompt =
  process.argv
    .slice(2)
    .filter((arg) => arg !== '--live')
    .join(' ') || 'How many lines does package.json have?';

// 1. A tool of our own: a plain definition; the factory fills safe defaults.
const countLines = defineTool({
  name: 'CountLines',
  inputSchema: z.object({ text: z.string().describe('The text whose lines to count.') }),
  prompt: 'Counts the lines of a text. Use it after reading a file.',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  describeInput: (input) => `count lines of ${input.text.length} characters`,
  call: async (input) => String(input.text.split('\n').length),
});

// 2. The pool: built-ins first, then external tools, sorted and deduped.
const pool = assembleToolPool({ builtins: [createReadTool(), createGlobTool(), countLines] });

// 3. Permissions: rules with their sources, in the same grammar as Claude Code's settings.
await initShellParser();
const permissions = createPermissionEngine({
  rules: [
    { rule: 'Read(./**)', behavior: 'allow', source: 'session', root: cwd },
    { rule: 'Read(./.env)', behavior: 'deny', source: 'session', root: cwd },
  ],
  cwd,
  homeDir: process.env.HOME ?? cwd,
});

// 4. A hook, in process: it sees every call before the permission decision.
const hooks = createHookGate({
  projectDir: cwd,
  env: process.env,
  functionHooks: [
    {
      event: 'PreToolUse',
      name: 'log-calls',
      callback: (input) => {
        process.stderr.write(`[hook] ${input.tool_name} ${JSON.stringify(input.tool_input)}\n`);
      },
    },
  ],
});

// 5. A model: a real one with --live, else a scripted one that reads package.json and counts.
const provider = live
  ? process.env.ANTHROPIC_API_KEY
    ? createAnthropicProvider({ env: process.env })
    : createOpenAIProvider({ env: process.env })
  : createScriptedProvider({
      turns: [
        { content: [{ type: 'tool_use', id: 'read', name: 'Read', input: { file_path: `${cwd}/package.json` } }] },
        {
          content: [
            { type: 'tool_use', id: 'count', name: 'CountLines', input: { text: 'placeholder\nfor\nthe demo' } },
          ],
        },
        { expect: { tool_results: ['count'] }, content: [{ type: 'text', text: 'The text has 3 lines.' }] },
      ],
    });

// 6. The loop: an async generator of events; the plane runs every call through the gate chain.
const services = createServices().set(fileStateService, createFileStateStore());
const run = query({
  provider,
  system: 'You are a helpful agent. Use your tools.',
  messages: [{ role: 'user', content: prompt }],
  getPool: () => pool,
  plane: { permissions, hooks, cwd, sessionId: 'example', services },
  maxTurns: 10,
});
let step = await run.next();
while (!step.done) {
  const event = step.value;
  if (event.type === 'tool-call-end') console.log(`${event.record.toolName}: ${event.record.outcome.status}`);
  if (event.type === 'text-delta') process.stdout.write(event.text);
  step = await run.next();
}
console.log(`\n[${step.value.status} after ${step.value.turns} turns]`);
process.exitCode = step.value.status === 'success' ? 0 : 1;
