import { readFileSync, readdirSync } from 'node:fs';

/** Options for {@link killProcessGroup}. */
export type KillProcessGroupOptions = {
  /** How long the group gets to exit after SIGTERM before SIGKILL, in ms. Default 2,000. */
  readonly graceMs?: number;
  /** How often to check whether the group is gone, in ms. Default 50. */
  readonly pollMs?: number;
};

const DEFAULT_GRACE_MS = 2_000;
const DEFAULT_POLL_MS = 50;

/**
 * Kills a process group (a child spawned with `detached: true` leads its own group): SIGTERM
 * first, then SIGKILL to whatever is left once the grace period passes. Resolves when the group is
 * gone or SIGKILL has been sent. Never rejects, and takes no AbortSignal: it is cleanup that must
 * finish.
 */
export async function killProcessGroup(pid: number, options: KillProcessGroupOptions = {}): Promise<void> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  // Taken before the leader dies: afterwards they belong to pid 1 and cannot be told apart.
  const escaped = childrenOutsideGroup(pid);
  try {
    if (!signalGroup(pid, 'SIGTERM')) return;
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      if (!isGroupAlive(pid)) return;
    }
    signalGroup(pid, 'SIGKILL');
  } finally {
    for (const child of escaped) if (readStatFields(child.pid)?.[STARTTIME] === child.startTime) signalOne(child.pid);
  }
}

/** Index of `starttime` among the /proc/<pid>/stat fields after the command name. */
const STARTTIME = 19;

/**
 * The leader's direct children that left its group, with their start times (so a reused pid is
 * never signalled). The group signal misses them: a sandbox's init (bubblewrap's pid 1, which
 * calls setsid) is one, and it takes its whole pid namespace with it when it dies. Its
 * parent-death signal would do that too, but is set only once bubblewrap's set-up is done: a
 * leader killed during the set-up left the sandbox running.
 */
function childrenOutsideGroup(pid: number): { readonly pid: number; readonly startTime: string }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children: { pid: number; startTime: string }[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = readStatFields(Number(entry));
    const startTime = fields?.[STARTTIME];
    // After the command name: state, ppid, pgrp.
    if (fields && fields[1] === String(pid) && fields[2] !== String(pid) && startTime !== undefined)
      children.push({ pid: Number(entry), startTime });
  }
  return children;
}

/**
 * Whether any process of the group is still running. Zombies do not count: an orphan whose new
 * parent never reaps it would otherwise hold the kill for the whole grace period.
 */
export function isGroupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    // No /proc (macOS): the signal check above is the best answer available.
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = readStatFields(Number(entry));
    // After the command name: state, ppid, pgrp.
    if (fields && fields[2] === String(pid) && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** Whether a single process is still running (a zombie waiting to be reaped counts as gone). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const fields = readStatFields(pid);
  // No /proc (macOS): the signal check above is the best answer available.
  if (!fields) return true;
  return fields[0] !== 'Z' && fields[0] !== 'X';
}

/** The fields of /proc/<pid>/stat after the command name (state first), if readable. */
function readStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is parenthesised and may itself contain spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function signalOne(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
