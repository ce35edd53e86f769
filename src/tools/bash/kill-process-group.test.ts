import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessRunning, killProcessGroup } from './kill-process-group.js';

// Real processes: a leader in its own group (as the Bash tool spawns it), its children in the
// group, and one that left it with setsid (as a sandbox's init does).

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});

/** The pids of processes whose name (argv[0]) starts with `marker`. */
function withMarker(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').startsWith(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(what: string, test: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (test()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function leader(script: string): ChildProcess {
  const child = spawn('/bin/bash', ['-c', script], { detached: true, stdio: 'ignore' });
  started.push(child);
  return child;
}

describe.skipIf(process.platform !== 'linux')('killProcessGroup', () => {
  it('kills the group, a child that ignores SIGTERM, and a direct child that left the group with setsid', async () => {
    const marker = `toolplane-kill-test-${process.pid}-${Date.now()}`;
    // The setsid child is a direct child of the leader (exec'd into by a subshell of its own).
    const child = leader(
      `trap '' TERM; (exec setsid bash -c 'exec -a ${marker}-escaped sleep 60') & ` +
        `(trap '' TERM; exec -a ${marker}-member sleep 60) & wait`,
    );
    await until('both children to start', () => withMarker(marker).length === 2);
    await killProcessGroup(child.pid!, { graceMs: 200 });
    await until('every process to be gone', () => withMarker(marker).every((pid) => !isProcessRunning(pid)));
    expect(withMarker(marker).filter((pid) => isProcessRunning(pid))).toEqual([]);
  });

  it('look-alike: a process outside the group that is not the leader’s child is left alone', async () => {
    const marker = `toolplane-kill-other-${process.pid}-${Date.now()}`;
    const other = spawn('/bin/bash', ['-c', `exec -a ${marker} sleep 60`], { detached: true, stdio: 'ignore' });
    started.push(other);
    const child = leader('sleep 60');
    await until('the other process to start', () => withMarker(marker).length === 1);
    await killProcessGroup(child.pid!, { graceMs: 200 });
    expect(isProcessRunning(other.pid!)).toBe(true);
  });
});
