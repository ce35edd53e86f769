#!/usr/bin/env node
// A complete agent session on toolplane's public API: two tools of our own with permission rules
// and a hook, plan mode, a subagent, a /clear-like reset and a resume. Offline: a scripted model.
//
//   node examples/agent-session.mjs
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  createAgentSession,
  createPermissionEngine,
  createPermissionModeStore,
  createScriptedProvider,
  createServices,
  createSessionStore,
  defineTool,
} from 'toolplane';
import { createAgentTool, createEnterPlanModeTool, createExitPlanModeTool, INTERACTION_CHANNEL } from 'toolplane/tools';

const root = await mkdtemp(join(tmpdir(), 'toolplane-example-'));
const cwd = root;

// 1. Two tools of our own: one writes (not read-only, so plan mode holds it back), one only reads.
const writeReport = defineTool({
  name: 'WriteReport',
  inputSchema: z.object({ name: z.string().regex(/^[a-z-]+$/), text: z.string() }),
  prompt: 'Writes a report (Markdown) under the reports folder.',
  describeInput: (input) => `write report ${input.name}`,
  call: async (input) => {
    await writeFile(join(root, `${input.name}.md`), input.text);
    return `Wrote ${input.name}.md`;
  },
});
const listReports = defineTool({
  name: 'ListReports',
  inputSchema: z.object({}),
  prompt: 'Lists the reports written so far.',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async () => (await readdir(root)).filter((name) => name.endsWith('.md')).join('\n'),
});

// 2. Rules (Claude Code's grammar) over one mode store that plan mode and every call read too.
const modes = createPermissionModeStore('default');
const permissions = createPermissionEngine({
  rules: [
    { rule: 'WriteReport', behavior: 'allow', source: 'session', root: cwd },
    { rule: 'ListReports', behavior: 'allow', source: 'session', root: cwd },
  ],
  modeStore: modes,
  cwd,
  homeDir: root,
});

// 3. The model: scripted turns, consumed in order by the session and its subagent.
const provider = createScriptedProvider({
  turns: [
    { content: [{ type: 'tool_use', id: 'plan', name: 'EnterPlanMode', input: {} }] },
    { content: [{ type: 'tool_use', id: 'early', name: 'WriteReport', input: { name: 'weekly', text: 'draft' } }] },
    {
      content: [
        {
          type: 'tool_use',
          id: 'exit',
          name: 'ExitPlanMode',
          input: { plan: 'Write the weekly report, then have it checked.' },
        },
      ],
    },
    {
      content: [
        { type: 'tool_use', id: 'write', name: 'WriteReport', input: { name: 'weekly', text: '# Weekly\nAll green.' } },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'check',
          name: 'Agent',
          input: { description: 'Check the reports', prompt: 'List the reports and say how many there are.' },
        },
      ],
    },
    { content: [{ type: 'tool_use', id: 'list', name: 'ListReports', input: {} }] },
    { content: [{ type: 'text', text: 'There is one report: weekly.md.' }] },
    { content: [{ type: 'text', text: 'The weekly report is written and checked.' }] },
    { content: [{ type: 'text', text: 'Resumed: the weekly report is still there.' }] },
  ],
});

// 4. Services only the host can give: here, the person who reviews plans (always approves).
const services = createServices().set(INTERACTION_CHANNEL, {
  askQuestions: async () => ({ kind: 'declined' }),
  reviewPlan: async () => ({ approved: true, mode: 'default' }),
});

const session = await createAgentSession({
  provider,
  system: 'You write and check reports.',
  cwd,
  env: process.env,
  homeDir: root,
  sessions: createSessionStore({ configDir: join(root, '.sessions'), cwd }),
  tools: [
    writeReport,
    listReports,
    createEnterPlanModeTool(),
    createExitPlanModeTool(),
    createAgentTool({ agentTypes: [] }),
  ],
  permissions,
  modes,
  services,
  functionHooks: [
    {
      event: 'PreToolUse',
      name: 'audit',
      callback: (input) => {
        console.log(`[hook] ${input.tool_name} in ${input.permission_mode} mode`);
      },
    },
  ],
});

async function ask(prompt) {
  const turn = session.submit(prompt, new AbortController().signal);
  let step = await turn.next();
  for (; !step.done; step = await turn.next()) {
    const event = step.value;
    if (event.type === 'tool-call-end') console.log(`${event.record.toolName}: ${event.record.outcome.status}`);
  }
  console.log(`[${step.value.status}] ${step.value.text}`);
}

try {
  await ask('Write the weekly report.');
  console.log(`mode after the plan: ${modes.get()}`);
  const id = session.id();
  await session.clear();
  console.log(`cleared: ${session.messages().length} messages`);
  await session.resume(id);
  console.log(
    `resumed ${session.id() === id ? 'the same session' : 'another session'}: ${session.messages().length} messages`,
  );
  await ask('Is the report still there?');
  console.log(`report: ${JSON.stringify(await readFile(join(root, 'weekly.md'), 'utf8'))}`);
} finally {
  await session.close();
  await rm(root, { recursive: true, force: true });
}
