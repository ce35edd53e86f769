import type { StubJournal } from './stub-journal.js';
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmdirSync } from 'node:fs';

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
/**
 * Stubs a session ended with that could not go yet: another session's stub inside (`.github` holding
 * its `.github/workflows`) or still mounted by it. Any later flush in this process tries them again.
 */
const leftovers = new Map<string, { readonly inode: number; readonly mountedElsewhere: (path: string) => boolean }>();

function sweepLeftovers(): void {
  for (const [path, leftover] of [...leftovers]) {
    if (!sameFolder(path, leftover.inode)) {
      leftovers.delete(path);
      continue;
    }
    if (!isEmpty(path) || leftover.mountedElsewhere(path)) continue;
    leftovers.delete(path);
    try {
      rmdirSync(path);
    } catch {
      // in use again, or gone
    }
  }
}
let exitHookInstalled = false;

/**
 * Creates a registry of stubs for one sandbox. Unused stubs are also removed when the process exits.
 * A stub another sandbox has mounted (another session in the same project, whose registry took our
 * stub for a real folder) is not removed: removing a mount point unmounts it in every other mount
 * namespace, and that command could then create the protected path. Removal is retried later; at
 * the session's end such a stub stays on disk (an empty folder, which git ignores).
 */
export function createStubRegistry(
  options: {
    readonly lingerMs?: number;
    readonly mountedElsewhere?: (path: string) => boolean;
    readonly journal?: StubJournal;
  } = {},
): StubRegistry {
  const lingerMs = options.lingerMs ?? 1_500;
  const mountedElsewhere = options.mountedElsewhere ?? isMountedInAnotherNamespace;
  const { journal } = options;
  journal?.sweep(mountedElsewhere);
  const stubs = new Map<string, Stub>();
  const remove = (path: string, stub: Stub, final = false): void => {
    if (stub.count > 0) return;
    if (stub.timer) clearTimeout(stub.timer);
    delete stub.timer;
    if (sameFolder(path, stub.inode) && mountedElsewhere(path)) {
      if (final) {
        stubs.delete(path);
        leftovers.set(path, { inode: stub.inode, mountedElsewhere });
        return;
      }
      stub.timer = setTimeout(() => remove(path, stub), Math.max(lingerMs, 500));
      stub.timer.unref();
      return;
    }
    stubs.delete(path);
    // Only our own, still empty folder goes; anything else was put there by someone and stays.
    if (sameFolder(path, stub.inode) && isEmpty(path)) {
      try {
        rmdirSync(path);
        journal?.removed(path);
      } catch {
        // Still in use or already gone: either way nothing of ours is lost.
      }
    } else if (final && sameFolder(path, stub.inode)) {
      leftovers.set(path, { inode: stub.inode, mountedElsewhere });
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
      const inode = lstatSync(path).ino;
      stubs.set(path, { count: 1, inode });
      journal?.added(path, inode);
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
      for (const [path, stub] of [...stubs]) remove(path, stub, true);
      sweepLeftovers();
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
      sweepLeftovers();
    });
  }
  return registry;
}

/**
 * Whether `target` is a mount point in a mount namespace other than ours (a running sandbox's), by
 * the mount tables of the processes we may look at: one per namespace, ours skipped. One scan
 * answers for every stub released at about the same time.
 */
export function isMountedInAnotherNamespace(target: string): boolean {
  const now = Date.now();
  if (scanned === undefined || now - scanned.at > SCAN_REUSE_MS)
    scanned = { at: now, mountPoints: mountPointsElsewhere() };
  return scanned.mountPoints.has(
    target.replace(/[\\ \t\n]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`),
  );
}

// Short: the stubs of one command are released in one go, and a stale answer could miss a sandbox just started.
const SCAN_REUSE_MS = 5;
let scanned: { readonly at: number; readonly mountPoints: ReadonlySet<string> } | undefined;

/** The mount points (as /proc/<pid>/mountinfo escapes them) of every other mount namespace we can see. */
function mountPointsElsewhere(): Set<string> {
  const found = new Set<string>();
  let own: string;
  let entries: string[];
  try {
    own = readlinkSync('/proc/self/ns/mnt');
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  const seen = new Set<string>([own]);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let namespace: string;
    let table: string;
    try {
      namespace = readlinkSync(`/proc/${entry}/ns/mnt`);
      if (seen.has(namespace)) continue;
      seen.add(namespace);
      table = readFileSync(`/proc/${entry}/mountinfo`, 'utf8');
    } catch {
      continue; // gone, or another user's: its sandboxes cannot hold our stubs
    }
    for (const line of table.split('\n')) {
      const mountPoint = line.split(' ')[4];
      if (mountPoint !== undefined) found.add(mountPoint);
    }
  }
  return found;
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
