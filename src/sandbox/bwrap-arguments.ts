import path from 'node:path';
import type { SandboxPolicy, SandboxProfile } from '../contract/sandbox.js';
import type { MaskAssets } from './mask-assets.js';

/** What is at a host path, without following a final symlink (`link`), or undefined if nothing. */
export type PathKind = 'folder' | 'file' | 'link' | 'other' | undefined;

/** What {@link bwrapArguments} needs besides the policy. */
export type BwrapArgumentsOptions = {
  readonly policy: SandboxPolicy;
  readonly profile: SandboxProfile;
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly assets: MaskAssets;
  /** The file descriptor the seccomp program arrives on, if any. */
  readonly seccompFd: number | undefined;
  /** Looks at the host filesystem (injected so the arguments can be tested as data). */
  readonly kindOf: (absolute: string) => PathKind;
  /** Resolves a symlink's target, or undefined when it dangles. */
  readonly realPath: (absolute: string) => string | undefined;
  /** For each redacted file that exists: the copy without its credentials, to mount over it. */
  readonly redactedCopies?: ReadonlyMap<string, string>;
};

/** bubblewrap's arguments, and the stub folders the caller must create first (see protected-stubs). */
export type BwrapArguments = { readonly args: string[]; readonly stubs: string[] };

/**
 * The bubblewrap command line for one command. Order matters, later mounts covering earlier ones:
 * the whole filesystem read-only; fresh /dev, /proc, /run; the private tmp; in the workspace
 * profile the writable places, then the write-protected paths (each folder between them and the
 * working folder is mounted on itself so it cannot be renamed away); last the masks, so a masked
 * path inside a writable folder stays masked. Every profile drops all capabilities, gets its own
 * user, PID, IPC and UTS namespaces (no nested user namespaces), dies with its parent and starts
 * in `cwd` or fails.
 */
export function bwrapArguments(options: BwrapArgumentsOptions): BwrapArguments {
  const { policy, profile, kindOf } = options;
  const workspace = profile === 'workspace';
  // UTS and cgroup namespaces would hide only the host name and cgroup paths, for ~1 ms each.
  const args: string[] = ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc'];
  if (!workspace || !policy.network) args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  // Pid 1 is bubblewrap's init, whose death takes the whole sandbox with it: code written into its
  // memory could clear its parent-death signal and outlive every kill (ptrace of it is refused by
  // the seccomp filter; its memory file is masked here).
  args.push('--ro-bind', options.assets.file, '/proc/1/mem', '--ro-bind', options.assets.file, '/proc/1/task/1/mem');

  // /run holds the agent's, Docker's and the session bus's sockets: an empty one instead, keeping
  // only a resolver configuration that lives there (systemd-resolved) so DNS still works.
  args.push('--tmpfs', '/run');
  const resolver = options.realPath('/etc/resolv.conf');
  if (
    workspace &&
    policy.network &&
    resolver !== undefined &&
    isWithin(resolver, '/run') &&
    kindOf(resolver) === 'file'
  ) {
    args.push('--ro-bind', resolver, resolver);
  }
  args.push('--remount-ro', '/run');
  if (kindOf('/var/run') === 'folder') args.push('--tmpfs', '/var/run', '--remount-ro', '/var/run');

  const tmpDir = policy.tmpDir;
  args.push('--bind', tmpDir, '/tmp');
  if (!isWithin(tmpDir, '/tmp')) args.push('--bind', tmpDir, tmpDir);
  // Working folders under /tmp (a checkout in a temporary folder) stay where they are.
  const underTmp = policy.workingFolders.filter((folder) => isWithin(folder, '/tmp') && kindOf(folder) === 'folder');
  if (!workspace) for (const folder of underTmp) args.push('--ro-bind', folder, folder);
  const visible = (target: string): boolean =>
    !isWithin(target, '/tmp') || underTmp.some((folder) => isWithin(target, folder));

  const writableRoots: string[] = [tmpDir];
  const stubs: string[] = [];
  const masks = maskTargets([...policy.masked, ...agentSocketFolders(options.env)], options, visible);
  if (workspace) {
    for (const folder of [...policy.workingFolders, ...policy.writable]) {
      if (kindOf(folder) !== 'folder' || !visible(folder)) continue;
      args.push('--bind', folder, folder);
      writableRoots.push(folder);
    }
    const rootOf = (target: string): string | undefined =>
      writableRoots
        .filter((candidate) => isWithin(target, candidate) && candidate !== target)
        .sort((a, b) => b.length - a.length)[0];
    const present = policy.writeProtectedWhenPresent.filter((target) => kindOf(target) !== undefined);
    const mountPoints: { readonly path: string; readonly stub: boolean; readonly root: string }[] = [];
    for (const raw of [...policy.writeProtected, ...present]) {
      // A protected path reached through a link is protected where it really is.
      const target = kindOf(raw) === 'link' ? options.realPath(raw) : raw;
      const root = target === undefined ? undefined : rootOf(target);
      if (target === undefined || root === undefined) continue;
      const mountPoint = protectedMountPoint(target, root, kindOf);
      if (mountPoint === undefined || mountPoints.some((known) => known.path === mountPoint.path)) continue;
      mountPoints.push({ ...mountPoint, root });
    }
    // Every folder between a writable root and a protected or masked path is mounted on itself
    // first, so it cannot be renamed away and replaced by a copy (or carry a secret out from under
    // its mask). Folders inside a protected one are left alone: binding them after it would make
    // them writable again, and its read-only mount already stops a rename there.
    const readOnly = (folder: string): boolean => mountPoints.some((point) => isWithin(folder, point.path));
    const pinned = new Set<string>();
    for (const { root, target } of [
      ...mountPoints.map((point) => ({ root: point.root, target: point.path })),
      ...masks.flatMap((mask) => {
        const root = rootOf(mask.target);
        return root === undefined ? [] : [{ root, target: mask.target }];
      }),
    ]) {
      for (const folder of foldersBetween(root, target)) if (!readOnly(folder)) pinned.add(folder);
    }
    for (const folder of [...pinned].sort((a, b) => a.length - b.length)) args.push('--bind', folder, folder);
    for (const point of mountPoints) {
      if (point.stub) stubs.push(point.path);
      args.push('--ro-bind', point.path, point.path);
    }
  }

  const maskedFolders = new Set<string>();
  for (const { target, kind } of masks) {
    if ([...maskedFolders].some((folder) => isWithin(target, folder))) continue;
    if (kind === 'folder') {
      maskedFolders.add(target);
      args.push('--ro-bind', options.assets.folder, target);
    } else {
      args.push('--ro-bind', options.assets.file, target);
    }
  }

  for (const [target, copy] of options.redactedCopies ?? []) {
    if (visible(target) && ![...maskedFolders].some((folder) => isWithin(target, folder)))
      args.push('--ro-bind', copy, target);
  }

  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  args.push('--chdir', options.cwd, '--', ...options.argv);
  return { args, stubs };
}

