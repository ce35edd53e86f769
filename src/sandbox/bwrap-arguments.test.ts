import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../contract/sandbox.js';
import { bwrapArguments, type PathKind } from './bwrap-arguments.js';

const policy: SandboxPolicy = {
  workingFolders: ['/work/project'],
  tmpDir: '/home/me/.toolplane/projects/p/s/tmp',
  writable: ['/home/me/.npm', '/home/me/.cache'],
  masked: ['/home/me/.ssh', '/work/project/.env', '/home/me/.aws', '/home/me/link'],
  redacted: ['/home/me/.npmrc'],
  writeProtected: [
    '/work/project/.git/hooks',
    '/work/project/.git/config',
    '/work/project/.claude',
    '/work/project/.github/workflows',
    '/work/project/.mcp.json',
  ],
  writeProtectedWhenPresent: ['/work/project/.npmrc', '/work/project/.husky'],
  network: true,
  allowUnixSockets: false,
  excludedCommands: [],
  failIfUnavailable: false,
  allowUnsandboxedCommands: true,
  unenforced: [],
};

const disk: Record<string, PathKind> = {
  '/work/project': 'folder',
  '/work/project/.git': 'folder',
  '/work/project/.git/hooks': 'folder',
  '/work/project/.git/config': 'file',
  '/work/project/.github': 'folder',
  '/work/project/.env': 'file',
  '/home/me/.ssh': 'folder',
  '/home/me/.npm': 'folder',
  '/home/me/link': 'link',
  '/secrets/real': 'file',
  '/home/me/.toolplane/projects/p/s/tmp': 'folder',
};

function build(
  overrides: Partial<SandboxPolicy> = {},
  profile: 'read-only' | 'workspace' = 'workspace',
  extraDisk: Record<string, PathKind> = {},
) {
  return bwrapArguments({
    policy: { ...policy, ...overrides },
    profile,
    cwd: '/work/project',
    argv: ['/bin/bash', '-c', 'true'],
    env: { SSH_AUTH_SOCK: '/home/me/.agent/sock', XDG_RUNTIME_DIR: '/run/user/1000' },
    assets: { folder: '/m/dir', file: '/m/file', strictFilter: '/m/strict', socketsFilter: '/m/sockets' },
    seccompFd: 3,
    kindOf: (absolute) => ({ ...disk, ...extraDisk })[absolute],
    realPath: (absolute) => (absolute === '/home/me/link' ? '/secrets/real' : absolute),
    redactedCopies: new Map([['/home/me/.npmrc', '/m/redacted-npmrc']]),
  });
}

function pairs(args: readonly string[], flag: string): string[][] {
  const found: string[][] = [];
  args.forEach((arg, index) => {
    if (arg === flag) found.push([args[index + 1] as string, args[index + 2] as string]);
  });
  return found;
}

