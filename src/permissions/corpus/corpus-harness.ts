import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { PreToolUseOutcome } from '../../contract/gates.js';
import type { PermissionDecision, PermissionMode, PermissionRuleEntry } from '../../contract/permission.js';
import { createServices } from '../../contract/services.js';
import { createShellState, SHELL_STATE } from '../../contract/shell-state.js';
import { jsonSchema, type AnyTool } from '../../contract/tool.js';
import { createPermissionEngine } from '../permission-engine.js';

/**
 * The table-driven permission corpus: each case is rules, mode, tool, input and the expected
 * decision, run against a real folder tree (with symlinks) in a temp folder. Used by the corpus
 * test files only.
 */

/** One corpus case. Strings in `input` may use {cwd}, {home}, {extra}, {outside}, {tmp}. */
export type CorpusCase = {
  readonly name: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** `behavior rule`, e.g. `allow Bash(npm test:*)`, `deny Read(.env)`. */
  readonly rules?: readonly string[];
  readonly mode?: PermissionMode;
  readonly hook?: 'allow' | 'deny' | 'ask';
  /** The folder an earlier Bash call left the shell in (the SHELL_STATE service); may use the placeholders. */
  readonly shellCwd?: string;
  readonly expect: 'allow' | 'deny' | 'ask';
};

/** The temp folder tree cases run in. */
export type Workspace = {
  readonly root: string;
  readonly cwd: string;
  readonly home: string;
  readonly extra: string;
  readonly outside: string;
  dispose(): void;
};

/** Creates the workspace: a project, a home with secrets, an additional folder, symlinks out. */
export function createWorkspace(): Workspace {
  const root = mkdtempSync(path.join(tmpdir(), 'toolplane-permissions-'));
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  const extra = path.join(root, 'extra');
  const outside = path.join(root, 'outside');
  for (const folder of [
    cwd,
    home,
    extra,
    outside,
    path.join(cwd, 'src'),
    path.join(cwd, 'secrets'),
    path.join(cwd, '.git'),
    path.join(cwd, 'vendor', 'lib', '.git'),
    path.join(home, '.ssh'),
    path.join(root, 'project-evil'),
  ]) {
    mkdirSync(folder, { recursive: true });
  }
  const files: Readonly<Record<string, string>> = {
    [path.join(cwd, 'src', 'a.ts')]: 'export {};\n',
    [path.join(cwd, '.env')]: 'TOKEN=1\n',
    [path.join(cwd, 'secrets', 'key.txt')]: 'k\n',
    [path.join(cwd, '.git', 'config')]: '[core]\n',
    // A nested repository: its own configuration could name programs git runs.
    [path.join(cwd, 'vendor', 'lib', '.git', 'config')]: '[core]\n',
    [path.join(cwd, 'README.md')]: '# x\n',
    [path.join(home, '.ssh', 'id_rsa')]: 'private\n',
    [path.join(home, '.bashrc')]: '# rc\n',
    [path.join(outside, 'file.txt')]: 'outside\n',
    [path.join(extra, 'notes.md')]: 'notes\n',
    [path.join(root, 'project-evil', 'x.txt')]: 'evil\n',
  };
  for (const [file, content] of Object.entries(files)) writeFileSync(file, content);
  symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(cwd, 'key-link'));
  symlinkSync(outside, path.join(cwd, 'out-link'));
  symlinkSync(path.join(outside, 'missing.txt'), path.join(cwd, 'dangling-link'));
  symlinkSync(path.join(cwd, 'loop-b'), path.join(cwd, 'loop-a'));
  symlinkSync(path.join(cwd, 'loop-a'), path.join(cwd, 'loop-b'));
  symlinkSync(path.join(cwd, '.env'), path.join(cwd, 'env-link'));
  return { root, cwd, home, extra, outside, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

const pathInput = (field: string) => (input: unknown) => {
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
};

/** Fake tools with the reference names and parameters; none of them runs. */
export function corpusTools(): ReadonlyMap<string, AnyTool> {
  const call = () => Promise.resolve('unused');
  const tools: AnyTool[] = [
    defineBuiltinTool('Bash', { name: 'Bash', inputSchema: z.object({ command: z.string() }), prompt: '', call }),
    defineBuiltinTool('Read', {
      name: 'Read',
      inputSchema: z.object({ file_path: z.string() }),
      prompt: '',
      isReadOnly: () => true,
      getPath: pathInput('file_path'),
      call,
    }),
    defineBuiltinTool('Edit', {
      name: 'Edit',
      inputSchema: z.object({ file_path: z.string() }),
      prompt: '',
      getPath: pathInput('file_path'),
      call,
    }),
    defineBuiltinTool('Write', {
      name: 'Write',
      inputSchema: z.object({ file_path: z.string() }),
      prompt: '',
      getPath: pathInput('file_path'),
      call,
    }),
    defineBuiltinTool('NotebookEdit', {
      name: 'NotebookEdit',
      inputSchema: z.object({ notebook_path: z.string() }),
      prompt: '',
      getPath: pathInput('notebook_path'),
      call,
    }),
    defineBuiltinTool('Glob', {
      name: 'Glob',
      inputSchema: z.object({ pattern: z.string() }),
      prompt: '',
      isReadOnly: () => true,
      getPath: pathInput('path'),
      call,
    }),
    defineBuiltinTool('Grep', {
      name: 'Grep',
      inputSchema: z.object({ pattern: z.string() }),
      prompt: '',
      isReadOnly: () => true,
      getPath: pathInput('path'),
      call,
    }),
    defineBuiltinTool('WebFetch', {
      name: 'WebFetch',
      inputSchema: z.object({ url: z.string() }),
      prompt: '',
      isReadOnly: () => true,
      call,
    }),
    defineBuiltinTool('Agent', { name: 'Agent', inputSchema: z.object({ prompt: z.string() }), prompt: '', call }),
    defineBuiltinTool('TodoWrite', {
      name: 'TodoWrite',
      inputSchema: z.object({}),
      prompt: '',
      isReadOnly: () => true,
      call,
    }),
    defineTool({ name: 'NoOp', inputSchema: z.object({}), prompt: '', call }),
    defineTool({
      name: 'AlwaysAsk',
      inputSchema: z.object({}),
      prompt: '',
      checkPermissions: () => ({
        behavior: 'ask',
        message: 'This tool always asks.',
        reason: { kind: 'tool', message: 'always asks' },
      }),
      call,
    }),
    defineTool({
      name: 'mcp__github__get_issue',
      inputSchema: jsonSchema({ type: 'object' }),
      prompt: '',
      origin: 'external',
      isReadOnly: () => true,
      call,
    }),
    defineTool({
      name: 'mcp__github__create_issue',
      inputSchema: jsonSchema({ type: 'object' }),
      prompt: '',
      origin: 'external',
      call,
    }),
    defineTool({
      name: 'mcp__slack__post',
      inputSchema: jsonSchema({ type: 'object' }),
      prompt: '',
      origin: 'external',
      call,
    }),
    defineTool({
      name: 'mcp__docs__search',
      inputSchema: jsonSchema({ type: 'object' }),
      prompt: '',
      origin: 'external',
      call,
    }),
    // An MCP file tool that claims to be read-only (readOnlyHint) and names a path.
    defineTool({
      name: 'mcp__files__read_file',
      inputSchema: jsonSchema({ type: 'object' }),
      prompt: '',
      origin: 'external',
      isReadOnly: () => true,
      getPath: pathInput('path'),
      call,
    }),
  ];
  return new Map(tools.map((tool) => [tool.name, tool]));
}

function substitute(value: unknown, workspace: Workspace): unknown {
  if (typeof value === 'string') {
    return value
      .replaceAll('{cwd}', workspace.cwd)
      .replaceAll('{home}', workspace.home)
      .replaceAll('{extra}', workspace.extra)
      .replaceAll('{outside}', workspace.outside)
      .replaceAll('{tmp}', workspace.root);
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, workspace));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, workspace)]));
  }
  return value;
}

