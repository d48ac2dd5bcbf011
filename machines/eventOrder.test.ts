import { describe, expect, it } from 'vitest';
import type { Event } from '../contract';
import { MAX_ROWS, mergeEvents } from './eventOrder';

const ev = (id: number | string, time: string): Event =>
  ({
    id,
    eventCode: 1000,
    eventSourceId: 1,
    eventPointName: null,
    eventSourceName: null,
    message: `#${id}`,
    alert: false,
    acknowledge: false,
    process: false,
    eventPoint: [],
    time,
    priority: 100,
  }) as Event;
const ids = (rows: readonly Event[]) => rows.map((e) => e.id);
const day = (d: number, hh = '09') => `2026-11-${String(d).padStart(2, '0')}T${hh}:00:00.000Z`;

describe('the Events screen\u2019s merge of live rows and history (issue 29: history came below in rising day order)', () => {
  it('lists the history read on first start newest first below the live rows that arrived before it', () => {
    const live = mergeEvents([], [ev(501, day(28, '10')), ev(502, day(28, '11'))]); // a socket batch, oldest first
    expect(ids(live)).toEqual([502, 501]);
    // the history page as the server answers it (id desc), older days
    const history = [ev(500, day(27)), ev(499, day(26)), ev(498, day(25))];
    expect(ids(mergeEvents(live, history))).toEqual([502, 501, 500, 499, 498]);
    // and in whatever order a page arrives (oldest first, shuffled)
    expect(ids(mergeEvents(live, [...history].reverse()))).toEqual([502, 501, 500, 499, 498]);
    expect(ids(mergeEvents(live, [history[1], history[2], history[0]]))).toEqual([502, 501, 500, 499, 498]);
  });

  it('orders by the event\u2019s time, not its id (imported or seeded rows whose ids rise as their days fall)', () => {
    const seeded = [ev(10, day(27)), ev(11, day(26)), ev(12, day(25))];
    expect(ids(mergeEvents([], seeded))).toEqual([10, 11, 12]);
    expect(ids(mergeEvents([ev('live-1', day(28))], seeded))).toEqual(['live-1', 10, 11, 12]);
  });

  it('breaks a tie of one instant by the higher stored id, keeps one row per id (the newer copy) and at most max', () => {
    expect(ids(mergeEvents([ev(7, day(20))], [ev(9, day(20)), ev(8, day(20))]))).toEqual([9, 8, 7]);
    const updated = { ...ev(7, day(20)), acknowledge: true };
    const merged = mergeEvents([ev(7, day(20)), ev(6, day(19))], [updated]);
    expect(merged).toHaveLength(2);
    expect(merged[0]).toBe(updated);
    const many = Array.from({ length: MAX_ROWS + 50 }, (_, i) => ev(i + 1, new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()));
    const kept = mergeEvents([], many);
    expect(kept).toHaveLength(MAX_ROWS);
    expect(kept[0].id).toBe(MAX_ROWS + 50);
    expect(kept.at(-1)!.id).toBe(51);
  });
});
