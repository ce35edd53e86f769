import type { CallApproval } from './permission.js';
import { defineService } from './services.js';

/**
 * The OS sandbox seam: what the kernel contains when the permission analysis was wrong. The plane
 * decides whether a command may run; the sandbox decides what it can touch while it runs. The
 * profile follows from how the call was approved (see {@link sandboxProfileFor}).
 */

/**
 * `read-only`: a command judged read-only — nothing writable but a private /tmp, no network.
 * `workspace`: a command allowed by a rule, a mode, a hook or a person — the working folders and
 * tool caches writable, protected files read-only, secrets masked, network per settings.
 */
export type SandboxProfile = 'read-only' | 'workspace';

/** The profile a sandboxed command gets for an approval: read-only only when judged so and no person chose. */
export function sandboxProfileFor(approval: CallApproval | undefined): SandboxProfile {
  if (approval === undefined) return 'workspace';
  return approval.readOnly && approval.by !== 'person' ? 'read-only' : 'workspace';
}

/** Whether the sandbox can run here, and when not, why and how to fix it. */
export type SandboxStatus =
  | { readonly available: true; readonly backend: string }
  | { readonly available: false; readonly reason: string; readonly fix: string };

/** One command to start inside the sandbox. */
export type SandboxRequest = {
  readonly profile: SandboxProfile;
  /** The program and its arguments as they would run outside (`bash -c …`). */
  readonly argv: readonly string[];
  /** The folder it starts in; if the sandbox cannot start there, the command fails. */
  readonly cwd: string;
  /** The environment it would get outside; the sandbox may remove variables. */
  readonly env: Readonly<Record<string, string>>;
};

/** What to spawn instead of the request's argv, and what to undo once the process is gone. */
export type SandboxLaunch = {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Files the child gets as file descriptors 3, 4, … (opened by the caller). */
  readonly extraFiles: readonly string[];
  /** What the command can and cannot do, in words for the model (used when something was blocked). */
  readonly summary: string;
  /** The profile actually applied. */
  readonly profile: SandboxProfile;
  /** Whether the command can reach the network. */
  readonly network: boolean;
  /** Undoes what preparing the launch left on disk. Call once, after the process group is gone. */
  release(): Promise<void>;
};

/** The progress kind a command reports once it knows where it runs (read by the decision ledger). */
export const SANDBOX_PROGRESS = 'sandbox';

/**
 * Where one command ran: in the sandbox with its profile and network, outside it by a person's
 * approval, without one (none in this host, or none can run here and the settings allow that), or
 * not at all.
 */
export type SandboxPlacement =
  | { readonly placement: 'sandboxed'; readonly profile: SandboxProfile; readonly network: boolean }
  | { readonly placement: 'outside' | 'plain' | 'refused' };

/** An OS sandbox. Implementations: bubblewrap (`src/sandbox/`), and a fake in `toolplane/testing`. */
export interface Sandbox {
  /** Whether commands can be sandboxed here (cached after the first probe). */
  status(signal?: AbortSignal): Promise<SandboxStatus>;
  /** Prepares one launch. Throws when the sandbox is unavailable or the request cannot be honoured. */
  prepare(request: SandboxRequest, signal?: AbortSignal): Promise<SandboxLaunch>;
  /**
   * Whether a command must run outside the sandbox and on what terms: `requested` is the Bash
   * input's `dangerouslyDisableSandbox`; `sandbox.excludedCommands` and a missing sandbox with
   * `failIfUnavailable` also ask. Undefined when it runs sandboxed (or there is no sandbox to leave).
   */
  outside(request: { readonly command: string; readonly requested: boolean }): Promise<OutsideVerdict | undefined>;
  /** Removes what the sandbox left on disk between commands (stand-ins for missing protected paths). */
  dispose?(): Promise<void>;
}

/** `ask`: only a person's approval of this one run lets it out; `refuse`: the settings forbid it. */
export type OutsideVerdict = { readonly verdict: 'ask' | 'refuse'; readonly reason: string };

/** The service key under which a host registers its sandbox for Bash. */
export const SANDBOX = defineService<Sandbox>('sandbox');

