// Upgrades (WebSocket handshakes) of the server's port: each part that takes some claims their paths where it attaches
// its listener; the rest are refused at once.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';

/** The paths each part of the server takes upgrades on, said by the part where it attaches its listener. */
const claimed = new WeakMap<HttpServer, ((path: string) => boolean)[]>();

/** A part takes the upgrades of `server` whose path `takes` says (where it attaches its own 'upgrade' listener). */
export function claimUpgrades(server: HttpServer, takes: (path: string) => boolean) {
  const list = claimed.get(server) ?? [];
  list.push(takes);
  claimed.set(server, list);
}

/**
 * An upgrade to a path no part of the server claimed (claimUpgrades: the real-time endpoints and the edge's connection
 * claim theirs where they attach) is answered 404 and closed, instead of a socket left open for as long as the client
 * likes.
 */
export function refuseOtherUpgrades(server: HttpServer) {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const path = (req.url ?? '').split('?')[0];
    if (claimed.get(server)?.some((takes) => takes(path))) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
}
