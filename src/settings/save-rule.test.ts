import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';
import { saveRule, type SaveRuleOptions } from './save-rule.js';
import { readProjectTrust, writeProjectTrust } from './trust-store.js';
import { writeFileAtomic } from './write-file-atomic.js';

let base: string;
let project: string;
let userDir: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolplane-save-'));
  project = join(base, 'project');
  userDir = join(base, 'config');
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function save(extra: Pick<SaveRuleOptions, 'destination' | 'rule' | 'behavior'>): ReturnType<typeof saveRule> {
  return saveRule({ cwd: project, env: { TOOLPLANE_CONFIG_DIR: userDir }, homeDir: base, ...extra });
}

describe('saveRule', () => {
  it('creates .toolplane/ and the local file, and the loader reads the rule back', async () => {
    const result = await save({ destination: 'localSettings', rule: 'Bash(npm test)', behavior: 'allow' });
    expect(result).toMatchObject({
      file: join(project, '.toolplane', 'settings.local.json'),
      added: true,
      previousHash: 'absent',
    });
    const loaded = await loadSettings({
      cwd: project,
      env: { TOOLPLANE_CONFIG_DIR: userDir },
      homeDir: base,
      session: 'headless',
      trustProject: true,
      managedSettingsFile: join(base, 'none'),
    });
    expect(loaded.rules).toEqual([
      { rule: 'Bash(npm test)', behavior: 'allow', source: 'localSettings', file: result.file, root: project },
    ]);
  });

  it('keeps other keys and existing rules, and does not add a rule twice', async () => {
    const file = join(project, '.toolplane', 'settings.json');
    await mkdir(join(project, '.toolplane'));
    await writeFile(
      file,
      JSON.stringify({ model: 'm', permissions: { allow: ['Read'], deny: ['Bash(rm *)'] }, hooks: { Stop: [] } }),
    );
    await save({ destination: 'projectSettings', rule: 'Edit(/src/**)', behavior: 'allow' });
    expect(await save({ destination: 'projectSettings', rule: 'Edit(/src/**)', behavior: 'allow' })).toMatchObject({
      added: false,
    });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      model: 'm',
      permissions: { allow: ['Read', 'Edit(/src/**)'], deny: ['Bash(rm *)'] },
      hooks: { Stop: [] },
    });
    expect(await readdir(join(project, '.toolplane'))).toEqual(['settings.json']);
  });

  it('writes user rules to the user folder', async () => {
    const result = await save({ destination: 'userSettings', rule: 'WebFetch(domain:example.com)', behavior: 'deny' });
    expect(result.file).toBe(join(userDir, 'settings.json'));
    expect(JSON.parse(await readFile(result.file, 'utf8'))).toEqual({
      permissions: { deny: ['WebFetch(domain:example.com)'] },
    });
  });

  it('loses no rule when saves run at the same time', async () => {
    const rules = Array.from({ length: 12 }, (_, index) => `Bash(task-${index})`);
    await Promise.all(rules.map((rule) => save({ destination: 'localSettings', rule, behavior: 'allow' })));
    const text = await readFile(join(project, '.toolplane', 'settings.local.json'), 'utf8');
    expect([...(JSON.parse(text) as { permissions: { allow: string[] } }).permissions.allow].sort()).toEqual(
      [...rules].sort(),
    );
  });

  it('refuses to overwrite a file it cannot parse', async () => {
    await mkdir(join(project, '.toolplane'));
    const file = join(project, '.toolplane', 'settings.json');
    await writeFile(file, '{"permissions": {"deny": ["Bash"]');
    await expect(save({ destination: 'projectSettings', rule: 'Read', behavior: 'allow' })).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
    });
    expect(await readFile(file, 'utf8')).toBe('{"permissions": {"deny": ["Bash"]');
  });

  it('refuses a file whose permissions key has the wrong shape', async () => {
    await mkdir(join(project, '.toolplane'));
    await writeFile(join(project, '.toolplane', 'settings.json'), '{"permissions": []}');
    await expect(save({ destination: 'projectSettings', rule: 'Read', behavior: 'allow' })).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
    });
  });
});

describe('writeFileAtomic', () => {
  it('leaves no temporary file behind when the write is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      writeFileAtomic({ path: join(base, 'x.json'), text: '{}', signal: controller.signal }),
    ).rejects.toThrow();
    await expect(readdir(base)).resolves.toEqual(['project']);
  });

  it('leaves no temporary file behind when the rename fails', async () => {
    await mkdir(join(base, 'target'));
    await expect(writeFileAtomic({ path: join(base, 'target'), text: '{}' })).rejects.toThrow();
    expect((await readdir(base)).sort()).toEqual(['project', 'target']);
  });
});

describe('project trust store', () => {
  it('remembers answers per folder, not for subfolders', async () => {
    const storeFile = join(userDir, 'trusted-projects.json');
    expect(await readProjectTrust({ storeFile, projectDir: project })).toMatchObject({
      trust: 'unknown',
      damaged: false,
    });
    await writeProjectTrust({ storeFile, projectDir: project, trust: 'trusted' });
    await writeProjectTrust({ storeFile, projectDir: base, trust: 'untrusted' });
    expect((await readProjectTrust({ storeFile, projectDir: project })).trust).toBe('trusted');
    expect((await readProjectTrust({ storeFile, projectDir: base })).trust).toBe('untrusted');
    expect((await readProjectTrust({ storeFile, projectDir: join(project, 'sub') })).trust).toBe('unknown');
  });

  it('rewrites a damaged store instead of failing', async () => {
    const storeFile = join(userDir, 'trusted-projects.json');
    await mkdir(userDir);
    await writeFile(storeFile, 'garbage');
    expect(await readProjectTrust({ storeFile, projectDir: project })).toMatchObject({
      trust: 'unknown',
      damaged: true,
    });
    await writeProjectTrust({ storeFile, projectDir: project, trust: 'trusted' });
    expect(await readProjectTrust({ storeFile, projectDir: project })).toMatchObject({
      trust: 'trusted',
      damaged: false,
    });
  });

  it('reports a store that cannot be read', async () => {
    const storeFile = join(userDir, 'trusted-projects.json');
    await mkdir(storeFile, { recursive: true });
    await expect(readProjectTrust({ storeFile, projectDir: project })).rejects.toThrow();
  });
});
