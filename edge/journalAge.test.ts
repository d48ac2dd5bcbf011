// The journal's age bound (issue 47), over the real edge and server: an edge offline keeps its undelivered events for
// 30 days at most (its clock injected, moved 31 days on, no sleeps); the older ones are dropped, counted, and stand as
// one Edge events lost while offline (1032) in their numbers' place, kept across a restart; back online, the server
// takes it in place of the numbers it stands for, raises its alarm ("… lost while offline: N, from … to …"), and stores
// what followed once and in order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CODES } from '../contract';
import { startTestServer, type TestServer } from '../server/testkit';
import { edgeOfFirstController, proxyTo, until, type EdgeFixture } from './testPeers';
import type { JournalEntry } from './journal';

const DAY = 86_400_000;
let s: TestServer;
let f: EdgeFixture;
let controller: number;
let door: number;

beforeAll(async () => {
  s = await startTestServer();
  f = await edgeOfFirstController(s);
  ({ controller, door } = f);
}, 60_000);
afterAll(async () => {
  await (f ? f.close() : s?.close());
});

describe('the journal’s 30 days', () => {
  it('drops undelivered events past 30 days offline, counted; the server takes the gap event in their place and raises its alarm', async () => {
    const proxy = await proxyTo(Number(new URL(s.base).port));
    const dataDir = f.dataDir('h2-edge-age-');
    let clock = Date.now();
    const start = (server: string) => f.edge({ server, dataDir, now: () => clock });
    try {
      let edge = start(proxy.url());
      await until('online', () => edge.link.online && edge.store.held);
      await until('nothing left to send', () => edge.journal.pendingCount() === 0);
      await proxy.cut();
      await until('offline', () => !edge.link.online);
      const first = clock;
      for (let i = 0; i < 4; i++) {
        clock = first + i * DAY;
        edge.swipe({ doorId: door, card: `9100${i}` });
      }
      const old = edge.journal.pendingCount();
      const lastOld = edge.journal.lastSeq;
      expect(old).toBeGreaterThanOrEqual(4);
      expect(edge.journal.all().some((e) => e.eventCode === EVENT_CODES.edgeEventsLost)).toBe(false); // 3 days: kept
      // 31 days after the first: the events of its first day go, those of the next days stay
      clock = first + 31 * DAY;
      edge.swipe({ doorId: door, card: '91010' });
      const pending = edge.journal.pending();
      expect(pending[0]).toMatchObject({ eventCode: EVENT_CODES.edgeEventsLost, offline: true, lost: { from: first, to: first } });
      const dropped = pending[0].lost!.count;
      expect(dropped).toBeGreaterThanOrEqual(1);
      expect(pending.length).toBe(old - dropped + 1 + (edge.journal.lastSeq - lastOld));
      // two days later still offline: the next day's events join the same count (one gap event, from the first day)
      clock = first + 33 * DAY;
      edge.swipe({ doorId: door, card: '91011' });
      const gap = edge.journal.pending()[0];
      expect(gap.lost).toMatchObject({ from: first, to: first + 2 * DAY });
      expect(gap.lost!.count).toBeGreaterThan(dropped);
      expect(edge.journal.pending().filter((e) => e.eventCode === EVENT_CODES.edgeEventsLost)).toHaveLength(1);
      // on disk too: a restart reads the gap event first, its numbers running on
      edge.stop();
      const lines = readFileSync(join(dataDir, 'journal.ndjson'), 'utf8').split('\n').filter(Boolean);
      expect((JSON.parse(lines[0]) as JournalEntry).seq).toBe(gap.seq);
      expect(lines.map((l) => (JSON.parse(l) as JournalEntry).seq)).toEqual(lines.map((_, i) => gap.seq + i));
      edge = start(proxy.url());
      expect(edge.journal.pending()[0]).toEqual(gap);
      const lastSeq = edge.journal.lastSeq;
      await proxy.restore();
      await until('everything delivered', () => edge.link.online && edge.journal.pendingCount() === 0);
      const stored = await s.db.query<{ id: string; message: string; state: string | null; message_code: string; message_values: unknown }>(
        `select e.id, e.message, e.message_code, e.message_values, a.state from events e left join alarms a on a.event_id = e.id
          where e.event_code = $1 and e.event_point_id = $2 order by e.id`,
        [EVENT_CODES.edgeEventsLost, `journal-lost-${controller}`],
      );
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0].state).toBe('raised');
      expect(stored.rows[0].message).toMatch(new RegExp(`^Edge events lost while offline: ${gap.lost!.count}, from \\d{4}-\\d\\d-\\d\\d .+ to .+`));
      // issue 48: said by its key, its numbers and times as values, when it happened beside them (src/i18n says them)
      const values = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, string | number>;
      expect(stored.rows[0].message_code).toBe('event.edgeEventsLost');
      expect(values(stored.rows[0].message_values)).toMatchObject({ event: 'Edge events lost while offline', count: gap.lost!.count });
      expect(values(stored.rows[0].message_values).from).toBe(`${new Date(first).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
      expect(typeof values(stored.rows[0].message_values).offlineAt).toBe('string');
      const { rows: seqRow } = await s.db.query<{ n: string }>('select last_seq::text as n from edge_controllers where controller_id = $1', [controller]);
      expect(Number(seqRow[0].n)).toBe(lastSeq);
      // the dropped swipes never reached the server; the kept ones did, once each
      const swipes = await s.db.query<{ message: string; message_code: string; message_values: unknown }>(
        `select message, message_code, message_values from events where message like '%(card 910%' order by id`,
      );
      expect(swipes.rows.map((r) => /card (\d+)/.exec(r.message)![1])).toEqual(['91003', '91010', '91011']);
      // each decided offline at the edge: said by its key, the card a value, when it happened beside it
      expect(swipes.rows.map((r) => [r.message_code, values(r.message_values).card, typeof values(r.message_values).offlineAt])).toEqual(
        ['91003', '91010', '91011'].map((card) => ['event.swipeCard', card, 'string']),
      );
    } finally {
      proxy.close();
    }
  });

  it('an edge offline and idle drops them on its own timer, journaling nothing new', async () => {
    const proxy = await proxyTo(Number(new URL(s.base).port));
    const dataDir = f.dataDir('h2-edge-idle-');
    let clock = Date.now();
    const edge = f.edge({ server: proxy.url(), dataDir, now: () => clock, journalCheckMs: 50 });
    try {
      await until('online', () => edge.link.online && edge.store.held);
      await until('nothing left to send', () => edge.journal.pendingCount() === 0);
      await proxy.cut();
      await until('offline', () => !edge.link.online);
      const first = clock;
      edge.swipe({ doorId: door, card: '92000' });
      edge.swipe({ doorId: door, card: '92001' });
      const before = edge.journal.pendingCount();
      const lastSeq = edge.journal.lastSeq;
      // 29 days on, idle: the timer looks and keeps them
      clock = first + 29 * DAY;
      await new Promise((r) => setTimeout(r, 300));
      expect(edge.journal.pendingCount()).toBe(before);
      // 31 days on, still idle (no swipe, no reconnect): the timer drops them, one Events lost in their place
      clock = first + 31 * DAY;
      const gap = await until('the idle edge’s timer drops what passed the bound', () =>
        edge.journal.pending().find((e) => e.eventCode === EVENT_CODES.edgeEventsLost),
      );
      expect(gap).toMatchObject({ seq: lastSeq, offline: true, lost: { count: before, from: first, to: first } });
      expect(edge.journal.pendingCount()).toBe(1);
      expect(edge.journal.lastSeq).toBe(lastSeq); // nothing journaled but the gap, in the last dropped one's number
      const lines = readFileSync(join(dataDir, 'journal.ndjson'), 'utf8').split('\n').filter(Boolean);
      expect((JSON.parse(lines[0]) as JournalEntry).eventCode).toBe(EVENT_CODES.edgeEventsLost);
      expect(lines.some((l) => /card 9200/.test(l))).toBe(false);
    } finally {
      proxy.close();
    }
  });
});
