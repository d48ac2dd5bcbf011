// A stopping server waits for what is in flight, but not for ever (server/http/closeDeadline.ts): a client that stopped
// in the middle of its request body is closed after the grace, and the log says what it was (without the deadline
// app.close() waits as long as the client likes). An upgrade to a path no part takes is answered 404 at once.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { EDGE_CONNECT_PATH, SOCKJS_PREFIX } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  s = await startTestServer({ closeGraceMs: 1_000 });
}, 120_000);
afterAll(() => {
  for (const k of sockets) k.destroy();
});

const opened = (text: string) =>
  new Promise<Socket>((resolve, reject) => {
    const url = new URL(s.base);
    const k = connect(Number(url.port), url.hostname, () => {
      k.write(text);
      resolve(k);
    });
    k.on('error', reject);
    sockets.push(k);
  });

it('answers an upgrade no part of the server takes 404 and closes it', async () => {
  const k = await opened(
    'GET /nothing-upgrades-here HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  let heard = '';
  k.on('data', (d) => (heard += d.toString()));
  await new Promise<void>((r) => k.once('close', () => r()));
  expect(heard).toMatch(/^HTTP\/1\.1 404 /);
});

it('lets every part take the upgrades it claimed: each real-time endpoint and the edge', async () => {
  const upgrade = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;
  const first = async (path: string) => {
    const k = await opened(upgrade(path));
    const line = await new Promise<string>((r) => k.once('data', (d) => r(d.toString().split('\r\n')[0])));
    k.destroy();
    return line;
  };
  // SockJS's WebSocket transport: /prefix/server/session/websocket switches; the edge's path answers its own refusal
  // (401: no key), not the 404 of a path nobody takes
  for (const prefix of Object.values(SOCKJS_PREFIX)) expect(await first(`${prefix}/000/abcdefgh/websocket`)).toMatch(/^HTTP\/1\.1 101 /);
  expect(await first(EDGE_CONNECT_PATH)).not.toMatch(/ 404 /);
});

it('closes a half-sent request after its grace, and says what it was', async () => {
  const warned: string[] = [];
  const warn = vi.spyOn(console, 'warn').mockImplementation((m: unknown) => void warned.push(String(m)));
  try {
    // 10 of the 100,000 bytes the request says it has: Fastify waits for the rest
    const half = await opened('POST /idp/1.0/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"username"');
    await new Promise((r) => setTimeout(r, 300)); // it reached the server
    const ended = new Promise<void>((r) => half.once('close', () => r()));
    const t = Date.now();
    const closed = await Promise.race([s.close().then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20_000))]);
    expect(closed).toBe(true);
    expect(Date.now() - t).toBeGreaterThanOrEqual(900); // it waited its grace first
    await ended;
    const said = warned.find((w) => w.startsWith('server stopping:'));
    expect(said).toMatch(/closed: .*POST \/idp\/1\.0\/login/);
  } finally {
    warn.mockRestore();
  }
}, 60_000);
