import path from 'node:path';
import { expect } from 'vitest';
import type { SandboxProfile } from '../../src/contract/sandbox.js';
import { attackSuite, sharingFixtures, type AttackCase } from './attack-suite.js';
import { survivorsOf, uniqueMarker } from './fixture.js';
import type { SandboxStep } from './sandbox-runner.js';

/**
 * Process lifetime: no process of a sandboxed command outlives it — not one that ignores SIGTERM,
 * calls setsid, double-forks a daemon, runs as a background task until the session ends, is cut
 * off by a timeout or an abort, or subverts the sandbox's own init. Checked on the host, in /proc,
 * by a marker on each process's command line.
 */

const markers = new Map<string, string>();
/** A marker for this case in this fixture (the same one in steps and check). */
const markerFor = (root: string, label: string): string => {
  const key = `${root}:${label}`;
  let marker = markers.get(key);
  if (marker === undefined) {
    marker = uniqueMarker(label);
    markers.set(key, marker);
  }
  return marker;
};

/** A process carrying `marker` on its command line, for up to a minute. */
const lingerer = (marker: string): string => `bash -c 'exec -a ${marker} sleep 60'`;

function processCase(
  name: string,
  profile: SandboxProfile,
  step: (marker: string, scripts: string) => Omit<SandboxStep, 'profile'>,
  expectText?: RegExp,
): AttackCase {
  const label = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 24);
  return {
    name: `${profile}: ${name}`,
    steps: (fixture) => [
      { profile, via: 'bash', ...step(markerFor(fixture.root, `${label}-${profile}`), fixture.scripts) },
    ],
    check: async (result) => {
      const marker = markerFor(result.fixture.root, `${label}-${profile}`);
      expect(await survivorsOf(marker)).toEqual([]);
      if (expectText) expect(result.last.text ?? '').toMatch(expectText);
    },
  };
}

const cases: AttackCase[] = (['read-only', 'workspace'] as const).flatMap((profile) => [
  processCase(
    'a command that ignores SIGTERM is killed at its timeout',
    profile,
    (marker) => ({
      command: `trap '' TERM; (trap '' TERM; exec -a ${marker} sleep 60) & exec -a ${marker}-shell bash -c "trap '' TERM; sleep 60"`,
      timeoutMs: 1_000,
    }),
    /timed out|timeout/i,
  ),
  processCase('a process started with setsid does not survive its command', profile, (marker) => ({
    command: `setsid ${lingerer(marker)} & sleep 0.2; echo started`,
  })),
  processCase('a daemon (nohup … &, setsid -f, a double fork) does not survive its command', profile, (marker) => ({
    command: `nohup ${lingerer(marker)} >/dev/null 2>&1 & setsid -f ${lingerer(marker)}; ( ( ${lingerer(marker)} ) & ); disown -a; sleep 0.2; echo started`,
  })),
  processCase(
    'an abort (the AbortSignal) kills a command that ignores SIGTERM and its setsid child',
    profile,
    (marker) => ({
      command: `trap '' TERM; setsid ${lingerer(marker)} & exec -a ${marker} bash -c "trap '' TERM; sleep 60"`,
      abortAfterMs: 500,
    }),
  ),
  processCase(
    'a background task, its SIGTERM-proof and setsid children, end with the session (registry.dispose)',
    profile,
    (marker) => ({
      command: `trap '' TERM; setsid ${lingerer(marker)} & nohup ${lingerer(marker)} >/dev/null 2>&1 & exec -a ${marker} bash -c "trap '' TERM; sleep 60"`,
      background: true,
      disposeAfterMs: 600,
    }),
  ),
  processCase(
    "a command that ptraces the sandbox's init to clear its parent-death signal still dies at its timeout",
    profile,
    (marker, scripts) => ({
      command: `python3 ${path.join(scripts, 'clear-init-death-signal.py')}; exec -a ${marker} sleep 60`,
      timeoutMs: 1_500,
    }),
  ),
  processCase(
    "a background task that ptraces the sandbox's init still ends with the session",
    profile,
    (marker, scripts) => ({
      command: `python3 ${path.join(scripts, 'clear-init-death-signal.py')}; setsid ${lingerer(marker)} & exec -a ${marker} sleep 60`,
      background: true,
      disposeAfterMs: 800,
    }),
  ),
  {
    name: `${profile}: look-alike: a command's own background children run and are waited for`,
    steps: () => [{ profile, via: 'bash', command: '(sleep 0.2; echo child-done) & wait; echo parent-done' }],
    check: (result) => {
      expect(result.last.code).toBe(0);
      expect(result.last.stdout).toBe('child-done\nparent-done\n');
    },
  },
]);

attackSuite('sandbox process lifetime', sharingFixtures(cases));
