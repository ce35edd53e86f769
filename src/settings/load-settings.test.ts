import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { loadSettings, type LoadSettingsOptions } from './load-settings.js';
import { writeProjectTrust } from './trust-store.js';

let base: string;
let project: string;
let home: string;
let userDir: string;
let managed: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolplane-settings-'));
  project = join(base, 'project');
  home = join(base, 'home');
  userDir = join(base, 'config');
  managed = join(base, 'etc', 'managed-settings.json');
  await mkdir(join(project, '.toolplane'), { recursive: true });
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function write(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function options(extra: Partial<LoadSettingsOptions> = {}): LoadSettingsOptions {
  return {
    cwd: project,
    env: { TOOLPLANE_CONFIG_DIR: userDir },
    homeDir: home,
    managedSettingsFile: managed,
    session: 'headless',
    // Most tests are about merging; the trust tests below turn this off.
    trustProject: true,
    ...extra,
  };
}

describe('loadSettings', () => {
  it('ignores every allow rule outside the managed policy when it sets allowManagedPermissionRulesOnly', async () => {
    await write(managed, { allowManagedPermissionRulesOnly: true, permissions: { allow: ['Read'] } });
    await write(join(project, '.toolplane', 'settings.json'), {
      permissions: { allow: ['Bash(curl *)'], deny: ['Read(./.env)'] },
    });
    const loaded = await loadSettings(options({ cli: { allowedTools: ['Bash'] } }));
    expect(loaded.rules.map((entry) => `${entry.behavior} ${entry.rule} ${entry.source}`)).toEqual([
      'allow Read managed',
      'deny Read(./.env) projectSettings',
    ]);
    expect(loaded.warnings.map((warning) => warning.rule)).toEqual(['Bash', 'Bash(curl *)']);
  });

  it('loads http, prompt, agent and mcp_tool hooks with their fields, and warns about unknown or incomplete ones', async () => {
    await write(join(project, '.toolplane', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'http',
                url: 'http://127.0.0.1:8080/check',
                headers: { authorization: 'Bearer $TOKEN' },
                allowedEnvVars: ['TOKEN'],
                timeout: 5,
              },
              { type: 'prompt', prompt: 'is this safe? $ARGUMENTS', model: 'claude-haiku-5-5', timeout: 10 },
              { type: 'agent', prompt: 'check the tests pass', failClosed: true },
              { type: 'mcp_tool', server: 'scan', tool: 'check', input: { path: '${tool_input.file_path}' } },
              { type: 'prompt' },
              { type: 'mcp_tool', server: 'scan' },
              { type: 'shell', command: 'x' },
            ],
          },
        ],
      },
    });
    const loaded = await loadSettings(options());
    expect(loaded.hooks.get('PreToolUse')?.[0]?.hooks).toEqual([
      {
        type: 'http',
        url: 'http://127.0.0.1:8080/check',
        headers: { authorization: 'Bearer $TOKEN' },
        allowedEnvVars: ['TOKEN'],
        timeout: 5,
      },
      { type: 'prompt', prompt: 'is this safe? $ARGUMENTS', model: 'claude-haiku-5-5', timeout: 10 },
      { type: 'agent', prompt: 'check the tests pass', failClosed: true },
      { type: 'mcp_tool', server: 'scan', tool: 'check', input: { path: '${tool_input.file_path}' } },
    ]);
    expect(loaded.warnings.map((warning) => warning.message)).toEqual([
      'PreToolUse hook of type "prompt" lacks its prompt; ignored',
      'PreToolUse hook of type "mcp_tool" lacks its tool; ignored',
      'PreToolUse hook of type "shell" is not a hook type toolplane knows; ignored',
    ]);
  });

  it('returns defaults when no file exists', async () => {
    const loaded = await loadSettings(options());
    expect(loaded).toMatchObject({
      rules: [],
      defaultMode: 'default',
      files: [],
      warnings: [],
      projectTrust: 'trusted',
      projectTrustGrantedBy: 'flag',
      userDir,
    });
    expect(loaded.hooks.size).toBe(0);
  });

  it('takes maxRetries and streamIdleTimeoutMs from the highest source that sets each, and refuses a bad value', async () => {
    await write(join(userDir, 'settings.json'), { maxRetries: 2, streamIdleTimeoutMs: 5_000 });
    await write(join(project, '.toolplane', 'settings.json'), { maxRetries: 7 });
    expect((await loadSettings(options())).modelRequests).toEqual({ maxRetries: 7, streamIdleTimeoutMs: 5_000 });
    expect((await loadSettings(options({ cli: { settings: '{"maxRetries": 0}' } }))).modelRequests).toEqual({
      maxRetries: 0,
      streamIdleTimeoutMs: 5_000,
    });
    await expect(loadSettings(options({ cli: { settings: '{"maxRetries": -1}' } }))).rejects.toThrow(/maxRetries/);
  });

  it('merges every source in precedence order with its source, file and root', async () => {
    await write(managed, { permissions: { deny: ['Bash(curl *)'] } });
    const cliFile = join(base, 'ci', 'extra.json');
    await write(cliFile, { permissions: { ask: ['Edit(/build/**)'] } });
    await write(join(project, '.toolplane', 'settings.local.json'), { permissions: { allow: ['Bash(npm test)'] } });
    await write(join(project, '.toolplane', 'settings.json'), {
      permissions: { deny: ['Read(/secrets/**)'], allow: ['Read'] },
    });
    await write(join(userDir, 'settings.json'), { permissions: { allow: ['Edit(/notes/**)'] } });
    const loaded = await loadSettings(
      options({ cli: { settings: cliFile, allowedTools: ['Bash(git log:*)'], disallowedTools: ['WebFetch'] } }),
    );
    expect(loaded.rules).toEqual([
      { rule: 'Bash(curl *)', behavior: 'deny', source: 'managed', file: managed, root: project },
      { rule: 'WebFetch', behavior: 'deny', source: 'cli', root: project },
      { rule: 'Bash(git log:*)', behavior: 'allow', source: 'cli', root: project },
      { rule: 'Edit(/build/**)', behavior: 'ask', source: 'cli', file: cliFile, root: join(base, 'ci') },
      {
        rule: 'Bash(npm test)',
        behavior: 'allow',
        source: 'localSettings',
        file: join(project, '.toolplane', 'settings.local.json'),
        root: project,
      },
      {
        rule: 'Read(/secrets/**)',
        behavior: 'deny',
        source: 'projectSettings',
        file: join(project, '.toolplane', 'settings.json'),
        root: project,
      },
      {
        rule: 'Read',
        behavior: 'allow',
        source: 'projectSettings',
        file: join(project, '.toolplane', 'settings.json'),
        root: project,
      },
      {
        rule: 'Edit(/notes/**)',
        behavior: 'allow',
        source: 'userSettings',
        file: join(userDir, 'settings.json'),
        root: userDir,
      },
    ]);
    expect(loaded.files.map((file) => file.source)).toEqual([
      'managed',
      'cli',
      'localSettings',
      'projectSettings',
      'userSettings',
    ]);
  });

  it('anchors inline --settings JSON at the working folder', async () => {
    const loaded = await loadSettings(options({ cli: { settings: ' {"permissions":{"deny":["Edit(/x)"]}}' } }));
    expect(loaded.rules).toEqual([{ rule: 'Edit(/x)', behavior: 'deny', source: 'cli', root: project }]);
    expect(loaded.files).toEqual([]);
  });

  it('uses ~/.toolplane when TOOLPLANE_CONFIG_DIR is not set', async () => {
    await write(join(home, '.toolplane', 'settings.json'), { permissions: { deny: ['Bash'] } });
    const loaded = await loadSettings(options({ env: {} }));
    expect(loaded.rules).toEqual([
      {
        rule: 'Bash',
        behavior: 'deny',
        source: 'userSettings',
        file: join(home, '.toolplane', 'settings.json'),
        root: join(home, '.toolplane'),
      },
    ]);
  });

  it('reads the home folder settings once when the project is the home folder', async () => {
    await write(join(home, '.toolplane', 'settings.json'), { permissions: { deny: ['Bash'] } });
    const loaded = await loadSettings(options({ env: {}, cwd: home }));
    expect(loaded.rules.map((rule) => rule.source)).toEqual(['userSettings']);
  });

  it('picks the mode: flag, then the highest defaultMode; disableBypassPermissionsMode anywhere wins', async () => {
    await write(join(userDir, 'settings.json'), { permissions: { defaultMode: 'plan' } });
    await write(join(project, '.toolplane', 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } });
    expect((await loadSettings(options())).defaultMode).toBe('acceptEdits');
    expect((await loadSettings(options({ cli: { permissionMode: 'dontAsk' } }))).defaultMode).toBe('dontAsk');
    await write(managed, { permissions: { disableBypassPermissionsMode: 'disable' } });
    const loaded = await loadSettings(options({ cli: { permissionMode: 'bypassPermissions' } }));
    expect(loaded).toMatchObject({ defaultMode: 'default', bypassPermissionsDisabled: true });
    expect(loaded.warnings.map((warning) => warning.message).join()).toContain('disabled');
  });

  it('maps manual to default and warns about an unknown mode', async () => {
    await write(join(project, '.toolplane', 'settings.json'), { permissions: { defaultMode: 'auto' } });
    await write(join(userDir, 'settings.json'), { permissions: { defaultMode: 'manual' } });
    const loaded = await loadSettings(options());
    expect(loaded.defaultMode).toBe('default');
    expect(loaded.warnings).toEqual([
      {
        file: join(project, '.toolplane', 'settings.json'),
        message: 'defaultMode "auto" is not a known mode; ignored',
      },
    ]);
  });

  it('stops the run on a broken file, naming the file and the position', async () => {
    await write(join(userDir, 'settings.json'), '{\n  "permissions": {\n    "deny": ["Bash"\n  }\n}');
    const error = await loadSettings(options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolplaneError);
    expect((error as ToolplaneError).code).toBe('SETTINGS_INVALID');
    expect((error as ToolplaneError).message).toContain(join(userDir, 'settings.json'));
    expect((error as ToolplaneError).message).toContain('4:3');
  });

  it('stops the run on a wrong shape and on a missing --settings file', async () => {
    await write(managed, { permissions: { deny: 'Bash' } });
    await expect(loadSettings(options())).rejects.toThrow(/managed-settings\.json is invalid at line 3, column 13/);
    await rm(managed);
    await expect(loadSettings(options({ cli: { settings: 'nope.json' } }))).rejects.toThrow(
      /nope\.json given with --settings does not exist/,
    );
    await expect(loadSettings(options({ cli: { settings: '{"permissions":' } }))).rejects.toThrow(
      /--settings \(inline JSON\) is invalid/,
    );
  });

  it('stops the run when a settings path cannot be read', async () => {
    await mkdir(join(userDir, 'settings.json'), { recursive: true });
    await expect(loadSettings(options())).rejects.toMatchObject({ code: 'SETTINGS_INVALID' });
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(loadSettings(options({ session: 'interactive', signal: controller.signal }))).rejects.toThrow();
  });

  it('warns about unknown tool names and skipped allow globs, naming the file and rule', async () => {
    const file = join(project, '.toolplane', 'settings.json');
    await write(file, { permissions: { deny: ['Bsh(rm *)', 'mcp__srv__x'], allow: ['*', 'Read'] } });
    const loaded = await loadSettings(options({ knownToolNames: ['Bash', 'Read'] }));
    expect(loaded.warnings).toEqual([
      { file, rule: 'Bsh(rm *)', message: 'rule "Bsh(rm *)" names an unknown tool "Bsh"' },
      { file, rule: '*', message: expect.stringContaining('ignored') as string },
    ]);
    expect(loaded.rules.map((entry) => entry.rule)).toEqual(['Bsh(rm *)', 'mcp__srv__x', 'Read']);
  });

  it('treats rule names such as __proto__ and toString as data', async () => {
    await write(
      join(project, '.toolplane', 'settings.json'),
      '{"__proto__":{"permissions":{"allow":["Bash"]}},"permissions":{"deny":["toString","__proto__"]},"env":{"constructor":"1"}}',
    );
    const loaded = await loadSettings(options());
    expect(loaded.rules.map((entry) => `${entry.behavior}:${entry.rule}`)).toEqual(['deny:toString', 'deny:__proto__']);
    expect([...loaded.env]).toEqual([['constructor', '1']]);
  });

  it('delivers hooks per event with their source, skipping unsupported events and types', async () => {
    const file = join(project, '.toolplane', 'settings.json');
    await write(file, {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: './check.sh', timeout: 5 }, { type: 'agent' }],
          },
        ],
        PostToolUse: [{ hooks: [{ type: 'command', command: 'log', if: 'Bash(git *)', async: true }] }],
        TeammateIdle: [{ hooks: [{ type: 'command', command: 'notify' }] }],
        precompact: [{ hooks: [{ type: 'command', command: 'page' }] }],
        PostToolUze: [{ hooks: [{ type: 'command', command: 'typo' }] }],
      },
    });
    await write(join(userDir, 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'audit' }] }] },
    });
    const loaded = await loadSettings(options());
    expect(loaded.hooks.get('PreToolUse')).toEqual([
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: './check.sh', timeout: 5 }],
        source: 'projectSettings',
        file,
      },
      { hooks: [{ type: 'command', command: 'audit' }], source: 'userSettings', file: join(userDir, 'settings.json') },
    ]);
    expect(loaded.hooks.get('PostToolUse')).toEqual([
      {
        hooks: [{ type: 'command', command: 'log', if: 'Bash(git *)', async: true }],
        source: 'projectSettings',
        file,
        root: project,
      },
    ]);
    expect(loaded.warnings.map((warning) => warning.message)).toEqual([
      'PreToolUse hook of type "agent" lacks its prompt; ignored',
      'hook event "TeammateIdle" is one Claude Code has, but toolplane has no such feature (no agent teams); its hooks never run',
      'hook event "precompact" is unknown (did you mean PreCompact?); its hooks are ignored',
      'hook event "PostToolUze" is unknown; its hooks are ignored',
    ]);
  });

  it('turns hooks off with disableAllHooks and allowManagedHooksOnly', async () => {
    const hook = (command: string) => ({ PreToolUse: [{ hooks: [{ type: 'command', command }] }] });
    await write(join(userDir, 'settings.json'), { hooks: hook('user'), disableAllHooks: true });
    await write(managed, { hooks: hook('policy') });
    const commands = async () =>
      (await loadSettings(options())).hooks
        .get('PreToolUse')
        ?.map((matcher) => (matcher.hooks[0] as { command?: string } | undefined)?.command);
    expect(await commands()).toEqual(['policy']);
    await write(join(userDir, 'settings.json'), { hooks: hook('user') });
    await write(managed, { hooks: hook('policy'), allowManagedHooksOnly: true });
    expect(await commands()).toEqual(['policy']);
    await write(managed, { hooks: hook('policy'), disableAllHooks: true });
    expect(await commands()).toBeUndefined();
  });

  it('passes mcpServers per source, env merged by precedence and absolute additional directories', async () => {
    await write(join(project, '.toolplane', 'settings.json'), {
      mcpServers: { docs: { command: 'docs-server' } },
      env: { A: 'project', B: 'project' },
      permissions: { additionalDirectories: ['../shared', '~/notes', '/abs'] },
    });
    await write(join(userDir, 'settings.json'), { env: { A: 'user', C: 'user' } });
    const loaded = await loadSettings(options());
    expect(loaded.mcpServers).toEqual([
      {
        source: 'projectSettings',
        file: join(project, '.toolplane', 'settings.json'),
        servers: new Map([['docs', { command: 'docs-server' }]]),
      },
    ]);
    expect(Object.fromEntries(loaded.env)).toEqual({ A: 'project', B: 'project', C: 'user' });
    expect(loaded.additionalDirectories.map((directory) => directory.path)).toEqual([
      join(base, 'shared'),
      join(home, 'notes'),
      '/abs',
    ]);
  });

  describe('trust', () => {
    const untrusted = (extra: Partial<LoadSettingsOptions> = {}) => options({ trustProject: false, ...extra });
    const projectSettings = {
      permissions: {
        allow: ['Bash'],
        deny: ['Read(.env)'],
        ask: ['Edit'],
        defaultMode: 'bypassPermissions',
        additionalDirectories: ['/x'],
      },
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'evil' }] }] },
      mcpServers: { evil: { command: 'evil' } },
      env: { NODE_OPTIONS: '--require evil' },
    };

    it('applies only deny and ask rules of a folder the person has not trusted', async () => {
      await write(join(project, '.toolplane', 'settings.json'), projectSettings);
      await write(join(project, '.toolplane', 'settings.local.json'), { permissions: { allow: ['Edit'] } });
      const loaded = await loadSettings(untrusted({ session: 'interactive' }));
      expect(loaded.projectTrust).toBe('unknown');
      expect(loaded.rules.map((entry) => `${entry.behavior}:${entry.rule}`)).toEqual(['deny:Read(.env)', 'ask:Edit']);
      expect(loaded).toMatchObject({ defaultMode: 'default', additionalDirectories: [], mcpServers: [] });
      expect(loaded.hooks.size).toBe(0);
      expect(loaded.env.size).toBe(0);
      expect(loaded.warnings).toContainEqual({
        file: join(project, '.toolplane', 'settings.json'),
        message:
          'the project folder is not trusted: its allow rules, defaultMode bypassPermissions, additional directories, hooks, MCP servers, env are not applied (deny and ask rules are); ' +
          `trust it with \`toolplane trust ${project}\`, --trust-project for one run, or TOOLPLANE_TRUST_PROJECT=1`,
      });
    });

    it('applies everything once the folder is trusted, and nothing more when it is refused', async () => {
      await write(join(project, '.toolplane', 'settings.json'), projectSettings);
      const storeFile = join(userDir, 'trusted-projects.json');
      await writeProjectTrust({ storeFile, projectDir: project, trust: 'untrusted' });
      expect((await loadSettings(untrusted({ session: 'interactive' }))).projectTrust).toBe('untrusted');
      await writeProjectTrust({ storeFile, projectDir: project, trust: 'trusted' });
      const loaded = await loadSettings(untrusted({ session: 'interactive' }));
      expect(loaded).toMatchObject({ projectTrust: 'trusted', defaultMode: 'bypassPermissions' });
      expect(loaded.hooks.get('PreToolUse')).toHaveLength(1);
      expect(loaded.rules).toHaveLength(3);
    });

    it('recognises a trusted folder through a symlink', async () => {
      const link = join(base, 'link');
      await symlink(project, link);
      await writeProjectTrust({
        storeFile: join(userDir, 'trusted-projects.json'),
        projectDir: link,
        trust: 'trusted',
      });
      expect((await loadSettings(untrusted({ session: 'interactive' }))).projectTrust).toBe('trusted');
    });

    it('treats a damaged trust store as nobody trusted, with a warning', async () => {
      await write(join(userDir, 'trusted-projects.json'), '{"projects": [');
      const loaded = await loadSettings(untrusted({ session: 'interactive' }));
      expect(loaded.projectTrust).toBe('unknown');
      expect(loaded.warnings[0]?.message).toContain('damaged');
    });

    it('headless runs do not trust the working folder: only deny and ask rules apply, with a warning saying how to trust', async () => {
      await write(join(project, '.toolplane', 'settings.json'), projectSettings);
      const loaded = await loadSettings(untrusted());
      expect(loaded.projectTrust).toBe('unknown');
      expect(loaded.rules.map((entry) => `${entry.behavior}:${entry.rule}`)).toEqual(['deny:Read(.env)', 'ask:Edit']);
      expect(loaded).toMatchObject({ defaultMode: 'default', additionalDirectories: [], mcpServers: [] });
      expect(loaded.hooks.size + loaded.env.size).toBe(0);
      expect(loaded.warnings.map((warning) => warning.message).join('\n')).toContain('toolplane trust');
    });

    it('trust comes from --trust-project, TOOLPLANE_TRUST_PROJECT=1 or the store, in headless runs too', async () => {
      await write(join(project, '.toolplane', 'settings.json'), projectSettings);
      expect(await loadSettings(untrusted({ trustProject: true }))).toMatchObject({
        projectTrust: 'trusted',
        projectTrustGrantedBy: 'flag',
        defaultMode: 'bypassPermissions',
      });
      const byEnv = await loadSettings(
        untrusted({ env: { TOOLPLANE_CONFIG_DIR: userDir, TOOLPLANE_TRUST_PROJECT: '1' } }),
      );
      expect(byEnv).toMatchObject({ projectTrust: 'trusted', projectTrustGrantedBy: 'environment' });
      expect(byEnv.rules).toHaveLength(3);
      // Only 1 or true: a variable set to 0 or left empty trusts nothing.
      for (const value of ['0', '', 'no']) {
        expect(
          (await loadSettings(untrusted({ env: { TOOLPLANE_CONFIG_DIR: userDir, TOOLPLANE_TRUST_PROJECT: value } })))
            .projectTrust,
        ).toBe('unknown');
      }
      await writeProjectTrust({
        storeFile: join(userDir, 'trusted-projects.json'),
        projectDir: project,
        trust: 'trusted',
      });
      expect(await loadSettings(untrusted())).toMatchObject({
        projectTrust: 'trusted',
        projectTrustGrantedBy: 'trust-store',
      });
    });

    it("an untrusted folder cannot set any mode, not even one that looks stricter than the user's", async () => {
      await write(join(userDir, 'settings.json'), { permissions: { defaultMode: 'plan' } });
      await write(join(project, '.toolplane', 'settings.json'), { permissions: { defaultMode: 'default' } });
      expect((await loadSettings(untrusted())).defaultMode).toBe('plan');
      expect((await loadSettings(options())).defaultMode).toBe('default');
    });

    it("the user's own files and --settings are not project files: they apply in an untrusted folder", async () => {
      await write(join(userDir, 'settings.json'), { permissions: { allow: ['Read'], defaultMode: 'acceptEdits' } });
      const loaded = await loadSettings(
        untrusted({ cli: { settings: JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] } }) } }),
      );
      expect(loaded.rules.map((entry) => entry.rule)).toEqual(['Bash(npm test:*)', 'Read']);
      expect(loaded.defaultMode).toBe('acceptEdits');
    });
  });
});

