import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStubRegistry } from './protected-stubs.js';
import { createStubJournal } from './stub-journal.js';

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the stand-in journal', () => {
  it("sweeps a killed session's stand-ins at the next start, and nothing that is no longer ours", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'toolplane-journal-'));
    made.push(root);
    const journalFile = path.join(root, 'config', 'sandbox-stubs.json');
    const killed = createStubRegistry({
      lingerMs: 60_000,
      journal: createStubJournal(journalFile),
      mountedElsewhere: () => false,
    });
    const mcp = path.join(root, '.mcp.json');
    const envrc = path.join(root, '.envrc');
    const vscode = path.join(root, '.vscode');
    for (const stub of [mcp, envrc, vscode]) expect(killed.acquire(stub)).toBe(true);
    // The process dies here: no release, no flush. Meanwhile someone fills one folder and replaces another.
    writeFileSync(path.join(vscode, 'settings.json'), '{}');
    rmSync(envrc, { recursive: true });
    mkdirSync(envrc);
    const next = createStubRegistry({ journal: createStubJournal(journalFile), mountedElsewhere: () => false });
    expect(existsSync(mcp)).toBe(false);
    expect(existsSync(path.join(vscode, 'settings.json'))).toBe(true);
    expect(existsSync(envrc)).toBe(true);
    expect(next.owns(envrc)).toBe(false);
  });

  it('keeps a stand-in another running sandbox still has mounted', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'toolplane-journal-'));
    made.push(root);
    const journalFile = path.join(root, 'sandbox-stubs.json');
    const first = createStubRegistry({
      lingerMs: 60_000,
      journal: createStubJournal(journalFile),
      mountedElsewhere: () => false,
    });
    const claude = path.join(root, '.claude');
    first.acquire(claude);
    createStubRegistry({ journal: createStubJournal(journalFile), mountedElsewhere: (folder) => folder === claude });
    expect(existsSync(claude)).toBe(true);
    createStubRegistry({ journal: createStubJournal(journalFile), mountedElsewhere: () => false });
    expect(existsSync(claude)).toBe(false);
  });
});
