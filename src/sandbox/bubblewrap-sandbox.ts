import { lstatSync, realpathSync } from 'node:fs';
import type {
  Sandbox,
  SandboxLaunch,
  SandboxPolicy,
  SandboxProfile,
  SandboxRequest,
  SandboxStatus,
} from '../contract/sandbox.js';
import { bwrapArguments, type PathKind } from './bwrap-arguments.js';
import { maskAssets } from './mask-assets.js';
import { probeBubblewrap, type BubblewrapProbe } from './probe-bubblewrap.js';
import { createStubRegistry } from './protected-stubs.js';
import { createStubJournal } from './stub-journal.js';
import { sandboxEnv } from './sandbox-env.js';
import { describeProfile } from './describe-profile.js';
import { redactedCopies } from './redact-config.js';

/** Options for {@link createBubblewrapSandbox}. */
export type BubblewrapSandboxOptions = {
  /** The session's policy, or a function computing it on first use (it walks the disk for globs). */
  readonly policy: SandboxPolicy | (() => SandboxPolicy | Promise<SandboxPolicy>);
  /** A bubblewrap binary to use instead of looking for one. */
  readonly bwrap?: string;
  /** Where the probe's answer is cached between runs (e.g. `~/.toolplane/sandbox-probe.json`). */
  readonly probeCacheFile?: string;
  /** Where stand-ins for missing protected paths are recorded, so a killed session's are swept by the next one. */
  readonly stubJournalFile?: string;
  /** Where to look for bwrap on `PATH` after the usual places. */
  readonly env?: Readonly<Record<string, string | undefined>>;
};

/**
 * The bubblewrap sandbox: each command in its own user, mount, PID, IPC and UTS namespaces with
 * every capability dropped, the filesystem read-only but for what the profile opens, secrets
 * masked, Unix sockets refused by seccomp, and no network in the read-only profile.
 */
export function createBubblewrapSandbox(options: BubblewrapSandboxOptions): Sandbox & {
  /** The policy in force (computed on first use). */
  policy(): Promise<SandboxPolicy>;
} {
  let probe: Promise<BubblewrapProbe> | undefined;
  let policy: Promise<SandboxPolicy> | undefined;
  const stubs = createStubRegistry(
    options.stubJournalFile ? { journal: createStubJournal(options.stubJournalFile) } : {},
  );
  const getProbe = (signal?: AbortSignal): Promise<BubblewrapProbe> =>
    (probe ??= probeBubblewrap({
      ...(options.bwrap ? { bwrap: options.bwrap } : {}),
      ...(options.probeCacheFile ? { cacheFile: options.probeCacheFile } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(signal ? { signal } : {}),
    }));
  const getPolicy = (): Promise<SandboxPolicy> =>
    (policy ??= Promise.resolve(typeof options.policy === 'function' ? options.policy() : options.policy));

  return {
    policy: getPolicy,
    async dispose() {
      // A probe still running (a bwrap process, then the cache write) finishes before the session ends.
      await probe?.catch(() => undefined);
      stubs.flush();
    },
    async status(signal): Promise<SandboxStatus> {
      return (await getProbe(signal)).status;
    },
    async outside({ command, requested }) {
      const current = await getPolicy();
      const { status } = await getProbe();
      if (requested && status.available) {
        if (!current.allowUnsandboxedCommands) {
          return {
            verdict: 'refuse',
            reason: 'sandbox.allowUnsandboxedCommands is false, so no command runs outside the sandbox',
          };
        }
        return { verdict: 'ask', reason: 'the command asks to run outside the sandbox (dangerouslyDisableSandbox)' };
      }
      const trimmed = command.trim();
      const excluded = current.excludedCommands.find(
        (prefix) => trimmed === prefix || trimmed.startsWith(`${prefix} `),
      );
      if (excluded !== undefined && status.available) {
        return {
          verdict: 'ask',
          reason: `it matches sandbox.excludedCommands entry "${excluded}", so it runs outside the sandbox`,
        };
      }
      if (!status.available && current.failIfUnavailable) {
        return {
          verdict: 'ask',
          reason: `no sandbox can run here (${status.reason}) and sandbox.failIfUnavailable is set, so it would run with your full access`,
        };
      }
      return undefined;
    },
    async prepare(request: SandboxRequest, signal?: AbortSignal): Promise<SandboxLaunch> {
      const found = await getProbe(signal);
      if (!found.status.available || found.bwrap === undefined) {
        throw new Error(
          `no sandbox is available: ${found.status.available ? 'bubblewrap was not found' : found.status.reason}`,
        );
      }
      const current = await getPolicy();
      const assets = maskAssets();
      const filter =
        request.profile === 'workspace' && current.allowUnixSockets ? assets.socketsFilter : assets.strictFilter;
      const built = bwrapArguments({
        policy: current,
        profile: request.profile,
        cwd: request.cwd,
        argv: request.argv,
        env: request.env,
        assets,
        seccompFd: filter === undefined ? undefined : 3,
        kindOf: (absolute) => (stubs.owns(absolute) ? undefined : kindOf(absolute)),
        realPath,
        ...(assets.root ? { redactedCopies: redactedCopies(current.redacted, assets.root) } : {}),
      });
      const acquired = built.stubs.filter((stub) => stubs.acquire(stub));
      let released = false;
      return {
        file: found.bwrap,
        args: built.args,
        env: sandboxEnv(request.env, { profile: request.profile, tmpDir: current.tmpDir }),
        extraFiles: filter === undefined ? [] : [filter],
        summary: describeProfile(request.profile, current),
        profile: request.profile,
        network: request.profile === 'workspace' && current.network,
        async release() {
          if (released) return;
          released = true;
          for (const stub of acquired) stubs.release(stub);
        },
      };
    },
  };
}

function kindOf(absolute: string): PathKind {
  try {
    const stat = lstatSync(absolute);
    if (stat.isSymbolicLink()) return 'link';
    if (stat.isDirectory()) return 'folder';
    return stat.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

function realPath(absolute: string): string | undefined {
  try {
    return realpathSync(absolute);
  } catch {
    return undefined;
  }
}

export type { SandboxProfile };
