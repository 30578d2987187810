import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of a real dependency (PostgreSQL, Redis), so a test can make it unreachable and bring
 * it back: `cut()` drops every connection and stops listening (new connections are refused), `restore()`
 * listens again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  /** The target URL with its host and port replaced by the proxy's. */
  urlFor(targetUrl: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const makeServer = (): Server =>
    createServer((client) => {
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : port);
      });
    });

  let server: Server | null = makeServer();
  const port = await listen(server, 0);

  const stop = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  return {
    port,
    urlFor: (targetUrl) => {
      const url = new URL(targetUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    cut: stop,
    restore: async () => {
      if (server) return;
      server = makeServer();
      await listen(server, port);
    },
    close: stop,
  };
}
