/**
 * How a flag takes its value: `boolean` takes none; `string` takes one (the last occurrence
 * wins); `multiple` takes one per occurrence and keeps them all; `optional-value` takes one
 * only as `--flag=value` or when the next argument has the shape the flag's `valuePattern` says.
 */
export type FlagKind = 'boolean' | 'string' | 'multiple' | 'optional-value';

/** One flag of a run's command line. */
export type FlagSpec = {
  /** The long name without dashes: `output-format`. */
  readonly name: string;
  /** Other long names for the same flag: `allowedTools` for `allowed-tools`. */
  readonly aliases?: readonly string[];
  /** A one-letter name: `p` for `-p`. */
  readonly short?: string;
  readonly kind: FlagKind;
  /** What the value is called in the help: `FORMAT`. */
  readonly valueName?: string;
  /** One line of help. */
  readonly help: string;
  /** The flag means nothing here: it is accepted with a one-line notice and otherwise ignored. */
  readonly ignored?: boolean;
  /** For `optional-value`: the next argument is the flag's value only when it matches. */
  readonly valuePattern?: RegExp;
};

/** Debug categories a `--debug` filter can name; the next argument after `--debug` is a filter only if it names them. */
export const DEBUG_CATEGORIES = ['api', 'tool', 'permission', 'hooks', 'mcp', 'compact', 'transcript', 'session'];

const CATEGORY = `!?(?:${DEBUG_CATEGORIES.join('|')})`;
const DEBUG_FILTER = new RegExp(`^${CATEGORY}(?:,\\s*${CATEGORY})*$`);

/**
 * Every flag of a run (not of a subcommand), in the order of the help. The names are Claude
 * Code's where Claude Code has the flag, so the lines its Agent SDK builds parse here.
 */
