import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveRule } from './save-rule.js';
import { writeFileAtomic } from './write-file-atomic.js';

let base: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolplane-atomic-'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe.skipIf(process.platform === 'win32')('writeFileAtomic keeps what the person set up', () => {
  it('keeps a 0600 file at 0600 (a fresh temporary file would be 0644 under the usual umask)', async () => {
    const file = join(base, 'settings.json');
    await writeFile(file, '{}');
    await chmod(file, 0o600);
    await writeFileAtomic({ path: file, text: '{"a":1}\n' });
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n');
    expect(await modeOf(file)).toBe(0o600);
  });

  it('keeps an existing mode even when a mode for new files is given', async () => {
    const file = join(base, 'settings.json');
    await writeFile(file, '{}');
    await chmod(file, 0o640);
    await writeFileAtomic({ path: file, text: '{}\n', newFileMode: 0o600 });
    expect(await modeOf(file)).toBe(0o640);
  });

  it('gives a new file the mode asked for', async () => {
    const file = join(base, 'sub', 'store.json');
    await writeFileAtomic({ path: file, text: '{}\n', newFileMode: 0o600 });
    expect(await modeOf(file)).toBe(0o600);
  });

  it('writes a symlinked settings file at its target and leaves the link a link', async () => {
    const dotfiles = join(base, 'dotfiles');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'toolplane-settings.json');
    await writeFile(target, '{}');
    await chmod(target, 0o600);
    const link = join(base, 'settings.json');
    await symlink(target, link);
    await writeFileAtomic({ path: link, text: '{"b":2}\n' });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('{"b":2}\n');
    expect(await modeOf(target)).toBe(0o600);
    expect((await readdir(base)).sort()).toEqual(['dotfiles', 'settings.json']);
    expect(await readdir(dotfiles)).toEqual(['toolplane-settings.json']);
  });

  it('saveRule through a symlinked user settings file keeps the link and the mode', async () => {
    const userDir = join(base, 'config');
    await mkdir(userDir);
    const target = join(base, 'real-settings.json');
    await writeFile(target, JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    await chmod(target, 0o600);
    await symlink(target, join(userDir, 'settings.json'));
    await saveRule({
      destination: 'userSettings',
      rule: 'Read',
      behavior: 'allow',
      cwd: base,
      env: { TOOLPLANE_CONFIG_DIR: userDir },
      homeDir: base,
    });
    expect((await lstat(join(userDir, 'settings.json'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({
      permissions: { deny: ['Bash(rm:*)'], allow: ['Read'] },
    });
    expect(await modeOf(target)).toBe(0o600);
  });
});
