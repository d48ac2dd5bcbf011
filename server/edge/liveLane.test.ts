// The live lane (issue 47): an edge sending its journal's backlog after an outage sends an event it journals while
// online at once beside it (`edge.live`). The server stores it ahead of the controller's last number, before the
// backlog's remaining batches, and notes its number in the event's own transaction (edge_seq_ahead): a resend, or the
// backlog's copy when the round reaches it, is a duplicate; the last number passes over it; the note goes. A door's
// status is its newest event's by when it happened, so the backlog's older door event does not move it back. A server
// that did not know a number was stored ahead (another server took it) refuses the batch that would store it twice
// (503, sent again), and the resend skips it. Then a real edge: a swipe during its resync reaches the consoles before
// its backlog, and every journal number is stored once.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES } from '../../contract';
import { DECISION_EVENT_CODES } from '../../contract/decision';
import { openJournal, type JournalEntry } from '../../edge/journal';
import { edgeOfFirstController, until, type EdgeFixture } from '../../edge/testPeers';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let f: EdgeFixture;
let hold: Promise<void> | null = null;
let release = () => {};
/** ms each transaction of the pipeline waits before it is written (the real edge's case: a resync that takes a while) */
let slow = 0;
const published: number[] = []; // event ids in the order the pipeline published them

beforeAll(async () => {
  s = await startTestServer({
    beforeIngestWrite: async () => {
      await hold;
      if (slow) await new Promise((r) => setTimeout(r, slow));
    },
  });
  f = await edgeOfFirstController(s);
  s.app.pipeline.onCommitted((_c, e) => published.push(Number(e.id)));
}, 60_000);
afterAll(async () => {
  release();
  await f?.close();
});

const lastSeq = async () =>
  Number((await s.db.query<{ n: string }>('select last_seq::text n from edge_controllers where controller_id = $1', [f.controller])).rows[0]?.n ?? 0);
const aheadRows = async () =>
  (await s.db.query<{ seq: string }>('select seq::text from edge_seq_ahead where controller_id = $1 order by seq', [f.controller])).rows.map((r) =>
    Number(r.seq),
  );
const doorStatus = async () => (await s.db.query<{ status: string }>('select status from doors where id = $1', [f.door])).rows[0].status;
type Part = { seq: number; offline: boolean; live?: boolean; occurredAt?: number };
/** Events of the controller: a door event (`code`) at its door, its journal number and how it was sent. */
const events = (parts: Part[], marker: string, code: number = EVENT_CODES.doorClosed) => ({
  events: parts.map((p) => ({
    controllerId: f.controller,
    eventCode: code,
    sourceId: `door-${f.door}`,
    message: `${marker} ${p.seq}`,
    edge: { seq: p.seq, occurredAt: p.occurredAt ?? Date.now(), offline: p.offline, snapshotVersion: 1, ...(p.live ? { live: true } : {}) },
  })),
});
const range = (from: number, n: number, part: Omit<Part, 'seq'>): Part[] => Array.from({ length: n }, (_, k) => ({ seq: from + k, ...part }));
const post = (b: unknown) => s.call('POST', API.deviceEvents, { headers: { authorization: `Bearer ${f.key}` }, body: b });
const idsOf = async (marker: string) =>
  (await s.db.query<{ id: string }>('select id from events where message like $1 order by id', [`${marker} %`])).rows.map((r) => Number(r.id));

