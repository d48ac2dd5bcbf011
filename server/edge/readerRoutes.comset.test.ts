// COMSET from the console (issue 46) against the real server, a real Gatehouse Edge and our reader on a real
// pseudo-terminal pair (socat): an installer moves a card reader's OSDP reader to another bus address and speed; the
// edge sends osdp_COMSET, the bus follows the reader there (the port reopened at the new speed, the secure channel
// opened again with the reader's key, which moved with it), the card reader's record takes the new address, and the
// action is audited. Another client's reader is 404, a user without edit card readers 403, a bad address or speed a 400
// naming the field, an edge offline a 409. The new speed outlives the edge: restarted with its port at the starting
// default, it speaks at the speed kept in its data directory. A reader wired at another speed than its line's is found
// by the pre-add scan with its speed, and once added as a card reader the edge moves it to the line's speed and pairs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OsdpComsetAnswer, cardReadersResource, controllersResource, interfacesResource, validate } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { startEdge } from '../../edge/main';
import { until } from '../../edge/testPeers';
import { openReaderKeys } from '../../edge/readerKeys';
import { Bus, Command, Reader, ptyPair } from '../../edge/osdp';
import { encode, STANDARD_FORMATS } from '../../contract/cardFormat';

let s: TestServer;
let admin: string;
let controller: number;
let readerId: number;
let key: string;
const dirs: string[] = [];
const FROM = 20;
const TO = 21;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.loginTo('admin', 'NORTHWIND');
  const { rows } = await s.db.query<{ id: number; controller_id: number }>(
    `select r.id, r.controller_id from card_readers r join clients c on c.id = r.client_id where c.code = 'NORTHWIND' order by r.id limit 1`,
  );
  readerId = Number(rows[0].id);
  controller = Number(rows[0].controller_id);
  await s.db.query('update card_readers set address = 90 where controller_id = $1 and address in ($2, $3)', [controller, FROM, TO]);
  await s.db.query('update card_readers set address = $2 where id = $1', [readerId, FROM]);
  const made = await s.call('POST', `${controllersResource.api}/${controller}/edge-key`, { token: admin, body: {} });
  expect(made.status).toBe(200);
  key = made.body.apiKey;
}, 180_000);

