import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { PermissionRuleEntry } from '../../src/contract/permission.js';

/**
 * Real folders for attacking the sandbox: a home outside /tmp (the realistic case: the sandbox
 * replaces /tmp) with credential stores in it, a git project with a Read-denied `.env`, protected
 * files and a hook script, the session's private tmp, and a folder outside every writable place.
 */
export type AttackFixture = {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  readonly tmpDir: string;
  readonly outside: string;
  /** Attack helper scripts (test/sandbox/scripts), where every user can read them. */
  readonly scripts: string;
  readonly rules: readonly PermissionRuleEntry[];
  /** Hook scripts that run outside the sandbox (write-protected through `protectedFiles`). */
  readonly protectedFiles: readonly string[];
};

/** Secret values planted in the fixture; none may appear in a sandboxed command's output. */
export const SECRETS = {
  ssh: 'SSH-PRIVATE-KEY-7f3a9c',
  aws: 'AWS-SECRET-ACCESS-KEY-2b8d41',
  env: 'DOTENV-SECRET-91cc0e',
  prodKey: 'PROD-KEY-SECRET-5e77a2',
  npmToken: 'NPM-AUTH-TOKEN-0d4f6b',
  yarnIdent: 'YARN-IDENT-SECRET-a61c33',
  yarnBlock: 'YARN-BLOCK-SECRET-c19e70',
  yarnFlow: 'YARN-FLOW-SECRET-e5b0d8',
  npmKey: 'NPM-CLIENT-KEY-SECRET-4aa2f1',
} as const;

/** Every planted secret, for "none of these appears" checks. */
export const ALL_SECRETS: readonly string[] = Object.values(SECRETS);

/** The uid and gid of the unprivileged user the attacks also run as (`nobody`). */
export const NOBODY = 65534;

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Whether bubblewrap can build a sandbox here (installed, and user namespaces allowed). */
export const bwrapWorks =
  spawnSync(
    '/usr/bin/bwrap',
    ['--unshare-user', '--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'],
    {
      stdio: 'ignore',
    },
  ).status === 0;

/** Whether the suites can also run as an unprivileged user: we are root and `setpriv` exists. */
export const canDropToNobody = isRoot && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

/** The users each suite runs as: root (when we are) and `nobody` through setpriv, or just ourselves. */
export const USERS: readonly ('self' | 'nobody')[] = canDropToNobody ? ['self', 'nobody'] : ['self'];

/** The attacks are written in bash, python3 (ctypes for raw system calls) and node. */
const hasPython = spawnSync('python3', ['-c', 'import ctypes'], { stdio: 'ignore' }).status === 0;

/** Whether the attack suites can run here; {@link SKIP_REASON} says why not. */
export const attacksCanRun = bwrapWorks && hasPython;

/** Why a suite is skipped, for the skip message. */
export const SKIP_REASON = !bwrapWorks
  ? 'bubblewrap (/usr/bin/bwrap) is missing or cannot create user namespaces here'
  : hasPython
    ? ''
    : 'python3 (with ctypes) is missing; the attacks use it';

/** A folder for one suite's fixtures, outside /tmp; remove it with {@link removeSuiteRoot}. */
export function createSuiteRoot(name: string): string {
  const root = realpathSync(mkdtempSync(`/var/tmp/toolplane-attack-${name}-`));
  chmodSync(root, 0o755);
  cpSync(path.join(import.meta.dirname, 'scripts'), path.join(root, 'scripts'), { recursive: true });
  return root;
}

export function removeSuiteRoot(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_SYSTEM: '/dev/null',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
};

