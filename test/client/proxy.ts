/**
 * A TCP proxy in front of a real server, so client tests can break connections the way networks
 * and restarts do: drop() resets every open connection (a watch mid-stream included); refuse()
 * stops listening (new connections get ECONNREFUSED) until accept() listens on the same port again;
 * resetNext(n) resets the next n connections as soon as their request arrives, before any answer.
 */
import net from 'node:net';

export interface Proxy {
  url: string;
  /** Connections accepted so far. */
  accepted(): number;
  drop(): void;
  resetNext(n: number): void;
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let toReset = 0;
  const server = net.createServer((client) => {
    accepted++;
    if (toReset > 0) {
      toReset--;
      client.once('data', () => client.resetAndDestroy());
      return;
    }
    const upstream = net.connect(Number(targetPort), hostname);
    sockets.add(client);
    sockets.add(upstream);
    const cleanup = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', cleanup).on('close', cleanup);
    upstream.on('error', cleanup).on('close', cleanup);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const drop = () => {
    for (const s of sockets) s.resetAndDestroy();
    sockets.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    drop,
    resetNext: (n) => (toReset = n),
    refuse: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        drop();
      }),
    accept: () => listen(port),
    close: () =>
      new Promise<void>((resolve) => {
        drop();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}
