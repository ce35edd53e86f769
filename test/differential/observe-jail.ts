import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Fixture } from './fixture.js';
import { COMMAND_TIME_LIMIT_MS, runProcess, type ProcessResult } from './run-process.js';

/**
 * The observe mode's disposable root: bubblewrap without toolplane's sandbox profiles, so that
 * what a command does is seen, not prevented, and never happens on the real machine. The
 * fixture's home, working folder, outside folder and /tmp are writable; the rest of `/` is
 * read-only, with the machine's own homes and worktrees hidden. It has its own user, PID, IPC
 * and network namespaces (no capabilities), and a TCP listener on 127.0.0.1 inside its network
 * namespace. The command runs as a child of a shell holding the agent's environment, as Bash
 * commands run as children of the agent.
 */

/** What one run in the jail showed. */
export type JailResult = ProcessResult & {
  /** Connections the in-namespace TCP listener accepted. */
  readonly tcpConnections: number;
};

const PYTHON = '/usr/bin/python3';

// The SIGTERM handler only asks the loop to stop: counting in the handler lost a connection that
// accept() had returned but the loop had not counted yet when the signal came (seen under load).
const LISTEN_PY = `import os, signal, socket, sys
server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen(64)
server.settimeout(0.05)
count = 0
stopping = False
def stop(*_):
    global stopping
    stopping = True
signal.signal(signal.SIGTERM, stop)
sys.stdout.write("ready\\n")
sys.stdout.flush()
while not stopping:
    try:
        connection, _ = server.accept()
    except (socket.timeout, InterruptedError):
        continue
    count += 1
    connection.close()
server.setblocking(False)
while True:
    try:
        server.accept()[0].close()
        count += 1
    except OSError:
        break
os.write(3, ("tcp %d\\n" % count).encode())
os._exit(0)
`;

const LISTEN_JS = `const net = require('node:net');
const fs = require('node:fs');
let count = 0;
const server = net.createServer((socket) => { count += 1; socket.destroy(); });
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\\n'));
process.on('SIGTERM', () => setImmediate(() => setImmediate(() => { fs.writeSync(3, 'tcp ' + count + '\\n'); process.exit(0); })));
`;

// $1 listener interpreter, $2 listener script, $3 port, $4 the command, then the command's environment.
const INIT = `exec 4< <(exec "$1" "$2" "$3")
listener=$!
read -r _ <&4
command=$4
shift 4
env -i "$@" /bin/bash -c "$command" 3>&- 4<&-
status=$?
# What the command left running in the background gets a moment to finish.
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  procs=(/proc/[0-9]*)
  [ "\${#procs[@]}" -le 3 ] && break
  sleep 0.05
done
kill -TERM "$listener"
while read -r _ <&4; do :; done
echo "exit $status" >&3
`;

/** The machine's own folders a command in the jail must not see even read-only. */
const HIDDEN = ['/root', '/home', '/work', '/run', '/var/run', '/srv', '/mnt', '/media'];

export type ObserveJail = {
  run(command: string, options: { readonly port: number; readonly timeoutMs?: number }): Promise<JailResult>;
};

/** How to start bubblewrap for the jail: as the fixture's owner when it has one, else as the test's own user. */
export function jailLauncher(fixture: Fixture): { readonly file: string; readonly prefix: readonly string[] } {
  const owner = fixture.owner;
  if (owner === undefined) return { file: 'bwrap', prefix: [] };
  return {
    file: 'setpriv',
    prefix: ['--reuid', String(owner.uid), '--regid', String(owner.gid), '--clear-groups', '--', 'bwrap'],
  };
}

/**
 * bubblewrap's arguments for the jail, up to the program: the fixture's folders writable, the rest
 * of `/` read-only, the machine's own homes and worktrees and the fixture's template hidden.
 */
export function jailArguments(fixture: Fixture): string[] {
  const hidden = [
    ...HIDDEN.filter((folder) => existsSync(folder) && lstatSync(folder).isDirectory()),
    fixture.template,
  ].flatMap((folder) => ['--tmpfs', folder]);
  const binds = [fixture.home, fixture.work, fixture.outside].flatMap((folder) => ['--bind', folder, folder]);
  return [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...hidden,
    '--bind',
    fixture.tmp,
    '/tmp',
    ...binds,
    '--chdir',
    fixture.work,
  ];
}

/** Sets up the jail for a fixture (writes its helper scripts into the fixture's harness folder). */
export function createObserveJail(fixture: Fixture): ObserveJail {
  const python = existsSync(PYTHON);
  const script = path.join(fixture.harness, python ? 'listen-tcp.py' : 'listen-tcp.cjs');
  writeFileSync(script, python ? LISTEN_PY : LISTEN_JS);
  const init = path.join(fixture.harness, 'init.sh');
  writeFileSync(init, INIT);
  const baseArgs = jailArguments(fixture);
  return {
    async run(command, options) {
      const environment = Object.entries(fixture.commandEnv).map(([name, value]) => `${name}=${value}`);
      const launcher = jailLauncher(fixture);
      const result = await runProcess({
        file: launcher.file,
        args: [
          ...launcher.prefix,
          ...baseArgs,
          '--',
          '/bin/bash',
          init,
          python ? PYTHON : process.execPath,
          script,
          String(options.port),
          command,
          ...environment,
        ],
        env: fixture.agentEnv,
        cwd: fixture.work,
        timeoutMs: options.timeoutMs ?? COMMAND_TIME_LIMIT_MS,
        report: true,
      });
      const tcp = /^tcp (\d+)$/m.exec(result.report);
      const exit = /^exit (\d+)$/m.exec(result.report);
      if (!result.timedOut && (tcp === null || exit === null)) {
        throw new Error(
          `the observe jail did not finish its report (${result.report.trim() || 'nothing'}); stderr: ${result.stderr.slice(0, 500)}`,
        );
      }
      return {
        ...result,
        exitCode: exit ? Number(exit[1]) : result.exitCode,
        tcpConnections: tcp ? Number(tcp[1]) : 0,
      };
    },
  };
}
