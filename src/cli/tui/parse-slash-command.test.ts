import { describe, expect, it } from 'vitest';
import { SLASH_COMMANDS, parseSlashCommand, slashHelp } from './parse-slash-command.js';

describe('parseSlashCommand', () => {
  it('reads every command, case-insensitively, with its argument', () => {
    for (const name of SLASH_COMMANDS.keys())
      expect(parseSlashCommand(`/${name}`)).toEqual({ kind: 'command', name, argument: '' });
    expect(parseSlashCommand('  /RESUME  abc ')).toEqual({ kind: 'command', name: 'resume', argument: 'abc' });
    expect(parseSlashCommand('/quit')).toEqual({ kind: 'command', name: 'exit', argument: '' });
  });

  it('tells unknown commands apart, including names of object prototype members', () => {
    expect(parseSlashCommand('/deploy now')).toEqual({ kind: 'unknown-command', name: 'deploy', argument: 'now' });
    expect(parseSlashCommand('/__proto__')).toEqual({ kind: 'unknown-command', name: '__proto__', argument: '' });
    expect(parseSlashCommand('/toString')).toEqual({ kind: 'unknown-command', name: 'tostring', argument: '' });
    expect(parseSlashCommand('/')).toEqual({ kind: 'unknown-command', name: '', argument: '' });
  });

  it('everything else is a prompt; // escapes a leading slash; blank is empty', () => {
    expect(parseSlashCommand(' fix the test ')).toEqual({ kind: 'prompt', text: 'fix the test' });
    expect(parseSlashCommand('//etc/hosts is odd')).toEqual({ kind: 'prompt', text: '/etc/hosts is odd' });
    expect(parseSlashCommand('   ')).toEqual({ kind: 'empty' });
  });

  it('help lists every command and the keys', () => {
    const help = slashHelp();
    for (const name of SLASH_COMMANDS.keys()) expect(help).toContain(`/${name}`);
    expect(help).toMatch(/Esc\s+interrupt/);
    expect(help).toMatch(/Ctrl\+C\s+interrupt the running turn; clear the prompt; twice/);
  });
});
