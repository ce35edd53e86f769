import { parseRule } from './rule-parser.js';

/**
 * Which allow rules run any code by design, so that `permissions explain` and the "always allow"
 * dialog can say so before a person relies on one. `Bash(python:*)` approves `python -c '…'`,
 * `Bash(xargs:*)` whatever command xargs is given, `Bash(docker run:*)` a container with the host
 * mounted: no reading of the command line can make such a rule narrower than "any code".
 *
 * Only the words the rule fixes count (those before its first `*`). A rule that also fixes the
 * script, module, package, target or launched program (`Bash(python manage.py test:*)`,
 * `Bash(npx prettier:*)`, `Bash(make test:*)`, `Bash(xargs grep:*)`) is not flagged: what it runs
 * is then the project's own code, which the Bash analysis and the sandbox judge.
 */

/** Programs that run code given in their arguments or on stdin unless a script is fixed. */
const INTERPRETERS: ReadonlyMap<string, string> = new Map([
  ...[
    'python',
    'pypy',
    'node',
    'nodejs',
    'deno',
    'bun',
    'perl',
    'ruby',
    'php',
    'lua',
    'luajit',
    'rscript',
    'julia',
    'tclsh',
    'osascript',
    'pwsh',
    'powershell',
    'jshell',
    'groovy',
  ].map((name) => [name, `${name} runs whatever script, -c/-e text or standard input it is given`] as const),
  ...['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox'].map(
    (name) => [name, `${name} is a shell: it runs any command line it is given`] as const,
  ),
  ...['awk', 'gawk', 'mawk', 'nawk'].map(
    (name) => [name, `an ${name} program can run commands (system(), print | "cmd")`] as const,
  ),
  ['sed', "a sed script can run commands (GNU sed's e command and s///e)"],
  ['expect', 'expect runs the Tcl script it is given'],
  ['gdb', 'gdb runs the commands and programs it is given'],
  ...['npx', 'bunx', 'pnpx', 'uvx'].map(
    (name) => [name, `${name} downloads and runs whatever package it is given`] as const,
  ),
]);

/** Programs that run the command named in their arguments unless that command is fixed. */
const LAUNCHERS: ReadonlySet<string> = new Set([
  'env',
  'xargs',
  'sudo',
  'doas',
  'su',
  'runuser',
  'nohup',
  'timeout',
  'nice',
  'ionice',
  'chrt',
  'taskset',
  'time',
  'stdbuf',
  'command',
  'builtin',
  'exec',
  'eval',
  'source',
  '.',
  'watch',
  'setsid',
  'flock',
  'chroot',
  'nsenter',
  'unshare',
  'strace',
  'ltrace',
  'parallel',
  'script',
  'firejail',
  'find',
  'caffeinate',
  'dbus-run-session',
]);

/**
 * Programs whose first word after the options decides (a subcommand, or a make target). With no
 * such word fixed, the rule allows any code. `always`: that subcommand runs any code whatever
 * follows (`docker run`, `pip install` — more packages can follow the named one). `unlessNamed`:
 * it runs any code unless the next word (the script, package or binary) is fixed too.
 */
type Subcommands = {
  readonly always: ReadonlySet<string>;
  readonly unlessNamed: ReadonlySet<string>;
  readonly why: string;
};

const CONTAINER = {
  always: ['run', 'exec', 'create', 'compose', 'container'],
  unlessNamed: [],
  why: 'a container it starts can run anything, with host folders mounted',
};
const BUILD = (file: string) => ({
  always: [],
  unlessNamed: [],
  why: `it runs whatever the ${file} gives for the target`,
});

