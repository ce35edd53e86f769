import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasAgentFolders } from './agents/agent-folders.js';
import { readSmallFile } from './read-small-file.js';
import { loadCustomCommands } from './slash-commands/load-custom-commands.js';

describe('readSmallFile, for files a repository may plant', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-small-file-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('reads a small regular file, and refuses one over the limit', async () => {
    await writeFile(join(folder, 'a.md'), 'hello');
    expect(readSmallFile(join(folder, 'a.md'), 5)).toEqual({ ok: true, text: 'hello' });
    expect(readSmallFile(join(folder, 'a.md'), 4)).toEqual({ ok: false, reason: '5 bytes is too large (at most 4)' });
  });

  it('refuses links to /dev/zero and /dev/stdin and a FIFO without reading or waiting', async () => {
    await symlink('/dev/zero', join(folder, 'zero.md'));
    await symlink('/dev/stdin', join(folder, 'stdin.md'));
    execFileSync('mkfifo', [join(folder, 'fifo.md')]);
    for (const name of ['zero.md', 'stdin.md', 'fifo.md']) {
      const read = readSmallFile(join(folder, name), 1024);
      expect(read.ok).toBe(false);
    }
    expect(readSmallFile(join(folder, 'zero.md'), 1024)).toEqual({ ok: false, reason: 'is not a regular file' });
  });

  it('a command file linked to /dev/zero is reported, and the other commands load', async () => {
    const commands = join(folder, 'project', '.claude', 'commands');
    await mkdir(commands, { recursive: true });
    await symlink('/dev/zero', join(commands, 'zero.md'));
    await writeFile(join(commands, 'fine.md'), 'Fine.');
    const list = loadCustomCommands({ cwd: join(folder, 'project'), homeDir: folder, builtinNames: new Set() });
    expect([...list.commands.keys()]).toEqual(['fine']);
    expect(list.problems).toEqual([
      `${join(commands, 'zero.md')}: is not a regular file; the command is not available`,
    ]);
  });

  it('hasAgentFolders is false, not an exception, where .claude is a file or a link loop', async () => {
    await writeFile(join(folder, '.claude'), 'not a folder');
    await symlink(join(folder, '.toolplane'), join(folder, '.toolplane'));
    expect(hasAgentFolders({ cwd: folder, homeDir: folder })).toBe(false);
  });
});
