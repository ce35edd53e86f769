import { bash, type CorpusCase } from './corpus-harness.js';

/**
 * Issue 11, class 6: the agent's own process (another process's environment, memory or command
 * line asks in every mode, in any spelling, also through Grep and Glob); class 7: state across
 * calls (a command is judged in the folder an earlier call left the shell in).
 */

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
const bypass = { mode: 'bypassPermissions' as const };

export const processStateCases: readonly CorpusCase[] = [
  bash('C6.01 cat /proc/self/environ in bypass mode', 'cat /proc/self/environ', 'ask', bypass),
  bash('C6.01 look-alike: another /proc file in bypass mode', 'cat /proc/cpuinfo', 'allow', bypass),
  bash('C6.02 a dot segment', 'cat /proc/self/./environ', 'ask', bypass),
  bash('C6.03 the parent pid through ..', 'cat /proc/$$/../$PPID/environ', 'ask', bypass),
  bash('C6.04 quotes split the path, with a program that is not read-only', 'xxd "/proc/self/"environ', 'ask', bypass),
  bash('C6.05 a glob for the file name', 'cat /proc/self/env*', 'ask', bypass),
  bash('C6.06 a ? glob', 'cat /proc/self/e?viron', 'ask', bypass),
  bash('C6.07 brace expansion', 'cat /proc/self/{environ,status}', 'ask', bypass),
  bash('C6.08 every process', 'cat /proc/*/environ', 'ask', bypass),
  bash('C6.09 the folder in a variable', 'p=/proc/self; cat $p/environ', 'ask', bypass),
  bash(
    'C6.10 cd into the process folder, then a program that is not read-only',
    'cd /proc/self && xxd environ',
    'ask',
    bypass,
  ),
  bash('C6.11 a command line', 'cat /proc/1/cmdline', 'ask', bypass),
  bash('C6.12 through the root link', 'strings /proc/self/root/proc/self/environ', 'ask', bypass),
  bash('C6.13 a task folder', 'cat /proc/self/task/1/environ', 'ask', bypass),
  bash('C6.14 ps e prints environments', 'ps e', 'ask', bypass),
  bash('C6.15 ps eww', 'ps eww', 'ask', bypass),
  bash('C6.16 ps axe', 'ps axe', 'ask', bypass),
  bash('C6.17 ps -E', 'ps -E', 'ask', bypass),
  bash('C6.17 look-alike: ps aux and ps -ef list processes only', 'ps aux && ps -ef', 'allow', bypass),
  bash('C6.18 grep -r over /proc', 'grep -r TOKEN /proc', 'ask', bypass),
  bash('C6.19 rg over the root folder reads /proc', 'rg TOKEN /', 'ask', bypass),
  bash('C6.19 look-alike: find / lists names only', 'find / -name x', 'allow', bypass),
  bash('C6.20 look-alike: a pattern that mentions mem', 'grep -i mem /proc/meminfo', 'allow', bypass),
  bash('C6.21 an allow rule does not approve it', 'cat /proc/self/environ', 'ask', { rules: ['allow Bash(cat:*)'] }),
  bash('C6.22 dontAsk denies it', 'cat /proc/self/environ', 'deny', { mode: 'dontAsk' }),
  bash('C6.23 inside an sh -c script', "sh -c 'cat /proc/self/environ'", 'ask', bypass),
  call('C6.30 Grep in /proc', 'Grep', { pattern: 'TOKEN', path: '/proc' }, 'ask', bypass),
  call('C6.31 Grep in the root folder', 'Grep', { pattern: 'TOKEN', path: '/' }, 'ask', bypass),
  call('C6.31 look-alike: Grep in the project', 'Grep', { pattern: 'TOKEN', path: '{cwd}/src' }, 'allow'),
  call('C6.32 Glob into /proc', 'Glob', { pattern: '/proc/*/environ' }, 'ask', bypass),
  call(
    'C6.33 Glob from / with a relative pattern into /proc',
    'Glob',
    { pattern: 'proc/*/environ', path: '/' },
    'ask',
    bypass,
  ),
  call('C6.33 look-alike: Glob in the project', 'Glob', { pattern: '**/*.ts' }, 'allow'),
  call('C6.34 Read a command line', 'Read', { file_path: '/proc/self/cmdline' }, 'ask', bypass),
  call('C6.35 Read through a dot segment', 'Read', { file_path: '/proc/self/./environ' }, 'ask', bypass),
  // Class 7: the shell's folder from an earlier call.
  bash('C7.01 git in a subfolder an earlier cd left (a nested repository can run code)', 'git status', 'ask', {
    shellCwd: '{cwd}/src',
  }),
  bash('C7.01 look-alike: git in the session folder', 'git status', 'allow', { shellCwd: '{cwd}' }),
  bash('C7.02 look-alike: ls in the subfolder', 'ls', 'allow', { shellCwd: '{cwd}/src' }),
  bash('C7.03 a relative read resolves in the shell folder', 'cat id_rsa', 'deny', {
    shellCwd: '{home}/.ssh',
    rules: ['deny Read(~/.ssh/**)'],
  }),
  bash('C7.03 look-alike: the same read in the project', 'cat a.ts', 'allow', {
    shellCwd: '{cwd}/src',
    rules: ['deny Read(~/.ssh/**)'],
  }),
  bash('C7.04 a read in an outside folder the shell is in', 'cat file.txt', 'ask', { shellCwd: '{outside}' }),
  bash('C7.05 a write resolves in the shell folder (.git)', 'echo x > config', 'ask', {
    shellCwd: '{cwd}/.git',
    rules: ['allow Edit(**)'],
  }),
  bash('C7.06 a process folder the shell is in', 'xxd environ', 'ask', {
    shellCwd: '/proc/self',
    mode: 'bypassPermissions',
  }),
  bash(
    'C7.07 a remembered folder that is gone: judged in the session folder, as the tool runs it',
    'git status',
    'allow',
    { shellCwd: '{cwd}/gone' },
  ),
  bash('C7.08 an allow rule for git does not approve it in a nested repository', 'git log', 'ask', {
    shellCwd: '{cwd}/vendor/lib',
    rules: ['allow Bash(git log:*)'],
  }),
  bash('C7.08 look-alike: the allow rule in a subfolder of the same repository', 'git log', 'allow', {
    shellCwd: '{cwd}/src',
    rules: ['allow Bash(git log:*)'],
  }),
  bash('C7.09 the same nested repository in one call', 'cd vendor/lib && git log', 'ask', {
    rules: ['allow Bash(git log:*)'],
  }),
];
