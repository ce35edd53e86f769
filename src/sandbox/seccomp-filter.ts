import { arch } from 'node:process';

/**
 * A classic-BPF seccomp program for bubblewrap's `--seccomp FD`, written out by hand because it is
 * small and a compiler for it (libseccomp) is not a Node package. It refuses:
 * - `socket(AF_UNIX, …)` (EACCES), unless Unix sockets are allowed: a pathname socket on a
 *   read-only mount still accepts connections, so masks alone cannot keep a command away from the
 *   agent's, Docker's or ssh-agent's sockets;
 * - io_uring (EPERM), whose operations open sockets and files without passing these checks;
 * - every system call of a foreign ABI (x32, 32-bit compat), which numbers calls differently.
 */

type Instruction = readonly [code: number, jumpTrue: number, jumpFalse: number, k: number];

const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const EPERM = 1;
const EACCES = 13;
const AF_UNIX = 1;
const X32_BIT = 0x40000000;
const NEVER = 0xffffffff;

/** Per architecture: the audit arch value, socket(2)'s number, and io_uring's three calls. */
const ARCHITECTURES: Readonly<Record<string, { readonly audit: number; readonly socket: number }>> = {
  x64: { audit: 0xc000003e, socket: 41 },
  arm64: { audit: 0xc00000b7, socket: 198 },
};
const IO_URING = [425, 426, 427] as const;

/** Whether this machine's architecture has a filter (elsewhere Unix sockets are not blocked). */
export function seccompSupported(machine: string = arch): boolean {
  return ARCHITECTURES[machine] !== undefined;
}

/**
 * The filter as bytes (8 per instruction, little-endian), or undefined on an architecture without
 * one. `allowUnixSockets` keeps io_uring and foreign ABIs refused but lets AF_UNIX through.
 */
export function seccompFilter(options: { readonly allowUnixSockets: boolean; readonly machine?: string }): Buffer | undefined {
  const target = ARCHITECTURES[options.machine ?? arch];
  if (target === undefined) return undefined;
  // Labels: 10 allow, 11 EACCES, 12 EPERM, 13 foreign ABI. A jump's offset counts from the next instruction.
  const program: Instruction[] = [
    [LOAD_WORD, 0, 0, 4], // 0: seccomp_data.arch
    [JUMP_EQUAL, 0, 11, target.audit], // 1: foreign ABI → 13
    [LOAD_WORD, 0, 0, 0], // 2: seccomp_data.nr
    [JUMP_AT_LEAST, 9, 0, X32_BIT], // 3: x32 → 13
    [JUMP_EQUAL, 7, 0, IO_URING[0]], // 4: → 12
    [JUMP_EQUAL, 6, 0, IO_URING[1]], // 5: → 12
    [JUMP_EQUAL, 5, 0, IO_URING[2]], // 6: → 12
    [JUMP_EQUAL, 0, 2, options.allowUnixSockets ? NEVER : target.socket], // 7: not socket → 10
    [LOAD_WORD, 0, 0, 16], // 8: args[0], low word (the domain is an int)
    [JUMP_EQUAL, 1, 0, AF_UNIX], // 9: AF_UNIX → 11
    [RETURN, 0, 0, ALLOW], // 10
    [RETURN, 0, 0, ERRNO | EACCES], // 11
    [RETURN, 0, 0, ERRNO | EPERM], // 12
    [RETURN, 0, 0, ERRNO | EPERM], // 13
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jumpTrue, jumpFalse, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jumpTrue, index * 8 + 2);
    bytes.writeUInt8(jumpFalse, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}
