import { bash, type CorpusCase } from './corpus-harness.js';

const call = (
  name: string,
  tool: string,
  input: Record<string, unknown>,
  expect: CorpusCase['expect'],
  options: Partial<CorpusCase> = {},
): CorpusCase => ({
  name,
  tool,
  input,
  expect,
  ...options,
});

/** K. Hooks; M. modes and fail-closed; U. display integrity. */
export const modeHookCases: readonly CorpusCase[] = [
  bash('K1 hook allow cannot loosen a deny rule', 'rm -rf build', 'deny', {
    rules: ['deny Bash(rm *)'],
    hook: 'allow',
  }),
  bash('K2 hook allow cannot skip an ask rule', 'git push', 'ask', { rules: ['ask Bash(git push:*)'], hook: 'allow' }),
  bash('K3 hook allow cannot skip a critical rm', 'rm -rf /', 'ask', { hook: 'allow' }),
  bash('K4 hook allow cannot skip a protected-path write', 'echo x > .git/config', 'ask', { hook: 'allow' }),
  bash('K5 hook allow cannot skip a parse failure', 'ls &&& pwd', 'ask', { hook: 'allow' }),
  bash('K6 hook allow skips the approver', 'npm test', 'allow', { hook: 'allow' }),
  bash('K7 hook deny beats an allow rule', 'npm test', 'deny', { rules: ['allow Bash(npm test:*)'], hook: 'deny' }),
  bash('K8 hook deny in bypass mode', 'ls', 'deny', { mode: 'bypassPermissions', hook: 'deny' }),
  bash('K9 hook ask beats an allow rule', 'npm test', 'ask', { rules: ['allow Bash(npm test:*)'], hook: 'ask' }),
  bash('K10 hook ask on a read-only command', 'ls', 'ask', { hook: 'ask' }),
  bash('K11 hook ask in dontAsk is denied', 'ls', 'deny', { mode: 'dontAsk', hook: 'ask' }),
  bash('K12 hook allow runs in dontAsk', 'npm test', 'allow', { mode: 'dontAsk', hook: 'allow' }),
  bash('K13 hook ask with a deny rule stays deny', 'rm -rf build', 'deny', { rules: ['deny Bash(rm *)'], hook: 'ask' }),
  call('K14 hook allow cannot skip a tool that always asks', 'AlwaysAsk', {}, 'ask', { hook: 'allow' }),
  call('K15 hook allow on an edit outside the project', 'Edit', { file_path: '{outside}/file.txt' }, 'allow', {
    hook: 'allow',
  }),
  call('K16 hook allow cannot loosen a Read deny', 'Read', { file_path: '{cwd}/.env' }, 'deny', {
    rules: ['deny Read(.env)'],
    hook: 'allow',
  }),
  call('K17 hook deny of a read-only tool', 'Read', { file_path: '{cwd}/src/a.ts' }, 'deny', { hook: 'deny' }),
  call('M1 plan mode denies edits', 'Edit', { file_path: '{cwd}/src/a.ts' }, 'deny', { mode: 'plan' }),
  call('M2 plan mode lets reads run', 'Read', { file_path: '{cwd}/src/a.ts' }, 'allow', { mode: 'plan' }),
  bash('M3 plan mode denies non-read-only Bash even with an allow rule', 'npm test', 'deny', {
    mode: 'plan',
    rules: ['allow Bash(npm test:*)'],
  }),
  bash('M4 plan mode runs read-only Bash', 'git status', 'allow', { mode: 'plan' }),
  call('M5 plan mode lets TodoWrite through', 'TodoWrite', {}, 'allow', { mode: 'plan' }),
  call('M6 dontAsk denies what would prompt', 'Edit', { file_path: '{cwd}/src/a.ts' }, 'deny', { mode: 'dontAsk' }),
  call('M7 dontAsk runs allow rules', 'Edit', { file_path: '{cwd}/src/a.ts' }, 'allow', {
    mode: 'dontAsk',
    rules: ['allow Edit(src/**)'],
  }),
  bash('M8 dontAsk runs read-only Bash', 'ls -la', 'allow', { mode: 'dontAsk' }),
  bash('M9 dontAsk denies an ask rule', 'git push', 'deny', {
    mode: 'dontAsk',
    rules: ['ask Bash(git push:*)', 'allow Bash(git push:*)'],
  }),
  bash('M10 dontAsk denies a critical rm', 'rm -rf /', 'deny', { mode: 'dontAsk', rules: ['allow Bash(rm:*)'] }),
  call('M11 dontAsk denies a tool that always asks', 'AlwaysAsk', {}, 'deny', { mode: 'dontAsk' }),
  call('M12 bypass runs an edit outside the project', 'Edit', { file_path: '{outside}/file.txt' }, 'allow', {
    mode: 'bypassPermissions',
  }),
  call('M13 bypass still applies deny rules', 'Edit', { file_path: '{cwd}/src/a.ts' }, 'deny', {
    mode: 'bypassPermissions',
    rules: ['deny Edit(src/**)'],
  }),
  call('M14 bypass still asks for ask rules', 'Edit', { file_path: '{cwd}/src/a.ts' }, 'ask', {
    mode: 'bypassPermissions',
    rules: ['ask Edit(src/**)'],
  }),
  call('M15 bypass still asks before writing a protected path', 'Edit', { file_path: '{cwd}/.git/config' }, 'ask', {
    mode: 'bypassPermissions',
  }),
  call('M16 bypass still asks for a tool that always asks', 'AlwaysAsk', {}, 'ask', { mode: 'bypassPermissions' }),
  call('M17 acceptEdits approves an edit inside', 'Edit', { file_path: '{cwd}/src/a.ts' }, 'allow', {
    mode: 'acceptEdits',
  }),
  call('M18 acceptEdits asks for an edit outside', 'Edit', { file_path: '{outside}/file.txt' }, 'ask', {
    mode: 'acceptEdits',
  }),
  bash('M19 acceptEdits does not approve arbitrary commands', 'npm install', 'ask', { mode: 'acceptEdits' }),
  bash('M20 acceptEdits with an unsafe env prefix', 'LD_PRELOAD=/tmp/x.so touch a', 'ask', { mode: 'acceptEdits' }),
  bash('M21 acceptEdits sed -i inside', 'sed -i s/a/b/ src/a.ts', 'allow', { mode: 'acceptEdits' }),
  bash('M22 bypass with a parse failure and no rules', 'for f in a; do echo $f; done', 'allow', {
    mode: 'bypassPermissions',
  }),
  bash('M23 bypass with a parse failure and a deny rule', 'for f in a; do echo $f; done', 'ask', {
    mode: 'bypassPermissions',
    rules: ['deny Bash(curl:*)'],
  }),
  call('M24 default mode, tool with no opinion asks', 'NoOp', {}, 'ask'),
  call('M25 bare allow rule', 'NoOp', {}, 'allow', { rules: ['allow NoOp'] }),
  call('M26 bare deny rule', 'NoOp', {}, 'deny', { rules: ['deny NoOp'] }),
  bash('U1 ANSI escape in a command', 'echo \u001b[2Jhi', 'ask'),
  bash('U2 bidi override in a command', 'echo safe \u202e; rm -rf build', 'ask', { mode: 'bypassPermissions' }),
  bash('U3 zero-width space in a command', 'l\u200bs', 'ask'),
  bash('U4 raw carriage return', 'ls\rrm -rf build', 'ask'),
  bash('U5 U+2028 line separator', 'ls\u2028rm -rf build', 'ask'),
  bash('U6 NUL byte', 'ls\u0000rm -rf build', 'ask'),
  bash('U7 control characters still let deny rules apply', 'ls\rrm -rf build', 'deny', { rules: ['deny Bash(rm *)'] }),
];