afterAll(async () => {
  await s?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const comset = (body: unknown, token = admin, id = readerId) => s.call('POST', `${cardReadersResource.api}/${id}/comset`, { token, body });
const atAddress = async (address: number) =>
  ((await s.call('GET', `${controllersResource.api}/${controller}/osdp-readers`, { token: admin })).body.readers ?? []).find(
    (r: { address: number }) => r.address === address,
  ) as { state: string; channel: string; baud?: number } | undefined;

describe('COMSET from the console', () => {
  it('moves a paired reader to another address and speed: the bus follows it, the record follows, audited', async () => {
    const pty = await ptyPair();
    // a pseudo-terminal carries no speed: the reader hears the controller only while its end is at the reader's speed
    const pd = new Reader(pty.b, { address: FROM, baud: 115200, heardAt: () => pty.a.baudRate });
    const dataDir = mkdtempSync(join(tmpdir(), 'osdp-comset-'));
    const logs: string[] = [];
    const bus = new Bus(pty.a, { baudRate: 115200, pollIntervalMs: 30 });
    const edge = startEdge({ server: s.base, key, dataDir, backoff: { first: 50, max: 300 }, log: (m) => logs.push(m), osdp: bus, osdpInstall: true });
    const edges = [edge];
    try {
      await until('paired and secure at its first address, as the server sees it', async () => (await atAddress(FROM))?.channel === 'secure', 20_000);
      expect((await atAddress(FROM))!.baud).toBe(115200);
      const paired = openReaderKeys(dataDir, key).get(FROM)!;
      expect(paired).toHaveLength(16);

      // refused before anything is sent: another client's, without the privilege, bad fields
      expect((await comset({ address: TO }, await s.login('harbour'))).status).toBe(404);
      expect((await comset({ address: TO }, await s.login('auditor'))).status).toBe(403);
      for (const [body, field] of [
        [{ address: 127 }, 'address'],
        [{ address: 'one' }, 'address'],
        [{ baud: 12345 }, 'baud'],
        [{ address: FROM, baud: 115200 }, 'address'], // nothing to change
      ] as const) {
        const r = await comset(body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.violations.map((v: { field: string }) => v.field)).toEqual([field]);
      }
      expect(pd.address).toBe(FROM);

      const moved = await comset({ address: TO, baud: 38400 });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(validate(moved.body, OsdpComsetAnswer).ok).toBe(true);
      expect(moved.body).toMatchObject({ ok: true, address: TO, baud: 38400 });
      // the reader took them; the controller's end of the line was reopened at its speed
      expect([pd.address, pd.baud]).toEqual([TO, 38400]);
      expect(execFileSync('stty', ['-F', pty.pathA, 'speed']).toString().trim()).toBe('38400');
      // the secure channel opened again at the new address with the reader's own key (moved with it, not re-paired)
      await until(
        'secure at its new address, 38400 baud',
        async () => {
          const r = await atAddress(TO);
          return r?.state === 'online' && r.channel === 'secure' && r.baud === 38400;
        },
        20_000,
      );
      const keys = openReaderKeys(dataDir, key);
      expect(keys.get(TO)!.equals(paired)).toBe(true);
      expect(keys.get(FROM)).toBeUndefined();
      // nothing was sent at the old speed after the reader moved but, on a loaded machine, the COMSET itself again: its
      // reply (at the old speed, heard) came after the bus's reply timeout, so the bus retried it as OSDP says, and the
      // reader, already at its new speed, heard noise. A poll or anything else there is the bus not following the reader.
      expect(pd.garbledCodes.filter((c) => c !== Command.COMSET)).toEqual([]);
      const garbledBefore = pd.garbled;
      // the record follows (the snapshot finds the reader there), audited with before and after
      const record = await s.db.query<{ address: number }>('select address from card_readers where id = $1', [readerId]);
      expect(Number(record.rows[0].address)).toBe(TO);
      const audited = await s.db.query<{ before: unknown; after: unknown }>(
        `select before, after from audit_log where action = 'comset' and entity = 'cardReader' and entity_id = $1`,
        [String(readerId)],
      );
      expect(audited.rows).toHaveLength(1);
      expect(JSON.stringify(audited.rows[0])).toMatch(/"address":\s*21/);
      // a card at the new address is a swipe at the card reader's door
      await until('the snapshot has the reader at its new address', () => edge.store.held?.snapshot.readers.some((r) => r.address === TO));
      pd.presentCard(encode(STANDARD_FORMATS[0], 18, 41409));
      const decided = await until('the card decided at the new address', () => logs.find((l) => l.includes(`(OSDP ${TO}):`)));
      // the door has no card formats of its own: the standard ones read the card (18:41409), the demo's card of Hiro
      // Davies (server/db/seed.ts), who may pass every door: granted, not "wrong card format" nor "unknown credential"
      expect(decided).toMatch(/: granted/);

      // the edge restarted: its port opens at its starting default (`--osdp-baud 115200`), but the line speaks at the
      // speed the COMSET set, kept in its data directory (osdp-line.json), and the reader is online there again
      edge.stop();
      await bus.stop();
      await until(
        'the edge offline before its restart',
        async () => (await s.call('GET', `${controllersResource.api}/${controller}/osdp-readers`, { token: admin })).body.online === false,
      );
      await new Promise<void>((resolve, reject) => pty.a.update({ baudRate: 115200 }, (e) => (e ? reject(e) : resolve())));
      expect(execFileSync('stty', ['-F', pty.pathA, 'speed']).toString().trim()).toBe('115200');
      const since = Date.now();
      const again = new Bus(pty.a, { baudRate: 115200, pollIntervalMs: 30 });
      const restarted = startEdge({ server: s.base, key, dataDir, backoff: { first: 50, max: 300 }, log: (m) => logs.push(m), osdp: again });
      edges.push(restarted);
      await until('secure at its new address again after the restart', () => again.reader(TO)?.state === 'online' && again.reader(TO)?.secure, 20_000);
      expect(again.baudRate).toBe(38400);
      expect(execFileSync('stty', ['-F', pty.pathA, 'speed']).toString().trim()).toBe('38400');
      expect(pd.garbled).toBe(garbledBefore); // the restarted edge spoke at the kept speed from its first packet
      await until('the server told so by the restarted edge', async () => {
        const a = (await s.call('GET', `${controllersResource.api}/${controller}/osdp-readers`, { token: admin })).body;
        const r = a.readers?.find((x: { address: number }) => x.address === TO);
        return a.online && Date.parse(a.reportedAt) >= since && r?.state === 'online' && r.channel === 'secure' && r.baud === 38400;
      });

      // the edge gone: the command cannot reach it, and says so
      restarted.stop();
      await until(
        'the edge offline',
        async () => (await s.call('GET', `${controllersResource.api}/${controller}/osdp-readers`, { token: admin })).body.online === false,
      );
      const offline = await comset({ address: FROM });
      expect(offline.status).toBe(409);
      expect(offline.body.code).toBe('edge.commandOffline');
    } finally {
      for (const e of edges) e.stop();
      pd.close();
      await pty.close();
      dirs.push(dataDir); // removed once the server is closed: an upload in flight when the edge stopped still writes there
    }
  }, 90_000);
});

describe('a reader found at another speed (pre-add)', () => {
  it('is offered with its speed, and once added the edge moves it to the line’s speed (COMSET) and pairs it there', async () => {
    const AWAY = 12;
    const pty = await ptyPair();
    // wired at 9600 baud on a line that runs at 115200: it hears the controller only while the line is at its speed
    const pd = new Reader(pty.b, { address: AWAY, baud: 9600, heardAt: () => pty.a.baudRate });
    const dataDir = mkdtempSync(join(tmpdir(), 'osdp-away-'));
    const bus = new Bus(pty.a, { baudRate: 115200, pollIntervalMs: 30 });
    const edge = startEdge({ server: s.base, key, dataDir, backoff: { first: 50, max: 300 }, log: () => {}, osdp: bus });
    try {
      // this edge welcomed (not the previous test's, whose close the server may not have seen yet)
      await until(
        'this edge online',
        async () => edge.link.online && (await s.call('GET', `${controllersResource.api}/${controller}/osdp-readers`, { token: admin })).body.online,
      );
      // the pre-add scan at every speed finds it at 9600 and says the line's speed; the console offers Add for it
      const scan = await s.call('GET', `${interfacesResource.api}/discover-osdp?speeds=all`, { token: admin });
      expect(scan.status, JSON.stringify(scan.body)).toBe(200);
      const row = scan.body.items.find((r: { controllerId: number; address: number }) => r.controllerId === controller && r.address === AWAY);
      expect(row, JSON.stringify(scan.body.controllers)).toMatchObject({ address: AWAY, baud: 9600, lineBaud: 115200 });
      // Add: the card reader form with the controller and the bus address, saved
      const { rows } = await s.db.query<{ id: number }>(
        `select d.id from doors d join clients c on c.id = d.client_id where c.code = 'NORTHWIND' order by d.id limit 1`,
      );
      const made = await s.call('POST', cardReadersResource.api, {
        token: admin,
        body: { name: 'Found at 9600 baud', doorId: Number(rows[0].id), direction: 'entry', controllerId: controller, address: AWAY },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      // the edge moved it to the line's speed and paired it (install mode, then its own key): secure at 115200
      await until('online and secure at the line’s speed', () => bus.reader(AWAY)?.state === 'online' && bus.reader(AWAY)?.secure, 30_000);
      expect([pd.address, pd.baud, pd.paired]).toEqual([AWAY, 115200, true]);
      expect(bus.baudRate).toBe(115200);
      expect(openReaderKeys(dataDir, key).get(AWAY)).toHaveLength(16);
      await until('the server told so', async () => {
        const r = await atAddress(AWAY);
        return r?.state === 'online' && r.channel === 'secure' && r.baud === 115200;
      });
    } finally {
      edge.stop();
      pd.close();
      await pty.close();
      dirs.push(dataDir); // removed once the server is closed: an upload in flight when the edge stopped still writes there
    }
  }, 120_000);
});
