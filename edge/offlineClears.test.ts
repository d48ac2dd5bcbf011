// Alarms raised and back to normal while the edge was offline (issue 47), read over the whole journal: the answers below
// are worked out by hand from the events listed, not by running the reader twice.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from './journal';
import { DEFAULT_ALARM_CODES, createOfflineClears } from './offlineClears';

const FORCED = 6001; // a default alarm type (door forced open)
const CLOSED = 6000; // raises none
const entry = (seq: number, eventCode: number, point: string, offline = true): JournalEntry => ({
  seq,
  at: 1_000 * seq,
  offline,
  snapshotVersion: 1,
  eventCode,
  sourceId: point,
  sourceName: null,
  message: `event ${seq}`,
});
const defaults = new Set(DEFAULT_ALARM_CODES);

describe('alarms back to normal while offline', () => {
  it('finds the return however far it came: 3,000 events of other points between (the old look-ahead stopped at 2,000)', () => {
    const events = [entry(1, FORCED, 'door-1')];
    for (let s = 2; s <= 3_001; s++) events.push(entry(s, CLOSED, 'door-2'));
    events.push(entry(3_002, CLOSED, 'door-1'));
    const clears = createOfflineClears();
    expect([...clears.read(events, defaults, events.slice(0, 500), 1)]).toEqual([[1, 3_002_000]]);
  });

  it('a return to normal back online clears the alarm raised offline too (the live lane may store it before them); an alarm again after it is a new one', () => {
    const events = [entry(1, FORCED, 'door-1'), entry(2, CLOSED, 'door-1', false), entry(3, FORCED, 'door-1'), entry(4, CLOSED, 'door-1')];
    expect([...createOfflineClears().read(events, defaults, events, 1)]).toEqual([
      [1, 2_000],
      [3, 4_000],
    ]);
  });

  it('an alarm again back online is heard live; the one raised offline is cleared by the return after both', () => {
    const events = [entry(1, FORCED, 'door-1'), entry(2, FORCED, 'door-1', false), entry(3, CLOSED, 'door-1', false)];
    expect([...createOfflineClears().read(events, defaults, events, 1)]).toEqual([[1, 3_000]]);
  });

  it('two alarms of one point before its return both returned then; another point’s return is not theirs', () => {
    const events = [entry(1, FORCED, 'door-1'), entry(2, FORCED, 'door-1'), entry(3, CLOSED, 'door-2'), entry(4, CLOSED, 'door-1')];
    expect([...createOfflineClears().read(events, defaults, events, 1)]).toEqual([
      [1, 4_000],
      [2, 4_000],
    ]);
  });

  it('the client’s own alarm codes count, and a code that is an alarm nowhere else', () => {
    const OWN = 2000; // an input's event the client made an alarm type of
    const events = [entry(1, OWN, 'input-7'), entry(2, CLOSED, 'input-7')];
    expect(createOfflineClears().read(events, defaults, events, 1).size).toBe(0);
    expect([...createOfflineClears().read(events, new Set([...DEFAULT_ALARM_CODES, OWN]), events, 1)]).toEqual([[1, 2_000]]);
  });

  it('reads on from where it stopped as events are appended, answers a batch sent again the same, and is only about the batch', () => {
    const clears = createOfflineClears();
    const first = [entry(1, FORCED, 'door-1'), entry(2, CLOSED, 'door-2')];
    expect(clears.read(first, defaults, first, 1).size).toBe(0); // not back yet
    const later = [...first, entry(3, CLOSED, 'door-1')];
    // the journal again, with the event appended since: what was read is not read twice (it would not change the answer)
    expect([...clears.read(later, defaults, first, 1)]).toEqual([[1, 3_000]]);
    expect([...clears.read(later, defaults, first, 1)]).toEqual([[1, 3_000]]); // the same batch sent again
    expect(clears.read(later, defaults, [later[2]], 3).size).toBe(0); // a batch without the alarm
  });

  it('forgets what was delivered only now and then, never what a batch still to be sent needs', () => {
    const clears = createOfflineClears();
    const events: JournalEntry[] = [];
    for (let s = 1; s <= 30_000; s += 2) events.push(entry(s, FORCED, `door-${s}`), entry(s + 1, CLOSED, `door-${s}`));
    const batch = events.slice(20_000, 20_010); // seqs 20,001–20,010
    expect([...clears.read(events, defaults, batch, 20_001)]).toEqual([
      [20_001, 20_002_000],
      [20_003, 20_004_000],
      [20_005, 20_006_000],
      [20_007, 20_008_000],
      [20_009, 20_010_000],
    ]);
    // what came before the first undelivered one (20,001) was forgotten; the next batch still has its answer
    expect([...clears.read(events, defaults, events.slice(0, 2), 20_011)]).toEqual([]);
    expect([...clears.read(events, defaults, events.slice(20_010, 20_012), 20_011)]).toEqual([[20_011, 20_012_000]]);
  });
});