/** Runs git on the host (as the test process) in `cwd`; throws with its stderr when it fails. */
export function hostGit(cwd: string, args: readonly string[]): string {
  const result = spawnSync('git', ['-c', 'safe.directory=*', ...args], { cwd, env: GIT_ENV, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** Runs git on the host and returns what it printed, whatever its exit status. */
export function hostGitOutput(cwd: string, args: readonly string[]): string {
  return spawnSync('git', ['-c', 'safe.directory=*', ...args], { cwd, env: GIT_ENV, encoding: 'utf8' }).stdout ?? '';
}

function write(file: string, text: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { mode });
}

let template: string | undefined;

/** The first fixture is built for real (git init and a commit), later ones are copies of it. */
function buildTemplate(suiteRoot: string): string {
  const root = path.join(suiteRoot, 'template');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  write(path.join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRETS.ssh}\n`, 0o600);
  write(path.join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${SECRETS.aws}\n`, 0o600);
  write(path.join(home, '.gitconfig'), '[user]\n\tname = Fixture Home\n');
  write(path.join(home, 'notes-about-ssh.txt'), 'readable notes\n');
  write(
    path.join(home, '.npmrc'),
    `registry=https://registry.example.invalid/\n//registry.example.invalid/:_authToken=${SECRETS.npmToken}\nkey="-----BEGIN PRIVATE KEY-----\\n${SECRETS.npmKey}\\n-----END PRIVATE KEY-----"\n`,
  );
  write(
    path.join(home, '.yarnrc.yml'),
    [
      'npmRegistryServer: "https://registry.example.invalid"',
      `npmAuthIdent: "fixture:${SECRETS.yarnIdent}"`,
      'npmAuthToken: >-',
      `  ${SECRETS.yarnBlock}`,
      `npmScopes: { fixture: { npmAuthToken: "${SECRETS.yarnFlow}" } }`,
      'enableTelemetry: false',
      '',
    ].join('\n'),
  );
  mkdirSync(path.join(home, '.cache'), { recursive: true });
  write(path.join(project, 'README.md'), '# fixture project\n');
  write(path.join(project, '.gitignore'), '.env\nnode_modules/\n');
  write(path.join(project, '.env'), `API_SECRET=${SECRETS.env}\n`);
  write(path.join(project, '.env.example'), 'API_SECRET=changeme\n');
  write(path.join(project, 'config', 'prod.key'), `${SECRETS.prodKey}\n`);
  write(path.join(project, 'config', 'app.json'), '{"port": 8080}\n');
  write(path.join(project, 'scripts', 'hook.sh'), '#!/bin/sh\necho hook ran\n', 0o755);
  write(path.join(project, '.github', 'workflows', 'ci.yml'), 'on: push\njobs: {}\n');
  write(path.join(project, '.github', 'CODEOWNERS'), '* @fixture\n');
  write(path.join(project, '.toolplane', 'settings.json'), '{}\n');
  write(path.join(project, '.envrc'), 'export FIXTURE=1\n');
  write(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2),
  );
  write(path.join(project, 'test.js'), "console.log('fixture tests pass');\n");
  hostGit(project, ['init', '-q', '-b', 'main', '--template=']);
  hostGit(project, ['config', 'user.name', 'Fixture']);
  hostGit(project, ['config', 'user.email', 'fixture@example.invalid']);
  write(path.join(project, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', 0o755);
  hostGit(project, ['add', '-A']);
  hostGit(project, ['commit', '-q', '-m', 'fixture']);
  // Few files make cheap copies (a file costs about a millisecond to create or remove on this kind of disk).
  hostGit(project, ['repack', '-adq']);
  hostGit(project, ['prune-packed']);
  mkdirSync(path.join(root, 'session-tmp'), { mode: 0o700 });
  mkdirSync(path.join(root, 'outside'));
  return root;
}

/**
 * A fresh fixture in `suiteRoot/<name>`, owned by `owner` (the user the sandboxed commands run
 * as). Read deny rules: `./.env` and `./config/prod.key`; `scripts/hook.sh` is a hook script.
 */
export function createFixture(suiteRoot: string, name: string, owner: 'self' | 'nobody' = 'self'): AttackFixture {
  if (template === undefined || !template.startsWith(suiteRoot)) template = buildTemplate(suiteRoot);
  const root = path.join(suiteRoot, name);
  cpSync(template, root, { recursive: true, verbatimSymlinks: true });
  if (owner === 'nobody') chownTree(root, NOBODY);
  const project = path.join(root, 'project');
  const rule = (text: string): PermissionRuleEntry => ({
    rule: text,
    behavior: 'deny',
    source: 'projectSettings',
    root: project,
  });
  return {
    root,
    home: path.join(root, 'home'),
    project,
    tmpDir: path.join(root, 'session-tmp'),
    outside: path.join(root, 'outside'),
    scripts: path.join(suiteRoot, 'scripts'),
    rules: [rule('Read(./.env)'), rule('Read(./config/prod.key)')],
    protectedFiles: [path.join(project, 'scripts', 'hook.sh')],
  };
}

/** Gives a whole tree to `uid` (and the same gid), without following links. */
export function chownTree(root: string, uid: number): void {
  const visit = (entry: string): void => {
    chownSync(entry, uid, uid);
    if (lstatSync(entry).isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
}

/** What a project looks like to git and to `ls -A` of its top folder: must not change under ordinary commands. */
export function projectState(project: string): string {
  const status = hostGit(project, ['status', '--porcelain', '--ignored', '--untracked-files=all']);
  const top = readdirSync(project).sort().join(' ');
  return `${status}\n--\n${top}`;
}

/** The contents of a file, or undefined when it is not there (or not a readable file). */
export function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Host pids whose command line contains `marker` (processes the attacks tried to leave behind). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * Waits (bounded) until no process carries `marker`: a kill is delivered asynchronously, so a
 * process may take a moment to go. Returns the pids still there at the end (and kills them, by pid,
 * so a failing test leaves nothing running).
 */
export async function survivorsOf(marker: string, attempts = 40): Promise<number[]> {
  let left = processesWith(marker);
  for (let attempt = 0; attempt < attempts && left.length > 0; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = processesWith(marker);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}

/** A marker unique to this run, to find processes by their command line. */
export function uniqueMarker(label: string): string {
  return `toolplane-marker-${label}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

const agents = new Set<number>();

/**
 * A stand-in for the agent's own process on the host, running as `user`, with a secret in its
 * environment (as toolplane holds its API key): no sandboxed command may read it or signal it.
 */
export function startFakeAgent(user: 'self' | 'nobody', secret: string): number {
  const argv = ['sleep', '300'];
  const [file, ...args] =
    user === 'nobody'
      ? ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', '--', ...argv]
      : argv;
  const child = spawnSync('sh', ['-c', `"$@" >/dev/null 2>&1 & echo $!`, 'agent', file as string, ...args], {
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', ANTHROPIC_API_KEY: secret, AGENT_SECRET: secret },
    encoding: 'utf8',
  });
  const pid = Number(child.stdout.trim());
  agents.add(pid);
  return pid;
}

/** Whether a process is still there (and not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Stops the fake agents this process started (by pid). */
export function stopFakeAgents(): void {
  for (const pid of agents) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  agents.clear();
}

/** Listeners on the host that no sandboxed command may reach (except TCP from the workspace profile). */
export type HostListeners = {
  readonly tcpPort: number;
  /** A pathname Unix socket outside every working folder, open to every user. */
  readonly unixPath: string;
  /** An abstract Unix socket (reachable by name from the host's network namespace). */
  readonly abstractName: string;
  /** Connections accepted so far, per listener. */
  readonly accepted: { tcp: number; unix: number; abstract: number };
  close(): Promise<void>;
};

/** Starts the host listeners; every accepted connection is counted and answered with a marker line. */
export async function startHostListeners(): Promise<HostListeners> {
  const folder = realpathSync(mkdtempSync('/var/tmp/toolplane-attack-sockets-'));
  chmodSync(folder, 0o777);
  const accepted = { tcp: 0, unix: 0, abstract: 0 };
  const serve = (kind: keyof typeof accepted) =>
    createServer((socket) => {
      accepted[kind] += 1;
      socket.end('HOST-LISTENER-REACHED\n');
    });
  const tcp = serve('tcp');
  const unix = serve('unix');
  const abstract = serve('abstract');
  const unixPath = path.join(folder, 'agent.sock');
  const abstractName = `toolplane-attack-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => unix.listen(unixPath, resolve));
  await new Promise<void>((resolve) => abstract.listen(`\0${abstractName}`, resolve));
  chmodSync(unixPath, 0o777);
  const address = tcp.address();
  return {
    tcpPort: typeof address === 'object' && address !== null ? address.port : 0,
    unixPath,
    abstractName,
    accepted,
    async close() {
      await Promise.all([tcp, unix, abstract].map((server) => new Promise((resolve) => server.close(resolve))));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
