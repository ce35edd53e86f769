import { describe, expect, it } from 'vitest';
import { describePermissions } from './describe-permissions.js';

describe('describePermissions', () => {
  const loaded = [
    {
      rule: 'Bash(rm:*)',
      behavior: 'deny' as const,
      source: 'userSettings' as const,
      file: '/h/settings.json',
      root: '/h',
    },
  ];
  it('lists a rule saved from a dialog with its file, and the file among the settings files', () => {
    const text = describePermissions({
      mode: 'default',
      loaded,
      remembered: [
        {
          rule: 'Bash(touch:*)',
          behavior: 'allow',
          source: 'localSettings',
          file: '/p/.toolplane/settings.local.json',
          root: '/p',
        },
        { rule: 'Bash(echo:*)', behavior: 'allow', source: 'session', root: '/p' },
      ],
      files: [{ path: '/h/settings.json' }],
    });
    expect(text.split('\n')).toEqual([
      'Permission mode: default',
      'deny rules (1):',
      '  Bash(rm:*)    rule Bash(rm:*) from /h/settings.json',
      'ask rules (0):',
      'allow rules (2):',
      '  Bash(touch:*)    rule Bash(touch:*) from /p/.toolplane/settings.local.json (saved from a dialog in this session)',
      '  Bash(echo:*)    rule Bash(echo:*) from session (chosen in this session, until it ends)',
      'Settings files: /h/settings.json, /p/.toolplane/settings.local.json',
    ]);
  });
  it('says (none) when no file was read and nothing was saved', () => {
    expect(describePermissions({ mode: 'plan', loaded: [], remembered: [], files: [] })).toContain(
      'Settings files: (none)',
    );
  });
});
