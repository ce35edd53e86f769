import type { ShellAssignment } from './bash-parser.js';

/**
 * What setting an environment variable does to the commands after it. Three groups:
 *
 * - Safe in front of a command: they change how a program formats or words its output, or pick a
 *   configuration the project itself holds, and no program reads code, a command line or a
 *   folder of configuration from them. `NODE_ENV=test npm test` stays approvable by
 *   `Bash(npm test:*)` and `LANG=C ls` stays read-only.
 * - Resolution: they change which program runs, which code it loads or which configuration it
 *   reads (`PATH`, `LD_PRELOAD`, `BASH_ENV`, `HOME`, `GIT_DIR`, `NODE_OPTIONS`, …). Setting one in
 *   any way (`X=… cmd`, `X=…; cmd`, `export`, `declare`, `env X=…`, `printf -v X`, `read X`) is a
 *   concern: no rule can tell what the later commands will run.
 * - Everything else needs the command to be approved with the assignment written out.
 */

/** One safe variable: why it is safe, and the values it may take. */
type SafeVariable = { readonly why: string; readonly value: RegExp };

const WORDS = /^[A-Za-z0-9_.,:@+=-]*$/;
const NO_PATH = /^[A-Za-z0-9_.,@+=-]*$/;

const SAFE_VARIABLES: ReadonlyMap<string, SafeVariable> = new Map([
  // Locale names pick message language and formats; one holding a `/` is read as a path to locale files, so not those.
  ['LANG', { why: 'locale name', value: NO_PATH }],
  ['LANGUAGE', { why: 'message language list', value: /^[A-Za-z0-9_.,:@+=-]*$/ }],
  // Time zone name; `TZ=:/path` or `TZ=/path` names a zone file, so not those.
  ['TZ', { why: 'time zone name', value: /^(?![:/])(?!.*\.\.)[A-Za-z0-9_.,+\-/<>]*$/ }],
  ['NO_COLOR', { why: 'turns colour off (no-color.org)', value: WORDS }],
  ['FORCE_COLOR', { why: 'turns colour on (chalk, supports-color)', value: WORDS }],
  ['CLICOLOR', { why: 'colour switch (BSD ls and others)', value: WORDS }],
  ['CLICOLOR_FORCE', { why: 'colour switch (BSD ls and others)', value: WORDS }],
  ['COLORTERM', { why: 'what colours the terminal shows', value: WORDS }],
  // A terminal type is looked up by name in the terminfo database; a name with `/` could point elsewhere.
  ['TERM', { why: 'terminal type name', value: NO_PATH }],
  ['COLUMNS', { why: 'terminal width', value: /^\d*$/ }],
  ['LINES', { why: 'terminal height', value: /^\d*$/ }],
  // A convention read by JavaScript code to choose the project's own configuration (development, test, production).
  ['NODE_ENV', { why: "selects the project's own configuration", value: WORDS }],
  // Tells tools they run unattended: no prompts, plain reporters.
  ['CI', { why: 'marks an unattended run', value: WORDS }],
  ['NO_UPDATE_NOTIFIER', { why: 'silences update notices', value: WORDS }],
  ['PYTHONUNBUFFERED', { why: "unbuffers Python's output", value: WORDS }],
  ['PYTHONDONTWRITEBYTECODE', { why: 'stops Python writing .pyc files', value: WORDS }],
  ['RUST_BACKTRACE', { why: 'prints backtraces on panics', value: WORDS }],
  // DEBUG and RUST_LOG are left out on purpose: the libraries that read them can log request headers and tokens.
]);

/** Whether a leading `NAME=value` leaves a command's meaning alone (see {@link SAFE_VARIABLES}). */
export function isSafeAssignment(assignment: ShellAssignment): boolean {
  if (assignment.name.startsWith('LC_') && /^LC_[A-Z_]+$/.test(assignment.name))
    return assignment.value.static && NO_PATH.test(assignment.value.value);
  const safe = SAFE_VARIABLES.get(assignment.name);
  return safe !== undefined && assignment.value.static && safe.value.test(assignment.value.value);
}

