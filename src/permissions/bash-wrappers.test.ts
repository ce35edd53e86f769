import { beforeAll, describe, expect, test } from 'vitest';
import { initShellParser, parseShell } from './bash-parser.js';
import { allowView, denyForms } from './bash-wrappers.js';
import { shellScriptOf } from './shell-launchers.js';

beforeAll(() => initShellParser());

const first = (command: string) => {
  const parsed = parseShell(command, { cwd: '/w', homeDir: '/h' }).commands[0];
  if (!parsed) throw new Error(`no command in ${command}`);
  return parsed;
};

describe('denyForms', () => {
  test.each([
    ['FOO=1 rm -rf x', 'rm -rf x'],
    ['timeout -s KILL 5 rm x', 'rm x'],
    ['nice -n 5 nohup rm x', 'rm x'],
    ['sudo -u root /bin/rm x', 'rm x'],
    ['env -i A=1 rm x', 'rm x'],
    ['xargs -n1 -I {} rm x', 'rm x'],
    ['command rm x', 'rm x'],
    ['watch -n 1 rm x', 'rm x'],
    ['flock /tmp/lock rm x', 'rm x'],
    // git's global options come before the subcommand a rule names.
    ['git -C /tmp push origin', 'git push origin'],
    ['git -c a=b --no-pager push', 'git push'],
    ['git --git-dir=.git push', 'git push'],
    ['/usr/bin/git -C sub push', 'git push'],
  ])('%s includes %s', (command, form) => {
    expect(denyForms(first(command)).forms).toContain(form);
  });
});

describe('allowView', () => {
  test('strips safe wrappers and safe assignments only', () => {
    expect(allowView(first('LANG=C timeout 5 npm test'))).toMatchObject({
      text: 'npm test',
      unsafeAssignment: undefined,
    });
    expect(allowView(first('PATH=/x npm test'))).toMatchObject({ text: 'PATH=/x npm test', unsafeAssignment: 'PATH' });
    expect(allowView(first('sudo npm test')).text).toBe('sudo npm test');
    expect(allowView(first('xargs grep x'))).toMatchObject({ text: 'grep x', viaXargs: true });
    expect(allowView(first('xargs -n1 grep x')).text).toBe('xargs -n1 grep x');
    expect(allowView(first('command -v git')).text).toBe('command -v git');
  });
});

describe('shellScriptOf', () => {
  test.each([
    ["bash -c 'ls'", { script: 'ls' }],
    ["bash -lc 'ls'", { script: 'ls', startup: '-lc' }],
    ["bash -i -c 'ls'", { script: 'ls', startup: '-i' }],
    ["bash --rcfile /tmp/x -ic 'ls'", { script: 'ls', startup: '-ic', unseenStartup: '--rcfile /tmp/x' }],
    ["busybox sh -c 'ls'", { script: 'ls' }],
    ["sh -e -c 'ls'", { script: 'ls' }],
    ["/bin/zsh --norc -c 'ls'", { script: 'ls' }],
    ['bash -c "$X"', 'dynamic'],
    ['bash script.sh', undefined],
    ['bash -o pipefail -c ls', { script: 'ls' }],
    ["bash -O extglob -c 'rm x'", { script: 'rm x' }],
    ["bash --rcfile /dev/null -c 'rm x'", { script: 'rm x' }],
    ["bash -rc 'rm x'", { script: 'rm x' }],
    ['bash -s', 'dynamic'],
    ['bash', 'dynamic'],
    ['python -c 1', undefined],
  ] as const)('%s', (command, expected) => {
    expect(shellScriptOf(first(command).words)).toEqual(expected);
  });
});