/** Turns `allow Bash(x)` strings into rule entries rooted at the project. */
export function ruleEntries(rules: readonly string[], workspace: Workspace): PermissionRuleEntry[] {
  return rules.map((text) => {
    const space = text.indexOf(' ');
    const behavior = text.slice(0, space);
    if (behavior !== 'allow' && behavior !== 'deny' && behavior !== 'ask') throw new Error(`bad corpus rule ${text}`);
    return {
      rule: substitute(text.slice(space + 1), workspace) as string,
      behavior,
      source: 'projectSettings',
      file: '.toolplane/settings.json',
      root: workspace.cwd,
    };
  });
}

/** Runs one case: preCheck, then decide with the case's hook verdict. */
export async function runCase(
  testCase: CorpusCase,
  workspace: Workspace,
  tools: ReadonlyMap<string, AnyTool>,
): Promise<PermissionDecision> {
  const tool = tools.get(testCase.tool);
  if (tool === undefined) throw new Error(`corpus case ${testCase.name}: unknown tool ${testCase.tool}`);
  const engine = createPermissionEngine({
    rules: ruleEntries(testCase.rules ?? [], workspace),
    mode: testCase.mode ?? 'default',
    cwd: workspace.cwd,
    additionalDirectories: [workspace.extra],
    homeDir: workspace.home,
    caseInsensitive: false,
  });
  const input = substitute(testCase.input, workspace);
  const services = createServices();
  if (testCase.shellCwd !== undefined) {
    const state = createShellState();
    state.setCwd('corpus', substitute(testCase.shellCwd, workspace) as string);
    services.set(SHELL_STATE, state);
  }
  const subject = {
    tool,
    input,
    toolUseId: 'toolu_corpus',
    context: {
      toolUseId: 'toolu_corpus',
      signal: new AbortController().signal,
      cwd: workspace.cwd,
      sessionId: 'corpus',
      agentId: 'main',
      permissionMode: engine.mode,
      services,
    },
  };
  const early = engine.preCheck(subject);
  const hookDecision: PreToolUseOutcome | undefined = testCase.hook
    ? { decision: testCase.hook, hook: 'corpus-hook' }
    : undefined;
  const decision = await engine.decide({ ...subject, ...(hookDecision ? { hookDecision } : {}) });
  if (early && decision.behavior !== 'deny')
    throw new Error(`corpus case ${testCase.name}: preCheck denied but decide said ${decision.behavior}`);
  return decision;
}

/** Shorthand for a Bash case. */
export function bash(
  name: string,
  command: string,
  expect: CorpusCase['expect'],
  options: {
    readonly rules?: readonly string[];
    readonly mode?: PermissionMode;
    readonly hook?: CorpusCase['hook'];
    readonly shellCwd?: string;
  } = {},
): CorpusCase {
  return { name, tool: 'Bash', input: { command }, expect, ...options };
}
