import { arch } from 'node:process';

/**
 * A classic-BPF seccomp program for bubblewrap's `--seccomp FD`, written out by hand because it is
 * small and a compiler for it (libseccomp) is not a Node package. It refuses:
 * - `socket(AF_UNIX, …)` (EACCES), unless Unix sockets are allowed: a pathname socket on a
 *   read-only mount still accepts connections, so masks alone cannot keep a command away from the
 *   agent's, Docker's or ssh-agent's sockets;
 * - io_uring (EPERM), whose operations open sockets and files without passing these checks;
 * - the kernel keyrings (`add_key`, `request_key`, `keyctl`: EPERM), which no namespace separates: a
 *   command would otherwise read the keys of the session keyring it inherits from the agent;
 * - `ptrace`, `process_vm_readv` and `process_vm_writev` aimed at pid 1, bubblewrap's init inside
 *   the sandbox (EPERM): code injected there could clear its parent-death signal, and the whole
 *   sandbox would then outlive the kill of its parent (other processes may still be traced);
 * - every system call of a foreign ABI (x32, 32-bit compat), which numbers calls differently.
 */

type Label = 'allow' | 'eacces' | 'eperm' | 'socket' | 'ptrace' | 'processVm';
type Step =
  | { readonly load: number }
  | { readonly equal: number; readonly then: Label }
  | { readonly atLeast: number; readonly then: Label }
  | { readonly archIs: number; readonly otherwise: Label }
  | { readonly label: Label }
  | { readonly ret: number };

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
/** Offsets in `struct seccomp_data`: nr, arch, then six 64-bit arguments (the low word first, little-endian). */
const NR = 0;
const ARCH = 4;
const argumentLow = (index: number): number => 16 + 8 * index;

/** Per architecture: the audit arch value and the numbers of the calls the filter looks at. */
type Numbers = {
  readonly audit: number;
  readonly socket: number;
  readonly keyrings: readonly number[];
  readonly ptrace: number;
  readonly processVm: readonly number[];
};
const ARCHITECTURES: Readonly<Record<string, Numbers>> = {
  x64: { audit: 0xc000003e, socket: 41, keyrings: [248, 249, 250], ptrace: 101, processVm: [310, 311] },
  arm64: { audit: 0xc00000b7, socket: 198, keyrings: [217, 218, 219], ptrace: 117, processVm: [270, 271] },
};
/** io_uring_setup, io_uring_enter, io_uring_register: the same numbers on every architecture. */
const IO_URING = [425, 426, 427] as const;

/** Whether this machine's architecture has a filter (elsewhere Unix sockets are not blocked). */
export function seccompSupported(machine: string = arch): boolean {
  return ARCHITECTURES[machine] !== undefined;
}

/**
 * The filter as bytes (8 per instruction, little-endian), or undefined on an architecture without
 * one. `allowUnixSockets` keeps everything else refused but lets AF_UNIX through.
 */
export function seccompFilter(options: {
  readonly allowUnixSockets: boolean;
  readonly machine?: string;
}): Buffer | undefined {
  const target = ARCHITECTURES[options.machine ?? arch];
  if (target === undefined) return undefined;
  const steps: Step[] = [
    { load: ARCH },
    { archIs: target.audit, otherwise: 'eperm' },
    { load: NR },
    { atLeast: X32_BIT, then: 'eperm' },
    ...[...IO_URING, ...target.keyrings].map((call): Step => ({ equal: call, then: 'eperm' })),
    { equal: target.ptrace, then: 'ptrace' },
    ...target.processVm.map((call): Step => ({ equal: call, then: 'processVm' })),
    ...(options.allowUnixSockets ? [] : [{ equal: target.socket, then: 'socket' } as Step]),
    { ret: ALLOW },
    { label: 'socket' },
    { load: argumentLow(0) }, // the domain is an int
    { equal: AF_UNIX, then: 'eacces' },
    { ret: ALLOW },
    { label: 'ptrace' },
    { load: argumentLow(1) }, // the pid, compared as the kernel truncates it (pid_t)
    { equal: 1, then: 'eperm' },
    { ret: ALLOW },
    { label: 'processVm' },
    { load: argumentLow(0) },
    { equal: 1, then: 'eperm' },
    { ret: ALLOW },
    { label: 'eacces' },
    { ret: ERRNO | EACCES },
    { label: 'eperm' },
    { ret: ERRNO | EPERM },
  ];
  return assemble(steps);
}

/** Lays the steps out as instructions, resolving each jump to its label (offsets count from the next instruction). */
function assemble(steps: readonly Step[]): Buffer {
  const positions = new Map<Label, number>();
  const instructions = steps.filter((step) => !('label' in step));
  let index = 0;
  for (const step of steps) {
    if ('label' in step) positions.set(step.label, index);
    else index += 1;
  }
  const bytes = Buffer.alloc(instructions.length * 8);
  const offsetTo = (label: Label, from: number): number => {
    const offset = (positions.get(label) as number) - from - 1;
    if (offset < 0 || offset > 255) throw new Error(`seccomp filter: jump to ${label} out of range`);
    return offset;
  };
  instructions.forEach((step, at) => {
    let code: number;
    let jumpTrue = 0;
    let jumpFalse = 0;
    let k: number;
    if ('load' in step) [code, k] = [LOAD_WORD, step.load];
    else if ('ret' in step) [code, k] = [RETURN, step.ret];
    else if ('archIs' in step) [code, k, jumpFalse] = [JUMP_EQUAL, step.archIs, offsetTo(step.otherwise, at)];
    else if ('atLeast' in step) [code, k, jumpTrue] = [JUMP_AT_LEAST, step.atLeast, offsetTo(step.then, at)];
    else if ('equal' in step) [code, k, jumpTrue] = [JUMP_EQUAL, step.equal, offsetTo(step.then, at)];
    else throw new Error('seccomp filter: unknown step');
    bytes.writeUInt16LE(code, at * 8);
    bytes.writeUInt8(jumpTrue, at * 8 + 2);
    bytes.writeUInt8(jumpFalse, at * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, at * 8 + 4);
  });
  return bytes;
}
