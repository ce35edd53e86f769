import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { defineBuiltinTool } from '../contract/define-builtin-tool.js';
import type { CallSubject, PermissionGate } from '../contract/gates.js';
import type { PermissionDecision, PermissionRuleEntry } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { jsonSchema, type AnyTool } from '../contract/tool.js';
import { isShellParserReady } from './bash-parser.js';
import { bypassPermissionsNotice } from './bypass-notice.js';
import { createPermissionEngine, type PermissionEngineOptions } from './permission-engine.js';

let root: string;
let cwd: string;
let home: string;
let outside: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-engine-'));
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  outside = path.join(root, 'outside');
  for (const folder of [cwd, home, outside]) mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(cwd, 'a.ts'), 'x');
  writeFileSync(path.join(outside, 'b.txt'), 'x');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const call = () => Promise.resolve('unused');
const bashTool = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call,
});
const readTool = defineBuiltinTool('Read', {
  name: 'Read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: '',
  isReadOnly: () => true,
  getPath: (input) => input.file_path,
  call,
});
const noOp = defineTool({ name: 'NoOp', inputSchema: z.object({}), prompt: '', call });

function entry(behavior: PermissionRuleEntry['behavior'], rule: string): PermissionRuleEntry {
  return { rule, behavior, source: 'userSettings', file: '/home/u/.toolplane/settings.json', root: home };
}

function engineWith(rules: readonly PermissionRuleEntry[], options: Partial<PermissionEngineOptions> = {}) {
  return createPermissionEngine({ rules, cwd, homeDir: home, caseInsensitive: false, ...options });
}

function subject(tool: AnyTool, input: unknown): CallSubject {
  return {
    tool,
    input,
    toolUseId: 'toolu_1',
    context: {
      toolUseId: 'toolu_1',
      signal: new AbortController().signal,
      cwd,
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'default',
      services: createServices(),
    },
  };
}

describe('before the shell grammar is loaded', () => {
  test('preCheck cannot vouch for Bash and decide waits for the grammar', async () => {
    expect(isShellParserReady()).toBe(false);
    const engine = engineWith([entry('deny', 'Bash(rm *)')]);
    expect(engine.preCheck(subject(bashTool, { command: 'rm -rf x' }))).toBeUndefined();
    const pending = engine.decide(subject(bashTool, { command: 'rm -rf x' }));
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).behavior).toBe('deny');
    expect(isShellParserReady()).toBe(true);
  });
});

