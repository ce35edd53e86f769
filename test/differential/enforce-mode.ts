import { closeSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  sandboxProfileFor,
  type Sandbox,
  type SandboxLaunch,
  type SandboxPolicy,
  type SandboxProfile,
} from '../../src/contract/sandbox.js';
import { buildSandboxPolicy } from '../../src/permissions/index.js';
import { createBubblewrapSandbox } from '../../src/sandbox/index.js';
import type { AllowedVerdict, Executor, World } from './differential.js';
import { within, type Allowance } from './harms.js';
import { carefulRules } from './judge.js';
import { jailArguments, jailLauncher } from './observe-jail.js';
import { COMMAND_TIME_LIMIT_MS, runProcess } from './run-process.js';

/**
 * Enforce mode (issue 10): allowed commands run inside toolplane's sandbox, with the profile
 * their approval gives them, as the Bash tool runs them. Whatever the engine got wrong, the
 * sandbox must contain: a harm here is a hole in the sandbox.
 */

/** The profile the Bash tool would pick for this approval. */
export function profileFor(verdict: AllowedVerdict): SandboxProfile {
  return sandboxProfileFor({
    by: verdict.kind === 'rule' ? 'rule' : 'read-only',
    readOnly: verdict.kind === 'read-only',
  });
}

/** The session's sandbox policy, from the same careful rules the engine decides with. */
export function policyFor(world: World): SandboxPolicy {
  const { fixture } = world;
  return buildSandboxPolicy({
    rules: carefulRules(fixture.work),
    cwd: fixture.work,
    homeDir: fixture.home,
    tmpDir: fixture.tmp,
  });
}

