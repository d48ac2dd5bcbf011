// The edge's journal (issue 47) on a real disk: events numbered in order, kept across a reopen (a kill of the edge),
// a line torn by a crash mid-write dropped and the numbers going on after the last whole one, and what the server
// acknowledged kept apart so nothing pending is lost and nothing delivered is sent again; bounded, never losing an undelivered one.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from './journal';

const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'gatehouse-journal-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const event = (n: number) => ({
  at: 1_000 + n,
  offline: true,
  snapshotVersion: 3,
  eventCode: 5000,
  sourceId: 'reader-1',
  sourceName: null,
  message: `swipe ${n}`,
});

describe('the edge journal', () => {
  it('numbers events in order and keeps them, and what was delivered, across a reopen', () => {
    const d = dir();
    const j = openJournal(d);
    expect([1, 2, 3].map((n) => j.append(event(n)).seq)).toEqual([1, 2, 3]);
    j.delivered(2);
    j.close(); // as a kill leaves it: every append was fsync'd, nothing else written
    const again = openJournal(d);
    expect(again.pending().map((e) => [e.seq, e.message])).toEqual([[3, 'swipe 3']]);
    expect(again.lastDelivered).toBe(2);
    expect(again.append(event(4)).seq).toBe(4);
    again.delivered(1); // never goes back
    expect(again.pending().map((e) => e.seq)).toEqual([3, 4]);
    again.close();
  });

  it('notes no delivery once closed: an upload answered after the edge stopped writes nothing, even with its directory gone', () => {
    const d = dir();
    const j = openJournal(d);
    for (const n of [1, 2, 3]) j.append(event(n));
    j.delivered(1);
    j.close(); // the edge stopped; an upload of 2 and 3 was in flight
    j.delivered(3);
    expect(j.lastDelivered).toBe(1);
    rmSync(d, { recursive: true, force: true }); // the bench and tests remove the directory after stop()
    expect(() => j.delivered(3)).not.toThrow(); // (it threw ENOENT from the upload's answer: the process ended)
  });

  it('drops a line torn by a crash mid-write and numbers on after the last whole one', () => {
    const d = dir();
    const j = openJournal(d);
    j.append(event(1));
    j.append(event(2));
    j.close();
    appendFileSync(join(d, 'journal.ndjson'), '{"seq":3,"at":10');
    const again = openJournal(d);
    expect(again.all().map((e) => e.seq)).toEqual([1, 2]);
    expect(again.append(event(3)).seq).toBe(3);
    again.close();
    const lines = readFileSync(join(d, 'journal.ndjson'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3]);
  });

  it('is bounded: past its limit the oldest delivered events go, never an undelivered one', () => {
    const d = dir();
    const j = openJournal(d, { limit: 10 });
    for (let n = 1; n <= 40; n++) {
      j.append(event(n));
      if (n <= 30) j.delivered(n);
    }
    const lines = () =>
      readFileSync(join(d, 'journal.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).seq as number);
    expect(lines().length).toBeLessThanOrEqual(11);
    expect(lines().at(-1)).toBe(40);
    // nothing delivered for a while: every undelivered one stays, however many
    for (let n = 41; n <= 70; n++) j.append(event(n));
    expect(lines().filter((seq) => seq > 30)).toEqual(Array.from({ length: 40 }, (_, i) => 31 + i));
    j.close();
    const again = openJournal(d, { limit: 10 });
    expect(again.pending().map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => 31 + i));
    expect(again.append(event(71)).seq).toBe(71);
    again.close();
  });

  it('numbers on after what the server already has when its data directory is new', () => {
    const j = openJournal(dir());
    j.startAfter(41);
    expect(j.append(event(1)).seq).toBe(42);
    expect(j.pending().map((e) => e.seq)).toEqual([42]);
    j.close();
  });

  it('goes back to what a restored server has: read from the file past what memory holds, a number the file lost sent as one Edge events lost', () => {
    const d = dir();
    const j = openJournal(d);
    for (let n = 1; n <= 1_100; n++) j.append(event(n));
    j.delivered(1_100); // memory keeps the newest 1,000 delivered; the file all 1,100
    expect(j.all()[0].seq).toBe(101);
    expect(j.rewind(2_000, { id: 7, name: 'Gate' })).toBeNull(); // the server has more: nothing to go back for
    expect(j.rewind(40, { id: 7, name: 'Gate' })).toEqual({ again: 1_060, lost: 0 });
    expect(j.pending().map((e) => e.seq)).toEqual(Array.from({ length: 1_060 }, (_, i) => 41 + i));
    expect(j.lastDelivered).toBe(40);
    j.close();
    // kept across a reopen: the mark is on disk
    expect(openJournal(d).pending()[0].seq).toBe(41);

    // a file compacted past its bound no longer has the oldest: they go as one Edge events lost, in their numbers' place
    const sd = dir();
    const first = openJournal(sd, { limit: 10 });
    for (let n = 1; n <= 40; n++) {
      first.append(event(n));
      first.delivered(n);
    }
    first.close();
    const small = openJournal(sd, { limit: 10 }); // started again: memory holds what the file has
    const oldest = small.all()[0].seq;
    expect(oldest).toBeGreaterThan(6);
    expect(small.rewind(5, { id: 7, name: 'Gate' })).toEqual({ again: 40 - oldest + 1, lost: oldest - 1 - 5 });
    const [gap, next] = small.pending();
    expect(gap).toMatchObject({ seq: oldest - 1, eventCode: 1032, sourceId: 'ctrl-7', lost: { count: oldest - 6 } });
    expect(next.seq).toBe(oldest);
    // stopped at once (kill -9: never closed) before the server has the lost numbers: started again, the server's
    // welcome asks for the same rewind, and they are said again in their place, the rest after them
    const again = openJournal(sd, { limit: 10 });
    expect(again.rewind(5, { id: 7, name: 'Gate' })).toEqual({ again: 40 - oldest + 1, lost: oldest - 1 - 5 });
    expect(again.pending().map((e) => e.seq)).toEqual(Array.from({ length: 40 - oldest + 2 }, (_, i) => oldest - 1 + i));
    expect(again.pending()[0]).toMatchObject({ eventCode: 1032, lost: { count: oldest - 6 } });
    // once the server has stored them, the mark moves on as ever
    again.delivered(oldest);
    expect(openJournal(sd, { limit: 10 }).pending()[0].seq).toBe(oldest + 1);
    small.close();
    again.close();
  });
});
