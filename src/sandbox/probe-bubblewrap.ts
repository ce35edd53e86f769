import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { platform, release } from 'node:os';
import path from 'node:path';
import type { SandboxStatus } from '../contract/sandbox.js';

/** Where bubblewrap is looked for, before `PATH` (whose folders a project could put first). */
const KNOWN_LOCATIONS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

/** The result of looking for a working bubblewrap: its path when it works. */
export type BubblewrapProbe = { readonly status: SandboxStatus; readonly bwrap?: string };

type CacheEntry = { readonly key: string; readonly status: SandboxStatus; readonly bwrap?: string };

const INSTALL_FIX =
  'Install bubblewrap from your distribution (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), then run toolplane doctor.';

/**
 * Finds bubblewrap and checks that it can build a sandbox here (user namespaces allowed, /proc
 * mountable), by running `true` in the same kind of sandbox commands get. The answer is cached in
 * `cacheFile` under a key of the binary, the kernel and the user, so later starts read one file.
 */
export async function probeBubblewrap(options: {
  readonly cacheFile?: string;
  readonly bwrap?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}): Promise<BubblewrapProbe> {
  if (platform() !== 'linux') {
    return {
      status: {
        available: false,
        reason: `the sandbox uses bubblewrap, which needs Linux (this is ${platform()})`,
        fix: 'Run toolplane on Linux or in WSL2 for a kernel sandbox; on this system every command runs with your full access.',
      },
    };
  }
  const bwrap = options.bwrap ?? (await findBubblewrap(options.env ?? {}));
  if (bwrap === undefined) {
    return { status: { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: INSTALL_FIX } };
  }
  const key = await cacheKey(bwrap);
  if (options.cacheFile && key) {
    const known = await readCache(options.cacheFile, key);
    if (known) return known;
  }
  const status = await runProbe(bwrap, options.signal);
  const result: BubblewrapProbe = status.available ? { status, bwrap } : { status };
  if (options.cacheFile && key) await writeCache(options.cacheFile, { key, ...result });
  return result;
}

/**
 * bwrap from the usual places, else from `PATH` — but only a root-owned file nobody else can
 * write: a sandboxed command can write the working folder, and a `node_modules/.bin/bwrap` of its
 * own making must not become the sandbox (`TOOLPLANE_BWRAP` names any other binary explicitly).
 */
async function findBubblewrap(env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  const fromPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((folder) => path.isAbsolute(folder))
    .map((folder) => path.join(folder, 'bwrap'));
  for (const candidate of [...KNOWN_LOCATIONS, ...fromPath]) {
    try {
      await access(candidate, constants.X_OK);
      const info = await stat(candidate);
      if (info.uid !== 0 || (info.mode & 0o022) !== 0) continue;
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function cacheKey(bwrap: string): Promise<string | undefined> {
  try {
    const info = await stat(bwrap);
    const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
    const userns = await readFile('/proc/sys/user/max_user_namespaces', 'utf8').catch(() => '?');
    return [bwrap, info.size, info.mtimeMs, info.mode, release(), uid, userns.trim()].join('|');
  } catch {
    return undefined;
  }
}

function runProbe(bwrap: string, signal: AbortSignal | undefined): Promise<SandboxStatus> {
  const args = [
    '--unshare-user',
    '--disable-userns',
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/run',
    '--',
    'true',
  ];
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(signal ? { signal } : {}) });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    child.once('error', (error) =>
      resolve({ available: false, reason: `bubblewrap could not be started (${error.message})`, fix: INSTALL_FIX }),
    );
    child.once('close', (code) => {
      if (code === 0) return resolve({ available: true, backend: `bubblewrap (${bwrap})` });
      resolve(explainFailure(stderr.trim()));
    });
  });
}

function explainFailure(stderr: string): SandboxStatus {
  const detail = stderr.split('\n')[0] ?? 'no message';
  if (/user namespace|setting up uid map|No permission to create|Operation not permitted/i.test(stderr)) {
    return {
      available: false,
      reason: `bubblewrap cannot create user namespaces here (${detail})`,
      fix: 'Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ also an AppArmor profile for bwrap or kernel.apparmor_restrict_unprivileged_userns=0; in a container, run it with user namespaces enabled), then run toolplane doctor.',
    };
  }
  return {
    available: false,
    reason: `bubblewrap failed its check (${detail})`,
    fix: 'Run toolplane doctor for details; check that /proc can be mounted and that bwrap is not setuid-restricted.',
  };
}

async function readCache(file: string, key: string): Promise<BubblewrapProbe | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheEntry>;
    if (parsed.key !== key || typeof parsed.status !== 'object' || parsed.status === null) return undefined;
    const status = parsed.status;
    if (status.available !== true && status.available !== false) return undefined;
    return typeof parsed.bwrap === 'string' ? { status, bwrap: parsed.bwrap } : { status };
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, entry: CacheEntry): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
    await rename(temporary, file);
  } catch {
    // A cache that cannot be written only costs the next start one probe.
  }
}
