import { spawnSync } from 'node:child_process';

/**
 * Whether bubblewrap can make the namespaces the harness needs here; when not, why (the suites
 * skip with that message, as the tmux tests do without tmux).
 */
export function probeBubblewrap():
  { readonly available: true } | { readonly available: false; readonly reason: string } {
  const probe = spawnSync(
    'bwrap',
    [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-net',
      '--die-with-parent',
      '--ro-bind',
      '/',
      '/',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      'true',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.error)
    return {
      available: false,
      reason: `bubblewrap (bwrap) is not installed (${probe.error.message}); Debian: apt-get install bubblewrap`,
    };
  if (probe.status !== 0)
    return {
      available: false,
      reason: `bubblewrap cannot create namespaces here: ${probe.stderr.trim() || `exit ${probe.status}`}`,
    };
  return { available: true };
}