export const RUN_FLAGS: readonly FlagSpec[] = [
  { name: 'print', short: 'p', kind: 'boolean', help: 'headless: run the prompt, print the result, exit' },
  {
    name: 'output-format',
    kind: 'string',
    valueName: 'FORMAT',
    help: 'text (default), json (one result object), stream-json (one event per line)',
  },
  { name: 'input-format', kind: 'string', valueName: 'FORMAT', help: 'with -p: text (default) or stream-json' },
  { name: 'verbose', kind: 'boolean', help: 'more output; with stream-json, every event' },
  { name: 'include-partial-messages', kind: 'boolean', help: 'with stream-json output: partial message events' },
  { name: 'include-hook-events', kind: 'boolean', help: 'with stream-json output: hook events' },
  { name: 'replay-user-messages', kind: 'boolean', help: 'with stream-json input and output: echo user messages' },
  { name: 'await-initialize', kind: 'boolean', help: 'with stream-json input: wait for the initialize request' },
  {
    name: 'model',
    kind: 'string',
    valueName: 'NAME',
    help: "model (default: the provider's; ANTHROPIC_MODEL / OPENAI_MODEL)",
  },
  {
    name: 'fallback-model',
    kind: 'string',
    valueName: 'NAME',
    help: 'when the model stays overloaded (529) after the retries, continue on this one',
  },
  {
    name: 'provider',
    kind: 'string',
    valueName: 'NAME',
    help: 'anthropic | openai | scripted (default: from the environment)',
  },
  {
    name: 'base-url',
    kind: 'string',
    valueName: 'URL',
    help: "the provider's base URL (ANTHROPIC_BASE_URL / OPENAI_BASE_URL)",
  },
  {
    name: 'script',
    kind: 'string',
    valueName: 'FILE',
    help: 'scripted provider: a JSONL script of turns or a recorded transcript',
  },
  {
    name: 'permission-mode',
    kind: 'string',
    valueName: 'MODE',
    help: 'default | acceptEdits | plan | dontAsk | bypassPermissions',
  },
  { name: 'dangerously-skip-permissions', kind: 'boolean', help: 'the same as --permission-mode bypassPermissions' },
  {
    name: 'allow-dangerously-skip-permissions',
    kind: 'boolean',
    help: 'let a later mode switch reach bypassPermissions',
  },
  {
    name: 'permission-prompt-tool',
    kind: 'string',
    valueName: 'NAME',
    help: 'who answers permission prompts in -p runs (stdio: the program driving toolplane)',
  },
  {
    name: 'allowed-tools',
    aliases: ['allowedTools'],
    kind: 'multiple',
    valueName: 'RULES',
    help: 'allow rules, e.g. "Read" "Bash(git diff:*)" (comma or space separated)',
  },
  {
    name: 'disallowed-tools',
    aliases: ['disallowedTools'],
    kind: 'multiple',
    valueName: 'RULES',
    help: 'deny rules, same form',
  },
  {
    name: 'tools',
    kind: 'multiple',
    valueName: 'NAMES',
    help: 'the built-in tools there are: "" none, "default" all, else a comma or space list',
  },
  {
    name: 'settings',
    kind: 'string',
    valueName: 'FILE|JSON',
    help: 'an extra settings file or inline JSON (above project settings)',
  },
  {
    name: 'setting-sources',
    kind: 'string',
    valueName: 'LIST',
    help: 'the settings files read, of user,project,local (default all; see Settings below)',
  },
  {
    name: 'mcp-config',
    kind: 'multiple',
    valueName: 'FILE|JSON',
    help: 'MCP servers ({"mcpServers": {...}}), a file or inline JSON; may repeat',
  },
  {
    name: 'strict-mcp-config',
    kind: 'boolean',
    help: "only the servers of --mcp-config: not .mcp.json's, not the settings'",
  },
  { name: 'max-turns', kind: 'string', valueName: 'N', help: 'stop after N model requests' },
  {
    name: 'max-budget-usd',
    kind: 'string',
    valueName: 'USD',
    help: 'stop before a model request once the session has cost this many dollars (README: prices)',
  },
  {
    name: 'max-thinking-tokens',
    kind: 'string',
    valueName: 'N',
    help: 'Anthropic provider: extended thinking budget in tokens (0: off)',
  },
  {
    name: 'max-retries',
    kind: 'string',
    valueName: 'N',
    help: 'retries of a failed model request (default 10, about 2.5 minutes; setting maxRetries)',
  },
  {
    name: 'stream-idle-timeout',
    kind: 'string',
    valueName: 'MS',
    help: 'abandon and retry a response with no event for MS ms (default 90000; setting streamIdleTimeoutMs)',
  },
  { name: 'system-prompt', kind: 'string', valueName: 'TEXT', help: "replaces toolplane's system prompt" },
  { name: 'system-prompt-file', kind: 'string', valueName: 'FILE', help: 'the same, read from FILE' },
  { name: 'append-system-prompt', kind: 'string', valueName: 'TEXT', help: 'added to the end of the system prompt' },
  { name: 'append-system-prompt-file', kind: 'string', valueName: 'FILE', help: 'the same, read from FILE' },
  {
    name: 'json-schema',
    kind: 'string',
    valueName: 'SCHEMA|FILE',
    help: 'with -p: the result must be JSON matching this schema (StructuredOutput tool)',
  },
  { name: 'agents', kind: 'string', valueName: 'JSON', help: 'subagents by name, as JSON (read, not yet used)' },
  { name: 'resume', short: 'r', kind: 'string', valueName: 'ID', help: 'continue the session with this id' },
  { name: 'continue', short: 'c', kind: 'boolean', help: 'continue the latest session in this folder' },
  {
    name: 'fork-session',
    kind: 'boolean',
    help: 'with --resume/--continue: a new session id that starts with the old history',
  },
  {
    name: 'resume-session-at',
    kind: 'string',
    valueName: 'UUID',
    help: 'with --resume: the history up to and including this assistant message',
  },
  { name: 'session-id', kind: 'string', valueName: 'UUID', help: 'the id of the new session (a UUID not used yet)' },
  { name: 'no-session-persistence', kind: 'boolean', help: 'write no transcript (the session cannot be resumed)' },
  { name: 'add-dir', kind: 'multiple', valueName: 'DIR', help: 'another working folder; may repeat' },
  { name: 'cwd', kind: 'string', valueName: 'DIR', help: 'the working folder (default: the current one)' },
  {
    name: 'trust-project',
    kind: 'boolean',
    help: 'trust the working folder for this run (its allow rules, mode, hooks, MCP servers)',
  },
  {
    name: 'debug',
    short: 'd',
    kind: 'optional-value',
    valueName: '[FILTER]',
    valuePattern: DEBUG_FILTER,
    help: `log on stderr; FILTER picks categories, e.g. tool,permission or !api (${DEBUG_CATEGORIES.join(', ')})`,
  },
  { name: 'debug-to-stderr', kind: 'boolean', help: 'the same as --debug (the log is on stderr either way)' },
  { name: 'help', short: 'h', kind: 'boolean', help: 'this help' },
  { name: 'version', short: 'v', kind: 'boolean', help: 'the version' },
  ...ignoredFlags(),
];

/** Claude Code's flags that mean nothing in toolplane: accepted, with a notice, so a line built for Claude Code runs. */
function ignoredFlags(): FlagSpec[] {
  const booleans = [
    'ide',
    'chrome',
    'no-chrome',
    'mcp-debug',
    'disable-slash-commands',
    'session-mirror',
    'managed-settings-in-initialize',
    'hard-fail',
    'bare',
  ];
  const strings = [
    'effort',
    'thinking',
    'thinking-display',
    'agent',
    'debug-file',
    'task-budget',
    'project-config-root',
    'managed-settings',
    'permission-prompts',
    'initialize-fields',
    'resume-drops-turn',
    'sdk-url',
  ];
  const multiples = ['betas', 'plugin-dir', 'plugin-dir-no-mcp', 'channels'];
  const help = 'no meaning here; ignored';
  return [
    ...booleans.map((name): FlagSpec => ({ name, kind: 'boolean', help, ignored: true })),
    ...strings.map((name): FlagSpec => ({ name, kind: 'string', valueName: 'VALUE', help, ignored: true })),
    ...multiples.map((name): FlagSpec => ({ name, kind: 'multiple', valueName: 'VALUE', help, ignored: true })),
  ];
}