describe('the live lane, on the device interface', () => {
  it("stores a live event ahead of the backlog and publishes it before the backlog's remaining batches; its copies are duplicates, the mark passes it", async () => {
    const a = (await lastSeq()) + 1;
    const now = Date.now();
    hold = new Promise<void>((r) => (release = r));
    // the backlog: three batches of 500 journaled offline (the first is cut for the held writer, two wait behind it),
    // its last event the door unlocked a minute ago
    const backlog = [post(events(range(a, 500, { offline: true, occurredAt: now - 120_000 }), 'backlog'))];
    await until('the first batch queued', () => s.app.pipeline.backlog() >= 500);
    backlog.push(post(events(range(a + 500, 500, { offline: true, occurredAt: now - 120_000 }), 'backlog')));
    await until('the second batch queued', () => s.app.pipeline.backlog() >= 1000);
    backlog.push(
      post({
        events: [
          ...events(range(a + 1000, 499, { offline: true, occurredAt: now - 120_000 }), 'backlog').events,
          ...events([{ seq: a + 1499, offline: true, occurredAt: now - 60_000 }], 'backlog', EVENT_CODES.doorUnlocked).events,
        ],
      }),
    );
    await until('the third batch queued', () => s.app.pipeline.backlog() >= 1500);
    // journaled online after the outage (its backlog goes on to a + 1999, not sent yet), sent at once beside it: the
    // door locked now
    const live = post(events([{ seq: a + 2000, offline: false, live: true, occurredAt: now }], 'ahead', EVENT_CODES.doorLocked));
    await until('the live event queued', () => s.app.pipeline.backlog() >= 1501);
    release();
    hold = null;
    const answered = await live;
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.accepted).toBe(1);
    for (const r of await Promise.all(backlog)) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [backlogIds, [ahead]] = [await idsOf('backlog'), await idsOf('ahead')];
    expect(backlogIds).toHaveLength(1500);
    // the first batch was being written already; the live event goes before the 1,000 events still waiting
    expect(ahead).toBeLessThan(backlogIds[500]);
    expect(published.indexOf(ahead)).toBeLessThan(published.indexOf(backlogIds[500]));
    // stored ahead: the mark is the backlog's end, its number noted apart
    expect(await lastSeq()).toBe(a + 1499);
    expect(await aheadRows()).toEqual([a + 2000]);
    // the door is the live event's (newer), not the backlog's door unlocked of a minute ago, stored after it
    expect(await doorStatus()).toBe('locked');

    // the live send again (its answer lost): a duplicate
    const again = await post(events([{ seq: a + 2000, offline: false, live: true, occurredAt: now }], 'ahead', EVENT_CODES.doorLocked));
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 1, edgeLastSeq: a + 1499 });
    // the round goes on: the rest of the backlog, then its copy (a duplicate) and the next one; the mark passes over
    // it and the note goes
    expect((await post(events(range(a + 1500, 500, { offline: true, occurredAt: now - 120_000 }), 'backlog'))).body).toMatchObject({ accepted: 500 });
    const round = await post(
      events(
        [
          { seq: a + 2000, offline: false, occurredAt: now },
          { seq: a + 2001, offline: false, occurredAt: now - 1000 },
        ],
        'round',
      ),
    );
    expect(round.body).toMatchObject({ accepted: 1, duplicates: 1, edgeLastSeq: a + 2001 });
    expect(await idsOf('ahead')).toHaveLength(1);
    expect(await idsOf('round')).toHaveLength(1);
    expect(await aheadRows()).toEqual([]);
    expect(await doorStatus()).toBe('locked');
  });

  it('a live event the backlog has already passed is a duplicate; one after a gap the round has not reached waits for it', async () => {
    const a = (await lastSeq()) + 1;
    expect((await post(events([{ seq: a, offline: false }], 'plain'))).body).toMatchObject({ accepted: 1, edgeLastSeq: a });
    expect((await post(events([{ seq: a, offline: false, live: true }], 'plain'))).body).toMatchObject({ accepted: 0, duplicates: 1 });
    // two live events ahead, then the round with the two before them and their copies: each stored once, in the end
    expect(
      (
        await post(
          events(
            [a + 3, a + 4].map((seq) => ({ seq, offline: false, live: true })),
            'twice',
          ),
        )
      ).body,
    ).toMatchObject({ accepted: 2 });
    expect(await aheadRows()).toEqual([a + 3, a + 4]);
    // the round's first batch stops short of them: they stay noted
    expect((await post(events(range(a + 1, 2, { offline: true }), 'twice'))).body).toMatchObject({ accepted: 2, edgeLastSeq: a + 2 });
    expect(await aheadRows()).toEqual([a + 3, a + 4]);
    // its next batch is only their copies: nothing stored, the mark moves over both
    expect((await post(events(range(a + 3, 2, { offline: false }), 'twice'))).body).toMatchObject({ accepted: 0, duplicates: 2, edgeLastSeq: a + 4 });
    expect(await aheadRows()).toEqual([]);
    expect(await idsOf('twice')).toHaveLength(4);
  });

  it('a number another server stored ahead, unknown here, refuses the batch that would store it twice (503, nothing stored); sent again, it is skipped', async () => {
    const a = (await lastSeq()) + 1;
    // (another server of the installation stored a + 1 ahead: its note and its event, this server's memory unaware)
    expect((await post(events([{ seq: a, offline: false }], 'other'))).status).toBe(200);
    await s.db.query('insert into edge_seq_ahead (controller_id, seq) values ($1, $2)', [f.controller, a + 1]);
    const refused = await post(events(range(a + 1, 3, { offline: true }), 'other'));
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.body.code).toBe('ingest.sendAgain');
    expect(await idsOf('other')).toHaveLength(1);
    expect(await lastSeq()).toBe(a);
    const sentAgain = await post(events(range(a + 1, 3, { offline: true }), 'other'));
    expect(sentAgain.body).toMatchObject({ accepted: 2, duplicates: 1, edgeLastSeq: a + 3 });
    expect(await aheadRows()).toEqual([]);
  });
});