describe('bwrapArguments', () => {
  it('drops every capability, unshares the namespaces, and ends with chdir and the command', () => {
    const { args } = build();
    for (const flag of ['--unshare-user', '--disable-userns', '--unshare-pid', '--die-with-parent', '--new-session'])
      expect(args).toContain(flag);
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
    expect(args.slice(-6)).toEqual(['--chdir', '/work/project', '--', '/bin/bash', '-c', 'true']);
    expect(args.slice(args.indexOf('--seccomp'), args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '3']);
    // The init's memory is masked, so no code can be written into it.
    expect(pairs(args, '--ro-bind')).toEqual(
      expect.arrayContaining([
        ['/m/file', '/proc/1/mem'],
        ['/m/file', '/proc/1/task/1/mem'],
      ]),
    );
    expect(args.indexOf('/proc/1/mem')).toBeGreaterThan(args.indexOf('/proc'));
  });

  it('read-only: no network and nothing writable but the private tmp', () => {
    const { args, stubs } = build({}, 'read-only');
    expect(args).toContain('--unshare-net');
    expect(pairs(args, '--bind')).toEqual([
      [policy.tmpDir, '/tmp'],
      [policy.tmpDir, policy.tmpDir],
    ]);
    expect(stubs).toEqual([]);
  });

  it('workspace: working folders and existing caches writable, network per the policy', () => {
    const { args } = build();
    expect(args).not.toContain('--unshare-net');
    expect(pairs(args, '--bind')).toEqual(
      expect.arrayContaining([
        ['/work/project', '/work/project'],
        ['/home/me/.npm', '/home/me/.npm'],
      ]),
    );
    expect(pairs(args, '--bind')).not.toContainEqual(['/home/me/.cache', '/home/me/.cache']);
    expect(build({ network: false }).args).toContain('--unshare-net');
  });

  it('write protection: existing paths read-only with each folder on the way mounted on itself; a missing one stubbed', () => {
    const { args, stubs } = build();
    const ro = pairs(args, '--ro-bind');
    expect(ro).toEqual(
      expect.arrayContaining([
        ['/work/project/.git/hooks', '/work/project/.git/hooks'],
        ['/work/project/.git/config', '/work/project/.git/config'],
      ]),
    );
    expect(pairs(args, '--bind')).toEqual(
      expect.arrayContaining([
        ['/work/project/.git', '/work/project/.git'],
        ['/work/project/.github', '/work/project/.github'],
      ]),
    );
    expect(stubs).toEqual(['/work/project/.claude', '/work/project/.github/workflows', '/work/project/.mcp.json']);
    expect(args).not.toContain('/work/project/.husky');
    expect(pairs(build({}, 'workspace', { '/work/project/.npmrc': 'file' }).args, '--ro-bind')).toContainEqual([
      '/work/project/.npmrc',
      '/work/project/.npmrc',
    ]);
    for (const stub of stubs) expect(ro).toContainEqual([stub, stub]);
    expect(args.indexOf('/work/project/.git/hooks')).toBeGreaterThan(args.indexOf('/work/project'));
  });

  it('never stubs inside a missing .git, nor below a .git that is a file', () => {
    const noRepo = build({}, 'workspace', {
      '/work/project/.git': undefined,
      '/work/project/.git/hooks': undefined,
      '/work/project/.git/config': undefined,
    });
    const inGit = (stub: string) => stub.split('/').includes('.git');
    expect(noRepo.stubs.some(inGit)).toBe(false);
    expect(noRepo.stubs).toContain('/work/project/.claude');
    const worktree = build({}, 'workspace', {
      '/work/project/.git': 'file',
      '/work/project/.git/hooks': undefined,
      '/work/project/.git/config': undefined,
    });
    expect(worktree.stubs.some(inGit)).toBe(false);
  });

  it("a worktree's .git file is itself read-only (rewritten, it would point the host's git at a planted config)", () => {
    const { args } = build({}, 'workspace', {
      '/work/project/.git': 'file',
      '/work/project/.git/hooks': undefined,
      '/work/project/.git/config': undefined,
    });
    expect(pairs(args, '--ro-bind')).toContainEqual(['/work/project/.git', '/work/project/.git']);
    expect(pairs(args, '--bind')).not.toContainEqual(['/work/project/.git', '/work/project/.git']);
  });

  it('a protected file inside a protected folder never makes the folder writable again (hook scripts in .claude/hooks)', () => {
    const { args } = build(
      { writeProtected: ['/work/project/.claude', '/work/project/.claude/hooks/check.sh'] },
      'workspace',
      {
        '/work/project/.claude': 'folder',
        '/work/project/.claude/hooks': 'folder',
        '/work/project/.claude/hooks/check.sh': 'file',
      },
    );
    const binds = pairs(args, '--bind').map(([, target]) => target);
    expect(binds).not.toContain('/work/project/.claude');
    expect(binds).not.toContain('/work/project/.claude/hooks');
    expect(pairs(args, '--ro-bind')).toContainEqual(['/work/project/.claude', '/work/project/.claude']);
  });

  it('every folder between the working folder and a protected or masked path is mounted on itself before any read-only mount', () => {
    const { args } = build({ masked: ['/work/project/config/deep/prod.key'] }, 'workspace', {
      '/work/project/config': 'folder',
      '/work/project/config/deep': 'folder',
      '/work/project/config/deep/prod.key': 'file',
    });
    const binds = pairs(args, '--bind');
    expect(binds).toContainEqual(['/work/project/config', '/work/project/config']);
    expect(binds).toContainEqual(['/work/project/config/deep', '/work/project/config/deep']);
    expect(args.indexOf('/work/project/config')).toBeLessThan(args.indexOf('/work/project/config/deep'));
    const lastSelfBind = Math.max(
      ...['/work/project/.git', '/work/project/.github', '/work/project/config/deep'].map((folder) =>
        args.lastIndexOf(folder),
      ),
    );
    expect(lastSelfBind).toBeLessThan(args.indexOf('--ro-bind', args.indexOf('/work/project/config/deep')));
    expect(pairs(args, '--ro-bind')).toContainEqual(['/m/file', '/work/project/config/deep/prod.key']);
  });

  it('a protected path that is a link is protected where it points', () => {
    const linked = bwrapArguments({
      policy: { ...policy, writeProtected: ['/work/project/.envrc'] },
      profile: 'workspace',
      cwd: '/work/project',
      argv: ['true'],
      env: {},
      assets: { folder: '/m/dir', file: '/m/file', strictFilter: undefined, socketsFilter: undefined },
      seccompFd: undefined,
      kindOf: (absolute) =>
        ({ ...disk, '/work/project/.envrc': 'link' as PathKind, '/work/project/envrc.sh': 'file' as PathKind })[
          absolute
        ],
      realPath: (absolute) => (absolute === '/work/project/.envrc' ? '/work/project/envrc.sh' : absolute),
    });
    expect(pairs(linked.args, '--ro-bind')).toContainEqual(['/work/project/envrc.sh', '/work/project/envrc.sh']);
  });

  it('masks after every writable mount: folders with the unreadable folder, files with the unreadable file, links at their target', () => {
    const { args } = build();
    const ro = pairs(args, '--ro-bind');
    expect(ro).toContainEqual(['/m/dir', '/home/me/.ssh']);
    expect(ro).toContainEqual(['/m/file', '/work/project/.env']);
    expect(ro).toContainEqual(['/m/file', '/secrets/real']);
    expect(ro.some(([, target]) => target === '/home/me/.aws')).toBe(false);
    expect(args.lastIndexOf('/work/project/.env')).toBeGreaterThan(args.indexOf('/work/project/.git/hooks'));
  });

  it('mounts the redacted copy of a configuration file over it', () => {
    expect(pairs(build().args, '--ro-bind')).toContainEqual(['/m/redacted-npmrc', '/home/me/.npmrc']);
  });

  it('empties /run and masks the agent socket folder outside it', () => {
    const { args } = build({}, 'workspace', { '/home/me/.agent': 'folder' });
    expect(pairs(args, '--tmpfs').length + args.filter((arg) => arg === '--tmpfs').length).toBeGreaterThan(0);
    expect(args.slice(args.indexOf('--tmpfs'), args.indexOf('--tmpfs') + 2)).toEqual(['--tmpfs', '/run']);
    expect(pairs(args, '--ro-bind')).toContainEqual(['/m/dir', '/home/me/.agent']);
  });

  it('keeps a working folder under /tmp visible over the private tmp', () => {
    const underTmp = { '/tmp/checkout': 'folder' as PathKind, '/tmp/checkout/.env': 'file' as PathKind };
    const readOnly = build(
      { workingFolders: ['/tmp/checkout'], masked: ['/tmp/checkout/.env', '/tmp/other'] },
      'read-only',
      underTmp,
    );
    expect(pairs(readOnly.args, '--ro-bind')).toContainEqual(['/tmp/checkout', '/tmp/checkout']);
    expect(pairs(readOnly.args, '--ro-bind')).toContainEqual(['/m/file', '/tmp/checkout/.env']);
    expect(readOnly.args).not.toContain('/tmp/other');
    const workspace = build({ workingFolders: ['/tmp/checkout'] }, 'workspace', underTmp);
    expect(pairs(workspace.args, '--bind')).toContainEqual(['/tmp/checkout', '/tmp/checkout']);
    expect(workspace.args.indexOf('/tmp/checkout')).toBeGreaterThan(workspace.args.indexOf('/tmp'));
  });
});
