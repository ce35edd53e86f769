import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import type { CallSubject } from '../contract/gates.js';
import type { PermissionDecision, PermissionMode, PermissionRuleEntry } from '../contract/permission.js';
import { createCallContext } from '../testing/call-context.js';
import type { AnyTool } from '../contract/tool.js';
import { createGrepTool } from '../tools/grep/grep-tool.js';
import { createBashTool } from '../tools/bash/bash-tool.js';
import { createExitPlanModeTool } from '../tools/plan-mode/plan-mode-tools.js';
import { initShellParser } from './bash-parser.js';
import { createPermissionEngine } from './permission-engine.js';

let root: string;
let cwd: string;
let home: string;

beforeAll(async () => {
  await initShellParser();
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-declared-'));
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  for (const folder of ['reports/private', 'secrets', 'secrets-public', 'src', 'other'])
    mkdirSync(path.join(cwd, folder), { recursive: true });
  mkdirSync(path.join(home, 'notes'), { recursive: true });
  writeFileSync(path.join(cwd, '.env'), 'TOKEN=x');
  writeFileSync(path.join(cwd, 'secrets', 'x'), 'x');
  // A link inside the allowed folder whose target is the denied .env.
  symlinkSync(path.join(cwd, '.env'), path.join(cwd, 'reports', 'env-link'));
  // A link inside the allowed folder pointing outside the project.
  symlinkSync(path.join(root), path.join(cwd, 'reports', 'out'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const call = () => Promise.resolve('unused');

/** A host's tool that writes the file at `path`. */
const writeReport = defineTool({
  name: 'WriteReport',
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  prompt: 'Writes a report.',
  paths: [{ field: 'path', access: 'write' }],
  call,
});

/** A host's tool that only reads the file at `source`. */
const readNotes = defineTool({
  name: 'ReadNotes',
  inputSchema: z.object({ source: z.string() }),
  prompt: 'Reads notes.',
  isReadOnly: () => true,
  paths: [{ field: 'source', access: 'read' }],
  call,
});

/** A host's tool that copies `from` to `to`. */
const copyFile = defineTool({
  name: 'CopyFile',
  inputSchema: z.object({ from: z.string(), to: z.string() }),
  prompt: 'Copies a file.',
  paths: [
    { field: 'from', access: 'read' },
    { field: 'to', access: 'write' },
  ],
  call,
});

/** A host's own tool that happens to be called Grep: it writes its matches to a file. */
const hostGrep = defineTool({
  name: 'Grep',
  inputSchema: z.object({ pattern: z.string(), path: z.string() }),
  prompt: 'Greps and saves the matches to a file.',
  call,
});

function entry(behavior: PermissionRuleEntry['behavior'], rule: string): PermissionRuleEntry {
  return { rule, behavior, source: 'projectSettings', file: '.toolplane/settings.json', root: cwd };
}

function decideAny(
  tool: AnyTool,
  input: unknown,
  rules: readonly PermissionRuleEntry[],
  mode: PermissionMode = 'default',
): PermissionDecision | Promise<PermissionDecision> {
  const engine = createPermissionEngine({ rules, cwd, homeDir: home, caseInsensitive: false, mode });
  const subject: CallSubject = {
    tool,
    input,
    toolUseId: 'toolu_test',
    context: createCallContext({ cwd, permissionMode: mode }),
  };
  return engine.decide(subject);
}

function decide(...args: Parameters<typeof decideAny>): PermissionDecision {
  const decision = decideAny(...args);
  if (decision instanceof Promise) throw new Error('decided asynchronously');
  return decision;
}

const report = (file: string) => ({ path: file, text: 'r' });
const ruleOf = (decision: PermissionDecision) =>
  decision.behavior !== 'passthrough' && decision.reason?.kind === 'rule' ? decision.reason.rule : undefined;

describe('path rules of a tool that declares its path field', () => {
  test('an allow rule approves writes under its folder, and only there', () => {
    const rules = [entry('allow', 'WriteReport(./reports/**)')];
    const allowed = decide(writeReport, report('reports/q1.md'), rules);
    expect(allowed.behavior).toBe('allow');
    expect(ruleOf(allowed)).toBe('WriteReport(./reports/**)');
    expect(decide(writeReport, report(path.join(cwd, 'reports', 'private', 'a.md')), rules).behavior).toBe('allow');
    // Look-alikes: a sibling folder with the same prefix, a climb out, a link out.
    expect(decide(writeReport, report('reports-old/q1.md'), rules).behavior).toBe('ask');
    expect(decide(writeReport, report('reports/../other/q1.md'), rules).behavior).toBe('ask');
    expect(decide(writeReport, report('reports/out/elsewhere.md'), rules).behavior).toBe('ask');
  });

  test('an ask rule asks even where an allow rule approves', () => {
    const rules = [entry('ask', 'WriteReport(./reports/private/**)'), entry('allow', 'WriteReport(./reports/**)')];
    const asked = decide(writeReport, report('reports/private/a.md'), rules);
    expect(asked.behavior).toBe('ask');
    expect(ruleOf(asked)).toBe('WriteReport(./reports/private/**)');
    expect(decide(writeReport, report('reports/public.md'), rules).behavior).toBe('allow');
  });

  test('a deny rule blocks, with the same anchors as Read and Edit rules', () => {
    expect(
      decide(writeReport, report('reports/final.md'), [entry('deny', 'WriteReport(/reports/final.md)')]),
    ).toMatchObject({
      behavior: 'deny',
    });
    const home_ = [entry('deny', 'WriteReport(~/notes/**)')];
    expect(decide(writeReport, report(path.join(home, 'notes', 'a.md')), home_).behavior).toBe('deny');
    expect(decide(writeReport, report('~/notes/a.md'), home_).behavior).toBe('deny');
    const absolute = [entry('deny', `WriteReport(/${path.join(cwd, 'other')}/**)`)];
    expect(decide(writeReport, report('other/x.md'), absolute).behavior).toBe('deny');
    // A bare name matches at any depth, gitignore style; a longer name does not.
    const bare = [entry('deny', 'WriteReport(*.secret)')];
    expect(decide(writeReport, report('reports/private/q.secret'), bare).behavior).toBe('deny');
    expect(decide(writeReport, report('reports/q.secret.md'), bare).behavior).toBe('ask');
  });

  test('a deny rule applies when either the link or its target matches', () => {
    const rules = [entry('deny', 'WriteReport(.env)'), entry('allow', 'WriteReport(./reports/**)')];
    expect(decide(writeReport, report('reports/env-link'), rules).behavior).toBe('deny');
  });

  test('protected paths still ask under an allow rule, in bypass mode too', () => {
    const rules = [entry('allow', 'WriteReport(**)')];
    expect(decide(writeReport, report('.git/config'), rules).behavior).toBe('ask');
    expect(decide(writeReport, report('.git/hooks/pre-commit'), [], 'bypassPermissions').behavior).toBe('ask');
    expect(decide(writeReport, report('src/a.md'), rules).behavior).toBe('allow');
  });

  test('Edit deny rules cover its writes and Read deny rules all its paths', () => {
    expect(decide(writeReport, report('.env'), [entry('deny', 'Edit(.env)')])).toMatchObject({
      behavior: 'deny',
      reason: { rule: 'Edit(.env)' },
    });
    expect(decide(writeReport, report('src/.env'), [entry('deny', 'Edit(.env)')]).behavior).toBe('deny');
    expect(decide(readNotes, { source: 'secrets/x' }, [entry('deny', 'Read(./secrets/**)')])).toMatchObject({
      behavior: 'deny',
      reason: { rule: 'Read(./secrets/**)' },
    });
    expect(decide(writeReport, report('secrets/new.md'), [entry('deny', 'Read(./secrets/**)')]).behavior).toBe('deny');
    // Both paths of a copy are checked: the read side by Read rules, the write side by Edit rules too.
    expect(decide(copyFile, { from: 'secrets/x', to: 'src/x' }, [entry('deny', 'Read(./secrets/**)')]).behavior).toBe(
      'deny',
    );
    expect(decide(copyFile, { from: 'src/a', to: '.env' }, [entry('deny', 'Edit(.env)')]).behavior).toBe('deny');
  });

  test('harmless look-alikes of denied paths are not blocked', () => {
    const rules = [entry('deny', 'Read(./secrets/**)'), entry('deny', 'Edit(.env)')];
    expect(decide(readNotes, { source: 'secrets-public/x' }, rules).behavior).toBe('allow');
    expect(decide(readNotes, { source: 'src/a.ts' }, rules)).toMatchObject({ behavior: 'allow' });
    expect(decide(writeReport, report('.env.example'), rules).behavior).toBe('ask');
    // An Edit deny is about writing: reading the file is a Read rule's business.
    expect(decide(readNotes, { source: '.env' }, [entry('deny', 'Edit(.env)')]).behavior).toBe('allow');
  });

  test('a read-only tool reading outside the working folders asks, and its own allow rule approves it', () => {
    const outside = path.join(root, 'elsewhere.txt');
    expect(decide(readNotes, { source: outside }, []).behavior).toBe('ask');
    expect(decide(readNotes, { source: outside }, [entry('allow', `ReadNotes(/${root}/*.txt)`)]).behavior).toBe(
      'allow',
    );
    // A Read allow rule is for the Read tool: it does not approve a host tool.
    expect(decide(writeReport, report('reports/a.md'), [entry('allow', 'Edit(./reports/**)')]).behavior).toBe('ask');
  });

  test('acceptEdits approves its writes inside the working folders only', () => {
    expect(decide(writeReport, report('reports/a.md'), [], 'acceptEdits').behavior).toBe('allow');
    expect(decide(writeReport, report(path.join(root, 'out.md')), [], 'acceptEdits').behavior).toBe('ask');
  });

  test('a path rule for a tool that declares no path covers every call as a deny', () => {
    const noPaths = defineTool({ name: 'Publish', inputSchema: z.object({ path: z.string() }), prompt: '', call });
    expect(decide(noPaths, { path: 'src/a' }, [entry('deny', 'Publish(./reports/**)')]).behavior).toBe('deny');
    expect(decide(noPaths, { path: 'src/a' }, [entry('allow', 'Publish(./src/**)')]).behavior).toBe('ask');
  });
});

describe('a host tool named like a built-in is not the built-in', () => {
  test('a host Grep that writes is not judged read-only, and Read rules do not decide it as Grep', () => {
    const rules = [entry('deny', 'Read(./secrets/**)')];
    const hostDecision = decide(hostGrep, { pattern: 'x', path: 'src' }, []);
    expect(hostDecision.behavior).toBe('ask');
    expect(hostDecision.behavior === 'allow' && hostDecision.readOnly).toBeFalsy();
    expect(decide(hostGrep, { pattern: 'x', path: 'src' }, [], 'plan').behavior).toBe('deny');
    const secrets = decide(hostGrep, { pattern: 'x', path: 'secrets' }, rules);
    expect(secrets.behavior).toBe('ask');
    expect(ruleOf(secrets)).toBeUndefined();
  });

  test('the built-in Grep keeps its read-only judging and its Read deny rules', () => {
    const grep = createGrepTool();
    expect(decide(grep, { pattern: 'x', path: 'src' }, [])).toMatchObject({ behavior: 'allow', readOnly: true });
    expect(decide(grep, { pattern: 'x', path: 'secrets' }, [entry('deny', 'Read(./secrets/**)')]).behavior).toBe(
      'deny',
    );
  });

  test('a Bash rule covers every call of a host tool named Bash; the built-in is matched by command', async () => {
    const hostBash = defineTool({ name: 'Bash', inputSchema: z.object({ command: z.string() }), prompt: '', call });
    const rules = [entry('deny', 'Bash(rm *)')];
    expect(decide(hostBash, { command: 'echo hi' }, rules).behavior).toBe('deny');
    const bash = createBashTool({ env: {} });
    expect((await decideAny(bash, { command: 'echo hi' }, rules)).behavior).toBe('allow');
    expect((await decideAny(bash, { command: 'rm -rf x' }, rules)).behavior).toBe('deny');
  });

  test('plan mode lets the built-in ExitPlanMode through, not a host tool of that name', () => {
    const hostExit = defineTool({ name: 'ExitPlanMode', inputSchema: z.object({}), prompt: '', call });
    expect(decide(hostExit, {}, [], 'plan').behavior).toBe('deny');
    expect(decide(createExitPlanModeTool(), { plan: 'p' }, [], 'plan').behavior).not.toBe('deny');
  });
});
