import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';

/**
 * Listeners a command must not reach, run in the test process: a TCP listener on 127.0.0.1 (for
 * commands that share the host's network) and Unix-socket listeners at paths outside the working
 * folder. They count connections; nothing is ever sent back.
 */

/** Connections seen so far, by listener. */
export type ConnectionCounts = { readonly tcp: number; readonly unix: number };

export type Listeners = {
  /** The TCP listener's port on 127.0.0.1. */
  readonly port: number;
  /** Counts once every connection made before the call has been accepted. */
  settle(): Promise<ConnectionCounts>;
  /** Listens on the socket paths again (after the fixture was copied back in over them). */
  relisten(): Promise<void>;
  close(): Promise<void>;
};

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Starts the listeners. */
export async function startListeners(options: { readonly socketPaths: readonly string[] }): Promise<Listeners> {
  let tcp = 0;
  let unix = 0;
  const listen = (server: net.Server, target: string | number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      if (typeof target === 'number') server.listen(target, '127.0.0.1', () => resolve());
      else server.listen(target, () => resolve());
    });
  const tcpServer = net.createServer((socket) => {
    tcp += 1;
    socket.destroy();
  });
  await listen(tcpServer, 0);
  const port = (tcpServer.address() as net.AddressInfo).port;
  let unixServers: net.Server[] = [];
  const startUnix = async (): Promise<void> => {
    unixServers = options.socketPaths.map(() =>
      net.createServer((socket) => {
        unix += 1;
        socket.destroy();
      }),
    );
    for (const [index, server] of unixServers.entries()) {
      const socketPath = options.socketPaths[index] as string;
      rmSync(socketPath, { force: true });
      await listen(server, socketPath);
      // Connecting needs write permission on the socket: anyone may (the jail's user is not the test's).
      chmodSync(socketPath, 0o777);
    }
  };
  const closeUnix = async (): Promise<void> => {
    await Promise.all(unixServers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  };
  await startUnix();
  return {
    port,
    async settle() {
      // A connection the command completed is in the kernel's queue: one poll of the event loop
      // accepts it, and the turn after that has run its handler.
      await nextTurn();
      await nextTurn();
      return { tcp, unix };
    },
    async relisten() {
      await closeUnix();
      await startUnix();
    },
    async close() {
      await closeUnix();
      await new Promise<void>((resolve) => tcpServer.close(() => resolve()));
    },
  };
}
