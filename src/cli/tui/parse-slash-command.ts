/** The terminal UI's slash commands. */
export type SlashCommandName =
  | 'permissions'
  | 'mcp'
  | 'hooks'
  | 'model'
  | 'cost'
  | 'config'
  | 'doctor'
  | 'agents'
  | 'init'
  | 'compact'
  | 'resume'
  | 'clear'
  | 'trust'
  | 'help'
  | 'exit';

/** What a submitted line is: a prompt for the model, a known command, or an unknown one. */
export type SubmittedLine =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'command'; readonly name: SlashCommandName; readonly argument: string }
  /** Not a built-in: a custom command's name, or a mistake. */
  | { readonly kind: 'unknown-command'; readonly name: string; readonly argument: string }
  | { readonly kind: 'empty' };

/** Each command with its one-line help, in the order `/help` lists them. */
export const SLASH_COMMANDS: ReadonlyMap<SlashCommandName, string> = new Map([
  ['permissions', 'the permission rules in force, their sources, and the mode'],
  ['mcp', 'MCP servers, their states and tool counts'],
  ['hooks', 'the hooks in force: event, matcher, if, command and source file'],
  ['model', 'the model in use; /model NAME sends the next requests to NAME'],
  ['cost', 'tokens and cost of this session so far, by model'],
  ['config', 'the settings in force: mode, model, files read, trust, sandbox, servers, hooks'],
  ['doctor', 'what `toolplane doctor` reports: the sandbox, its self-test and policy'],
  ['agents', 'the subagent types the model can start'],
  ['init', 'ask the model to study the project and write an AGENTS.md for it'],
  ['compact', 'summarize older turns now to free context'],
  ['resume', 'pick an earlier session of this project to continue'],
  ['clear', 'start a new session'],
  ['trust', 'trust this folder: its own settings, hooks and MCP servers apply from the next start'],
  ['help', 'this list, and the keys'],
  ['exit', 'close toolplane (also Ctrl+C twice)'],
]);

const BY_WORD: ReadonlyMap<string, SlashCommandName> = new Map<string, SlashCommandName>([
  ...[...SLASH_COMMANDS.keys()].map((name) => [name, name] as const),
  ['quit', 'exit'],
]);

/** Every word that names a built-in command (aliases included): custom commands cannot take them. */
export const BUILTIN_COMMAND_WORDS: ReadonlySet<string> = new Set(BY_WORD.keys());

/** Reads a submitted line: `/name [argument]` is a command, `//text` a prompt starting with `/`. */
export function parseSlashCommand(line: string): SubmittedLine {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  if (!text.startsWith('/')) return { kind: 'prompt', text };
  if (text.startsWith('//')) return { kind: 'prompt', text: text.slice(1) };
  const match = /^\/(\S+)\s*(.*)$/s.exec(text);
  const word = (match?.[1] ?? '').toLowerCase();
  const argument = match?.[2] ?? '';
  const name = BY_WORD.get(word);
  return name === undefined ? { kind: 'unknown-command', name: word, argument } : { kind: 'command', name, argument };
}

/** The `/help` text: the commands and the keys. */
export function slashHelp(): string {
  const commands = [...SLASH_COMMANDS].map(([name, help]) => `  /${name.padEnd(12)} ${help}`);
  return [
    'Commands:',
    ...commands,
    'Keys:',
    '  Enter        send the prompt',
    '  Ctrl+J       a new line in the prompt (also Shift+Enter, or \\ then Enter)',
    '  Tab          complete the slash command (↑/↓ choose)',
    '  Shift+Tab    next permission mode (default, acceptEdits, plan)',
    '  Esc          interrupt the running turn',
    '  Ctrl+C       interrupt the running turn; clear the prompt; twice on an empty prompt to exit',
    '  //text       send a prompt that starts with /',
  ].join('\n');
}
