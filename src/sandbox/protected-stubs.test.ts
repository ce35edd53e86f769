import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStubRegistry, isMountedInAnotherNamespace } from './protected-stubs.js';

const folders: string[] = [];
function folder(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'toolplane-stubs-'));
  folders.push(made);
  return made;
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('createStubRegistry', () => {
  it('keeps a stub while any command holds it, and removes it after the last one', () => {
    const stub = path.join(folder(), '.claude');
    const stubs = createStubRegistry({ lingerMs: 0 });
    expect(stubs.acquire(stub)).toBe(true);
    expect(stubs.acquire(stub)).toBe(true);
    expect(stubs.owns(stub)).toBe(true);
    stubs.release(stub);
    expect(existsSync(stub)).toBe(true);
    stubs.release(stub);
    expect(existsSync(stub)).toBe(false);
    expect(stubs.owns(stub)).toBe(false);
  });

  it('lingers for the next command, and flush removes what nobody holds', () => {
    const stub = path.join(folder(), '.mcp.json');
    const stubs = createStubRegistry({ lingerMs: 60_000 });
    stubs.acquire(stub);
    stubs.release(stub);
    expect(existsSync(stub)).toBe(true);
    expect(stubs.acquire(stub)).toBe(true);
    stubs.flush();
    expect(existsSync(stub)).toBe(true);
    stubs.release(stub);
    stubs.flush();
    expect(existsSync(stub)).toBe(false);
  });

  it('never takes over or removes what someone else put there', () => {
    const base = folder();
    const theirs = path.join(base, '.envrc');
    writeFileSync(theirs, 'export X=1');
    const stubs = createStubRegistry({ lingerMs: 0 });
    expect(stubs.acquire(theirs)).toBe(false);
    const ours = path.join(base, '.vscode');
    stubs.acquire(ours);
    writeFileSync(path.join(ours, 'settings.json'), '{}');
    stubs.release(ours);
    expect(existsSync(path.join(ours, 'settings.json'))).toBe(true);
  });

  it('keeps a stub that another sandbox still has mounted (another session), and removes it once that one is gone', async () => {
    const stub = path.join(folder(), '.claude');
    let mountedThere = true;
    const stubs = createStubRegistry({ lingerMs: 0, mountedElsewhere: () => mountedThere });
    stubs.acquire(stub);
    stubs.release(stub);
    expect(existsSync(stub)).toBe(true);
    mountedThere = false;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(existsSync(stub)).toBe(false);
  });

  it('at the session end leaves a stub another sandbox has mounted where it is', () => {
    const stub = path.join(folder(), '.mcp.json');
    const stubs = createStubRegistry({ lingerMs: 0, mountedElsewhere: () => true });
    stubs.acquire(stub);
    stubs.release(stub);
    stubs.flush();
    expect(existsSync(stub)).toBe(true);
    expect(stubs.owns(stub)).toBe(false);
  });

  it('sees no mount of an ordinary folder in other namespaces', () => {
    expect(isMountedInAnotherNamespace(folder())).toBe(false);
  });
});
