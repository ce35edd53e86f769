import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryName, temporaryOwner } from '../../contract/temporary-name.js';
import { sweepTemporaries } from './sweep-temporaries.js';
import { createTemporaryJournal, journalFile } from './temporary-files.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const HOUR_AGO = new Date(Date.now() - 3_600_000);

describe('sweepTemporaries', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'toolplane-sweep-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function file(path: string, age: Date | null = HOUR_AGO): Promise<string> {
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, 'partial');
    if (age) await utimes(path, age, age);
    return path;
  }

  it('names are short and tell their writer', () => {
    const name = temporaryName(4_194_304);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(24);
    expect(temporaryOwner(name)).toBe(4_194_304);
    expect(temporaryOwner('.notes.txt.tmp')).toBeUndefined();
    expect(temporaryOwner('.tp-zz-0123456.tmp')).toBeUndefined();
  });

  it('takes only our names, of processes that are gone, older than the minimum age', async () => {
    const dead = deadPid();
    const alive = spawn('sleep', ['30']);
    try {
      const sessions = join(root, 'projects', 'p');
      const stale = await file(join(sessions, 's1', 'tool-results', temporaryName(dead)));
      const staleCache = await file(join(root, `sandbox-probe.json.${dead}.tmp`));
      const staleSettings = await file(join(root, 'settings.json.3141592653'));
      const young = await file(join(sessions, 's1', 'tool-results', temporaryName(dead)), null);
      const running = await file(join(sessions, temporaryName(alive.pid!)));
      const notOurs = await file(join(sessions, 's1', 'tool-results', 'toolu_1.txt'));
      const tooDeep = await file(join(sessions, 'a', 'b', 'c', temporaryName(dead)));
      const removed = await sweepTemporaries({
        journalDirectory: join(root, 'in-flight'),
        folders: [
          { path: root, depth: 0 },
          { path: sessions, depth: 2 },
        ],
      });
      expect(removed.sort()).toEqual([stale, staleCache, staleSettings].sort());
      for (const kept of [young, running, notOurs, tooDeep]) expect(existsSync(kept), kept).toBe(true);
    } finally {
      alive.kill();
    }
  });

  it("sweeps what a gone process's journal names anywhere, and keeps the journal while a file is too young", async () => {
    const dead = deadPid();
    const journals = join(root, 'in-flight');
    const project = join(root, 'project', 'src');
    const old = await file(join(project, temporaryName(dead)));
    const young = await file(join(project, temporaryName(dead)), null);
    const named = await file(join(project, 'notes.txt'));
    await mkdir(journals, { recursive: true });
    await writeFile(journalFile(journals, dead), `${old}\n${named}\n${young}\n`);
    expect(await sweepTemporaries({ journalDirectory: journals, folders: [] })).toEqual([old]);
    expect(existsSync(named)).toBe(true);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(journalFile(journals, dead))).toBe(true);
    await utimes(young, HOUR_AGO, HOUR_AGO);
    expect(await sweepTemporaries({ journalDirectory: journals, folders: [] })).toEqual([young]);
    expect(existsSync(journalFile(journals, dead))).toBe(false);
  });

  it("leaves a running process's journal alone; a journal notes before the write and is gone after a clean end", async () => {
    const journals = join(root, 'in-flight');
    const journal = createTemporaryJournal({ directory: journals });
    const temporary = await file(join(root, 'work', temporaryName()));
    journal.record(temporary);
    expect(await readFile(journalFile(journals, process.pid), 'utf8')).toBe(`${temporary}\n`);
    expect(
      await sweepTemporaries({ journalDirectory: journals, folders: [{ path: join(root, 'work'), depth: 0 }] }),
    ).toEqual([]);
    expect(existsSync(temporary)).toBe(true);
    await journal.dispose();
    expect(existsSync(journalFile(journals, process.pid))).toBe(false);
  });
});
