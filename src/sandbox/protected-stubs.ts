import { lstatSync, mkdirSync, readdirSync, rmdirSync } from 'node:fs';

/**
 * Stand-ins for write-protected paths that do not exist yet. A mount needs a mount point, so for a
 * missing `.mcp.json` or `.claude` an empty folder is made, mounted read-only inside the sandbox (so
 * nothing can be created there), and removed once no command uses it: nothing is left in the
 * project, and git ignores an empty folder while it exists. Shared by concurrent commands through a
 * count, so one command ending never unprotects another. Removal waits a moment (`lingerMs`) so a
 * session's next command reuses the stub instead of paying for a rmdir and a mkdir on its way in.
 */
export type StubRegistry = {
  /** Makes the stub at `path` (or joins an existing one of ours); false when something else is there now. */
  acquire(path: string): boolean;
  release(path: string): void;
  /** Removes every stub no command holds, now. */
  flush(): void;
  /** Whether `path` is one of our stubs (it then counts as missing: a path is protected, not its stand-in). */
  owns(path: string): boolean;
};

type Stub = { count: number; readonly inode: number; timer?: NodeJS.Timeout };

const registries = new Set<StubRegistry>();
let exitHookInstalled = false;

/** Creates a registry of stubs for one sandbox. Unused stubs are also removed when the process exits. */
export function createStubRegistry(options: { readonly lingerMs?: number } = {}): StubRegistry {
  const lingerMs = options.lingerMs ?? 1_500;
  const stubs = new Map<string, Stub>();
  const remove = (path: string, stub: Stub): void => {
    if (stub.count > 0) return;
    if (stub.timer) clearTimeout(stub.timer);
    stubs.delete(path);
    // Only our own, still empty folder goes; anything else was put there by someone and stays.
    if (sameFolder(path, stub.inode) && isEmpty(path)) {
      try {
        rmdirSync(path);
      } catch {
        // Still in use or already gone: either way nothing of ours is lost.
      }
    }
  };
  const registry: StubRegistry = {
    acquire(path) {
      const known = stubs.get(path);
      if (known && sameFolder(path, known.inode)) {
        if (known.timer) clearTimeout(known.timer);
        delete known.timer;
        known.count += 1;
        return true;
      }
      if (known) stubs.delete(path);
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
      if (!stub || stub.count === 0) return;
      stub.count -= 1;
      if (stub.count > 0) return;
      if (lingerMs <= 0) return remove(path, stub);
      stub.timer = setTimeout(() => remove(path, stub), lingerMs);
      stub.timer.unref();
    },
    flush() {
      for (const [path, stub] of [...stubs]) remove(path, stub);
    },
    owns(path) {
      const stub = stubs.get(path);
      return stub !== undefined && sameFolder(path, stub.inode);
    },
  };
  registries.add(registry);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const known of registries) known.flush();
    });
  }
  return registry;
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