/** Variables whose value is a command line another program runs (their text is parsed and checked instead). */
export const COMMAND_VARIABLES =
  /^(PAGER|GIT_PAGER|MANPAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|GIT_ASKPASS|SSH_ASKPASS|GIT_EXTERNAL_DIFF|GIT_PROXY_COMMAND|PROMPT_COMMAND|BROWSER|LESSOPEN|RSYNC_RSH|RSYNC_CONNECT_PROG)$/;

/** Variables that change what later commands run, load or read, with why. */
const RESOLUTION_VARIABLES: readonly (readonly [RegExp, string])[] = [
  [/^PATH$/, 'which programs the later commands run'],
  [/^CDPATH$/, 'which folder cd goes to'],
  [/^(HOME|XDG_CONFIG_HOME)$/, 'where programs read their configuration (a ~/.gitconfig can name programs git runs)'],
  [/^(BASH_ENV|ENV)$/, 'the startup file a shell started later runs'],
  [/^ZDOTDIR$/, 'the folder zsh reads its startup files from'],
  [/^(SHELLOPTS|BASHOPTS)$/, 'the options of a bash started later'],
  [/^(PS0|PS1|PS2|PS4)$/, 'a prompt bash expands (command substitutions in it run)'],
  [/^BASH_FUNC_/, 'a function a bash started later imports'],
  [/^(IFS|GLOBIGNORE)$/, 'how the shell splits words and expands globs'],
  [/^(LD_|DYLD_)/, 'the libraries loaded into every program'],
  [/^(GCONV_PATH|LOCPATH)$/, 'the modules and locale files the C library loads'],
  [/^(NODE_OPTIONS|NODE_PATH)$/, 'the code Node.js loads'],
  [/^(PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE)$/, 'the code Python loads'],
  [/^(PERL5LIB|PERLLIB|PERL5OPT|RUBYOPT|RUBYLIB|LUA_INIT|LUA_PATH|LUA_CPATH)$/, 'the code an interpreter loads'],
  [/^(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH)$/, 'the code the JVM loads'],
  [/^(GOFLAGS|GOENV|CGO_[A-Z]+FLAGS)$/, 'the flags go and its compilers get (-toolexec runs a program)'],
  [
    /^(RUSTC_WRAPPER|RUSTC|RUSTFLAGS|RUSTDOCFLAGS|CARGO_.*)$/,
    "cargo's configuration (runners and wrappers are programs)",
  ],
  [/^(npm_config_|NPM_CONFIG_|YARN_|PNPM_)/i, "the package manager's configuration (script-shell, node-options)"],
  [/^(MAKEFLAGS|MFLAGS|MAKEFILES)$/, 'the flags and makefiles make reads'],
  [/^(LESS|LESSCLOSE|LESSKEYIN|MANOPT)$/, 'options of the pager, which can run commands'],
  [
    /^(DOCKER_HOST|DOCKER_CONTEXT|DOCKER_CONFIG|KUBECONFIG|AWS_CONFIG_FILE)$/,
    'which daemon or credential helper a tool uses',
  ],
  [/^GIT_/, 'which repository, configuration or helper programs git uses'],
];

/** git variables that set an identity or turn a prompt or lock off, and name no file or program. */
const HARMLESS_GIT_VARIABLES =
  /^GIT_(TERMINAL_PROMPT|AUTHOR_(NAME|EMAIL|DATE)|COMMITTER_(NAME|EMAIL|DATE)|OPTIONAL_LOCKS|MERGE_AUTOEDIT)$/;

/** Why setting `name` changes what later commands run, or undefined for a variable that does not. */
export function resolutionReason(name: string): string | undefined {
  if (COMMAND_VARIABLES.test(name) || HARMLESS_GIT_VARIABLES.test(name)) return undefined;
  return RESOLUTION_VARIABLES.find(([pattern]) => pattern.test(name))?.[1];
}
