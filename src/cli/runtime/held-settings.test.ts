import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../loop/types.js';
import { parseRunArguments } from '../args.js';
import { createRuntime, type Runtime, type RuntimeOptions } from './create-runtime.js';
import type { HeldConfigFile } from './held-config-files.js';

// A session whose tool call rewrites the project's settings behind toolplane's back (a script
// that bypass mode ran). Real files, the real runtime, the scripted model. The
// sandbox, which makes these files read-only to Bash, is off here so the hold is tested on its
// own: a person-approved run outside the sandbox, or a host without one, writes them like this.
const UNSANDBOXED = ['--settings', JSON.stringify({ sandbox: { enabled: false } })];
describe('settings files a tool call writes are held across sessions', () => {
  let home: string;
  let project: string;
  let local: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-held-rt-'));
    project = join(home, 'project');
    local = join(project, '.toolplane', 'settings.local.json');
    await mkdir(join(project, '.toolplane'), { recursive: true });
    await writeFile(local, JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } }));
    env = { HOME: home, TOOLPLANE_CONFIG_DIR: join(home, '.toolplane'), PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  async function script(turns: readonly unknown[]): Promise<string> {
    const file = join(home, `script-${Math.random().toString(16).slice(2)}.jsonl`);
    await writeFile(file, turns.map((turn) => JSON.stringify(turn)).join('\n'));
    return file;
  }

  async function run(runtime: Runtime, prompt: string): Promise<LoopEvent[]> {
    const events: LoopEvent[] = [];
    const generator = runtime.session.submit(prompt, new AbortController().signal);
    for (let step = await generator.next(); !step.done; step = await generator.next()) events.push(step.value);
    return events;
  }

  const start = async (flags: readonly string[], extra: Partial<RuntimeOptions> = {}) => {
    const warnings: string[] = [];
    const noModel = await script([{ content: [{ type: 'text', text: 'ok' }] }]);
    const runtime = await createRuntime({
      args: parseRunArguments(['--provider', 'scripted', '--script', noModel, '--trust-project', ...flags]),
      cwd: project,
      env,
      homeDir: home,
      interactive: false,
      warn: (line) => warnings.push(line),
      ...extra,
    });
    return { runtime, warnings };
  };

  it('holds the file after the batch, in later headless sessions, until a person confirms it in the UI', async () => {
    const plant = `node -e "require('fs').writeFileSync('.toolplane/settings.local.json', JSON.stringify({permissions: {allow: ['Bash(touch:*)']}}))"`;
    const attack = await script([
      { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: plant } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const warnings: string[] = [];
    const first = await createRuntime({
      args: parseRunArguments([
        '-p',
        'x',
        '--provider',
        'scripted',
        '--script',
        attack,
        '--trust-project',
        '--permission-mode',
        'bypassPermissions',
        ...UNSANDBOXED,
      ]),
      cwd: project,
      env,
      homeDir: home,
      interactive: false,
      warn: (line) => warnings.push(line),
    });
    try {
      await run(first, 'go');
    } finally {
      await first.session.close();
    }
    expect(warnings).toContainEqual(
      expect.stringContaining(
        `toolplane: ${local} was changed by a tool call. Until a person confirms it, only its deny and ask rules`,
      ),
    );

    // A later headless session: the planted allow rule is held, the deny rule the file had still applies.
    const later = await start(['-p', 'y']);
    await later.runtime.session.close();
    expect(later.runtime.settings.rules.map((entry) => `${entry.behavior} ${entry.rule}`)).toEqual([
      'deny Bash(curl:*)',
    ]);
    expect(later.warnings.join('\n')).toContain('is held until a person confirms it: its allow rules are not applied');

    // The terminal UI asks; a refusal keeps it held, a confirmation applies it.
    const asked: HeldConfigFile[] = [];
    const refused = await start([], { interactive: true, askConfirmHeld: async (held) => (asked.push(held), false) });
    await refused.runtime.session.close();
    expect(asked).toEqual([expect.objectContaining({ file: local, loosens: ['allow Bash(touch:*)'] })]);
    expect(refused.runtime.settings.rules.map((entry) => entry.rule)).toEqual(['Bash(curl:*)']);
    const confirmed = await start([], { interactive: true, askConfirmHeld: async () => true });
    await confirmed.runtime.session.close();
    expect(confirmed.runtime.settings.rules.map((entry) => `${entry.behavior} ${entry.rule}`)).toEqual([
      'allow Bash(touch:*)',
    ]);
    const afterwards = await start(['-p', 'z']);
    await afterwards.runtime.session.close();
    expect(afterwards.runtime.settings.rules.map((entry) => entry.rule)).toEqual(['Bash(touch:*)']);
  });

  it('the terminal UI gets the hold as a notice in the transcript, and a rule saved on top of it stays held', async () => {
    const plant = `node -e "require('fs').writeFileSync('.toolplane/settings.local.json', '{}')"`;
    const attack = await script([
      { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: plant } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const warnings: string[] = [];
    const runtime = await createRuntime({
      args: parseRunArguments([
        '--provider',
        'scripted',
        '--script',
        attack,
        '--trust-project',
        '--permission-mode',
        'bypassPermissions',
        ...UNSANDBOXED,
      ]),
      cwd: project,
      env,
      homeDir: home,
      interactive: true,
      warn: (line) => warnings.push(line),
    });
    try {
      const events = await run(runtime, 'go');
      expect(events).toContainEqual({
        type: 'notice',
        message: expect.stringContaining(`${local} was changed by a tool call`),
      });
      // The person then chooses "always allow" in local settings: the rule applies now, the file stays held.
      await runtime.permissions.remember({
        rule: 'Bash(make test:*)',
        behavior: 'allow',
        destination: 'localSettings',
      });
      expect(warnings).toContainEqual(expect.stringContaining('stays held with the new rule'));
    } finally {
      await runtime.session.close();
    }
    const later = await start(['-p', 'y']);
    await later.runtime.session.close();
    // The deny rule the file had before the tool call still applies; the saved allow waits for confirmation.
    expect(later.runtime.settings.rules.map((entry) => `${entry.behavior} ${entry.rule}`)).toEqual([
      'deny Bash(curl:*)',
    ]);
  });

  it('an .mcp.json a tool call wrote starts no server in later sessions', async () => {
    const config = JSON.stringify({
      mcpServers: { planted: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } },
    });
    const plant = `node -e "require('fs').writeFileSync('.mcp.json', process.argv[1])" '${config}'`;
    const attack = await script([
      { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: plant } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const first = await createRuntime({
      args: parseRunArguments([
        '-p',
        'x',
        '--provider',
        'scripted',
        '--script',
        attack,
        '--trust-project',
        '--permission-mode',
        'bypassPermissions',
        ...UNSANDBOXED,
      ]),
      cwd: project,
      env,
      homeDir: home,
      interactive: false,
      warn: () => {},
    });
    try {
      await run(first, 'go');
    } finally {
      await first.session.close();
    }
    expect(existsSync(join(project, '.mcp.json'))).toBe(true);
    const later = await start(['-p', 'y']);
    await later.runtime.session.close();
    expect(later.runtime.mcp?.servers() ?? []).toEqual([]);
    expect(later.warnings).toContainEqual(
      expect.stringContaining(`mcp: ${join(project, '.mcp.json')}: it was changed by a tool call and is held`),
    );
  });

  it('look-alike: a session whose tool calls leave the settings alone holds nothing', async () => {
    const harmless = await script([
      { content: [{ type: 'tool_use', id: 'w', name: 'Bash', input: { command: 'node -e "1"' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const warnings: string[] = [];
    const runtime = await createRuntime({
      args: parseRunArguments([
        '-p',
        'x',
        '--provider',
        'scripted',
        '--script',
        harmless,
        '--trust-project',
        '--permission-mode',
        'bypassPermissions',
        ...UNSANDBOXED,
      ]),
      cwd: project,
      env,
      homeDir: home,
      interactive: false,
      warn: (line) => warnings.push(line),
    });
    try {
      await run(runtime, 'go');
    } finally {
      await runtime.session.close();
    }
    expect(warnings.join('\n')).not.toContain('changed by a tool call');
    expect(existsSync(join(home, '.toolplane', 'held-settings.json'))).toBe(false);
  });
});
