import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, type LoadSettingsOptions } from './load-settings.js';

let base: string;
let project: string;
let home: string;
let userDir: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolplane-claude-settings-'));
  project = join(base, 'project');
  home = join(base, 'home');
  userDir = join(base, 'config');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function write(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2));
}

const options = (extra: Partial<LoadSettingsOptions> = {}): LoadSettingsOptions => ({
  cwd: project,
  env: { TOOLPLANE_CONFIG_DIR: userDir },
  homeDir: home,
  managedSettingsFile: join(base, 'etc', 'managed-settings.json'),
  session: 'headless',
  trustProject: true,
  ...extra,
});

describe("Claude Code's settings files", () => {
  it('are read below toolplane’s file of the same scope, each rule naming its own file', async () => {
    await write(join(project, '.toolplane', 'settings.json'), { permissions: { allow: ['Bash(npm test)'] } });
    await write(join(project, '.claude', 'settings.json'), { permissions: { deny: ['Read(./.env)'] } });
    await write(join(project, '.claude', 'settings.local.json'), { permissions: { ask: ['Bash(git push:*)'] } });
    await write(join(home, '.claude', 'settings.json'), { permissions: { allow: ['Glob'] } });
    const loaded = await loadSettings(options());
    expect(loaded.rules.map((entry) => `${entry.behavior} ${entry.rule} ${entry.source} ${entry.file}`)).toEqual(
      expect.arrayContaining([
        `ask Bash(git push:*) localSettings ${join(project, '.claude', 'settings.local.json')}`,
        `allow Bash(npm test) projectSettings ${join(project, '.toolplane', 'settings.json')}`,
        `deny Read(./.env) projectSettings ${join(project, '.claude', 'settings.json')}`,
        `allow Glob userSettings ${join(home, '.claude', 'settings.json')}`,
      ]),
    );
    expect(loaded.files.map((file) => file.path)).toEqual([
      join(project, '.claude', 'settings.local.json'),
      join(project, '.toolplane', 'settings.json'),
      join(project, '.claude', 'settings.json'),
      join(home, '.claude', 'settings.json'),
    ]);
  });

  it('give way to toolplane’s own file of the same scope for a switch like defaultMode', async () => {
    await write(join(project, '.toolplane', 'settings.json'), { permissions: { defaultMode: 'plan' } });
    await write(join(project, '.claude', 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } });
    expect((await loadSettings(options())).defaultMode).toBe('plan');
  });

  it('of an untrusted project only tighten: their deny rules hold, their allow rules and hooks do not', async () => {
    await write(join(project, '.claude', 'settings.json'), {
      permissions: { allow: ['Bash'], deny: ['Read(./secrets/**)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const loaded = await loadSettings(options({ trustProject: false }));
    expect(loaded.rules.map((entry) => `${entry.behavior} ${entry.rule}`)).toEqual(['deny Read(./secrets/**)']);
    expect(loaded.hooks.size).toBe(0);
  });

  it('never loosen toolplane’s sandbox, not even the user’s ~/.claude/settings.json; they may tighten it', async () => {
    await write(join(home, '.claude', 'settings.json'), {
      sandbox: { enabled: false, excludedCommands: ['docker'], filesystem: { denyRead: ['~/private'] } },
    });
    const loaded = await loadSettings(options());
    expect(loaded.sandbox.enabled).not.toBe(false);
    expect(loaded.sandbox.excludedCommands).toEqual([]);
    expect(loaded.sandbox.denyRead).toEqual([join(home, 'private')]);
    expect(loaded.sandbox.notices.join('\n')).toContain(
      "a Claude Code settings file may tighten toolplane's sandbox, never loosen it",
    );
    // The same keys from toolplane's own user file do loosen it.
    await write(join(userDir, 'settings.json'), { sandbox: { excludedCommands: ['docker'] } });
    expect((await loadSettings(options())).sandbox.excludedCommands).toEqual(['docker']);
  });

  it('follow CLAUDE_CONFIG_DIR for the user’s file', async () => {
    const claudeDir = join(base, 'claude-config');
    await write(join(claudeDir, 'settings.json'), { permissions: { deny: ['WebFetch'] } });
    const loaded = await loadSettings(
      options({ env: { TOOLPLANE_CONFIG_DIR: userDir, CLAUDE_CONFIG_DIR: claudeDir } }),
    );
    expect(loaded.rules.map((entry) => entry.file)).toEqual([join(claudeDir, 'settings.json')]);
  });
});
