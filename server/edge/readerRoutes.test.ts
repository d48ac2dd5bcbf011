// The OSDP readers' status routes (issue 46) against the real server and database: an edge connected with its
// controller key reports its readers over the edge protocol, and the Hardware screens' routes answer that report in the
// documented shape (contract/osdpReaders.ts), each reader with the card reader at its bus address and never a key;
// another client's controller and card reader are 404; re-pairing needs the edit card readers privilege. A change is
// pushed over STOMP (`/osdp-readers`) to the consoles of the controller's client, never to another client's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  DESTINATIONS,
  EDGE_CONNECT_PATH,
  OSDP_SCAN_ADDRESSES,
  OSDP_ALL_ADDRESSES,
  OSDP_WIDE_SCAN_MS,
  OsdpFoundAnswer,
  OsdpReadersAnswer,
  OsdpReadersNotice,
  interfacesResource,
  SOCKJS_PREFIX,
  cardReadersResource,
  controllersResource,
  validate,
  type EdgeReaderStatus,
} from '../../contract';
import { connected, waitFor, type TestClient } from '../realtime/testkit';
import { startTestServer, type TestServer } from '../testkit';
import { until } from '../../edge/testPeers';

let s: TestServer;
let admin: string;
let harbourAdmin: string;
let controller: number;
let readerId: number;
let readerAddress: number;
let key: string;

const reported = (address: number, over: Partial<EdgeReaderStatus> = {}): EdgeReaderStatus => ({
  address,
  state: 'online',
  channel: 'secure',
  identity: { vendor: '0A0B0C', model: 2, version: 1, serial: 123456, firmware: '1.4.2' },
  capabilities: [{ function: 3, name: 'LED control', compliance: 1, count: 1 }],
  tamper: false,
  power: false,
  counters: { commands: 120, replies: 118, timeouts: 2, crc: 1, naks: 0, sequence: 0, secureChannel: 0, malformed: 0, busy: 0, retries: 2 },
  reason: null,
  ...over,
});

/** An edge of ours at its simplest: the real edge protocol over a WebSocket with the controller key. */
async function connectEdge(k: string): Promise<WebSocket> {
  const ws = new WebSocket(`${s.base.replace(/^http/, 'ws')}${EDGE_CONNECT_PATH}`, { headers: { authorization: `Bearer ${k}` } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'hello', edgeVersion: 'test', snapshotVersion: 0, pending: 0 }));
  return ws;
}

const status = (id: number, token = admin) => s.call('GET', `${controllersResource.api}/${id}/osdp-readers`, { token });

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.loginTo('admin', 'NORTHWIND');
  harbourAdmin = await s.login('harbour');
  const { rows } = await s.db.query<{ id: number; controller_id: number; address: number }>(
    `select r.id, r.controller_id, r.address from card_readers r join clients c on c.id = r.client_id
      where c.code = 'NORTHWIND' and r.address <= 126 order by r.id limit 1`,
  );
  readerId = Number(rows[0].id);
  controller = Number(rows[0].controller_id);
  readerAddress = Number(rows[0].address);
  const made = await s.call('POST', `${controllersResource.api}/${controller}/edge-key`, { token: admin, body: {} });
  expect(made.status).toBe(200);
  key = made.body.apiKey;
}, 180_000);

const consoles: TestClient[] = [];
afterAll(async () => {
  for (const c of consoles) await c.client.deactivate({ force: true });
  await s?.close();
});

/** A console of the token's user subscribed to the OSDP readers' notices (the central service), as the console does. */
async function listening(token: string) {
  const c = await connected(`${s.base}${SOCKJS_PREFIX.central}`, token);
  consoles.push(c);
  let subscribed = false;
  c.client.watchForReceipt('r-osdp', () => {
    subscribed = true;
  });
  c.subscribe(DESTINATIONS.osdpReaders, { receipt: 'r-osdp' });
  await waitFor(() => subscribed, 'subscribed to /osdp-readers');
  expect(c.errors).toEqual([]);
  return () => c.messages.filter((m) => m.headers.destination === DESTINATIONS.osdpReaders).map((m) => JSON.parse(m.body) as OsdpReadersNotice);
}

