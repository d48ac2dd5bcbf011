// A desktop companion simulator (§7): binds the first free candidate port, answers GET /api/check-port for
// browser pages of any origin, and speaks the contract's message protocol on the WebSocket /api/messages:
// a generated PNG for photo.capture, an acknowledgement for badge.print, and a record of alarm notifications.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  COMPANION_MAX_MESSAGE_CHARS,
  COMPANION_PORTS,
  parseCompanionCommand,
  type AlarmNotifyCommand,
  type BadgePrintCommand,
  type CompanionReply,
} from '../../contract';

export const COMPANION_SIM_VERSION = '1.0.0-sim';

// ---------- a small valid PNG, made in code ----------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** An RGB PNG of `size`×`size`: a head-and-shoulders silhouette on a tinted background (seeded by `seed`). */
export function generatePhotoPng(size = 64, seed = 0): Buffer {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  const tint = [90 + ((seed * 37) % 120), 120 + ((seed * 53) % 100), 160 + ((seed * 29) % 90)];
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const dx = x - size / 2;
      const head = dx * dx + (y - size * 0.38) ** 2 < (size * 0.18) ** 2;
      const body = y > size * 0.62 && dx * dx + (y - size * 1.05) ** 2 < (size * 0.42) ** 2;
      const px = head || body ? [235, 225, 215] : tint;
      raw.set(px, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------- binding ----------
/** Listen on the first port of `ports` that is free; EADDRINUSE moves on, anything else fails. */
export async function listenOnFirstFree(server: Server, ports: readonly number[], host: string): Promise<number> {
  for (const port of ports) {
    const ok = await new Promise<boolean>((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException) => {
        server.off('listening', onListening);
        if (e.code === 'EADDRINUSE' || e.code === 'EACCES') resolve(false);
        else reject(e);
      };
      const onListening = () => {
        server.off('error', onError);
        resolve(true);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, host);
    });
    if (ok) return (server.address() as AddressInfo).port; // the real one when 0 asked for any
  }
  throw new Error(`No free port among ${ports.join(', ')}`);
}

export interface CompanionSimulatorOptions {
  /** A fixed port; by default the first free one of the contract's candidates. */
  port?: number;
  host?: string;
  /** Capabilities announced in hello (drop one to see the console hide its button). */
  capabilities?: string[];
  log?: (line: string) => void;
}

export interface CompanionSimulator {
  port: number;
  url: string;
  /** Badge prints and alarm notifications received, newest last. */
  printed: BadgePrintCommand[];
  notifications: AlarmNotifyCommand[];
  /** Console messages that failed validation (their error text). */
  rejected: string[];
  /** Connected console sockets. */
  clientCount(): number;
  /** Close every console socket (the console should back off and come back). */
  dropClients(): void;
  /** Send anything to every console (tests of hostile input). */
  broadcastRaw(data: string): void;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'content-type',
  // Chrome's private network access preflight, for a page served from a public origin
  'access-control-allow-private-network': 'true',
  'access-control-max-age': '600',
};

/** What both simulators offer tests about their WebSocket clients, and a close that drops them all. */
export function socketServerControls(server: Server, wss: WebSocketServer) {
  return {
    clientCount: () => wss.clients.size,
    dropClients: () => {
      for (const c of wss.clients) c.terminate();
    },
    broadcastRaw: (data: string) => {
      for (const c of wss.clients) c.send(data);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function startCompanionSimulator(options: CompanionSimulatorOptions = {}): Promise<CompanionSimulator> {
  const host = options.host ?? '127.0.0.1';
  const capabilities = options.capabilities ?? ['photo.capture', 'badge.print', 'notify.alarm'];
  const log = options.log ?? (() => {});
  let port = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS).end();
      return;
    }
    if (req.method === 'GET' && path === '/api/check-port') {
      res
        .writeHead(200, { ...CORS, 'content-type': 'application/json' })
        .end(JSON.stringify({ name: 'Gatehouse Companion', version: COMPANION_SIM_VERSION, port }));
      return;
    }
    res.writeHead(404, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify({ status: 404, error: 'Not Found', message: 'Not Found' }));
  });
  // bound first, so a taken port's error is not also reported by the WebSocket server
  port = await listenOnFirstFree(server, options.port !== undefined ? [options.port] : COMPANION_PORTS, host);
  const wss = new WebSocketServer({ server, path: '/api/messages', maxPayload: COMPANION_MAX_MESSAGE_CHARS });
  const sim: CompanionSimulator = {
    port: 0,
    url: '',
    printed: [],
    notifications: [],
    rejected: [],
    ...socketServerControls(server, wss),
  };
  let photos = 0;
  const reply = (ws: WebSocket, m: CompanionReply) => ws.send(JSON.stringify(m));
  wss.on('connection', (ws) => {
    log('companion: console connected');
    reply(ws, { type: 'hello', version: COMPANION_SIM_VERSION, capabilities });
    ws.on('message', (data, isBinary) => {
      const parsed = parseCompanionCommand(isBinary ? null : data.toString('utf8'));
      if (!parsed.ok) {
        sim.rejected.push(parsed.error);
        reply(ws, { type: 'error', message: parsed.error.slice(0, 500) });
        return;
      }
      const m = parsed.message;
      if (m.type === 'photo.capture') {
        photos++;
        const png = generatePhotoPng(64, photos);
        reply(ws, {
          type: 'photo.captured',
          requestId: m.requestId,
          file: { name: `${m.purpose}-photo-${photos}.png`, mimeType: 'image/png', data: png.toString('base64') },
        });
      } else if (m.type === 'badge.print') {
        sim.printed.push(m);
        log(`companion: printed a badge for ${m.visitor.name}`);
        reply(ws, { type: 'badge.printed', requestId: m.requestId });
      } else {
        sim.notifications.push(m);
        log(`companion: alarm notification "${m.title}"`);
      }
    });
  });
  sim.port = port;
  sim.url = `http://${host}:${port}`;
  return sim;
}
