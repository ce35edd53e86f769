import { lstatSync, mkdirSync, readdirSync, rmdirSync } from 'node:fs';

/**
 * Stand-ins for write-protected paths that do not exist yet. A mount needs a mount point, so for a
 * missing `.mcp.json` or `.claude` an empty folder is made, mounted read-only inside the sandbox (so
 * nothing can be created there), and removed once the last command using it has ended: nothing is
 * left in the project, and git ignores an empty folder while it exists. Shared by concurrent
 * commands through a count, so one command ending never unprotects another.
 */
export type StubRegistry = {
  /** Makes the stub at `path` (or joins an existing one of ours); false when something else is there now. */
  acquire(path: string): boolean;
  release(path: string): void;
};

type Stub = { count: number; readonly inode: number };

/** Creates a registry of stubs for one sandbox. */
export function createStubRegistry(): StubRegistry {
  const stubs = new Map<string, Stub>();
  return {
    acquire(path) {
      const known = stubs.get(path);
      if (known && sameFolder(path, known.inode)) {
        known.count += 1;
        return true;
      }
      try {
        mkdirSync(path, { mode: 0o755 });
      } catch {
        return false;
      }
      stubs.set(path, { count: 1, inode: lstatSync(path).ino });
      return true;
    },
    release(path) {
      const stub = stubs.get(path);
      if (!stub) return;
      stub.count -= 1;
      if (stub.count > 0) return;
      stubs.delete(path);
      // Only our own, still empty folder goes; anything else was put there by someone and stays.
      if (sameFolder(path, stub.inode) && isEmpty(path)) {
        try {
          rmdirSync(path);
        } catch {
          // Still in use or already gone: either way nothing of ours is lost.
        }
      }
    },
  };
}

function sameFolder(path: string, inode: number): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() && stat.ino === inode;
  } catch {
    return false;
  }
}

function isEmpty(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}
