import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A stopping server waits for what is in flight, but not for ever. Fastify's close stops taking connections, closes the
 * idle ones and waits for every other to end: a request whose body never finishes, an upgraded socket a part forgot,
 * a client that stopped in the middle of an upload would keep a stop (a deploy, a restore, a test's server) waiting
 * with no end. After `graceMs` the connections still open are destroyed, and the log says how many and what they were,
 * so the part that left one open can be found.
 */
export function closeDeadline(app: FastifyInstance, graceMs: number, log: (m: string) => void) {
  // each socket's last request, kept as it came: one map write a request, its text made only if the deadline passes
  const open = new Map<Socket, IncomingMessage | null>();
  const track = (socket: Socket) => {
    open.set(socket, null);
    socket.once('close', () => open.delete(socket));
  };
  const seen = (req: IncomingMessage) => {
    if (open.has(req.socket)) open.set(req.socket, req);
  };
  app.server.on('connection', track);
  app.server.on('secureConnection', track);
  app.server.on('request', seen);
  app.server.on('upgrade', seen);
  const what = (req: IncomingMessage | null) =>
    !req ? 'a connection with no request yet' : req.headers.upgrade ? `upgraded ${req.url}` : `${req.method} ${req.url}`;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('preClose', async () => {
    timer = setTimeout(() => {
      const left = [...open].filter(([s]) => !s.destroyed);
      if (!left.length) return;
      log(`server stopping: ${left.length} connection(s) still open after ${graceMs} ms, closed: ${left.map(([, req]) => what(req)).join('; ')}`);
      for (const [s] of left) s.destroy();
    }, graceMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearTimeout(timer);
  });
}
