import type { SandboxPolicy, SandboxProfile } from '../contract/sandbox.js';

/** What a profile lets a command do, in words for the model, for results where the sandbox blocked something. */
export function describeProfile(profile: SandboxProfile, policy: SandboxPolicy): string {
  const tmp = `a private /tmp (also at ${policy.tmpDir}, which Read can open)`;
  if (profile === 'read-only') {
    return (
      `This command was judged read-only, so it ran in the read-only sandbox: nothing is writable but ${tmp}, ` +
      'there is no network, credential stores and Read-denied paths are unreadable, and Unix sockets cannot be opened.'
    );
  }
  const network = policy.network ? 'the network is on' : 'there is no network (sandbox.network.enabled is false)';
  return (
    `This command ran in the workspace sandbox: the working folders (${policy.workingFolders.join(', ')}), ${tmp} and tool caches ` +
    `are writable, the rest of the filesystem is read-only; git hooks and config, agent settings, MCP configuration and CI ` +
    `workflows are read-only; credential stores and Read-denied paths are unreadable; ${network}` +
    (policy.allowUnixSockets ? '.' : '; Unix sockets cannot be opened.')
  );
}
