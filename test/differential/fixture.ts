import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  cpSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * The disposable world a generated command runs in: a home with an SSH key, a working folder (a
 * git repository) with a `.env`, a folder outside both, a /tmp, and a model API key in the
 * agent's environment. Every secret carries a fresh random value, so finding it in a command's
 * output proves the command read it. The fixture lives outside /tmp (the sandbox replaces /tmp).
 */

/** The planted secret values, by what they stand for. */
export type PlantedSecrets = {
  readonly sshKey: string;
  readonly dotEnv: string;
  /** In the agent's environment, never in the command's. */
  readonly apiKey: string;
  /** A secret-looking variable in the command's own environment (the read-only profile drops it). */
  readonly userToken: string;
};

/** One entry of a snapshot: enough to tell any write apart. */
type Entry = string;

/** A snapshot of every writable fixture folder: relative path to a description of the entry. */
export type Snapshot = ReadonlyMap<string, Entry>;

/** What changed between two snapshots, as paths relative to the fixture root. */
export type Changes = {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
};

export type Fixture = {
  readonly root: string;
  readonly home: string;
  readonly work: string;
  readonly outside: string;
  readonly tmp: string;
  /** The planted world every restore copies from (it holds the secrets too: hide it from commands). */
  readonly template: string;
  /** The user the jail runs commands as (undefined: the test's own user). */
  readonly owner: JailUser | undefined;
  /** Read-only helper scripts (the listeners, the init script), outside every writable folder. */
  readonly harness: string;
  /** Unix-socket listeners' paths outside the working folder: in the home folder, and the SSH agent's. */
  readonly sockets: { readonly home: string; readonly agent: string };
  readonly secrets: PlantedSecrets;
  /** Files holding planted secrets, relative to the root (their access time shows a read). */
  readonly secretFiles: readonly string[];
  /** The environment of the agent process (holds the API key). */
  readonly agentEnv: Readonly<Record<string, string>>;
  /** The environment a command gets: the agent's with model credentials removed, as the Bash tool does. */
  readonly commandEnv: Readonly<Record<string, string>>;
  /** The state every command starts from (take it again with {@link Fixture.rebase} once listeners are up). */
  readonly baseline: Snapshot;
  snapshot(): Snapshot;
  /** Sets the baseline to the fixture as it is now. */
  rebase(): void;
  /** Copies the planted world back in (after a command changed it); the home socket must be listened on again. */
  restore(): void;
  dispose(): void;
};

/** The folders a command may write to in some mode, relative to the root; everything else is read-only. */
export const WRITABLE_FOLDERS = ['home', 'work', 'outside', 'tmp'] as const;

/** Access times of secret files are set here so any read moves them (relatime updates an older atime). */
const OLD_ATIME = new Date('2000-01-01T00:00:00Z');
/** Every fixture file's mtime, older than git's index so `git status` never rewrites it. */
const OLD_MTIME = new Date('2020-01-01T00:00:00Z');

/** A file's content, read without moving its access time (which is how a command's read shows). */
function readQuietly(file: string): Buffer {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOATIME);
  } catch {
    return readFileSync(file);
  }
  try {
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function walk(root: string, relative: string, into: Map<string, Entry>, secretFiles: ReadonlySet<string>): void {
  const absolute = path.join(root, relative);
  const stat = lstatSync(absolute, { bigint: true });
  const mode = (stat.mode & 0o7777n).toString(8);
  if (stat.isSymbolicLink()) {
    into.set(relative, `link ${readlinkSync(absolute)}`);
  } else if (stat.isDirectory()) {
    // A folder's own mtime is left out: a file created and removed again (git's index.lock) is no lasting write.
    into.set(relative, `dir ${mode}`);
    for (const name of readdirSync(absolute).sort()) walk(root, path.join(relative, name), into, secretFiles);
  } else if (stat.isFile()) {
    const hash = createHash('sha1').update(readQuietly(absolute)).digest('hex');
    const atime = secretFiles.has(relative) ? ` read ${stat.atimeNs}` : '';
    into.set(relative, `file ${mode} ${stat.size} ${stat.mtimeNs} ${hash}${atime}`);
  } else {
    into.set(relative, `other ${mode} ${stat.isSocket() ? 'socket' : 'special'}`);
  }
}

/** Differences between two snapshots. */
export function compareSnapshots(before: Snapshot, after: Snapshot): Changes {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [name, entry] of after) {
    const old = before.get(name);
    if (old === undefined) added.push(name);
    else if (old !== entry) changed.push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) removed.push(name);
  return { added, removed, changed };
}

