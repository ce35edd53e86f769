import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SETTINGS } from '../contract/sandbox.js';
import type { PermissionRuleEntry } from '../contract/permission.js';
import { buildSandboxPolicy } from './sandbox-policy.js';

let root: string;
let home: string;
let project: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolplane-policy-')));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  await mkdir(path.join(project, 'keys', 'deep'), { recursive: true });
  await mkdir(path.join(project, 'node_modules', 'x'), { recursive: true });
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(project, 'keys', 'a.pem'), 'k');
  await writeFile(path.join(project, 'keys', 'deep', 'b.pem'), 'k');
  await writeFile(path.join(project, 'node_modules', 'x', 'c.pem'), 'k');
  await writeFile(path.join(project, 'keys', 'readme.md'), 'r');
  await writeFile(path.join(project, '.env.real'), 'SECRET');
  await symlink(path.join(project, '.env.real'), path.join(project, '.env'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const rule = (text: string, behavior: PermissionRuleEntry['behavior'] = 'deny'): PermissionRuleEntry => ({
  rule: text,
  behavior,
  source: 'projectSettings',
  root: project,
});
const build = (rules: readonly PermissionRuleEntry[], settings = DEFAULT_SANDBOX_SETTINGS) =>
  buildSandboxPolicy({ rules, cwd: project, homeDir: home, tmpDir: path.join(root, 'tmp'), settings });

describe('buildSandboxPolicy', () => {
  it('masks the credential stores under home, and what a Read deny names (a link and its target)', () => {
    const policy = build([rule('Read(./.env)'), rule('Read(~/notes/**)')]);
    expect(policy.masked).toEqual(
      expect.arrayContaining([
        path.join(home, '.ssh'),
        path.join(home, '.aws'),
        path.join(project, '.env'),
        path.join(project, '.env.real'),
        path.join(home, 'notes'),
      ]),
    );
  });

  it('expands a glob to the paths that exist now, outside node_modules, and says so', () => {
    const policy = build([rule('Read(**/*.pem)')]);
    const pems = policy.masked.filter((entry) => entry.endsWith('.pem')).sort();
    expect(pems).toEqual([path.join(project, 'keys', 'a.pem'), path.join(project, 'keys', 'deep', 'b.pem')]);
    expect(policy.unenforced.join('\n')).toContain('Read(**/*.pem): a glob, masked for the 2 path(s)');
  });

  it('reports a glob it could not finish and one outside the folders it may search', () => {
    const small = buildSandboxPolicy({
      rules: [rule('Read(**/*.md)')],
      cwd: project,
      homeDir: home,
      tmpDir: path.join(root, 'tmp'),
      maxGlobEntries: 2,
    });
    expect(small.unenforced.join('\n')).toContain('more than 2 entries');
    expect(build([rule('Read(//etc/*.conf)')]).unenforced.join('\n')).toContain('outside the working folders and home');
  });

  it('ignores allow and ask rules, and other tools, for masks; Edit deny rules become write protection', () => {
    const policy = build([rule('Read(./keys/**)', 'allow'), rule('Read(./keys/**)', 'ask'), rule('Edit(./keys/**)')]);
    expect(policy.masked).not.toContain(path.join(project, 'keys'));
    expect(policy.writeProtected).toContain(path.join(project, 'keys'));
  });

  it('unmasks a credential store that allowRead names, and writes what allowWrite adds', () => {
    const policy = build([], {
      ...DEFAULT_SANDBOX_SETTINGS,
      allowRead: [path.join(home, '.ssh')],
      allowWrite: [path.join(home, '.gradle')],
    });
    expect(policy.masked).not.toContain(path.join(home, '.ssh'));
    expect(policy.masked).toContain(path.join(home, '.aws'));
    expect(policy.writable).toContain(path.join(home, '.gradle'));
  });

  it("protects git's hooks and config, agent settings and CI files in each working folder, and home's startup files when home is one", () => {
    const policy = build([]);
    for (const name of [
      '.git/hooks',
      '.git/config',
      '.claude',
      '.toolplane',
      '.mcp.json',
      '.github/workflows',
      '.envrc',
    ]) {
      expect(policy.writeProtected).toContain(path.join(project, name));
    }
    expect(policy.writeProtected).not.toContain(path.join(home, '.bashrc'));
    const atHome = buildSandboxPolicy({ rules: [], cwd: home, homeDir: home, tmpDir: path.join(root, 'tmp') });
    expect(atHome.writeProtected).toEqual(
      expect.arrayContaining([path.join(home, '.bashrc'), path.join(home, '.config'), path.join(home, '.local/bin')]),
    );
  });

  it('masks other sessions and projects but not this session', async () => {
    const config = path.join(root, 'config');
    const mine = path.join(config, 'projects', 'p1', 'me');
    await mkdir(mine, { recursive: true });
    await mkdir(path.join(config, 'projects', 'p2'), { recursive: true });
    await writeFile(path.join(config, 'projects', 'p1', 'other.jsonl'), '');
    await writeFile(path.join(config, 'projects', 'p1', 'me.jsonl'), '');
    const policy = buildSandboxPolicy({
      rules: [],
      cwd: project,
      homeDir: home,
      tmpDir: path.join(root, 'tmp'),
      configDir: config,
      sessionDir: mine,
    });
    expect(policy.masked).toEqual(
      expect.arrayContaining([path.join(config, 'projects', 'p2'), path.join(config, 'projects', 'p1', 'other.jsonl')]),
    );
    expect(policy.masked).not.toContain(mine);
    expect(policy.masked).not.toContain(path.join(config, 'projects', 'p1', 'me.jsonl'));
  });

  it("write-protects nested repositories' and submodules' hooks and config, and every .git file below the working folder", async () => {
    await mkdir(path.join(project, 'vendor', 'lib', '.git', 'hooks'), { recursive: true });
    await mkdir(path.join(project, '.git', 'modules', 'libs', 'a', 'hooks'), { recursive: true });
    await writeFile(path.join(project, '.git', 'modules', 'libs', 'a', 'HEAD'), 'ref: refs/heads/main\n');
    await mkdir(path.join(project, 'libs', 'a'), { recursive: true });
    await writeFile(path.join(project, 'libs', 'a', '.git'), 'gitdir: ../../.git/modules/libs/a\n');
    const policy = build([]);
    expect(policy.writeProtected).toEqual(
      expect.arrayContaining([
        path.join(project, 'vendor', 'lib', '.git', 'hooks'),
        path.join(project, 'vendor', 'lib', '.git', 'config'),
        path.join(project, '.git', 'modules', 'libs', 'a', 'hooks'),
        path.join(project, '.git', 'modules', 'libs', 'a', 'config'),
        path.join(project, 'libs', 'a', '.git'),
      ]),
    );
    expect(policy.writeProtected.some((entry) => entry.includes('node_modules'))).toBe(false);
  });

  it('write-protects a configured hook script in a tool cache too', () => {
    const script = path.join(home, '.cache', 'hooks', 'check.sh');
    const policy = buildSandboxPolicy({
      rules: [],
      cwd: project,
      homeDir: home,
      tmpDir: path.join(root, 'tmp'),
      protectedFiles: [script, '/usr/local/bin/elsewhere'],
    });
    expect(policy.writeProtected).toContain(script);
    expect(policy.writeProtected).not.toContain('/usr/local/bin/elsewhere');
  });
});
