import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCustomCommands } from './load-custom-commands.js';

let root: string;
let project: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-commands-'));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const load = () => loadCustomCommands({ cwd: project, homeDir: home, builtinNames: new Set(['help', 'model']) });

describe('loadCustomCommands', () => {
  it("prefers the project's command in a trusted folder, and the person's own in an untrusted one", () => {
    write(path.join(project, '.claude', 'commands', 'review.md'), 'The repository says.');
    write(path.join(home, '.claude', 'commands', 'review.md'), 'I say.');
    const trusted = load();
    expect(trusted.commands.get('review')).toMatchObject({ scope: 'project', file: { body: 'The repository says.' } });
    const untrusted = loadCustomCommands({
      cwd: project,
      homeDir: home,
      builtinNames: new Set(),
      projectTrusted: false,
    });
    expect(untrusted.commands.get('review')).toMatchObject({ scope: 'user', file: { body: 'I say.' } });
    expect(untrusted.problems).toEqual([
      `${path.join(project, '.claude', 'commands', 'review.md')}: not used, /review is defined already by ${path.join(home, '.claude', 'commands', 'review.md')}`,
    ]);
  });

  it('reads project and user folders, subfolders giving dir:name', () => {
    write(path.join(project, '.toolplane', 'commands', 'review.md'), '---\ndescription: Review\n---\nReview $1');
    write(path.join(project, '.claude', 'commands', 'frontend', 'Component.md'), 'Make a component');
    write(path.join(home, '.toolplane', 'commands', 'mine.md'), 'Mine');
    write(path.join(home, '.claude', 'commands', 'notes.txt'), 'not a command');
    const { commands, problems } = load();
    expect(problems).toEqual([]);
    expect([...commands.keys()].sort()).toEqual(['frontend:component', 'mine', 'review']);
    expect(commands.get('review')).toMatchObject({
      scope: 'project',
      file: { description: 'Review', body: 'Review $1' },
    });
    expect(commands.get('mine')?.scope).toBe('user');
  });

  it('reports a broken file with its path and line and skips it, keeping the others', () => {
    const broken = write(path.join(project, '.toolplane', 'commands', 'broken.md'), '---\ndescription x\n---\nbody');
    write(path.join(project, '.toolplane', 'commands', 'fine.md'), 'fine');
    const { commands, problems } = load();
    expect([...commands.keys()]).toEqual(['fine']);
    expect(problems).toEqual([expect.stringContaining(`${broken}:2:`)]);
  });

  it('keeps the built-in over a project command of its name, and the project over the person, reporting both', () => {
    const clash = write(path.join(project, '.toolplane', 'commands', 'help.md'), 'not the help');
    const project1 = write(path.join(project, '.toolplane', 'commands', 'deploy.md'), 'project deploy');
    const shadowed = write(path.join(home, '.claude', 'commands', 'deploy.md'), 'my deploy');
    const { commands, problems } = load();
    expect(commands.has('help')).toBe(false);
    expect(commands.get('deploy')?.path).toBe(project1);
    expect(problems).toEqual([
      expect.stringContaining(`${clash}: /help is a built-in command`),
      expect.stringContaining(`${shadowed}: not used, /deploy is defined already by ${project1}`),
    ]);
  });

  it('reports names that cannot be commands, and reads the home folder once when it is the project', () => {
    write(path.join(project, '.toolplane', 'commands', 'has space.md'), 'x');
    const { problems } = load();
    expect(problems).toEqual([expect.stringContaining('cannot be a command')]);
    write(path.join(home, '.toolplane', 'commands', 'once.md'), 'x');
    const same = loadCustomCommands({ cwd: home, homeDir: home, builtinNames: new Set() });
    expect(same.problems).toEqual([]);
    expect(same.commands.get('once')?.scope).toBe('project');
  });
});
