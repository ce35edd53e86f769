import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seccompFilter, seccompSupported } from './seccomp-filter.js';

const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;
const hasPython = spawnSync('python3', ['--version']).status === 0;

describe('seccompFilter', () => {
  it('is one 8-byte instruction per step, and only exists for the architectures it knows', () => {
    const strict = seccompFilter({ allowUnixSockets: false, machine: 'x64' }) as Buffer;
    expect(strict.length % 8).toBe(0);
    expect(seccompFilter({ allowUnixSockets: false, machine: 'riscv64' })).toBeUndefined();
    expect(seccompSupported('arm64')).toBe(true);
    const sockets = seccompFilter({ allowUnixSockets: true, machine: 'x64' }) as Buffer;
    // Only the socket(2) comparison is missing when Unix sockets are allowed.
    const comparisons = (filter: Buffer) =>
      [...Array(filter.length / 8).keys()]
        .filter((index) => filter.readUInt16LE(index * 8) === 0x15)
        .map((index) => filter.readUInt32LE(index * 8 + 4));
    expect(comparisons(strict)).toContain(41);
    expect(comparisons(sockets)).not.toContain(41);
    expect(comparisons(strict).filter((k) => k !== 41)).toEqual(comparisons(sockets));
    for (const call of [425, 426, 427, 248, 249, 250, 101, 310, 311]) expect(comparisons(strict)).toContain(call);
  });

  describe.skipIf(!hasBwrap || !hasPython || !seccompSupported())('under bubblewrap', () => {
    const run = (allowUnixSockets: boolean, script: string) => {
      const folder = mkdtempSync(path.join(tmpdir(), 'toolplane-seccomp-'));
      try {
        const file = path.join(folder, 'filter.bpf');
        writeFileSync(file, seccompFilter({ allowUnixSockets }) as Buffer);
        const fd = openSync(file, 'r');
        return spawnSync(
          'bwrap',
          [
            '--unshare-user',
            '--unshare-pid',
            '--ro-bind',
            '/',
            '/',
            '--dev',
            '/dev',
            '--proc',
            '/proc',
            '--seccomp',
            '3',
            'python3',
            '-c',
            script,
          ],
          {
            stdio: ['ignore', 'pipe', 'pipe', fd],
            encoding: 'utf8',
          },
        );
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    };
    const probe =
      'import socket\nfor family in (socket.AF_INET, socket.AF_UNIX):\n  try:\n    socket.socket(family).close(); print(family.name, "ok")\n  except OSError as e: print(family.name, e.errno)\nprint("pair", len(socket.socketpair()))';

    it('refuses AF_UNIX sockets with EACCES and leaves TCP and socketpair alone', () => {
      expect(run(false, probe).stdout).toBe('AF_INET ok\nAF_UNIX 13\npair 2\n');
    });

    it('lets AF_UNIX through when Unix sockets are allowed', () => {
      expect(run(true, probe).stdout).toBe('AF_INET ok\nAF_UNIX ok\npair 2\n');
    });

    const calls = [
      'import ctypes, os',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.syscall.restype = ctypes.c_long',
      'def call(*args):',
      '  result = libc.syscall(*[ctypes.c_long(a) for a in args])',
      '  return 0 if result >= 0 else ctypes.get_errno()',
      'child = os.fork()',
      'if child == 0:',
      '  import time; time.sleep(5); os._exit(0)',
      'print("io_uring_setup", call(425, 1, 0))',
      'print("keyctl", call(250, 0, -3, 0))',
      'print("add_key", call(248, 0, 0, 0, 0, -3))',
      'print("ptrace pid 1", call(101, 16, 1, 0, 0))',
      'print("ptrace pid 1 high bits", call(101, 16, (1 << 32) | 1, 0, 0))',
      'print("process_vm_writev pid 1", call(311, 1, 0, 0, 0, 0, 0))',
      'print("ptrace child", call(101, 16, child, 0, 0))',
      'os.kill(child, 9)',
    ].join('\n');

    it('refuses io_uring, the keyrings, and ptrace or process_vm_writev of pid 1, and still lets a command trace its own child', () => {
      expect(run(false, calls).stdout).toBe(
        'io_uring_setup 1\nkeyctl 1\nadd_key 1\nptrace pid 1 1\nptrace pid 1 high bits 1\nprocess_vm_writev pid 1 1\nptrace child 0\n',
      );
    });
  });
});
