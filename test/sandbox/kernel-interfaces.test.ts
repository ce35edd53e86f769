import path from 'node:path';
import { expect } from 'vitest';
import type { SandboxProfile } from '../../src/contract/sandbox.js';
import { allOutput, attackSuite, sharingFixtures, type AttackCase } from './attack-suite.js';

/**
 * Kernel interfaces no namespace separates, and ways around the seccomp filter: io_uring, system
 * calls of the 32-bit and x32 ABIs, the kernel keyrings (the runner here runs under a session
 * keyring holding a secret, as an agent's process might), and the sandbox's own init (ptrace, its
 * memory). Look-alikes: the native ABI, and tracing one's own child.
 */

const KEYRING_SECRET = 'KEYRING-SECRET-68b1d2';

const python = (lines: readonly string[]): string => ['python3 - <<"EOF"', ...lines, 'EOF'].join('\n');

function casesFor(profile: SandboxProfile): AttackCase[] {
  return [
    {
      name: `${profile}: io_uring is refused (EPERM)`,
      steps: () => [
        {
          profile,
          command: python([
            'import ctypes',
            'libc = ctypes.CDLL(None, use_errno=True); libc.syscall.restype = ctypes.c_long',
            'params = ctypes.create_string_buffer(120)',
            'print("io_uring_setup", libc.syscall(425, 8, params), ctypes.get_errno())',
          ]),
        },
      ],
      check: (result) => expect(result.last.stdout).toBe('io_uring_setup -1 1\n'),
    },
    {
      name: `${profile}: system calls through the i386 (int 0x80) and x32 ABIs are refused; the native one works`,
      steps: (fixture) => [{ profile, command: `python3 ${path.join(fixture.scripts, 'foreign-abi.py')}` }],
      check: (result) => {
        const output = result.last.stdout;
        if (output.startsWith('skipped')) return;
        const found = /pid=(\d+) native=(-?\d+) x32=(-?\d+) i386=(-?\d+|absent|through)/.exec(output);
        expect(found, output + result.last.stderr).not.toBeNull();
        const [, pid, native, x32, i386] = found as unknown as [string, string, string, string, string];
        expect(native).toBe(pid);
        expect(x32).toBe('-1');
        // Refused by the filter, or a kernel without 32-bit emulation, where int 0x80 faults.
        expect(['-1', 'absent']).toContain(i386);
      },
    },
    {
      name: `${profile}: the agent's session keyring cannot be read (keyctl, request_key, /proc/keys)`,
      steps: (fixture) => [{ profile, command: `python3 ${path.join(fixture.scripts, 'read-keyring.py')}` }],
      check: (result) => {
        expect(allOutput(result)).not.toContain(KEYRING_SECRET);
        expect(result.last.stdout).toContain('request_key: refused: Operation not permitted');
      },
    },
    {
      name: `${profile}: the sandbox's init (pid 1) cannot be traced, nor its memory opened for writing`,
      steps: (fixture) => [
        {
          profile,
          command: [
            `python3 ${path.join(fixture.scripts, 'clear-init-death-signal.py')}`,
            python([
              'for file in ("/proc/1/mem", "/proc/1/task/1/mem"):',
              '    try:',
              '        open(file, "r+b").close(); print(file, "OPENED")',
              '    except OSError as error:',
              '        print(file, "refused", error.errno)',
            ]),
          ].join('\n'),
        },
      ],
      check: (result) => {
        expect(result.last.stdout).not.toContain('INIT-DEATH-SIGNAL-CLEARED');
        expect(result.last.stdout).not.toContain('OPENED');
        expect(result.last.stdout, result.last.stderr).toMatch(
          /attach to pid 1 refused: Operation not permitted|skipped/,
        );
      },
    },
    {
      name: `${profile}: look-alike: a command can still trace its own child (strace, gdb)`,
      steps: () => [
        {
          profile,
          command: python([
            'import ctypes, os, time',
            'libc = ctypes.CDLL(None, use_errno=True); libc.ptrace.restype = ctypes.c_long',
            'libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]',
            'child = os.fork()',
            'if child == 0:',
            '    time.sleep(5); os._exit(0)',
            'print("attach child", libc.ptrace(16, child, None, None))',
            'os.waitpid(child, 0); libc.ptrace(17, child, None, None); os.kill(child, 9)',
          ]),
        },
      ],
      check: (result) => expect(result.last.stdout).toBe('attach child 0\n'),
    },
  ];
}

attackSuite('sandbox kernel interfaces', sharingFixtures([...casesFor('read-only'), ...casesFor('workspace')]), {
  prefix: (suiteRoot) => [
    'env',
    `KEYRING_SECRET=${KEYRING_SECRET}`,
    'python3',
    path.join(suiteRoot, 'scripts', 'keyring.py'),
  ],
});
