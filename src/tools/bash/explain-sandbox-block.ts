import type { SandboxProfile } from '../../contract/sandbox.js';

/** Signs in a failed command's output that the sandbox, not the command, said no. */
const SIGNS: readonly { readonly pattern: RegExp; readonly blocked: string; readonly needsNetworkOff?: boolean }[] = [
  { pattern: /read-only file system|EROFS/i, blocked: 'a write outside the writable places (read-only file system)' },
  {
    pattern:
      /network is unreachable|ENETUNREACH|could not resolve|name resolution|EAI_AGAIN|getaddrinfo|unable to access 'https?:|connection refused|ECONNREFUSED/i,
    blocked: 'the network',
    needsNetworkOff: true,
  },
  {
    pattern: /permission denied|EACCES|EPERM|operation not permitted/i,
    blocked: 'a masked path, a Unix socket or a privileged operation (permission denied)',
  },
];

/**
 * What to tell the model when a sandboxed command failed in a way the sandbox causes, so it does
 * not loop: what was blocked, what the profile allows, and what to do instead. Undefined when the
 * failure does not look like the sandbox's.
 */
export function explainSandboxBlock(options: {
  readonly profile: SandboxProfile;
  readonly network: boolean;
  readonly summary: string;
  readonly output: string;
  readonly failed: boolean;
}): string | undefined {
  if (!options.failed) return undefined;
  const blocked = SIGNS.filter(
    (sign) => !(sign.needsNetworkOff && options.network) && sign.pattern.test(options.output),
  ).map((sign) => sign.blocked);
  if (blocked.length === 0) return undefined;
  const advice =
    options.profile === 'read-only'
      ? 'If the command has to write or use the network, say so and run it again: a command that is not read-only goes through approval and then runs in the workspace sandbox. '
      : '';
  return (
    `The sandbox may have blocked ${blocked.join(' and ')}. ${options.summary} ` +
    advice +
    'To change files use Write or Edit; for a server or watcher use run_in_background instead of `&`; ' +
    'if the command truly needs access the sandbox denies, run it again with dangerouslyDisableSandbox: true, which asks the user to approve running that one command outside the sandbox.'
  );
}
