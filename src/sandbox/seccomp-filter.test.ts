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
    const strict = seccompFilter({ allowUnixSockets: false, machine: 'x64' });
    expect(strict?.length).toBe(14 * 8);
    expect(seccompFilter({ allowUnixSockets: false, machine: 'riscv64' })).toBeUndefined();
    expect(seccompSupported('arm64')).toBe(true);
    const sockets = seccompFilter({ allowUnixSockets: true, machine: 'x64' });
    // Only the socket(2) comparison differs.
    const differing = [...Array(14).keys()].filter((index) => !strict?.subarray(index * 8, index * 8 + 8).equals(sockets?.subarray(index * 8, index * 8 + 8) ?? Buffer.alloc(0)));
    expect(differing).toEqual([7]);
  });

  describe.skipIf(!hasBwrap || !hasPython || !seccompSupported())('under bubblewrap', () => {
    const run = (allowUnixSockets: boolean, script: string) => {
      const folder = mkdtempSync(path.join(tmpdir(), 'toolplane-seccomp-'));
      try {
        const file = path.join(folder, 'filter.bpf');
        writeFileSync(file, seccompFilter({ allowUnixSockets }) as Buffer);
        const fd = openSync(file, 'r');
        return spawnSync('bwrap', ['--unshare-user', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--seccomp', '3', 'python3', '-c', script], {
          stdio: ['ignore', 'pipe', 'pipe', fd],
          encoding: 'utf8',
        });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    };
    const probe = 'import socket\nfor family in (socket.AF_INET, socket.AF_UNIX):\n  try:\n    socket.socket(family).close(); print(family.name, "ok")\n  except OSError as e: print(family.name, e.errno)\nprint("pair", len(socket.socketpair()))';

    it('refuses AF_UNIX sockets with EACCES and leaves TCP and socketpair alone', () => {
      expect(run(false, probe).stdout).toBe('AF_INET ok\nAF_UNIX 13\npair 2\n');
    });

    it('lets AF_UNIX through when Unix sockets are allowed', () => {
      expect(run(true, probe).stdout).toBe('AF_INET ok\nAF_UNIX ok\npair 2\n');
    });
  });
});
