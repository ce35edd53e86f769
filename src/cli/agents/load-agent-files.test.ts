import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentModel } from './agent-model.js';
import { loadAgentFiles, parseAgentFile } from './load-agent-files.js';

describe('parseAgentFile', () => {
  it('reads name, description, tools (comma-separated or a list), model and the prompt', () => {
    const text =
      '---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: claude-haiku-4-5\n---\nBe strict.\n';
    expect(parseAgentFile(text)).toEqual({
      agent: {
        name: 'code-reviewer',
        description: 'Reviews code',
        tools: ['Read', 'Grep'],
        model: 'claude-haiku-4-5',
        system: 'Be strict.',
      },
      notices: [],
    });
    const listed = parseAgentFile('---\nname: a\ndescription: d\ntools:\n  - Read\n  - Bash\n---\n');
    expect(listed).toEqual({ agent: { name: 'a', description: 'd', tools: ['Read', 'Bash'] }, notices: [] });
  });

  it('refuses a file without a name or description, a bad name, or broken YAML', () => {
    expect(parseAgentFile('Just a prompt.')).toBe('the front matter needs a name and a description');
    expect(parseAgentFile('---\nname: Code Reviewer\ndescription: d\n---\n')).toContain('lower-case letters');
    expect(parseAgentFile('---\nname: a\ndescription: [open\n---\n')).toMatch(
      /^line \d+: the front matter is not valid YAML/,
    );
    expect(parseAgentFile('---\nname: a\ndescription: d\ntools: {Read: 1}\n---\n')).toBe(
      'tools must be a list or comma-separated names',
    );
  });

  it('reads disallowedTools and maxTurns, and names the keys it does not apply', () => {
    const parsed = parseAgentFile(
      '---\nname: a\ndescription: d\ndisallowedTools: Bash, Write\nmaxTurns: 5\npermissionMode: plan\ncolor: red\n---\n',
    );
    expect(parsed).toEqual({
      agent: { name: 'a', description: 'd', disallowedTools: ['Bash', 'Write'], maxTurns: 5 },
      notices: ['permissionMode: not applied by toolplane, ignored'],
    });
    expect(parseAgentFile('---\nname: a\ndescription: d\nmaxTurns: -1\n---\n')).toBe(
      'maxTurns must be a whole number above 0',
    );
  });

  it("keeps the session's model for inherit and for a Claude Code alias, and says so for the alias", () => {
    expect(agentModel(undefined)).toEqual({});
    expect(agentModel('inherit')).toEqual({});
    expect(agentModel('sonnet').model).toBeUndefined();
    expect(agentModel('sonnet').notice).toContain('alias');
    expect(agentModel('gpt-oss:20b')).toEqual({ model: 'gpt-oss:20b' });
    for (const alias of ['opus[1m]', 'opusplan', 'default', 'Haiku'])
      expect(agentModel(alias)).toEqual({ notice: expect.stringContaining('alias') as string });
    expect(agentModel('claude-sonnet-4-5')).toEqual({ model: 'claude-sonnet-4-5' });
  });
});

describe('loadAgentFiles', () => {
  let home: string;
  let project: string;
  const agent = async (folder: string, file: string, name: string, description: string) => {
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, file),
      `---\nname: ${name}\ndescription: ${description}\n---\nPrompt of ${description}.\n`,
    );
  };

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-agents-'));
    project = join(home, 'project');
    await agent(join(project, '.claude', 'agents'), 'reviewer.md', 'reviewer', 'project reviewer');
    await agent(join(home, '.claude', 'agents'), 'reviewer.md', 'reviewer', 'my reviewer');
    await agent(join(home, '.claude', 'agents'), 'writer.md', 'writer', 'my writer');
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it("reads the project's agents before the person's in a trusted folder, and reports the one not used", () => {
    const list = loadAgentFiles({ cwd: project, homeDir: home, projectTrusted: true });
    expect(list.agents.map((found) => `${found.name}: ${found.description}`)).toEqual([
      'reviewer: project reviewer',
      'writer: my writer',
    ]);
    expect(list.agents[0]).toMatchObject({
      system: 'Prompt of project reviewer.',
      file: join(project, '.claude', 'agents', 'reviewer.md'),
    });
    expect(list.problems).toEqual([
      `${join(home, '.claude', 'agents', 'reviewer.md')}: not used, the agent reviewer is defined already by ${join(project, '.claude', 'agents', 'reviewer.md')}`,
    ]);
  });

  it("leaves an untrusted project's agents out and says why; the person's own still apply", () => {
    const list = loadAgentFiles({ cwd: project, homeDir: home, projectTrusted: false });
    expect(list.agents.map((found) => found.description)).toEqual(['my reviewer', 'my writer']);
    expect(list.problems).toEqual([
      `${join(project, '.claude', 'agents')}: not read, this folder is not trusted (toolplane trust, or /trust)`,
    ]);
  });

  it('run in the home folder, reads its agents as the person’s without calling them untrusted', () => {
    const list = loadAgentFiles({ cwd: home, homeDir: home, projectTrusted: false });
    expect(list.agents.map((found) => found.description)).toEqual(['my reviewer', 'my writer']);
    expect(list.problems).toEqual([]);
  });

  it('skips a broken file with its reason and keeps the rest', async () => {
    await writeFile(join(home, '.claude', 'agents', 'broken.md'), '---\nname: broken\n---\n');
    const list = loadAgentFiles({ cwd: project, homeDir: home, projectTrusted: false });
    expect(list.agents.map((found) => found.name)).toEqual(['reviewer', 'writer']);
    expect(list.problems).toContain(
      `${join(home, '.claude', 'agents', 'broken.md')}: the front matter needs a name and a description; the agent is not available`,
    );
  });
});
