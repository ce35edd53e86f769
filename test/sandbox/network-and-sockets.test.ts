import { afterAll, expect } from 'vitest';
import type { SandboxProfile } from '../../src/contract/sandbox.js';
import { allOutput, attackSuite, sharingFixtures, type AttackCase } from './attack-suite.js';
import { startHostListeners, type HostListeners } from './fixture.js';

/**
 * Network and local sockets: a TCP listener on the host's 127.0.0.1 is unreachable from the
 * read-only profile (its own network namespace) and reachable from the workspace profile (network
 * on by default); a Unix-socket listener outside the working folders, by path or in the abstract
 * namespace, is unreachable from both (seccomp refuses AF_UNIX sockets). socketpair keeps working.
 */

// The listeners exist before the cases' commands are written: the commands name their port and paths.
const listeners: HostListeners = await startHostListeners();
afterAll(async () => {
  await listeners.close();
});

const connect = (family: 'tcp' | 'unix' | 'abstract'): string => {
  const address =
    family === 'tcp'
      ? `('127.0.0.1', ${listeners.tcpPort})`
      : family === 'unix'
        ? `'${listeners.unixPath}'`
        : `'\\0${listeners.abstractName}'`;
  const domain = family === 'tcp' ? 'AF_INET' : 'AF_UNIX';
  return [
    'python3 - <<"EOF"',
    'import socket',
    'try:',
    `    s = socket.socket(socket.${domain}, socket.SOCK_STREAM); s.settimeout(3); s.connect(${address})`,
    `    print("${family}: CONNECTED", s.recv(100).decode().strip())`,
    'except OSError as error:',
    `    print("${family}: refused", error.errno)`,
    'EOF',
  ].join('\n');
};

const nodeConnect = `node -e 'require("net").connect(process.argv[1]).on("connect", () => console.log("node unix: CONNECTED")).on("error", (e) => console.log("node unix: refused", e.code))' `;

function casesFor(profile: SandboxProfile): AttackCase[] {
  return [
    {
      name: `${profile}: a Unix-socket listener outside the working folder is unreachable (python3 and node; by path and abstract name)`,
      steps: () => [
        { profile, command: `${connect('unix')}\n${connect('abstract')}\n${nodeConnect}${listeners.unixPath}` },
      ],
      check: (result) => {
        const output = allOutput(result);
        expect(output).not.toContain('CONNECTED');
        expect(output).toContain('unix: refused 13');
        expect(output).toContain('abstract: refused 13');
        expect(listeners.accepted.unix).toBe(0);
        expect(listeners.accepted.abstract).toBe(0);
      },
    },
    {
      name: `${profile}: the same through the Bash tool`,
      steps: () => [{ profile, via: 'bash', command: `${connect('unix')}\n${connect('abstract')}` }],
      check: (result) => {
        expect(allOutput(result)).not.toContain('CONNECTED');
        expect(listeners.accepted.unix).toBe(0);
      },
    },
    {
      name: `${profile}: look-alike: socketpair (a pipe between a command's own processes) works`,
      steps: () => [
        {
          profile,
          command: 'python3 -c "import socket; a, b = socket.socketpair(); a.send(b\'ok\'); print(b.recv(2).decode())"',
        },
      ],
      check: (result) => expect(result.last.stdout).toBe('ok\n'),
    },
    profile === 'read-only'
      ? {
          name: "read-only: a TCP listener on the host's 127.0.0.1 is unreachable (no network)",
          steps: () => [
            {
              profile,
              command: `${connect('tcp')}\ncurl -s -m 3 http://127.0.0.1:${listeners.tcpPort}/ || echo curl-failed`,
            },
          ],
          check: (result) => {
            expect(allOutput(result)).not.toContain('CONNECTED');
            expect(allOutput(result)).not.toContain('HOST-LISTENER-REACHED');
          },
        }
      : {
          name: 'workspace: look-alike: the network is on, so a TCP listener on 127.0.0.1 answers',
          steps: () => [{ profile, command: connect('tcp') }],
          check: (result) => expect(result.last.stdout).toContain('tcp: CONNECTED HOST-LISTENER-REACHED'),
        },
  ];
}

attackSuite('sandbox network and sockets', sharingFixtures([...casesFor('read-only'), ...casesFor('workspace')]));
