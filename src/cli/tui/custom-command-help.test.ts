import { describe, expect, it } from 'vitest';
import type { CustomCommand } from '../slash-commands/load-custom-commands.js';
import { allSlashCommands, customCommandHelp } from './custom-command-help.js';

const command = (name: string, file: Partial<CustomCommand['file']>): CustomCommand => ({
  name,
  scope: 'project',
  path: `/p/.toolplane/commands/${name}.md`,
  file: { allowedTools: [], body: 'First line of the prompt\nmore', ...file },
});

describe('custom commands in /help and the slash-command list', () => {
  const list = {
    commands: new Map([
      ['review', command('review', { description: 'Review a file', argumentHint: 'FILE' })],
      ['plain', command('plain', {})],
    ]),
    problems: ['/p/.toolplane/commands/help.md: /help is a built-in command, which stays'],
  };

  it('lists each with its hint, description (or first line) and scope, then the problems', () => {
    const help = customCommandHelp(list);
    expect(help).toContain('/review FILE Review a file (project)');
    expect(help).toContain('/plain       First line of the prompt (project)');
    expect(help).toContain('Command files with problems:\n  /p/.toolplane/commands/help.md: /help is a built-in');
    expect(customCommandHelp(undefined)).toBe('');
  });

  it('puts them after the built-ins in the list offered while typing', () => {
    const all = allSlashCommands(list);
    expect([...all.keys()].slice(-2)).toEqual(['review', 'plain']);
    expect(all.get('review')).toBe('FILE — Review a file (project)');
    expect(all.get('help')).toContain('this list');
  });
});
