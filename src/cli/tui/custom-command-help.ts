import type { CustomCommandList } from '../slash-commands/load-custom-commands.js';
import { SLASH_COMMANDS } from './parse-slash-command.js';

/** The `/help` lines for custom commands: each with its argument hint, description and scope, then what is wrong. */
export function customCommandHelp(list: CustomCommandList | undefined): string {
  if (list === undefined) return '';
  const lines: string[] = [];
  if (list.commands.size > 0) {
    lines.push('Custom commands (.toolplane/commands, .claude/commands; ~/ for your own):');
    for (const command of list.commands.values()) {
      const usage = `/${command.name}${command.file.argumentHint ? ` ${command.file.argumentHint}` : ''}`;
      const about = command.file.description ?? firstLine(command.file.body);
      lines.push(`  ${usage.padEnd(12)} ${about} (${command.scope})`);
    }
  }
  if (list.problems.length > 0) lines.push('Command files with problems:', ...list.problems.map((line) => `  ${line}`));
  return lines.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * Every command a line can start with, built-in and custom, each with its one line of help: for
 * the slash-command list under the prompt. Built-ins come first and are never replaced.
 */
export function allSlashCommands(list: CustomCommandList | undefined): ReadonlyMap<string, string> {
  const all = new Map<string, string>(SLASH_COMMANDS);
  for (const command of list?.commands.values() ?? []) {
    if (all.has(command.name)) continue;
    const hint = command.file.argumentHint ? `${command.file.argumentHint} — ` : '';
    all.set(command.name, `${hint}${command.file.description ?? firstLine(command.file.body)} (${command.scope})`);
  }
  return all;
}