describe('createPermissionEngine', () => {
  test('decisions are synchronous once the grammar is loaded, and carry the rule and its file', () => {
    const engine = engineWith([entry('allow', 'Bash(npm test:*)')]);
    const decision = engine.decide(subject(bashTool, { command: 'npm test' }));
    expect(decision).toEqual({
      behavior: 'allow',
      reason: {
        kind: 'rule',
        rule: 'Bash(npm test:*)',
        source: 'userSettings',
        file: '/home/u/.toolplane/settings.json',
      },
    });
  });

  test('within a behavior the first rule in settings order wins, wildcard-led or not', () => {
    const wildFirst = engineWith([entry('deny', 'Bash(* -rf *)'), entry('deny', 'Bash(rm:*)')]);
    expect(wildFirst.preCheck(subject(bashTool, { command: 'rm -rf x' }))?.reason).toMatchObject({
      rule: 'Bash(* -rf *)',
    });
    const wordFirst = engineWith([entry('deny', 'Bash(rm:*)'), entry('deny', 'Bash(* -rf *)')]);
    expect(wordFirst.preCheck(subject(bashTool, { command: 'rm -rf x' }))?.reason).toMatchObject({
      rule: 'Bash(rm:*)',
    });
  });

  test('preCheck returns the deny for a call a deny rule covers, nothing otherwise', () => {
    const engine = engineWith([entry('deny', 'Bash(rm *)')]);
    expect(engine.preCheck(subject(bashTool, { command: 'ls && rm -rf x' }))).toMatchObject({
      behavior: 'deny',
      reason: { rule: 'Bash(rm *)' },
    });
    expect(engine.preCheck(subject(bashTool, { command: 'ls' }))).toBeUndefined();
    expect(engine.preCheck(subject(noOp, {}))).toBeUndefined();
  });

  test("the tool's own allow cannot override a deny rule; its deny wins over allow rules", async () => {
    const permissive = defineTool({
      name: 'NoOp',
      inputSchema: z.object({}),
      prompt: '',
      checkPermissions: () => ({ behavior: 'allow', reason: { kind: 'tool', message: 'fine' } }),
      call,
    });
    expect((await engineWith([entry('deny', 'NoOp')]).decide(subject(permissive, {}))).behavior).toBe('deny');
    const strict = defineTool({
      name: 'NoOp',
      inputSchema: z.object({}),
      prompt: '',
      checkPermissions: () =>
        Promise.resolve({
          behavior: 'deny',
          message: 'Not on Sundays.',
          reason: { kind: 'tool', message: 'calendar' },
        } as const),
      call,
    });
    expect(await engineWith([entry('allow', 'NoOp')]).decide(subject(strict, {}))).toMatchObject({
      behavior: 'deny',
      message: 'Not on Sundays.',
    });
  });

  test('a tool check that throws or rejects fails closed to ask', async () => {
    const throwing = defineTool({
      name: 'NoOp',
      inputSchema: z.object({}),
      prompt: '',
      checkPermissions: () => {
        throw new Error('boom');
      },
      call,
    });
    const rejecting = defineTool({
      name: 'NoOp',
      inputSchema: z.object({}),
      prompt: '',
      checkPermissions: () => Promise.reject(new Error('late boom')),
      call,
    });
    const engine = engineWith([entry('allow', 'NoOp')], { mode: 'bypassPermissions' });
    expect(await engine.decide(subject(throwing, {}))).toMatchObject({
      behavior: 'ask',
      reason: { kind: 'safety', message: expect.stringContaining('boom') },
    });
    expect(await engine.decide(subject(rejecting, {}))).toMatchObject({
      behavior: 'ask',
      reason: { kind: 'safety', message: expect.stringContaining('late boom') },
    });
  });

  test('setMode changes later decisions', () => {
    const engine = engineWith([]);
    const edit = defineBuiltinTool('Edit', {
      name: 'Edit',
      inputSchema: jsonSchema({}),
      prompt: '',
      getPath: (input: { file_path: string }) => input.file_path,
      call,
    });
    const input = { file_path: path.join(cwd, 'a.ts') };
    expect((engine.decide(subject(edit, input)) as PermissionDecision).behavior).toBe('ask');
    engine.setMode('acceptEdits');
    expect(engine.mode).toBe('acceptEdits');
    expect(engine.decide(subject(edit, input))).toEqual({
      behavior: 'allow',
      reason: { kind: 'mode', mode: 'acceptEdits' },
    });
    engine.setMode('plan');
    expect((engine.decide(subject(edit, input)) as PermissionDecision).behavior).toBe('deny');
  });

  test('ask decisions suggest the rule an "always allow" would save and what it covers', () => {
    const engine = engineWith([]);
    expect(engine.decide(subject(bashTool, { command: 'npm run build -- --watch && cargo test' }))).toMatchObject({
      behavior: 'ask',
      suggestions: [
        { rule: 'Bash(npm run build:*)', behavior: 'allow', covers: 'commands starting with npm run build' },
        { rule: 'Bash(cargo test:*)', behavior: 'allow', covers: 'commands starting with cargo test' },
      ],
    });
    expect(engine.decide(subject(readTool, { file_path: path.join(outside, 'b.txt') }))).toMatchObject({
      suggestions: [{ rule: `Read(/${outside}/**)`, covers: `reading files under ${outside}` }],
    });
    const parseFailure = engine.decide(subject(bashTool, { command: 'ls &&& npm test' })) as PermissionDecision;
    expect(parseFailure.behavior === 'ask' && parseFailure.suggestions).toBeFalsy();
  });

  test('at most five suggestions, one per command that needs approval', () => {
    const engine = engineWith([]);
    const decision = engine.decide(subject(bashTool, { command: 'a1; a2; a3; a4; a5; a6; a7' })) as PermissionDecision;
    expect(decision.behavior === 'ask' && decision.suggestions?.length).toBe(5);
  });

  test('remember adds a session rule that applies at once', () => {
    const engine = engineWith([]);
    engine.remember({ rule: 'Bash(npm test:*)', behavior: 'allow', destination: 'session' });
    expect(engine.decide(subject(bashTool, { command: 'npm test' }))).toMatchObject({
      behavior: 'allow',
      reason: { source: 'session' },
    });
    engine.remember({ rule: 'NoOp', behavior: 'deny', destination: 'localSettings' });
    expect(engine.isBlanketDenied('NoOp')).toBe(true);
  });

  test('isBlanketDenied only for bare-name denies', () => {
    const engine = engineWith([entry('deny', 'Bash(rm *)'), entry('deny', 'mcp__slack'), entry('deny', 'Web*')]);
    expect(engine.isBlanketDenied('Bash')).toBe(false);
    expect(engine.isBlanketDenied('mcp__slack__post')).toBe(true);
    expect(engine.isBlanketDenied('mcp__slackbot__post')).toBe(false);
    expect(engine.isBlanketDenied('WebFetch')).toBe(true);
    expect(engine.isBlanketDenied('Read')).toBe(false);
  });

  test('validateRules names unknown tools and carries parse diagnostics with their file', () => {
    const engine = engineWith([
      entry('deny', 'Bsah(rm *)'),
      entry('allow', '*'),
      entry('ask', 'mcp__nope'),
      entry('deny', 'Read(.env)'),
      entry('allow', 'Bash(ls:*)'),
    ]);
    const diagnostics = engine.validateRules({ toolNames: ['Bash', 'Read', 'mcp__github__x'] });
    expect(diagnostics.map((item) => [item.behavior, item.rule])).toEqual([
      ['allow', '*'],
      ['deny', 'Bsah(rm *)'],
      ['ask', 'mcp__nope'],
    ]);
    expect(diagnostics[1]).toMatchObject({
      file: '/home/u/.toolplane/settings.json',
      source: 'userSettings',
      message: expect.stringContaining('not a known tool'),
    });
  });

  test('validateRules warns about a specifier only for tools that name no path', () => {
    const engine = engineWith([entry('deny', 'Plain(./x)'), entry('deny', 'Pathy(./x)'), entry('allow', 'Plain(./y)')]);
    const plain = defineTool({ name: 'Plain', inputSchema: z.object({}), prompt: '', call });
    const pathy = defineTool({
      name: 'Pathy',
      inputSchema: z.object({ file: z.string() }),
      prompt: '',
      getPath: (input) => input.file,
      call,
    });
    const messages = engine.validateRules({ tools: [plain, pathy] }).map((problem) => problem.message);
    expect(messages).toEqual([
      expect.stringMatching(/^Rule Plain\(\.\/x\): .*covers every Plain call/),
      expect.stringMatching(/^Allow rule Plain\(\.\/y\) is ignored/),
    ]);
    expect(engine.validateRules().map((problem) => problem.rule)).toEqual([]);
  });

  test('pathDenial lets listing tools drop denied results', () => {
    const engine = engineWith([entry('deny', 'Read(~/.ssh/**)')]);
    expect(engine.pathDenial(path.join(home, '.ssh', 'id_rsa'), 'read')).toMatchObject({
      behavior: 'deny',
      reason: { rule: 'Read(~/.ssh/**)' },
    });
    expect(engine.pathDenial(path.join(cwd, 'a.ts'), 'read')).toBeUndefined();
  });

  test('addDirectory widens the working folders', () => {
    const engine = engineWith([]);
    const input = { file_path: path.join(outside, 'b.txt') };
    expect((engine.decide(subject(readTool, input)) as PermissionDecision).behavior).toBe('ask');
    engine.addDirectory(outside);
    expect((engine.decide(subject(readTool, input)) as PermissionDecision).behavior).toBe('allow');
  });

  test('rules for Agent cover a tool still named Task, and the other way round', () => {
    const task = defineTool({ name: 'Task', inputSchema: z.object({}), prompt: '', call });
    expect(
      (
        engineWith([entry('deny', 'Agent(Explore)')]).decide(
          subject(task, { subagent_type: 'Explore' }),
        ) as PermissionDecision
      ).behavior,
    ).toBe('deny');
    expect(engineWith([entry('deny', 'Task')]).isBlanketDenied('Agent')).toBe(true);
  });

  test('a tool whose getPath or isReadOnly throws is judged without them, never crashing the decision', () => {
    const broken = defineTool({
      name: 'Broken',
      inputSchema: z.object({}),
      prompt: '',
      isReadOnly: () => {
        throw new Error('no');
      },
      getPath: () => {
        throw new Error('no');
      },
      call,
    });
    expect(engineWith([]).decide(subject(broken, {}))).toMatchObject({ behavior: 'ask' });
    expect(engineWith([], { mode: 'plan' }).decide(subject(broken, {}))).toMatchObject({ behavior: 'deny' });
  });

  test('a Bash call without a command string fails closed', () => {
    expect(
      (engineWith([], { mode: 'bypassPermissions' }).decide(subject(bashTool, { command: 42 })) as PermissionDecision)
        .behavior,
    ).toBe('ask');
  });

  test('protectedFolders protects a moved toolplane folder in every mode, and nothing beside it', () => {
    const config = path.join(outside, 'toolplane-config');
    const writeTool = defineBuiltinTool('Write', {
      name: 'Write',
      inputSchema: z.object({ file_path: z.string() }),
      prompt: '',
      getPath: (input) => input.file_path,
      call,
    });
    const bypass = engineWith([], { mode: 'bypassPermissions', protectedFolders: [config] });
    expect(bypass.decide(subject(writeTool, { file_path: path.join(config, 'trusted-projects.json') }))).toMatchObject({
      behavior: 'ask',
    });
    expect(
      bypass.decide(subject(bashTool, { command: `echo x > ${path.join(config, 'settings.json')}` })),
    ).toMatchObject({ behavior: 'ask' });
    expect(
      bypass.decide(subject(writeTool, { file_path: path.join(outside, 'toolplane-config-old', 'x.json') })),
    ).toMatchObject({ behavior: 'allow' });
    expect(
      engineWith([], { mode: 'bypassPermissions' }).decide(
        subject(writeTool, { file_path: path.join(config, 'settings.json') }),
      ),
    ).toMatchObject({ behavior: 'allow' });
  });

  test('a user-settings /path rule is anchored to its root, not the project', () => {
    const engine = engineWith([entry('deny', 'Read(/secrets/**)')]);
    expect(engine.pathDenial(path.join(home, 'secrets', 'k'), 'read')).toBeDefined();
    expect(engine.pathDenial(path.join(cwd, 'secrets', 'k'), 'read')).toBeUndefined();
  });
});

