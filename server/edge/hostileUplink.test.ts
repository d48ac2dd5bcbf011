// Bad input from a device (issue 47, the brief's "device messages"): every message type an edge controller sends up its
// connection (contract/edge.ts EDGE_CLIENT_MESSAGES, so a new type is covered without touching this file) gets hostile
// values at every field, at any depth (server/http/hostileProbes.ts: NUL, lone surrogates, text past its bound, lists
// past theirs, numbers past their range). A peer holding a real controller key sends them over a real connection to
// the real server: each is answered with an error whose violations name the field, the connection stays open, and no row changes.
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_KEY_HEADER, EDGE_CLIENT_MESSAGES, EDGE_CONNECT_PATH, controllersResource } from '../../contract';
import { startTestServer, tablesSnapshot, type TestServer } from '../testkit';
import { jsonProbes, type Probe } from '../http/hostileProbes';

let s: TestServer;
let ws: WebSocket;
const inbox: Array<{ type: string; field?: string; message?: string; violations?: Array<{ field: string }> }> = [];
let waiting: (() => void) | null = null;

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.loginTo('admin', 'NORTHWIND');
  const { rows } = await s.db.query<{ id: number }>(
    `select c.id from controllers c join clients t on t.id = c.client_id where t.code = 'NORTHWIND' order by c.id limit 1`,
  );
  const made = await s.call('POST', `${controllersResource.api}/${rows[0].id}/edge-key`, { token: admin, body: {} });
  expect(made.status).toBe(200);
  ws = new WebSocket(s.base.replace('http', 'ws') + EDGE_CONNECT_PATH, { headers: { [API_KEY_HEADER]: made.body.apiKey } });
  ws.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()));
    waiting?.();
  });
  // the server's welcome and first snapshot: then the connection is the controller's
  await until(() => inbox.some((m) => m.type === 'snapshot'));
}, 180_000);
afterAll(async () => {
  ws?.terminate();
  await s?.close();
});

async function until(done: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`nothing came in ${ms} ms: ${JSON.stringify(inbox.slice(-3))}`);
    await new Promise<void>((r) => {
      waiting = r;
      setTimeout(r, 200);
    });
  }
}

/** Two fields are the same place, or one is inside the other. */
const related = (a: string, b: string) => a === b || a === '(body)' || b === '(body)' || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/** The server's answer to one probe: the next error it sends. */
async function answer(p: Probe) {
  const from = inbox.length;
  ws.send(JSON.stringify(p.body));
  let error: (typeof inbox)[number] | undefined;
  await until(() => !!(error = inbox.slice(from).find((m) => m.type === 'error')), 10_000).catch(() => undefined);
  return error;
}

it('answers hostile values in every message an edge sends with an error naming the field, keeps the connection, and changes no row', async () => {
  const before = await tablesSnapshot(s.db);
  const problems: string[] = [];
  let probed = 0;
  for (const [type, struct] of Object.entries(EDGE_CLIENT_MESSAGES)) {
    const probes = jsonProbes(struct, 13, 400);
    expect(probes, `${type}: no hostile value made`).not.toBeNull();
    const sample = probes!.arbitrary ? fc.sample(probes!.arbitrary, { numRuns: 40, seed: 13 }) : [];
    for (const p of [...probes!.all, ...sample]) {
      probed++;
      const e = await answer(p);
      if (!e) problems.push(`${type} ${p.show}: no error in 10 s`);
      else if (!(e.violations ?? []).some((v) => related(v.field, p.field)))
        problems.push(`${type} ${p.show}: the error names ${(e.violations ?? []).map((v) => v.field).join(', ')}, not ${p.field}`);
      if (ws.readyState !== WebSocket.OPEN) throw new Error(`${type} ${p.show}: the server closed the connection`);
    }
  }
  expect(problems).toEqual([]);
  expect(probed).toBeGreaterThan(100);
  expect(await tablesSnapshot(s.db)).toBe(before);
}, 300_000);

it("answers a message type named after an object's own members (constructor, __proto__, toString) as any unknown type", async () => {
  const before = await tablesSnapshot(s.db);
  for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    const e = await answer({ body: { type }, field: 'type', show: `type ${type}` });
    expect(
      e?.violations?.map((v) => v.field),
      type,
    ).toEqual(['type']);
    expect(ws.readyState, type).toBe(WebSocket.OPEN);
  }
  expect(await tablesSnapshot(s.db)).toBe(before);
});