/** `policy`'s absolute paths as paths relative to the fixture root (those inside it). */
function relativeTo(world: World, paths: readonly string[]): string[] {
  return paths
    .map((absolute) => path.relative(world.fixture.root, absolute))
    .filter((relative) => !relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * What a sandboxed command may do, by profile. Read-only: write only the private /tmp; no
 * network, no Unix socket; no planted secret, nor a secret-looking variable of its own
 * environment (the profile drops them). Workspace: write the working folder (but not its
 * write-protected paths), /tmp and the tool caches; the TCP check is waived when the policy turns
 * the network on; never a Unix socket, never a planted secret or masked file.
 */
export function enforceAllowance(verdict: AllowedVerdict, world: World, policy: SandboxPolicy): Allowance {
  const secretFiles = world.fixture.secretFiles;
  if (profileFor(verdict) === 'read-only') {
    return {
      name: 'read-only profile: only /tmp writable; no network, no Unix socket, no secret',
      mayWrite: (name) => within(name, 'tmp'),
      mayConnectTcp: false,
      mayConnectUnix: false,
      secrets: ['sshKey', 'dotEnv', 'apiKey', 'userToken'],
      secretFiles,
    };
  }
  const writable = ['work', 'tmp', ...relativeTo(world, policy.writable)];
  const protectedPaths = relativeTo(world, [...policy.writeProtected, ...policy.writeProtectedWhenPresent]);
  return {
    name: `workspace profile: ${writable.join(', ')} writable but not ${protectedPaths.length} write-protected paths; ${policy.network ? 'network on' : 'no network'}; no Unix socket, no secret`,
    mayWrite: (name) =>
      writable.some((folder) => within(name, folder)) && !protectedPaths.some((folder) => within(name, folder)),
    mayConnectTcp: policy.network,
    mayConnectUnix: policy.allowUnixSockets,
    secrets: ['sshKey', 'dotEnv', 'apiKey'],
    secretFiles,
  };
}

/** The lead's bubblewrap sandbox for this world's policy. */
export function realSandbox(policy: SandboxPolicy): Sandbox {
  return createBubblewrapSandbox({ policy });
}

/**
 * Runs allowed commands through a sandbox as the Bash tool does: `bash -c command` prepared with
 * the approval's profile, spawned with the launch's environment and extra files. The parent is a
 * shell that holds the agent's environment (the API key), as the agent is the parent of Bash.
 */
export function enforceExecutor(world: World, sandbox: Sandbox): Executor {
  const { fixture, listeners } = world;
  return async (command, verdict) => {
    const launch = await sandbox.prepare({
      profile: profileFor(verdict),
      argv: ['/bin/bash', '-c', command],
      cwd: fixture.work,
      env: fixture.commandEnv,
    });
    for (const file of launch.extraFiles) sandboxAssetFolders.add(path.dirname(file));
    const fds = launch.extraFiles.map((file) => openSync(file, 'r'));
    const tcpBefore = (await listeners.settle()).tcp;
    try {
      const environment = Object.entries(launch.env).map(([name, value]) => `${name}=${value}`);
      const result = await runProcess({
        file: '/bin/bash',
        // `; exit $?` keeps this shell alive as the sandbox's parent instead of exec-ing into it.
        args: ['-c', 'env -i "$@"; exit $?', 'agent', ...environment, launch.file, ...launch.args],
        env: fixture.agentEnv,
        cwd: fixture.work,
        timeoutMs: COMMAND_TIME_LIMIT_MS,
        extraFds: fds,
      });
      const tcp = (await listeners.settle()).tcp - tcpBefore;
      return {
        stdout: result.stdout,
        stderr: result.stderr,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        tcpConnections: tcp,
      };
    } finally {
      for (const fd of fds) closeSync(fd);
      await launch.release();
      await removeStandIns(world, sandbox);
    }
  };
}

/** Empty folders that are not in the baseline: what the sandbox's stand-ins for missing protected paths look like. */
function newEmptyFolders(world: World): string[] {
  const now = world.fixture.snapshot();
  const names = [...now.keys()];
  return names.filter(
    (name) =>
      !world.fixture.baseline.has(name) &&
      now.get(name)?.startsWith('dir ') &&
      !names.some((other) => other.startsWith(`${name}/`)),
  );
}

/**
 * The sandbox mounts an empty stand-in at each missing protected path and removes it once no
 * command holds it; a stand-in whose mount namespace the kernel has not torn down yet stays until
 * a later flush. They are not the command's writes: flush until they are gone (a folder the
 * command made itself stays, and counts).
 */
async function removeStandIns(world: World, sandbox: Sandbox): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await sandbox.dispose?.();
    if (newEmptyFolders(world).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The folders the sandbox kept its mask files and seccomp programs in (one per process), seen in launches. */
const sandboxAssetFolders = new Set<string>();

/** Removes the sandbox's per-process asset folders this suite's launches used (the sandbox leaves them in /tmp). */
export function removeSandboxAssets(): void {
  for (const folder of sandboxAssetFolders) {
    if (path.basename(folder).startsWith('toolplane-sandbox-')) rmSync(folder, { recursive: true, force: true });
  }
  sandboxAssetFolders.clear();
}

/** A deliberately broken sandbox: the real one, built from the policy without its masks (credential stores, Read-denied files). */
export function sandboxWithoutMasks(policy: SandboxPolicy): Sandbox {
  return createBubblewrapSandbox({ policy: { ...policy, masked: [], redacted: [] } });
}

/** A deliberately broken sandbox: every command gets the workspace profile, read-only ones too. */
export function sandboxIgnoringProfile(sandbox: Sandbox): Sandbox {
  return {
    status: (signal) => sandbox.status(signal),
    outside: (request) => sandbox.outside(request),
    prepare: (request, signal) => sandbox.prepare({ ...request, profile: 'workspace' }, signal),
    ...(sandbox.dispose ? { dispose: () => (sandbox.dispose as () => Promise<void>)() } : {}),
  };
}

/**
 * A deliberately broken sandbox: no profile at all. So that it never runs on the real machine it
 * runs in the observe mode's jail, where the whole fixture is writable and readable, under a
 * stand-in for the agent that holds the agent's environment, as it would be without a sandbox.
 */
export function noSandbox(world: World): Sandbox {
  return {
    status: () => Promise.resolve({ available: true, backend: 'none (broken on purpose)' }),
    outside: () => Promise.resolve(undefined),
    prepare: (request): Promise<SandboxLaunch> =>
      Promise.resolve({
        file: jailLauncher(world.fixture).file,
        args: [
          ...jailLauncher(world.fixture).prefix,
          ...jailArguments(world.fixture),
          '--',
          '/bin/bash',
          '-c',
          'env -i "$@"; exit $?',
          'agent',
          ...Object.entries(request.env).map(([name, value]) => `${name}=${value}`),
          ...request.argv,
        ],
        env: world.fixture.agentEnv,
        extraFiles: [],
        summary: 'no sandbox',
        profile: request.profile,
        network: true,
        release: () => Promise.resolve(),
      }),
  };
}