/**
 * Where to mount for one write-protected path: the path itself when it exists, else the first
 * missing folder on the way to it (a stub), except inside a missing `.git` (a stub there would
 * make the folder look like a broken repository); below a `.git` that is a file (a worktree), the
 * `.git` file itself.
 */
function protectedMountPoint(
  target: string,
  root: string,
  kindOf: (absolute: string) => PathKind,
): { readonly path: string; readonly stub: boolean } | undefined {
  const kind = kindOf(target);
  if (kind === 'folder' || kind === 'file') return { path: target, stub: false };
  if (kind !== undefined) return undefined;
  const segments = path.relative(root, target).split(path.sep);
  let current = root;
  for (const segment of segments) {
    current = path.join(current, segment);
    const here = kindOf(current);
    if (here === undefined) return segment === '.git' ? undefined : { path: current, stub: true };
    // In a linked worktree `.git` is a file naming the git folder: rewritten, it would hand the
    // host's git a planted configuration and hooks, so the file itself is what gets protected.
    if (here === 'file' && segment === '.git') return { path: current, stub: false };
    if (here !== 'folder') return undefined;
  }
  return undefined;
}

/** The masked paths that exist and can be seen in the sandbox, links resolved to where they point. */
function maskTargets(
  raw: readonly string[],
  options: Pick<BwrapArgumentsOptions, 'kindOf' | 'realPath'>,
  visible: (target: string) => boolean,
): { readonly target: string; readonly kind: 'folder' | 'file' | 'other' }[] {
  const found: { readonly target: string; readonly kind: 'folder' | 'file' | 'other' }[] = [];
  for (const entry of raw) {
    let target = path.resolve(entry);
    let kind = options.kindOf(target);
    if (kind === 'link') {
      const real = options.realPath(target);
      if (real === undefined) continue;
      target = real;
      kind = options.kindOf(target);
    }
    if (kind === undefined || kind === 'link' || !visible(target)) continue;
    found.push({ target, kind });
  }
  return found;
}

/** The existing folders strictly between `root` and `target`, outermost first. */
function foldersBetween(root: string, target: string): string[] {
  const result: string[] = [];
  let current = path.dirname(target);
  while (current !== root && isWithin(current, root)) {
    result.unshift(current);
    current = path.dirname(current);
  }
  return result;
}

/** The folders of an ssh or gpg agent's socket and of the session's runtime folder, when set. */
function agentSocketFolders(env: Readonly<Record<string, string>>): string[] {
  const folders: string[] = [];
  for (const name of ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO']) {
    const value = env[name]?.split(':')[0];
    if (value && path.isAbsolute(value)) folders.push(path.dirname(value));
  }
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime)) folders.push(runtime);
  return folders.filter((folder) => folder !== '/' && !isWithin(folder, '/run') && !isWithin(folder, '/tmp'));
}

function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
