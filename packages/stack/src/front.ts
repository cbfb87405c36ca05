import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './ports.js';

/**
 * A TCP front for the HTTP port of a service's local replicas, doing what a Kubernetes Service does for
 * them: each new connection goes to the next replica in turn, and to the one after when a replica refuses
 * (it is down). Only the stack's internal HTTP hops use it; merchants' clients spread over the gateway's
 * ports themselves.
 */
export interface TcpFront {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (on `port`, or a free one) and forwards each connection to one of `backends`. */
export async function startTcpFront(backends: number[], port?: number): Promise<TcpFront> {
  let next = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const open = (tried: number): Promise<Socket | undefined> =>
    new Promise((resolve) => {
      if (tried >= backends.length) return resolve(undefined);
      const backend = backends[next++ % backends.length]!;
      const upstream = connect({ host: '127.0.0.1', port: backend });
      upstream.once('connect', () => {
        upstream.removeAllListeners('error');
        resolve(upstream);
      });
      upstream.once('error', () => resolve(open(tried + 1)));
    });

  const server: Server = createServer((client) => {
    track(client);
    client.pause();
    client.on('error', () => client.destroy());
    void open(0).then((upstream) => {
      if (!upstream) {
        client.destroy();
        return;
      }
      track(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    });
  });
  const listenPort = port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', resolve);
  });
  return {
    port: listenPort,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
