import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback between the app and its database, for fault tests: `cut()` drops every
 * connection and refuses new ones (as a database that went away), `restore()` accepts again on
 * the same port. It never touches the real server, which other tests share.
 */
export interface TcpProxy {
  port: number;
  /** The same URL with the proxy's host and port. */
  via(url: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const open = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((client) => {
        const upstream = createConnection(target);
        track(client);
        track(upstream);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => server.close(() => resolve()));

  let server: Server | null = await open(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const proxy: TcpProxy = {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    async cut() {
      const closing = server ? closeServer(server) : Promise.resolve();
      server = null;
      for (const socket of sockets) socket.destroy();
      await closing;
    },
    async restore() {
      if (server) return;
      // The port was ours a moment ago; the kernel may take a moment to let it go.
      for (let attempt = 0; ; attempt++) {
        try {
          server = await open(port);
          return;
        } catch (error) {
          if (attempt >= 20 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    close: () => proxy.cut(),
  };
  return proxy;
}
