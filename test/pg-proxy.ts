import net from 'node:net';

/**
 * A TCP relay to PostgreSQL that a test (or `npm run harden`) can cut: what the database stopping looks like to
 * athar — open connections drop, new ones are refused — without stopping the server other tests share.
 */
export interface PgRelay {
  port: number;
  /** The given URL, through the relay. */
  url(base: string): string;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
}

export async function pgRelay(target = { host: '127.0.0.1', port: 5432 }): Promise<PgRelay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url(base) {
      const u = new URL(base);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      sockets.clear();
      await closed;
    },
  };
}