/**
 * What a sandbox enforces for one session, as absolute host paths: derived from the permission
 * rules and the `sandbox` settings (`buildSandboxPolicy` in permissions/), one source of truth for
 * both layers.
 */
export type SandboxPolicy = {
  /** The session's working folders: writable in the workspace profile, read-only in the other. */
  readonly workingFolders: readonly string[];
  /** The session's private temporary folder, mounted on /tmp (and at its own path) in both profiles. */
  readonly tmpDir: string;
  /** Further writable folders in the workspace profile: tool caches and `sandbox.filesystem.allowWrite`. */
  readonly writable: readonly string[];
  /** Unreadable in both profiles (EACCES): credential stores, Read-denied paths, other sessions. */
  readonly masked: readonly string[];
  /**
   * Configuration files that also hold tokens (`~/.npmrc`): commands see a copy with every line that
   * looks like a credential removed, in both profiles.
   */
  readonly redacted: readonly string[];
  /** Read-only in the workspace profile even inside the working folders (a missing one cannot be created). */
  readonly writeProtected: readonly string[];
  /** Read-only in the workspace profile when they exist; a missing one may be created. */
  readonly writeProtectedWhenPresent: readonly string[];
  /** Whether workspace-profile commands reach the network (read-only commands never do). */
  readonly network: boolean;
  /** Workspace-profile commands may create Unix sockets (`sandbox.network.allowAllUnixSockets`). */
  readonly allowUnixSockets: boolean;
  /** Command prefixes that always ask, then run outside the sandbox (`sandbox.excludedCommands`). */
  readonly excludedCommands: readonly string[];
  /** With no sandbox here, commands ask instead of running unsandboxed (`sandbox.failIfUnavailable`). */
  readonly failIfUnavailable: boolean;
  /** A command may ask to run outside the sandbox (`sandbox.allowUnsandboxedCommands`, default true). */
  readonly allowUnsandboxedCommands: boolean;
  /** What the settings asked for that the sandbox cannot enforce, in words (`toolplane doctor` lists them). */
  readonly unenforced: readonly string[];
};

/**
 * The `sandbox` settings after every source is merged: keys that loosen the sandbox come only from
 * user, managed or command-line sources (never from a project's files); keys that tighten it come
 * from any source. Claude Code's names where they mean the same thing.
 */
export type SandboxSettings = {
  /** `sandbox.enabled` (default true). */
  readonly enabled: boolean;
  /** `sandbox.failIfUnavailable`: with no sandbox here, commands ask instead of running unsandboxed. */
  readonly failIfUnavailable: boolean;
  /** `sandbox.allowUnsandboxedCommands` (default true): Bash may ask to run one command outside. */
  readonly allowUnsandboxedCommands: boolean;
  /** `sandbox.excludedCommands`: command prefixes that always ask, then run outside the sandbox. */
  readonly excludedCommands: readonly string[];
  /** `sandbox.network.enabled` (default true): workspace-profile commands reach the network. */
  readonly network: boolean;
  /** `sandbox.network.allowAllUnixSockets`. */
  readonly allowAllUnixSockets: boolean;
  /** `sandbox.filesystem.allowWrite`, absolute. */
  readonly allowWrite: readonly string[];
  /** `sandbox.filesystem.allowRead`, absolute: unmasks a built-in credential store. */
  readonly allowRead: readonly string[];
  /** `sandbox.filesystem.denyRead`, absolute: masked like a Read deny rule. */
  readonly denyRead: readonly string[];
  /** `sandbox.filesystem.denyWrite`, absolute: write-protected in the workspace profile. */
  readonly denyWrite: readonly string[];
  /** Keys that were given but are not enforced or were ignored, in words. */
  readonly notices: readonly string[];
};

/** The settings when no source sets any `sandbox` key. */
export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  enabled: true,
  failIfUnavailable: false,
  allowUnsandboxedCommands: true,
  excludedCommands: [],
  network: true,
  allowAllUnixSockets: false,
  allowWrite: [],
  allowRead: [],
  denyRead: [],
  denyWrite: [],
  notices: [],
};
