import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A record on disk of the stand-in folders a sandbox made, so that a process killed before it could
 * remove them (SIGKILL, a crash) does not leave `.mcp.json` or `.envrc` behind as empty folders: the
 * next sandbox of the same user sweeps what the record names and is still an empty folder of the
 * same inode, unless a running sandbox still has it mounted.
 */
export type StubJournal = {
  added(folder: string, inode: number): void;
  removed(folder: string): void;
  /** Removes the recorded stand-ins nobody uses any more; returns how many went. */
  sweep(mountedElsewhere: (folder: string) => boolean): number;
};

/** Folder → its inode and birth time (an inode number alone is reused at once on ext4). */
type Entries = Record<string, string>;

function identity(folder: string): string | undefined {
  try {
    const stat = lstatSync(folder);
    return stat.isDirectory() ? `${stat.ino}:${stat.birthtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/** A journal kept in `file` (one JSON object: folder → inode), written atomically on each change. */
export function createStubJournal(file: string): StubJournal {
  const read = (): Entries => {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null) return {};
      const entries: Entries = Object.create(null) as Entries;
      for (const [folder, id] of Object.entries(parsed))
        if (typeof id === 'string' && path.isAbsolute(folder)) entries[folder] = id;
      return entries;
    } catch {
      return {};
    }
  };
  const write = (entries: Entries): void => {
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(entries), { mode: 0o600 });
      renameSync(temporary, file);
    } catch {
      // A journal that cannot be written only means a stand-in may outlive a crash.
    }
  };
  return {
    added(folder, inode) {
      const id = identity(folder);
      if (id === undefined || !id.startsWith(`${inode}:`)) return;
      const entries = read();
      entries[folder] = id;
      write(entries);
    },
    removed(folder) {
      const entries = read();
      if (!(folder in entries)) return;
      delete entries[folder];
      write(entries);
    },
    sweep(mountedElsewhere) {
      const entries = read();
      let swept = 0;
      for (const [folder, id] of Object.entries(entries)) {
        let keep = false;
        try {
          if (identity(folder) === id && readdirSync(folder).length === 0) {
            if (mountedElsewhere(folder)) keep = true;
            else {
              rmdirSync(folder);
              swept += 1;
            }
          }
        } catch {
          // gone already, or not ours any more: forget it
        }
        if (!keep) delete entries[folder];
      }
      write(entries);
      return swept;
    },
  };
}
