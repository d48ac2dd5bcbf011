// The card connector simulator over real loopback sockets, and the /MyKad REST routes it serves.
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONNECTOR_PORTS, CONNECTOR_VERSION, MyKadReaderList, parseConnectorMessage, validate } from '../../contract';
import { SAMPLE_MYKAD, startCardConnectorSimulator, type CardConnectorSimulator } from './cardConnector';
import { registerMyKadRoutes } from './mykadRoutes';

let sim: CardConnectorSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

function connect(url: string) {
  const ws = new WebSocket(url);
  const inbox: Array<{ type: string; version: string; data?: unknown }> = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    inbox.push(JSON.parse(d.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  const next = async () => {
    while (!inbox.length) await new Promise<void>((r) => waiters.push(r));
    return inbox.shift()!;
  };
  const types = async (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await next()).type);
    return out;
  };
  return { ws, next, types };
}

describe('card connector simulator', () => {
  it('takes the first free of 51379, 24680, 18365', async () => {
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(CONNECTOR_PORTS[0], '127.0.0.1', r));
    try {
      sim = await startCardConnectorSimulator();
      expect(sim.port).toBe(CONNECTOR_PORTS[1]);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });

  it('announces v1.0.0, then plays a scripted card: inserted, read on request, removed', async () => {
    sim = await startCardConnectorSimulator();
    const c = connect(sim.url);
    expect(await c.types(4)).toEqual(['connecting', 'connected', 'version_valid', 'reader_connected']);
    sim.insertCard();
    expect(await c.next()).toEqual({ type: 'card_inserted', version: CONNECTOR_VERSION, data: null });
    c.ws.send(JSON.stringify({ type: 'read_card', version: CONNECTOR_VERSION, data: null }));
    expect((await c.next()).type).toBe('reading_data');
    const data = await c.next();
    const parsed = parseConnectorMessage(JSON.stringify(data));
    expect(parsed.ok && parsed.message.data).toEqual(SAMPLE_MYKAD);
    sim.removeCard();
    expect((await c.next()).type).toBe('card_removed');
    expect(sim.received.map((m) => m.type)).toEqual(['read_card']);
    c.ws.close();
  });

  it('announces a wrong version when asked to, and records the console refusing it', async () => {
    sim = await startCardConnectorSimulator({ version: 'v0.9.0' });
    const c = connect(sim.url);
    const first = await c.next();
    expect(first).toMatchObject({ type: 'connecting', version: 'v0.9.0' });
    expect(parseConnectorMessage(JSON.stringify(first))).toMatchObject({ ok: false, version: 'v0.9.0' });
    c.ws.send(JSON.stringify({ type: 'invalid_version', version: CONNECTOR_VERSION, data: { received: 'v0.9.0' } }));
    await expect.poll(() => sim!.received).toEqual([{ type: 'invalid_version', version: CONNECTOR_VERSION, data: { received: 'v0.9.0' } }]);
    c.ws.close();
  });

  it('refuses to insert a card that is not a MyKad', async () => {
    sim = await startCardConnectorSimulator();
    expect(() => sim!.insertCard({ ...SAMPLE_MYKAD, dateOfBirth: 'yesterday' })).toThrow(/dateOfBirth/);
  });

  it('serves /MyKad/getReaderList and /MyKad/myKad from the same reader', async () => {
    sim = await startCardConnectorSimulator();
    const app = Fastify();
    registerMyKadRoutes(app, { source: sim });
    const list = await app.inject({ method: 'GET', url: '/MyKad/getReaderList' });
    expect(validate(list.json(), MyKadReaderList)).toMatchObject({ ok: true, value: { readers: [{ connected: true, cardPresent: false }] } });
    expect((await app.inject({ method: 'GET', url: '/MyKad/myKad' })).statusCode).toBe(404);
    sim.insertCard();
    const read = await app.inject({ method: 'GET', url: '/MyKad/myKad' });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(SAMPLE_MYKAD);
    sim.disconnectReader();
    expect((await app.inject({ method: 'GET', url: '/MyKad/getReaderList' })).json()).toEqual({ readers: [] });
    await app.close();
  });
});
