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

/** A TCP proxy to the server that can be cut (the site's network gone) and restored on the same port. */
export async function proxyTo(port: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let at = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((inbound) => {
        const out = netConnect(port, '127.0.0.1');
        for (const x of [inbound, out]) {
          sockets.add(x);
          x.on('close', () => sockets.delete(x));
          x.on('error', () => x.destroy());
        }
        inbound.pipe(out).pipe(inbound);
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
    close() {
      for (const x of sockets) x.destroy();
      server?.close();
    },
  };
}
