// The whole chain of an OSDP reader at a demo door (issue 46), each piece a real peer: our reader (PD) as its own
// process (`npm run reader`, as the tour runs it) on one end of a socat pseudo-terminal pair, the real Gatehouse Edge on
// the other end with its OSDP bus, and the real server and database with the demo data. The reader is paired (SCBK-D,
// then its own key by KEYSET), the demo card it presents (`c`: 26-bit H10301, facility 18, card 41409, Hiro Davies's in
// the demo data) is decided at the edge and granted at the Server Room; the reader is sent the green LED and one beep;
// the event reaches the server's events (Access granted: Hiro Davies (card 41409) at Server Room); and the door's strike
// is energised.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllersResource } from '../contract';
import { startTestServer, type TestServer } from '../server/testkit';
import { startEdge, type Edge } from './main';
import { Bus, closeSerial, openSerial, ptyLinks } from './osdp';
import { until } from './testPeers';

let s: TestServer;
let northwind: number;
let controller: number;
let door: number;
let key: string;
/** a bus address no other card reader of the controller has */
const ADDRESS = 7;
const cleanups: (() => unknown)[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  const admin = await s.loginTo('admin', 'NORTHWIND');
  const { rows } = await s.db.query<{ id: number; controller_id: number; door_id: number }>(
    `select r.id, r.controller_id, r.door_id from card_readers r join doors d on d.id = r.door_id where d.name = 'Server Room' and d.client_id = $1`,
    [northwind],
  );
  controller = Number(rows[0].controller_id);
  door = Number(rows[0].door_id);
  await s.db.query('update card_readers set address = $2 where id = $1', [rows[0].id, ADDRESS]);
  const made = await s.call('POST', `${controllersResource.api}/${controller}/edge-key`, { token: admin, body: {} });
  expect(made.status).toBe(200);
  key = made.body.apiKey;
}, 180_000);

afterAll(async () => {
  for (const f of cleanups.reverse()) await f();
  await s?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `npm run reader` as its own process, its JSON lines read as they come. */
function readerProcess(tty: string) {
  const p: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/reader.ts', '--tty', tty, '--address', String(ADDRESS), '--baud', '9600'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  cleanups.push(() => p.exitCode === null && p.kill('SIGKILL'));
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: p.stdout! }).on('line', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
  return { lines, type: (line: string) => p.stdin!.write(`${line}\n`) };
}

describe('an OSDP reader at a demo door, end to end', () => {
  it('card → the edge grants → green LED and a beep at the reader → Access granted in the server’s events → the strike energised', async () => {
    const { pathA, pathB, socat, dir } = await ptyLinks();
    cleanups.push(() => {
      socat.kill();
      rmSync(dir, { recursive: true, force: true });
    });
    const reader = readerProcess(pathB);
    await until('the reader process on its line', () => reader.lines.find((l) => 'reader' in l), 30_000);

    const port = await openSerial(pathA, 9600);
    const dataDir = mkdtempSync(join(tmpdir(), 'osdp-chain-'));
    const logs: string[] = [];
    const edge: Edge = startEdge({
      server: s.base,
      key,
      dataDir,
      backoff: { first: 50, max: 300 },
      log: (m) => logs.push(m),
      osdp: new Bus(port, { baudRate: 9600 }),
      osdpInstall: true,
    });
    cleanups.push(async () => {
      edge.stop();
      await closeSerial(port);
    });
    dirs.push(dataDir); // removed once the server is closed: an upload in flight when the edge stopped still writes there

    // paired: SCBK-D, then its own key by KEYSET; the door's mode shown as its steady colour (locked: red)
    await until('the reader paired', () => reader.lines.some((l) => l.paired === true), 30_000);
    await until('the edge holds the Server Room reader at its address', () =>
      edge.store.held?.snapshot.readers.some((r) => r.address === ADDRESS && r.doorId === door),
    );
    await until('the reader online and secure at the edge', () => logs.some((l) => l.includes(`OSDP reader ${ADDRESS} online (secure channel)`)), 30_000);
    await until('the door’s mode shown: steady red', () => reader.lines.some((l) => (l.led as { permanent?: string } | undefined)?.permanent === 'red'));
    expect(edge.io.state(door)).toBe('locked');
    const before = Number((await s.db.query<{ id: number }>('select coalesce(max(id), 0) as id from events')).rows[0].id);
    const shown = reader.lines.length;

    reader.type('c'); // the demo card: 26-bit H10301, facility 18, card 41409
    // the answer at the reader: the green LED for 2 s and one short beep
    const answer = () => reader.lines.slice(shown);
    await until('the green LED at the reader', () => answer().some((l) => (l.led as { temporary?: string; ms?: number } | undefined)?.temporary === 'green'));
    expect(answer().find((l) => (l.led as { temporary?: string } | undefined)?.temporary)).toEqual({ led: { temporary: 'green', ms: 2000 } });
    await until('one beep at the reader', () => answer().some((l) => 'buzzer' in l));
    expect(answer().find((l) => 'buzzer' in l)).toMatchObject({ buzzer: { beeps: 1 } });
    expect(answer().some((l) => (l.led as { temporary?: string } | undefined)?.temporary === 'red')).toBe(false);

    // the door's strike energised for its unlock time (the reader's steady colour follows it: green while unlocked)
    await until('the Server Room strike energised', () => edge.io.state(door) === 'unlocked-briefly');
    await until('the reader green while the door is unlocked', () =>
      answer().some((l) => (l.led as { permanent?: string } | undefined)?.permanent === 'green'),
    );

    // the event in the server's events, as Monitor → Events shows it
    const event = await until('Access granted in the server’s events', async () => {
      const { rows } = await s.db.query<{ message: string; event_source_id: string }>(
        `select message, event_source_id from events where client_id = $1 and id > $2 and message like 'Access granted%' order by id limit 1`,
        [northwind, before],
      );
      return rows[0];
    });
    expect(event.message).toBe('Access granted: Hiro Davies (card 41409) at Server Room');
    expect(event.event_source_id).toBe(`reader-${door}`);
  }, 120_000);
});