describe('the live lane, with a real edge', () => {
  it('a swipe at a resyncing edge reaches the consoles before its backlog, and every journal number is stored once', async () => {
    const dataDir = f.dataDir();
    const first = f.edge({ dataDir });
    await until('online', () => first.link.online && first.store.held);
    await until('nothing left to send', () => first.journal.pendingCount() === 0);
    first.stop();
    // the outage's journal: 2,000 swipes decided offline (written as the edge journals them)
    const journal = openJournal(dataDir);
    const from = journal.lastSeq;
    journal.close();
    const at = Date.now() - 3_600_000;
    const lines: string[] = [];
    for (let i = 1; i <= 2000; i++) {
      const entry: JournalEntry = {
        seq: from + i,
        at: at + i * 50,
        offline: true,
        snapshotVersion: 1,
        eventCode: DECISION_EVENT_CODES['unknown-credential'],
        sourceId: `reader-${f.door}`,
        sourceName: 'Lane reader',
        pointId: `reader-${f.door}`,
        pointName: 'Lane reader',
        message: `Unknown card: card 77${i} at a lane door`,
        decided: { identityId: null, decision: 'denied', reason: 'unknown-credential', card: `77${i}`, doorId: f.door, side: 'entry' },
      };
      lines.push(JSON.stringify(entry));
    }
    appendFileSync(join(dataDir, 'journal.ndjson'), `${lines.join('\n')}\n`);
    // each transaction takes a while (a busy server): the round of 2,000 in batches of 50 takes some seconds
    slow = 150;
    try {
      const edge = f.edge({ dataDir, uploadBatch: 50 });
      await until('online, the round under way', () => edge.link.online && edge.journal.lastDelivered > from);
      const before = await lastSeq();
      expect(before).toBeLessThan(from + 2000);
      edge.swipe({ doorId: f.door, card: '7799999' });
      const swipe = await until(
        'the swipe stored',
        async () =>
          (
            await s.db.query<{ id: string; seq: number; live: string | null }>(
              `select id, (swipe->'edge'->>'seq')::int seq, swipe->'edge'->>'live' live from events where swipe->'edge'->>'seq' = $1`,
              [String(from + 2001)],
            )
          ).rows[0],
        30_000,
      );
      // stored ahead: the backlog was not through when the swipe reached the consoles; the stored swipe says it went ahead
      expect(await lastSeq()).toBeLessThan(from + 2000);
      expect(swipe.live).toBe('true');
      expect(published).toContain(Number(swipe.id));
      await until('the whole journal delivered', () => edge.journal.pendingCount() === 0, 60_000);
      expect(await lastSeq()).toBe(from + 2001);
      expect(await aheadRows()).toEqual([]);
      const stored = (
        await s.db.query<{ seq: number; n: string }>(
          `select (swipe->'edge'->>'seq')::int seq, count(*)::text n from events where event_source_id = $1 and (swipe->'edge'->>'seq')::int > $2 group by 1 order by 1`,
          [`reader-${f.door}`, from],
        )
      ).rows;
      expect(stored.map((r) => r.seq)).toEqual(Array.from({ length: 2001 }, (_, k) => from + 1 + k));
      expect(stored.every((r) => r.n === '1')).toBe(true);
    } finally {
      slow = 0;
    }
  }, 120_000);
});