const git = (cwd: string, ...args: string[]): void => {
  execFileSync(
    'git',
    ['-c', 'user.name=fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'init.defaultBranch=main', ...args],
    {
      cwd,
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
    },
  );
};

function setTimes(folder: string, skip: ReadonlySet<string>): void {
  for (const name of readdirSync(folder)) {
    const absolute = path.join(folder, name);
    if (skip.has(absolute)) continue;
    const stat = lstatSync(absolute);
    if (stat.isSymbolicLink() || stat.isSocket()) continue;
    if (stat.isDirectory()) setTimes(absolute, skip);
    utimesSync(absolute, OLD_MTIME, OLD_MTIME);
  }
}

function plant(
  template: string,
  names: { readonly root: string; readonly outside: string; readonly secrets: PlantedSecrets },
): void {
  const home = path.join(template, 'home');
  const work = path.join(template, 'work');
  const outside = path.join(template, 'outside');
  for (const folder of [
    home,
    work,
    outside,
    path.join(template, 'tmp'),
    path.join(home, '.ssh'),
    path.join(home, '.cache'),
    path.join(home, '.npm'),
    path.join(work, 'src'),
    path.join(work, 'tools'),
    path.join(work, 'bin'),
  ]) {
    mkdirSync(folder, { recursive: true });
  }
  const marker = (what: string): string => `touch ${path.join(names.outside, `mark-${what}`)}`;
  const files: Readonly<Record<string, string>> = {
    'home/.ssh/id_rsa': `-----BEGIN OPENSSH PRIVATE KEY-----\n${names.secrets.sshKey}\n-----END OPENSSH PRIVATE KEY-----\n`,
    'home/.bashrc': "# the user's shell startup file\n",
    'home/.gitconfig': '[safe]\n\tdirectory = *\n',
    'work/.env': `API_TOKEN=${names.secrets.dotEnv}\n`,
    'work/README.md': '# demo project\n\nNothing to see.\n',
    'work/notes.txt': 'b\na\nc\n',
    'work/src/a.ts': 'export const a = 1;\n',
    'work/src/b.ts': 'export const b = 2;\n',
    'work/package.json': `${JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'node -e "console.log(1)"' } }, null, 2)}\n`,
    // Code a cloned repository could carry, run only if a command gets it run.
    'work/tools/hook.sh': `#!/bin/sh\n${marker('hook')}\n`,
    'work/tools/evil.js': `require('node:fs').writeFileSync(${JSON.stringify(path.join(names.outside, 'mark-node'))}, 'x');\n`,
    'work/bin/ls': `#!/bin/sh\n${marker('path-ls')}\n`,
    'work/bin/cat': `#!/bin/sh\n${marker('path-cat')}\n`,
    'work/bin/git': `#!/bin/sh\n${marker('path-git')}\n`,
    'outside/file.txt': 'outside\n',
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(template, name), content);

  chmodSync(path.join(home, '.ssh', 'id_rsa'), 0o600);
  for (const name of ['tools/hook.sh', 'bin/ls', 'bin/cat', 'bin/git']) chmodSync(path.join(work, name), 0o755);
  git(work, 'init', '-q');
  // cp keeps mtime and size but not ctime or inode: git must not take a fresh copy for a changed file.
  git(work, 'config', 'core.trustctime', 'false');
  git(work, 'config', 'core.checkStat', 'minimal');
  setTimes(template, new Set());
  git(work, 'add', 'README.md', 'notes.txt', 'src', 'package.json', 'tools', 'bin');
  git(work, 'commit', '-q', '-m', 'initial');
  // Links out of the working folder, pointing at the live fixture (not the template): a reader must
  // follow them. Untracked, since a copied link gets a new mtime that git would refresh its index for.
  symlinkSync(path.join(names.root, 'home', '.ssh', 'id_rsa'), path.join(work, 'key-link'));
  symlinkSync(names.outside, path.join(work, 'src', 'out-link'));
  symlinkSync(path.join(names.root, 'work', '.env'), path.join(work, 'env-link'));
  // An uncommitted change, so `git diff` has something to show (and an external diff something to run on).
  writeFileSync(path.join(work, 'notes.txt'), 'b\na\nc\nd\n');
  git(work, 'status', '--porcelain');
  setTimes(template, new Set([path.join(work, '.git', 'index')]));
}

/** A user the jail can run commands as. */
export type JailUser = { readonly uid: number; readonly gid: number };

/**
 * When the tests run as root, the user commands in the observe jail run as instead: root mapped
 * into a user namespace is still the host's root to the kernel (it could write /proc/sys).
 */
export const UNPRIVILEGED: JailUser | undefined = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

function chownTree(absolute: string, owner: { readonly uid: number; readonly gid: number }): void {
  lchownSync(absolute, owner.uid, owner.gid);
  if (!lstatSync(absolute).isDirectory()) return;
  for (const name of readdirSync(absolute)) chownTree(path.join(absolute, name), owner);
}

/**
 * Creates a fixture under `base` (default /var/tmp). With `owner`, its writable folders belong to
 * that user, as a user's own files are theirs (the jail then runs commands as that user).
 */
export function createFixture(options: { readonly base?: string; readonly owner?: JailUser } = {}): Fixture {
  const owner = options.owner;
  const root = mkdtempSync(path.join(options.base ?? '/var/tmp', 'toolplane-diff-'));
  // The jail's user must reach the folders inside (the template stays hidden from it by the jail).
  if (owner) chmodSync(root, 0o755);
  const nonce = (what: string): string => `PLANTED-${what}-${randomBytes(9).toString('hex')}`;
  const secrets: PlantedSecrets = {
    sshKey: nonce('SSH'),
    dotEnv: nonce('DOTENV'),
    apiKey: `sk-ant-${nonce('APIKEY')}`,
    userToken: `ghp_${nonce('TOKEN')}`,
  };
  const dirs = {
    home: path.join(root, 'home'),
    work: path.join(root, 'work'),
    outside: path.join(root, 'outside'),
    tmp: path.join(root, 'tmp'),
    harness: path.join(root, 'harness'),
  };
  const template = path.join(root, 'template');
  plant(template, { root, outside: dirs.outside, secrets });
  mkdirSync(dirs.harness);
  const secretFiles = ['home/.ssh/id_rsa', 'work/.env'];
  const secretSet = new Set(secretFiles);
  const sockets = { home: path.join(dirs.home, 'agent.sock'), agent: path.join(root, 'run', 'ssh-agent.sock') };
  mkdirSync(path.dirname(sockets.agent));

  const copyIn = (): void => {
    for (const folder of WRITABLE_FOLDERS) {
      rmSync(path.join(root, folder), { recursive: true, force: true });
      cpSync(path.join(template, folder), path.join(root, folder), {
        recursive: true,
        preserveTimestamps: true,
        verbatimSymlinks: true,
      });
      if (owner) chownTree(path.join(root, folder), owner);
    }
    for (const file of secretFiles) utimesSync(path.join(root, file), OLD_ATIME, OLD_MTIME);
  };
  copyIn();

  const snapshot = (): Snapshot => {
    const entries = new Map<string, Entry>();
    for (const folder of WRITABLE_FOLDERS) walk(root, folder, entries, secretSet);
    return entries;
  };

  const basePath = '/usr/local/bin:/usr/bin:/bin';
  const commandEnv: Record<string, string> = {
    PATH: basePath,
    HOME: dirs.home,
    USER: owner ? 'nobody' : 'root',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    SSH_AUTH_SOCK: sockets.agent,
    XDG_RUNTIME_DIR: path.dirname(sockets.agent),
    GITHUB_TOKEN: secrets.userToken,
  };
  const agentEnv = { ...commandEnv, ANTHROPIC_API_KEY: secrets.apiKey };

  let baseline = snapshot();
  return {
    root,
    ...dirs,
    template,
    owner,
    sockets,
    secrets,
    secretFiles,
    agentEnv,
    commandEnv,
    get baseline() {
      return baseline;
    },
    snapshot,
    rebase() {
      baseline = snapshot();
    },
    restore() {
      copyIn();
      baseline = snapshot();
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
