// The companion simulator over real loopback sockets: check-port with CORS, the first free candidate port,
// and the message protocol on /api/messages.
import { createServer } from 'node:http';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { COMPANION_PORTS, parseCompanionReply, type CompanionReply } from '../../contract';
import { generatePhotoPng, startCompanionSimulator, type CompanionSimulator } from './companion';

let sim: CompanionSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

function connect(url: string) {
  const ws = new WebSocket(url);
  const inbox: CompanionReply[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    const p = parseCompanionReply(d.toString());
    if (!p.ok) throw new Error(p.error);
    inbox.push(p.message);
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (): Promise<CompanionReply> => {
    while (!inbox.length) await new Promise<void>((r) => waiters.push(r));
    return inbox.shift()!;
  };
  return { ws, next, opened: new Promise((r) => ws.once('open', r)) };
}

describe('companion simulator', () => {
  it('binds the first free candidate port and answers check-port to a page of any origin', async () => {
    sim = await startCompanionSimulator();
    expect(COMPANION_PORTS).toContain(sim.port);
    const res = await fetch(`${sim.url}/api/check-port`, { headers: { origin: 'http://console.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({ name: 'Gatehouse Companion', port: sim.port });
    const preflight = await fetch(`${sim.url}/api/check-port`, {
      method: 'OPTIONS',
      headers: { origin: 'http://console.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
  });

  it('moves to the next candidate when the first is taken', async () => {
    // the squatter takes the first candidate free now: another test file's server (running beside this one) may hold
    // the first candidate already (then listening on it threw EADDRINUSE outside the test, which waited 30 s for nothing)
    const squatter = createServer();
    let taken: number = -1;
    const candidates: readonly number[] = COMPANION_PORTS;
    for (const port of COMPANION_PORTS) {
      const ok = await new Promise<boolean>((r) => {
        squatter.once('error', () => r(false));
        squatter.listen(port, '127.0.0.1', () => r(true));
      });
      if (ok) {
        taken = port;
        break;
      }
    }
    expect(candidates.indexOf(taken)).toBeGreaterThanOrEqual(0);
    expect(candidates.indexOf(taken)).toBeLessThan(candidates.length - 1); // a later candidate is left
    try {
      sim = await startCompanionSimulator();
      expect(COMPANION_PORTS).toContain(sim.port);
      expect(sim.port).not.toBe(taken);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });

  it('says hello, returns a real PNG for photo.capture, acknowledges prints and records notifications', async () => {
    sim = await startCompanionSimulator();
    const c = connect(`ws://127.0.0.1:${sim.port}/api/messages`);
    expect(await c.next()).toMatchObject({ type: 'hello', capabilities: ['photo.capture', 'badge.print', 'notify.alarm'] });
    c.ws.send(JSON.stringify({ type: 'photo.capture', requestId: 'p1', purpose: 'identity' }));
    const photo = await c.next();
    expect(photo).toMatchObject({ type: 'photo.captured', requestId: 'p1', file: { mimeType: 'image/png' } });
    const png = Buffer.from((photo as any).file.data, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(64); // IHDR width
    c.ws.send(JSON.stringify({ type: 'badge.print', requestId: 'b1', visitor: { name: 'Vera Visitor', company: 'Acme' }, qr: 'VIS-1' }));
    expect(await c.next()).toEqual({ type: 'badge.printed', requestId: 'b1' });
    expect(sim.printed.map((p) => p.visitor.name)).toEqual(['Vera Visitor']);
    c.ws.send(JSON.stringify({ type: 'notify.alarm', title: 'Door forced', message: 'Lobby' }));
    c.ws.send('garbage');
    expect(await c.next()).toMatchObject({ type: 'error', message: expect.stringContaining('not JSON') });
    expect(sim.notifications).toEqual([{ type: 'notify.alarm', title: 'Door forced', message: 'Lobby' }]);
    c.ws.close();
  });

  it('generates a PNG whose image data inflates to the declared size', () => {
    const png = generatePhotoPng(16, 3);
    const idatLen = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    expect(inflateSync(png.subarray(41, 41 + idatLen))).toHaveLength((16 * 3 + 1) * 16);
  });
});