describe('--setting-sources', () => {
  it('applies the named scopes in full; a scope left out keeps only its deny and ask rules', async () => {
    await write(join(userDir, 'settings.json'), {
      permissions: { allow: ['Bash(touch *)'], deny: ['Read(~/.ssh/**)'], ask: ['Bash(git push *)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
      env: { FROM_USER: '1' },
    });
    await write(join(project, '.toolplane', 'settings.json'), { permissions: { allow: ['Bash(ls *)'] } });
    await write(join(project, '.toolplane', 'settings.local.json'), { permissions: { allow: ['Bash(pwd)'] } });
    const rules = (loaded: Awaited<ReturnType<typeof loadSettings>>) =>
      loaded.rules.map((entry) => `${entry.behavior} ${entry.rule} ${entry.source}`).sort();

    const onlyProject = await loadSettings(options({ cli: { settingSources: ['project'] } }));
    expect(rules(onlyProject)).toEqual([
      'allow Bash(ls *) projectSettings',
      'ask Bash(git push *) userSettings',
      'deny Read(~/.ssh/**) userSettings',
    ]);
    expect(onlyProject.env.size).toBe(0);
    expect(onlyProject.hooks.get('PreToolUse') ?? []).toEqual([]);
    expect(onlyProject.warnings.map((warning) => warning.message).join('\n')).toMatch(
      /--setting-sources leaves out the user settings: its allow rules, hooks, env are not applied/,
    );

    // None at all (the Agent SDK's settingSources: []): still every deny and ask rule.
    const none = await loadSettings(options({ cli: { settingSources: [] } }));
    expect(rules(none)).toEqual(['ask Bash(git push *) userSettings', 'deny Read(~/.ssh/**) userSettings']);

    const all = await loadSettings(options());
    expect(rules(all)).toContain('allow Bash(touch *) userSettings');
    expect(all.env.get('FROM_USER')).toBe('1');
  });
});