describe('bypassPermissionsNotice', () => {
  test('says what still applies, and warns about root', () => {
    expect(bypassPermissionsNotice({ isRoot: false })).toMatch(
      /Deny rules, ask rules and critical rm targets still apply/,
    );
    expect(bypassPermissionsNotice({ isRoot: false })).not.toMatch(/root/);
    expect(bypassPermissionsNotice({ isRoot: true })).toMatch(/Running as root/);
  });

  test('the engine is a PermissionGate', () => {
    const gate: PermissionGate = engineWith([]);
    expect(typeof gate.preCheck).toBe('function');
  });
});

describe('case-insensitive disks', () => {
  test('a deny rule sees an upper-cased program name, which runs the same program there', async () => {
    const rules = [entry('allow', 'Bash(*)'), entry('deny', 'Bash(rm *)')];
    expect(
      (await engineWith(rules, { caseInsensitive: true }).decide(subject(bashTool, { command: 'RM -rf a.ts' })))
        .behavior,
    ).toBe('deny');
    expect(
      (await engineWith(rules, { caseInsensitive: true }).decide(subject(bashTool, { command: '/bin/Rm -rf a.ts' })))
        .behavior,
    ).toBe('deny');
    expect(
      (await engineWith(rules, { caseInsensitive: false }).decide(subject(bashTool, { command: 'RM -rf a.ts' })))
        .behavior,
    ).toBe('allow');
  });
});

test('on a case-insensitive disk RM of the home folder is a critical rm, even in bypass mode', async () => {
  const engine = engineWith([], { caseInsensitive: true, mode: 'bypassPermissions' });
  expect((await engine.decide(subject(bashTool, { command: 'RM -rf ~' }))).behavior).toBe('ask');
});