describe('OSDP reader status routes', () => {
  it('answers an edge controller with no report yet as an edge with no readers', async () => {
    const r = await status(controller);
    expect(r.status).toBe(200);
    expect(validate(r.body, OsdpReadersAnswer).ok).toBe(true);
    expect(r.body).toMatchObject({ controllerId: controller, edge: true, online: false, reportedAt: null, readers: [] });
  });

  it('answers what the edge reported in the documented shape, each reader with its card reader, and never a key', async () => {
    const ws = await connectEdge(key);
    try {
      const stray = readerAddress === 126 ? 125 : 126; // an address no card reader of this controller has
      await s.db.query('delete from card_readers where controller_id = $1 and address = $2', [controller, stray]);
      ws.send(
        JSON.stringify({
          type: 'readers',
          readers: [reported(stray, { state: 'refused', channel: 'refused', identity: null, reason: 'bad cryptogram' }), reported(readerAddress)],
        }),
      );
      const r = await until('the report stored', async () => {
        const a = await status(controller);
        return a.body.readers?.length === 2 ? a : null;
      });
      const checked = validate(r.body, OsdpReadersAnswer);
      expect(checked.ok, JSON.stringify(checked)).toBe(true);
      expect(r.body.online).toBe(true);
      expect(Date.parse(r.body.reportedAt)).toBeGreaterThan(0);
      // sorted by bus address; the card reader at the address named (the Re-pair button's record), none at the stray one
      const [first, second] = r.body.readers;
      const mine = first.address === readerAddress ? first : second;
      const other = first.address === readerAddress ? second : first;
      expect(first.address).toBeLessThan(second.address);
      expect(mine).toMatchObject({ address: readerAddress, channel: 'secure', identity: { vendor: '0A0B0C', serial: 123456 }, cardReader: { id: readerId } });
      expect(mine.counters).toMatchObject({ crc: 1, naks: 0, timeouts: 2, secureChannel: 0 });
      expect(other).toMatchObject({ address: stray, channel: 'refused', cardReader: null, reason: 'bad cryptogram' });
      expect(JSON.stringify(r.body)).not.toMatch(/scbk|"key"/i);
      // the card reader's page: only the reader at its own address
      const one = await s.call('GET', `${cardReadersResource.api}/${readerId}/osdp`, { token: admin });
      expect(one.status).toBe(200);
      expect(validate(one.body, OsdpReadersAnswer).ok).toBe(true);
      expect(one.body.readers.map((x: { address: number }) => x.address)).toEqual([readerAddress]);
      // another card reader of the controller at the same bus address: its own page names it, not the first one
      const sharer = (
        await s.db.query<{ id: number }>('select id from card_readers where controller_id = $1 and id <> $2 order by id limit 1', [controller, readerId])
      ).rows[0];
      await s.db.query('update card_readers set address = $2 where id = $1', [sharer.id, readerAddress]);
      const theirs = await s.call('GET', `${cardReadersResource.api}/${sharer.id}/osdp`, { token: admin });
      expect(theirs.body.readers).toHaveLength(1);
      expect(theirs.body.readers[0].cardReader.id).toBe(Number(sharer.id));
    } finally {
      ws.close();
    }
    // the link gone: the last report is kept, the controller said to be offline
    await until('offline', async () => (await status(controller)).body.online === false);
    expect((await status(controller)).body.readers).toHaveLength(2);
  });

  it('is 404 for another client’s controller and card reader, and for ids that are no ids', async () => {
    expect((await status(controller, harbourAdmin)).status).toBe(404);
    expect((await s.call('GET', `${cardReadersResource.api}/${readerId}/osdp`, { token: harbourAdmin })).status).toBe(404);
    expect((await s.call('POST', `${cardReadersResource.api}/${readerId}/repair`, { token: harbourAdmin, body: {} })).status).toBe(404);
    for (const bad of ['0', '-1', 'x', '99999999999']) {
      expect((await status(bad as unknown as number)).status).toBe(404);
      expect((await s.call('GET', `${cardReadersResource.api}/${bad}/osdp`, { token: admin })).status).toBe(404);
    }
  });

  it('refuses re-pairing to a user without the edit card readers privilege, and without a token', async () => {
    const auditor = await s.login('auditor');
    expect((await s.call('POST', `${cardReadersResource.api}/${readerId}/repair`, { token: auditor, body: {} })).status).toBe(403);
    expect((await s.call('POST', `${cardReadersResource.api}/${readerId}/repair`, { body: {} })).status).toBe(401);
    // the edge is offline now: an administrator's re-pair cannot reach it and says so
    const offline = await s.call('POST', `${cardReadersResource.api}/${readerId}/repair`, { token: admin, body: {} });
    expect(offline.status).toBe(409);
    expect(JSON.stringify(offline.body)).toContain('offline');
    // said by its key (issue 48): the console says it in the operator's language
    expect(offline.body).toMatchObject({ code: 'edge.commandOffline', values: { id: expect.any(Number) } });
  });

  it('pushes a reader going offline, online and secure to its client’s consoles at once, and to no other client’s', async () => {
    const mine = await listening(admin);
    const theirs = await listening(harbourAdmin);
    const harbourController = Number(
      (await s.db.query<{ id: number }>(`select c.id from controllers c join clients k on k.id = c.client_id where k.code = 'HARBOUR' order by c.id limit 1`))
        .rows[0].id,
    );
    const harbourKey = (await s.call('POST', `${controllersResource.api}/${harbourController}/edge-key`, { token: harbourAdmin, body: {} })).body.apiKey;
    const of = (list: OsdpReadersNotice[], id: number) => list.filter((n) => n.controllerId === id);

    const ws = await connectEdge(key);
    try {
      // the link up: the panel's "Edge online"
      await waitFor(() => of(mine(), controller).some((n) => n.online), 'the edge online pushed', 10_000);
      for (const state of ['offline', 'online'] as const) {
        const before = of(mine(), controller).length;
        const sent = Date.now();
        ws.send(JSON.stringify({ type: 'readers', readers: [reported(readerAddress, { state, channel: state === 'online' ? 'secure' : 'paired' })] }));
        await waitFor(() => of(mine(), controller).length > before, `the reader ${state} pushed`, 10_000);
        const n = of(mine(), controller).at(-1)!;
        expect(validate(n, OsdpReadersNotice).ok).toBe(true);
        expect(n.online).toBe(true);
        expect(Date.parse(n.reportedAt!)).toBeGreaterThanOrEqual(sent - 1000);
        // what a panel reads on the notice is the new state
        expect((await status(controller)).body.readers[0]).toMatchObject({ state, channel: state === 'online' ? 'secure' : 'paired' });
      }
    } finally {
      ws.close();
    }
    // the link gone: pushed as the edge offline
    await waitFor(() => of(mine(), controller).at(-1)?.online === false, 'the edge offline pushed', 10_000);

    // the other client's console heard nothing of it: its own controller's report reaches it after all of the above
    const other = await connectEdge(harbourKey);
    try {
      other.send(JSON.stringify({ type: 'readers', readers: [reported(1)] }));
      await waitFor(() => of(theirs(), harbourController).some((n) => n.reportedAt !== null), 'the other client’s own report pushed', 10_000);
    } finally {
      other.close();
    }
    expect(theirs().length).toBeGreaterThan(0);
    expect(theirs().every((n) => n.controllerId === harbourController)).toBe(true);
    expect(of(mine(), harbourController)).toEqual([]);
  });

  it('tells the consoles when a key makes a controller an edge controller and when its revoke unmakes it (the panel reads again)', async () => {
    const heard = await listening(admin);
    const { rows } = await s.db.query<{ id: number }>(
      `select c.id from controllers c join clients k on k.id = c.client_id where k.code = 'NORTHWIND' and c.id <> $1
          and not exists (select 1 from service_accounts sa where sa.controller_id = c.id) order by c.id limit 1`,
      [controller],
    );
    const other = Number(rows[0].id);
    expect((await status(other)).body.edge).toBe(false);
    const forOther = () => heard().filter((n) => n.controllerId === other).length;
    expect((await s.call('POST', `${controllersResource.api}/${other}/edge-key`, { token: admin, body: {} })).status).toBe(200);
    await until('a notice for the controller given a key', async () => forOther() === 1);
    expect((await status(other)).body).toMatchObject({ edge: true, online: false });
    expect((await s.call('POST', `${controllersResource.api}/${other}/revoke-edge-key`, { token: admin, body: {} })).status).toBe(200);
    await until('a notice for the controller whose key was revoked', async () => forOther() === 2);
    expect((await status(other)).body.edge).toBe(false);
  });

  it('refuses the OSDP readers’ notices to a user who sees neither controllers nor card readers', async () => {
    const desk = await s.login('reception');
    const c = await connected(`${s.base}${SOCKJS_PREFIX.central}`, desk);
    consoles.push(c);
    c.subscribe(DESTINATIONS.osdpReaders);
    await waitFor(() => c.errors[0], 'the ERROR frame');
    expect(c.errors[0].headers.message).toBe(`Forbidden destination ${DESTINATIONS.osdpReaders}`);
  });

  it('scans each connected edge’s bus for readers not configured yet (pre-add), skipping the addresses with a card reader', async () => {
    const discover = (token: string, query = '') => s.call('GET', `${interfacesResource.api}/discover-osdp${query}`, { token });
    // no edge connected: nothing asked, nothing found
    expect((await discover(admin)).body).toEqual({ items: [], controllers: [] });
    const ws = await connectEdge(key);
    const asked: number[][] = [];
    const how: { speeds?: number[]; withinMs?: number }[] = [];
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type !== 'scan') return;
      asked.push(m.addresses);
      how.push({ speeds: m.speeds, withinMs: m.withinMs });
      const free = m.addresses.find((a: number) => a !== readerAddress);
      const found = [{ address: free, identity: { vendor: '0A0B0C', model: 7, version: 2, serial: 4242, firmware: '2.0.1' }, capabilities: [] }];
      ws.send(JSON.stringify({ type: 'result', id: m.id, ok: true, message: '1 reader(s) answered', seq: 0, found }));
    });
    try {
      await until('the edge connected', async () => (await status(controller)).body.online === true);
      const r = await discover(admin);
      expect(r.status).toBe(200);
      const checked = validate(r.body, OsdpFoundAnswer);
      expect(checked.ok, JSON.stringify(checked)).toBe(true);
      const taken = (await s.db.query<{ address: number }>('select address from card_readers where controller_id = $1', [controller])).rows.map((x) =>
        Number(x.address),
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]).toEqual(OSDP_SCAN_ADDRESSES.filter((a) => !taken.includes(a)));
      expect(r.body.controllers).toEqual([expect.objectContaining({ controllerId: controller, ok: true })]);
      expect(r.body.items).toEqual([
        expect.objectContaining({ controllerId: controller, address: asked[0][0], identity: expect.objectContaining({ serial: 4242 }) }),
      ]);
      // another client's administrator: its own edges only (none connected), never this one's
      expect((await discover(harbourAdmin)).body).toEqual({ items: [], controllers: [] });
      expect(asked).toHaveLength(1);
      // a user who may not add interfaces may not scan
      expect((await discover(await s.login('auditor'))).status).toBe(403);
      // the whole range, then every speed, when asked: bounded in time (the edge answers what it found by then)
      expect((await discover(admin, '?addresses=all')).status).toBe(200);
      expect(asked[1]).toEqual(OSDP_ALL_ADDRESSES.filter((a) => !taken.includes(a)));
      expect(how[1]).toEqual({ speeds: undefined, withinMs: OSDP_WIDE_SCAN_MS });
      expect((await discover(admin, '?addresses=all&speeds=all')).status).toBe(200);
      expect(how[2]).toEqual({ speeds: [9600, 19200, 38400, 57600, 115200], withinMs: OSDP_WIDE_SCAN_MS });
      const bad = await discover(admin, '?addresses=20');
      expect(bad.status).toBe(400);
      expect(bad.body.violations.map((v: { field: string }) => v.field)).toEqual(['addresses']);
      expect(asked).toHaveLength(3);
    } finally {
      ws.close();
    }
  });
});
