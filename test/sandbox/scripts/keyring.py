"""Stand-in for an agent whose session keyring holds a secret: joins a new session keyring, adds a
key to it, then runs the rest of its arguments (which inherit the keyring, as a sandbox would)."""
import ctypes, os, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL_JOIN_SESSION_KEYRING, KEY_SPEC_SESSION_KEYRING = 1, -3
if libc.syscall(250, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
    sys.exit("keyring: cannot join a session keyring: " + os.strerror(ctypes.get_errno()))
secret = os.environ.pop("KEYRING_SECRET").encode()
if libc.syscall(248, b"user", b"toolplane-agent-secret", secret, len(secret), ctypes.c_long(KEY_SPEC_SESSION_KEYRING)) < 0:
    sys.exit("keyring: cannot add a key: " + os.strerror(ctypes.get_errno()))
os.execvp(sys.argv[1], sys.argv[1:])
