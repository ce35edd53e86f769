import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { defineBuiltinTool } from '../contract/define-builtin-tool.js';
import type { PermissionRuleEntry } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { initShellParser } from './bash-parser.js';
import { createPermissionEngine } from './permission-engine.js';

/**
 * Evaluating a command must stay linear in the number of rules: a settings file with 30,000 allow
 * rules sharing a first word once took seconds, growing with the square of the count (each rule
 * was appended by copying the list of rules before it). The work is counted, not timed: every
 * step of an array iterator, every regular-expression run and every element an
 * `indexOf`/`includes` scan passes over, while the engine is built and decides.
 */

let root: string;
beforeAll(async () => {
  await initShellParser();
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-scaling-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `work` and returns how many counted operations it did. */
function countOperations(work: () => void): number {
  let count = 0;
  const iteratorPrototype = Object.getPrototypeOf([][Symbol.iterator]()) as { next: (...args: unknown[]) => unknown };
  const originalNext = iteratorPrototype.next;
  const originalExec = RegExp.prototype.exec;
  const originalIndexOf = Array.prototype.indexOf;
  const originalIncludes = Array.prototype.includes;
  iteratorPrototype.next = function next(this: unknown, ...args: unknown[]) {
    count += 1;
    return originalNext.apply(this, args);
  };
  RegExp.prototype.exec = function exec(this: RegExp, text: string) {
    count += 1;
    return originalExec.call(this, text);
  };
  Array.prototype.indexOf = function indexOf(this: unknown[], ...args: [unknown, number?]) {
    count += this.length;
    return originalIndexOf.apply(this, args);
  };
  Array.prototype.includes = function includes(this: unknown[], ...args: [unknown, number?]) {
    count += this.length;
    return originalIncludes.apply(this, args);
  };
  try {
    work();
  } finally {
    iteratorPrototype.next = originalNext;
    RegExp.prototype.exec = originalExec;
    Array.prototype.indexOf = originalIndexOf;
    Array.prototype.includes = originalIncludes;
  }
  return count;
}

const bashTool = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve(''),
});
const readTool = defineBuiltinTool('Read', {
  name: 'Read',
  inputSchema: z.object({ file_path: z.string() }),
  prompt: '',
  isReadOnly: () => true,
  getPath: (input) => input.file_path,
  call: () => Promise.resolve(''),
});

function rulesOf(count: number, cwd: string): PermissionRuleEntry[] {
  const entry = (behavior: PermissionRuleEntry['behavior'], rule: string): PermissionRuleEntry => ({
    rule,
    behavior,
    source: 'projectSettings',
    root: cwd,
  });
  const rules: PermissionRuleEntry[] = [];
  for (let index = 0; index < count; index += 1) rules.push(entry('allow', `Bash(npm run script${index}:*)`));
  // A tenth as many deny, ask and Read rules, so every list the engine scans grows with the count.
  for (let index = 0; index < count / 10; index += 1) {
    rules.push(
      entry('deny', `Bash(npm publish${index} *)`),
      entry('ask', `Bash(npm ask${index} *)`),
      entry('deny', `Read(secret${index}/**)`),
    );
  }
  return rules;
}

/** Builds an engine with `count` rules and decides a few calls (none of which any rule matches). */
function workFor(count: number): number {
  const cwd = root;
  const rules = rulesOf(count, cwd);
  return countOperations(() => {
    const engine = createPermissionEngine({ rules, cwd, homeDir: root, caseInsensitive: false });
    const context = {
      toolUseId: 't',
      signal: new AbortController().signal,
      cwd,
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'default' as const,
      services: createServices(),
    };
    for (const command of ['npm run nothing --flag', 'npm run other && npm run third', 'git status']) {
      const decision = engine.decide({ tool: bashTool, input: { command }, toolUseId: 't', context });
      if (decision instanceof Promise) throw new Error('the decision should be synchronous once the parser is loaded');
    }
    const read = engine.decide({
      tool: readTool,
      input: { file_path: path.join(cwd, 'README.md') },
      toolUseId: 't',
      context,
    });
    if (read instanceof Promise) throw new Error('the decision should be synchronous');
  });
}

test('the work of building the engine and deciding grows linearly with the number of rules', () => {
  const small = workFor(10_000);
  const large = workFor(30_000);
  // Linear work triples (fixed costs keep it a little under); quadratic work would grow ninefold.
  expect(large / small).toBeLessThan(3.5);
  expect(large).toBeGreaterThan(small);
});

test('30,000 allow rules sharing a first word still decide (and ask for an unmatched command)', () => {
  const cwd = root;
  const engine = createPermissionEngine({ rules: rulesOf(30_000, cwd), cwd, homeDir: root, caseInsensitive: false });
  const context = {
    toolUseId: 't',
    signal: new AbortController().signal,
    cwd,
    sessionId: 's',
    agentId: 'main',
    permissionMode: 'default' as const,
    services: createServices(),
  };
  const unmatched = engine.decide({ tool: bashTool, input: { command: 'npm run nothing' }, toolUseId: 't', context });
  const matched = engine.decide({
    tool: bashTool,
    input: { command: 'npm run script29999 --x' },
    toolUseId: 't',
    context,
  });
  expect(unmatched).toMatchObject({ behavior: 'ask' });
  expect(matched).toMatchObject({ behavior: 'allow', reason: { kind: 'rule', rule: 'Bash(npm run script29999:*)' } });
});
