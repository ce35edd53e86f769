import { chmodSync, rmSync, lstatSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seccompFilter } from './seccomp-filter.js';

/** Files the sandbox mounts: an unreadable folder and file to mask with, and the seccomp programs. */
export type MaskAssets = {
  /** The private folder holding them (redacted copies of configuration files go here too). */
  readonly root?: string;
  /** An empty folder of mode 000: mounted read-only over a masked folder. */
  readonly folder: string;
  /** An empty file of mode 000: mounted read-only over a masked file. */
  readonly file: string;
  /** The seccomp program refusing Unix sockets, io_uring and foreign ABIs; undefined off x64/arm64. */
  readonly strictFilter: string | undefined;
  /** The same without the Unix-socket refusal (`allowAllUnixSockets`). */
  readonly socketsFilter: string | undefined;
};

let cached: MaskAssets | undefined;

/**
 * Creates the mask assets once per process in a private folder of its own (mode 0700, made with
 * mkdtemp so nobody else can have prepared it). With capabilities dropped even root cannot read a
 * mode-000 file it owns, and the read-only mount stops a chmod: reads fail with EACCES.
 */
export function maskAssets(): MaskAssets {
  if (cached && stillThere(cached)) return cached;
  const root = mkdtempSync(path.join(tmpdir(), 'toolplane-sandbox-'));
  // One folder per process, gone with it (the masks are empty and mode 000: chmod first to remove them).
  process.once('exit', () => {
    try {
      chmodSync(path.join(root, 'masked-folder'), 0o700);
      rmSync(root, { recursive: true, force: true });
    } catch {
      // Already gone.
    }
  });
  const folder = path.join(root, 'masked-folder');
  const file = path.join(root, 'masked-file');
  mkdirSync(folder, { mode: 0o000 });
  writeFileSync(file, '', { mode: 0o000 });
  chmodSync(folder, 0o000);
  chmodSync(file, 0o000);
  const write = (name: string, bytes: Buffer | undefined): string | undefined => {
    if (bytes === undefined) return undefined;
    const target = path.join(root, name);
    writeFileSync(target, bytes, { mode: 0o400 });
    return target;
  };
  cached = {
    root,
    folder,
    file,
    strictFilter: write('seccomp-strict.bpf', seccompFilter({ allowUnixSockets: false })),
    socketsFilter: write('seccomp-sockets.bpf', seccompFilter({ allowUnixSockets: true })),
  };
  return cached;
}

function stillThere(assets: MaskAssets): boolean {
  try {
    return lstatSync(assets.folder).isDirectory() && lstatSync(assets.file).isFile();
  } catch {
    return false;
  }
}
