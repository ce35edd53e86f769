import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { useCliProject } from './cli-project.js';
import { CLI, isolatedEnv, runCli } from './run-cli.js';

type Listed = {
  rule: string;
  behavior: string;
  source: string;
  file?: string;
  line?: number;
  granted?: { at: string; sessionId: string };
};

/** `permissions list` and `permissions revoke`: rules in force with file and line, grants on record, and taking one back. */
describe('toolplane permissions list and revoke', () => {
  const context = useCliProject('toolplane-rules-');

  const cli = (args: string[]) => runCli(args, { cwd: context.project, env: isolatedEnv(context.home) });
  const listed = async () =>
    JSON.parse((await cli(['permissions', 'list', '--json', '--trust-project'])).stdout) as Listed[];

  it('lists each rule with its file and line, and a rule saved by "always allow" with its session; revoke takes it back', async () => {
    const settings =
      '{\n  "permissions": {\n    "deny": ["Bash(curl:*)"],\n    "allow": [\n      "Bash(npm test)"\n    ]\n  }\n}\n';
    await writeFile(join(context.project, '.claude', 'settings.json'), settings);
    const marker = join(context.project, 'made');
    context.server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: `touch ${marker}` } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: 'go',
      options: {
        pathToClaudeCodeExecutable: CLI,
        executable: 'node',
        cwd: context.project,
        env: isolatedEnv(context.home, {
          ANTHROPIC_API_KEY: 'k',
          ANTHROPIC_BASE_URL: context.server.baseURL,
          TOOLPLANE_TRUST_PROJECT: '1',
        }),
        // The host's "always allow": the rule goes to the project's local settings.
        canUseTool: (_name, input) =>
          Promise.resolve({
            behavior: 'allow',
            updatedInput: input,
            updatedPermissions: [
              {
                type: 'addRules',
                rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }],
                behavior: 'allow',
                destination: 'localSettings',
              },
            ],
          }),
      },
    }))
      messages.push(message);
    expect(existsSync(marker)).toBe(true);
    const sessionId = messages.find((message) => message.type === 'result')!.session_id;
    const local = join(context.project, '.toolplane', 'settings.local.json');

    const rules = await listed();
    expect(rules).toContainEqual({
      rule: 'Bash(curl:*)',
      behavior: 'deny',
      source: 'projectSettings',
      file: join(context.project, '.claude', 'settings.json'),
      line: 3,
    });
    expect(rules).toContainEqual(
      expect.objectContaining({
        rule: 'Bash(npm test)',
        behavior: 'allow',
        line: 5,
        file: join(context.project, '.claude', 'settings.json'),
      }),
    );
    const granted = rules.find((rule) => rule.rule === 'Bash(touch:*)');
    expect(granted).toMatchObject({ behavior: 'allow', source: 'localSettings', file: local, granted: { sessionId } });
    expect(Date.now() - Date.parse(granted!.granted!.at)).toBeLessThan(10 * 60_000);
    const text = (await cli(['permissions', 'list', '--trust-project'])).stdout;
    expect(text).toMatch(
      new RegExp(`allow  Bash\\(touch:\\*\\)  ${local}:\\d+ \\(localSettings\\)  granted \\S+ in session ${sessionId}`),
    );

    const revoked = await cli(['permissions', 'revoke', 'Bash(touch:*)']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/Removed allow rule Bash\(touch:\*\) from .*settings\.local\.json:\d+/);
    expect((await listed()).map((rule) => rule.rule)).not.toContain('Bash(touch:*)');
    expect(JSON.parse(await readFile(local, 'utf8'))).toEqual({ permissions: { allow: [] } });
    expect(await readFile(join(context.home, '.toolplane', 'granted-rules.json'), 'utf8')).not.toContain('touch');
    // The project file keeps its formatting when one of its rules goes.
    expect((await cli(['permissions', 'revoke', 'Bash(npm test)'])).code).toBe(0);
    expect(await readFile(join(context.project, '.claude', 'settings.json'), 'utf8')).toBe(
      '{\n  "permissions": {\n    "deny": ["Bash(curl:*)"],\n    "allow": []\n  }\n}\n',
    );
  });

  it('says when no such rule is in force, and takes no --settings: command-line rules are not in a file', async () => {
    const fromCli = await cli([
      'permissions',
      'revoke',
      'Bash(ls)',
      '--settings',
      '{"permissions":{"allow":["Bash(ls)"]}}',
    ]);
    expect(fromCli.code).toBe(2);
    expect(fromCli.stderr).toContain("Unknown option '--settings'");
    const missing = await cli(['permissions', 'revoke', 'Bash(rm:*)']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no allow rule Bash(rm:*) is in force here');
    expect((await cli(['permissions', 'revoke'])).code).toBe(2);
  });

  it('takes back only an allow rule unless told otherwise, and says when a deny or ask going loosens the policy', async () => {
    const file = join(context.project, '.claude', 'settings.json');
    await writeFile(file, JSON.stringify({ permissions: { allow: ['Bash(ls)'], deny: ['Bash(ls)', 'Bash(rm:*)'] } }));
    const allow = await cli(['permissions', 'revoke', 'Bash(ls)', '--file', '.claude/settings.json']);
    expect(allow.code, allow.stderr).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      permissions: { allow: [], deny: ['Bash(ls)', 'Bash(rm:*)'] },
    });
    const deny = await cli(['permissions', 'revoke', 'Bash(rm:*)', '--behavior', 'deny']);
    expect(deny.code, deny.stderr).toBe(0);
    expect(deny.stdout).toContain('the policy is looser');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ permissions: { allow: [], deny: ['Bash(ls)'] } });
  });

  it('refuses to edit a settings file a tool call changed: the edit would release the hold unseen', async () => {
    const plant = `node -e "require('fs').writeFileSync('.claude/settings.local.json', JSON.stringify({permissions: {ask: ['Bash(git push:*)'], allow: ['Bash(curl:*)']}}))"`;
    context.server = await startMockAnthropicServer({
      replies: [
        { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: plant } }] },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    });
    const run = await runCli(
      [
        '-p',
        'go',
        '--trust-project',
        '--permission-mode',
        'bypassPermissions',
        '--settings',
        '{"sandbox":{"enabled":false}}',
      ],
      {
        cwd: context.project,
        env: isolatedEnv(context.home, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: context.server.baseURL }),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const local = join(context.project, '.claude', 'settings.local.json');
    const planted = await readFile(local, 'utf8');
    const revoke = await cli(['permissions', 'revoke', 'Bash(git push:*)', '--behavior', 'ask']);
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain('was changed by a tool call and is held');
    expect(await readFile(local, 'utf8')).toBe(planted);
    expect((await listed()).map((rule) => rule.rule)).not.toContain('Bash(curl:*)');
  });
});
