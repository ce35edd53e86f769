import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineBuiltinTool } from '../contract/define-builtin-tool.js';
import type { PermissionDecision, PermissionRuleEntry } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { initShellParser } from './bash-parser.js';
import { createPermissionEngine } from './permission-engine.js';

let cwd: string;
let root: string;

beforeAll(async () => {
  await initShellParser();
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-bash-property-'));
  cwd = path.join(root, 'project');
  mkdirSync(path.join(cwd, 'src'), { recursive: true });
  writeFileSync(path.join(cwd, 'README.md'), '# x\n');
  writeFileSync(path.join(cwd, 'src', 'a.ts'), 'export {};\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const bash = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve(''),
});

function decide(
  command: string,
  rules: readonly PermissionRuleEntry[],
  mode: 'default' | 'bypassPermissions' = 'default',
): PermissionDecision {
  const engine = createPermissionEngine({ rules, cwd, homeDir: root, mode });
  const context = {
    toolUseId: 't',
    signal: new AbortController().signal,
    cwd,
    sessionId: 's',
    agentId: 'main',
    permissionMode: mode,
    services: createServices(),
  };
  return engine.decide({ tool: bash, input: { command }, toolUseId: 't', context }) as PermissionDecision;
}

const safePart = fc.constantFrom(
  'ls',
  'ls -la src',
  'git status',
  'git log --oneline -n 3',
  'echo hi',
  'cat README.md',
  'pwd',
  'wc -l src/a.ts',
  'grep -n export src/a.ts',
  "echo '$(rm -rf /)'",
);
const separator = fc.constantFrom(' && ', ' || ', '; ', ' | ', ' & ', '\n');
const hide = fc.constantFrom<(inner: string) => string>(
  (inner) => inner,
  (inner) => `timeout 5 ${inner}`,
  (inner) => `FOO=1 ${inner}`,
  (inner) => `nohup ${inner}`,
  (inner) => `sudo ${inner}`,
  (inner) => `env A=1 ${inner}`,
  (inner) => `command ${inner}`,
  (inner) => `nice -n 1 ${inner}`,
  (inner) => `bash -c '${inner}'`,
  (inner) => `sh -lc "${inner}"`,
  (inner) => `echo $(${inner})`,
  (inner) => `echo \`${inner}\``,
  (inner) => `cat <(${inner})`,
  (inner) => `(${inner})`,
  (inner) => `{ ${inner}; }`,
  (inner) => `! ${inner}`,
  (inner) => `if true; then ${inner}; fi`,
  (inner) => `for x in 1; do ${inner}; done`,
  (inner) => `echo build | xargs -n1 ${inner}`,
  (inner) => `/bin/${inner}`,
);
const dangerous = fc.constantFrom('rm -rf build', 'rm build', '"r"m -rf build', 'r\\m -f build');

/** A command line of safe parts with one dangerous part hidden somewhere in it. */
const withHiddenDanger = fc
  .tuple(
    fc.array(fc.tuple(safePart, separator), { maxLength: 6 }),
    dangerous,
    hide,
    fc.array(fc.tuple(separator, safePart), { maxLength: 6 }),
  )
  .map(
    ([before, danger, wrap, after]) =>
      `${before.map(([part, sep]) => `${part}${sep}`).join('')}${wrap(danger)}${after.map(([sep, part]) => `${sep}${part}`).join('')}`,
  );

const denyRm: PermissionRuleEntry[] = [{ rule: 'Bash(rm:*)', behavior: 'deny', source: 'projectSettings', root: '/' }];

describe('Bash decisions under composition (property-based)', () => {
  test('a deny rule finds its command wherever it is hidden', () => {
    fc.assert(
      fc.property(withHiddenDanger, (command) => {
        expect(decide(command, denyRm).behavior).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });

  test('with no rules a hidden write is never allowed, not even in bypass mode when it is critical', () => {
    fc.assert(
      fc.property(withHiddenDanger, (command) => {
        expect(decide(command, []).behavior).not.toBe('allow');
        expect(decide(command.replaceAll('build', '/'), [], 'bypassPermissions').behavior).not.toBe('allow');
      }),
      { numRuns: 300 },
    );
  });

  test('compositions of read-only parts in the working folder run without a prompt', () => {
    // Newlines are left out: after a pipeline of three the grammar can join lines, which asks by design.
    const sameLine = fc.constantFrom(' && ', ' || ', '; ', ' | ', ' & ');
    fc.assert(
      fc.property(fc.array(fc.tuple(sameLine, safePart), { maxLength: 8 }), safePart, (rest, first) => {
        const command = `${first}${rest.map(([sep, part]) => `${sep}${part}`).join('')}`;
        expect(decide(command, []).behavior).toBe('allow');
      }),
      { numRuns: 200 },
    );
    expect(decide('ls\npwd\ngit status', []).behavior).toBe('allow');
  });

  test("a deny of a git subcommand holds through git's global options, where an allow of git would pass it", () => {
    const rules: PermissionRuleEntry[] = [
      { rule: 'Bash(git:*)', behavior: 'allow', source: 'projectSettings', root: '/' },
      { rule: 'Bash(git push:*)', behavior: 'deny', source: 'projectSettings', root: '/' },
    ];
    const globals = fc.constantFrom('-C /tmp', '-c a=b', '--no-pager', '--git-dir=.git', '-C sub -c x=y --paginate');
    fc.assert(
      fc.property(globals, fc.constantFrom('push', 'push origin main', 'push --force'), (options, push) => {
        expect(decide(`git ${options} ${push}`, rules).behavior).toBe('deny');
        // The look-alike: the same options before another subcommand are what the allow rule allows.
        expect(decide(`git ${options} status`, rules).behavior).toBe('allow');
      }),
      { numRuns: 50 },
    );
  });
});
