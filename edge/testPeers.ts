// What the edge tests share (edge/edge.test.ts, edge/doorIo.test.ts, server/edge/readerRoutes.test.ts): waiting for a
// thing with a deadline (never a sleep in its place), and a TCP proxy that cuts the site's network.
import { createServer, type Server, type Socket, connect as netConnect } from 'node:net';

/** `fn` until it answers something, polled every 50 ms; fails naming `what` after `ms` (10 s unless said). */
export async function until<T>(what: string, fn: () => T | Promise<T>, ms = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A TCP proxy to the server that can be cut (the site's network gone), restored on the same port, or moved to another server. */
/**
 * A port nobody listens on now, from the system (bind port 0, read it, close): a random number in a range collided in
 * CI with another test's server or the throw-away PostgreSQL and RabbitMQ ports, and the server exited at start.
 */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function proxyTo(port: number) {
  let target = port;
  let silent = false; // the network drops everything (no reset, no answer): what a cut cable or a dead router does
  const held = new Set<Socket>();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let at = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((inbound) => {
        sockets.add(inbound);
        inbound.on('error', () => inbound.destroy());
        inbound.on('close', () => sockets.delete(inbound));
        if (silent) {
          held.add(inbound); // a black hole: taken, never answered
          return;
        }
        const out = netConnect(target, '127.0.0.1');
        sockets.add(out);
        out.on('error', () => out.destroy());
        // either side gone takes the other with it (a closed port answers a reset, as a real network does)
        out.on('close', () => {
          sockets.delete(out);
          inbound.destroy();
        });
        inbound.on('close', () => out.destroy());
        inbound.on('data', (b) => (silent ? null : out.write(b)));
        out.on('data', (b) => (silent ? null : inbound.write(b)));
      });
      server.listen(at, '127.0.0.1', () => {
        const a = server!.address();
        at = typeof a === 'object' && a ? a.port : 0;
        resolve();
      });
    });
  await listen();
  return {
    url: () => `http://127.0.0.1:${at}`,
    async cut() {
      await new Promise<void>((r) => {
        server!.close(() => r());
        for (const x of sockets) x.destroy();
      });
    },
    restore: listen,
    /** The network goes silent: every byte either way is dropped, connections stay open, new ones are never answered. */
    silence() {
      silent = true;
    },
    /** The network carries again; connections taken while it was silent are dropped. */
    heal() {
      silent = false;
      for (const x of held) x.destroy();
      held.clear();
    },
    /** From now on to another server (the site's address moved to it); connections open now stay where they are. */
    to(next: number) {
      target = next;
    },
    close() {
      for (const x of sockets) x.destroy();
      server?.close();
    },
  };
}