const SUBCOMMANDS: ReadonlyMap<string, Subcommands> = new Map(
  (
    [
      ['docker', CONTAINER],
      ['podman', CONTAINER],
      ['nerdctl', CONTAINER],
      [
        'kubectl',
        {
          always: ['exec', 'run', 'debug', 'attach', 'apply', 'create'],
          unlessNamed: [],
          why: 'it runs any command in the cluster',
        },
      ],
      [
        'npm',
        {
          always: ['install', 'i', 'add', 'explore'],
          unlessNamed: ['exec', 'x', 'run', 'run-script', 'rum', 'urn'],
          why: 'it runs any package script, or installs and runs any package',
        },
      ],
      [
        'pnpm',
        {
          always: ['add', 'install', 'i'],
          unlessNamed: ['exec', 'dlx', 'run'],
          why: 'it runs any package script, or installs and runs any package',
        },
      ],
      [
        'yarn',
        {
          always: ['add'],
          unlessNamed: ['exec', 'dlx', 'run', 'node'],
          why: 'it runs any package script, or installs and runs any package',
        },
      ],
      [
        'bun',
        { always: ['add', 'install', 'i'], unlessNamed: ['run', 'x', 'exec'], why: 'it runs any script or package' },
      ],
      ['deno', { always: ['repl'], unlessNamed: ['run', 'eval', 'task', 'x'], why: 'it runs any script' }],
      ['pip', { always: ['install'], unlessNamed: [], why: "installing a package runs the package's own code" }],
      ['pip3', { always: ['install'], unlessNamed: [], why: "installing a package runs the package's own code" }],
      [
        'uv',
        { always: ['tool', 'pip'], unlessNamed: ['run'], why: 'it runs any script, or installs and runs any package' },
      ],
      ['pipx', { always: ['install'], unlessNamed: ['run'], why: 'it installs and runs any package' }],
      ['gem', { always: ['install'], unlessNamed: [], why: "installing a gem runs the gem's own code" }],
      ['cargo', { always: ['install'], unlessNamed: ['run', 'script'], why: 'it builds and runs any code' }],
      [
        'go',
        {
          always: ['generate', 'install'],
          unlessNamed: ['run'],
          why: 'it runs any code (go generate runs the commands the source names)',
        },
      ],
      [
        'git',
        {
          always: ['submodule', 'bisect', 'filter-branch', 'difftool', 'mergetool'],
          unlessNamed: ['config'],
          why: 'git runs programs its config, aliases and -c name (core.pager, alias.x=!cmd, core.fsmonitor)',
        },
      ],
      ['make', BUILD('Makefile (or -f, --eval)')],
      ['gmake', BUILD('Makefile (or -f, --eval)')],
      ['just', BUILD('justfile')],
      ['rake', BUILD('Rakefile')],
      ['task', BUILD('Taskfile')],
      ['ninja', BUILD('build file')],
      ['gradle', BUILD('build script')],
      ['./gradlew', BUILD('build script')],
      ['mvn', BUILD('build plugins')],
    ] as const
  ).map(([program, entry]) => [
    program,
    { always: new Set<string>(entry.always), unlessNamed: new Set<string>(entry.unlessNamed), why: entry.why },
  ]),
);

/** Options that make git run a program whatever the subcommand. */
const GIT_CODE_OPTIONS: ReadonlySet<string> = new Set(['-c', '--config-env', '--exec-path']);

function programName(word: string): string {
  if (word === './gradlew') return word;
  const base = (word.split('/').pop() ?? word).toLowerCase();
  // python3, python3.12, pypy3, node20, perl5.36: the same interpreter.
  return base.replace(/^([a-z]+?)[\d.]+$/, '$1');
}

/** Words that set up the launched program rather than name it: options, assignments, numbers. */
function isSetupWord(word: string): boolean {
  return word.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || /^\d+(?:\.\d+)?[smhd]?$/.test(word);
}

/**
 * Why an allow rule allows any code, in words, or undefined when it does not (or is not an allow
 * rule for Bash). One function decides it for every place that warns.
 */
export function ruleAllowsAnyCode(rule: string): string | undefined {
  const { rule: parsed } = parseRule(rule, 'allow');
  if (parsed === undefined) return undefined;
  if (parsed.kind === 'tool') return parsed.toolName === 'Bash' ? 'it allows every Bash command' : undefined;
  if (parsed.kind !== 'bash') return undefined;
  const fixed = parsed.pattern.exact ? parsed.pattern.text : parsed.pattern.prefix.replace(/\*$/, '');
  const words = fixed.split(' ').filter((word) => word !== '');
  const [first, ...rest] = words;
  // `Bash(*)`, `Bash(* --help)`: the program itself is open.
  if (first === undefined || (!parsed.pattern.exact && words.length === 0)) return 'it allows any command';
  if (parsed.pattern.firstWord === undefined) return 'it allows any command: its program name is a wildcard';
  const program = programName(first);
  const named = rest.filter((word) => !word.startsWith('-'));
  const interpreter = INTERPRETERS.get(program);
  if (interpreter !== undefined) return named.length === 0 ? interpreter : undefined;
  if (program === 'ssh') {
    // The host is fixed, but ssh runs whatever command follows it there.
    return rest.filter((word) => !isSetupWord(word)).length >= 2
      ? undefined
      : 'ssh runs any command on the remote host';
  }
  if (LAUNCHERS.has(program)) {
    return rest.some((word) => !isSetupWord(word)) ? undefined : `${program} runs whatever command it is given`;
  }
  const subcommands = SUBCOMMANDS.get(program);
  if (subcommands === undefined) return undefined;
  if (program === 'git' && rest.some((word) => GIT_CODE_OPTIONS.has(word) || /^-c./.test(word))) return subcommands.why;
  const subcommand = named[0];
  if (subcommand === undefined || subcommands.always.has(subcommand)) return subcommands.why;
  if (subcommands.unlessNamed.has(subcommand) && named.length < 2) return subcommands.why;
  return undefined;
}
