// What the screens read of their actors (the selectors files of machines/: tour, tabs, liveEvents, resourceList,
// journal, and the Events screen's order in eventOrder.ts), each rule written down here apart from the selectors and
// fed hand-made snapshots whose answers are worked out by hand (the mutation run of 2026-12-03, docs/TESTING.md
// "Mutation score": the model tests read a few of them on the states their paths reach, and their boundaries passed
// weakened).
import { describe, expect, it } from 'vitest';
import type { Event, JournalEntry } from '../contract';
import type { TourSnapshot } from '../machines/tour';
import { selectTourIsFirst, selectTourIsLast, selectTourIsShowing, selectTourProgress, selectTourStep } from '../machines/tour.selectors';
import type { TabsSnapshot } from '../machines/tabs';
import { selectCachedPaths, selectCurrentPath, selectViews } from '../machines/tabs.selectors';
import type { LiveEventsSnapshot } from '../machines/liveEvents';
import {
  passesFilter,
  selectAlertsOnly,
  selectCarry,
  selectFilterText,
  selectHeldCount,
  selectHistoryFilters,
  selectPaused,
  selectShownEvents,
} from '../machines/liveEvents.selectors';
import type { ResourceListSnapshot } from '../machines/resourceList';
import { pagerOf, sameListView, selectListView, selectPager } from '../machines/resourceList.selectors';
import type { ReplayViewerContext } from '../machines/journal';
import { selectJournalActors, selectTimeline } from '../machines/journal.selectors';
import { mergeEvents, newestFirst } from '../machines/eventOrder';
import type { SessionSnapshot } from '../machines/session';
import { selectPhonePlaceholder } from '../machines/phone.selectors';
import { phonePlaceholder } from '../contract/phone';

const ev = (id: number | string, o: Partial<Event> = {}): Event =>
  ({ id, time: '2026-12-03T10:00:00.000Z', eventCode: 20000, message: `Door ${id} opened`, eventPointName: null, alert: false, ...o }) as unknown as Event;

describe('tour selectors', () => {
  const steps = [
    { target: '[data-tour="sidebar"]', title: 'Navigation', text: 'a' },
    { target: '[data-tour="tabs"]', title: 'Tabs', text: 'b' },
    { target: '[data-tour="profile"]', title: 'Profile', text: 'c' },
  ];
  const snap = (value: 'hidden' | 'showing', step: number, s = steps) =>
    ({ matches: (v: string) => v === value, context: { steps: s, step, base: s } }) as unknown as TourSnapshot;
  it('show the step on screen only while showing, its place "n of count", and whether it is the first or the last', () => {
    expect([selectTourIsShowing(snap('showing', 0)), selectTourIsShowing(snap('hidden', 0))]).toEqual([true, false]);
    expect(selectTourStep(snap('showing', 1))).toBe(steps[1]);
    expect(selectTourStep(snap('hidden', 1))).toBeNull();
    expect(selectTourStep(snap('showing', 3))).toBeNull(); // past the last: nothing, not undefined
    expect(selectTourProgress(snap('showing', 2))).toEqual({ index: 2, count: 3 });
    expect([0, 1, 2].map((i) => [selectTourIsFirst(snap('showing', i)), selectTourIsLast(snap('showing', i))])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });
});

describe('tabs selectors', () => {
  it('read the views, the kept-alive paths and the current path as the context holds them', () => {
    const context = { views: [{ path: '/a', title: 'A' }], cached: ['/a'], currentPath: '/a' };
    const s = { context } as unknown as TabsSnapshot;
    expect([selectViews(s), selectCachedPaths(s), selectCurrentPath(s)]).toEqual([context.views, context.cached, '/a']);
  });
});

describe('live events selectors', () => {
  type Ctx = LiveEventsSnapshot['context'];
  const snap = (c: Partial<Ctx>, value = 'loaded') =>
    ({ value, context: { rows: [], held: [], paused: false, filter: '', alertsOnly: false, seq: 0, reading: {}, ...c } }) as unknown as LiveEventsSnapshot;

  it('pass an event by its words or point name (any case, trimmed) or exactly its code; "alarms only" passes alarms only', () => {
    const door = ev(1, { message: 'Door FORCED open', eventCode: 20500, eventPointName: 'Bay Gate', alert: true });
    const cases: Array<[string, boolean, boolean]> = [
      ['', false, true],
      ['  forced ', false, true],
      ['bay gate', false, true],
      ['20500', false, true],
      ['2050', false, false], // a code is matched whole, not as words
      ['lobby', false, false],
      ['', true, true],
    ];
    for (const [text, alertsOnly, passes] of cases) expect([text, alertsOnly, passesFilter(door, text, alertsOnly)]).toEqual([text, alertsOnly, passes]);
    const quiet = ev(2, { message: 'Door closed', eventCode: 20000, eventPointName: undefined, alert: false });
    expect(passesFilter(quiet, '', true)).toBe(false);
    expect(passesFilter(quiet, 'gate', false)).toBe(false); // no point name: not matched by an empty name
    expect(passesFilter(quiet, 'door', false)).toBe(true);
    expect(passesFilter(quiet, 'here', false)).toBe(false); // nor by any placeholder text
  });

  it('show the rows through the filter, and read paused, the held count, the filter and "alarms only"', () => {
    const rows = [ev(3, { alert: true, message: 'Alarm bay' }), ev(2, { message: 'Bay door' }), ev(1, { message: 'Lobby' })];
    const s = snap({ rows, held: [ev(4), ev(5)], paused: true, filter: 'bay', alertsOnly: false });
    expect(selectShownEvents(s).map((e) => e.id)).toEqual([3, 2]);
    expect(selectShownEvents(snap({ rows, alertsOnly: true })).map((e) => e.id)).toEqual([3]);
    expect([selectPaused(s), selectHeldCount(s), selectFilterText(s), selectAlertsOnly(s)]).toEqual([true, 2, 'bay', false]);
    expect(selectAlertsOnly(snap({ alertsOnly: true }))).toBe(true);
  });

  it("give the stored history's filters: a number is an event code, other text is searched, and alarms only", () => {
    expect(selectHistoryFilters(snap({}))).toEqual({});
    expect(selectHistoryFilters(snap({ filter: ' 20500 ' }))).toEqual({ eventCode: '20500' });
    expect(selectHistoryFilters(snap({ filter: '20500a' }))).toEqual({ q: '20500a' });
    expect(selectHistoryFilters(snap({ filter: 'a20500' }))).toEqual({ q: 'a20500' });
    expect(selectHistoryFilters(snap({ filter: '  ', alertsOnly: true }))).toEqual({ alert: 'true' });
    expect(selectHistoryFilters(snap({ filter: 'bay', alertsOnly: true }))).toEqual({ q: 'bay', alert: 'true' });
  });

  it('carry the list as it is, and whether the history was in (loaded only)', () => {
    const c = { rows: [ev(2)], held: [ev(3)], paused: true, filter: 'x', alertsOnly: true };
    expect(selectCarry(snap(c, 'loaded'))).toEqual({ ...c, historyLoaded: true });
    expect(selectCarry(snap(c, 'loading')).historyLoaded).toBe(false);
    expect(selectCarry(snap(c, 'failed')).historyLoaded).toBe(false);
  });
});

describe('resource list selectors', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
  it('page at its boundaries: a total that fills its last page exactly, a full page under a lower bound, a short one', () => {
    // 40 rows of 20: two pages, the second is the last
    expect(pagerOf({ items: rows(20), total: 40, totalIsAtLeast: false, page: 1, size: 20 })).toEqual({
      from: 21,
      to: 40,
      total: 40,
      atLeast: false,
      pages: 2,
      lastPage: 1,
      hasNext: false,
    });
    expect(pagerOf({ items: rows(20), total: 40, totalIsAtLeast: false, page: 0, size: 20 }).hasNext).toBe(true);
    // 41 rows: a third page of one
    expect(pagerOf({ items: rows(20), total: 41, totalIsAtLeast: false, page: 1, size: 20 })).toMatchObject({ pages: 3, lastPage: 2, hasNext: true });
    // an empty page past the first shows no rows: 0 to 0
    expect(pagerOf({ items: [], total: 40, totalIsAtLeast: false, page: 2, size: 20 })).toMatchObject({ from: 0, to: 0 });
    // under a lower bound, a page shorter than the size is the end
    expect(pagerOf({ items: rows(19), total: 10_000, totalIsAtLeast: true, page: 3, size: 20 })).toMatchObject({ from: 61, to: 79, hasNext: false });
  });

  it('read the pager once per context, and the list view in one read that compares by its parts', () => {
    const context = { items: rows(2), total: 2, totalIsAtLeast: false, page: 0, size: 20, sort: [], filters: {}, selection: [1], error: null };
    const snap = (value: string, tags: string[] = [], c = context) =>
      ({ context: c, hasTag: (t: string) => tags.includes(t), matches: (v: string) => v === value }) as unknown as ResourceListSnapshot;
    const p = selectPager(snap('ready'));
    expect(p).toEqual({ from: 1, to: 2, total: 2, atLeast: false, pages: 1, lastPage: 0, hasNext: false });
    expect(selectPager(snap('loading', ['busy']))).toBe(p); // the same context: the same pager
    expect(selectPager(snap('ready', [], { ...context }))).not.toBe(p);
    const view = (value: string, tags: string[] = []) => selectListView(snap(value, tags));
    const { totalIsAtLeast: _notShown, ...shown } = context;
    expect(view('ready')).toEqual({ ...shown, busy: false, confirming: false, deleting: false });
    expect([view('loading', ['busy']).busy, view('confirmingDelete').confirming, view('deleting', ['busy']).deleting]).toEqual([true, true, true]);
    expect([view('deleting', ['busy']).confirming, view('confirmingDelete').deleting]).toEqual([false, false]);
    expect(sameListView(view('ready'), view('ready'))).toBe(true);
    expect(sameListView(view('ready'), view('loading', ['busy']))).toBe(false);
    expect(sameListView(view('ready'), selectListView(snap('ready', [], { ...context, items: rows(2) })))).toBe(false); // equal rows, another array
  });
});

describe('journal selectors (the replay screen)', () => {
  const entry = (seq: number, actor: string, type = 'x'): JournalEntry => ({ seq, at: 0, actor, event: { type }, state: 'idle' }) as unknown as JournalEntry;
  const lines = [
    { line: 2, entry: entry(1, '(root)', 'xstate.init') },
    { line: 3, entry: entry(2, 'session') },
    { line: 4, entry: entry(3, 'tabs') },
    { line: 5, entry: entry(4, 'session') },
    { line: 6, entry: entry(5, 'fetch:1') },
  ];
  const step = (line: number, actor: string, matches: boolean) => ({ line, actor, event: 'x', fed: true, recorded: 'idle', replayed: 'idle', matches });
  const ctx = (result: unknown, filter: string | null = null): ReplayViewerContext =>
    ({ name: 'a.ndjson', loading: null, result, error: null, filter }) as unknown as ReplayViewerContext;
  const ok = {
    ok: true,
    journal: { header: {}, lines },
    steps: [step(2, '(root)', true), step(3, 'session', true), step(4, 'tabs', true), step(5, 'session', true)],
    warnings: [],
  };

  it('name the machines the journal speaks of once each, in first-seen order; none without a journal', () => {
    expect(selectJournalActors(ctx(ok))).toEqual(['(root)', 'session', 'tabs', 'fetch:1']);
    expect(selectJournalActors(ctx(null))).toEqual([]);
    expect(selectTimeline(ctx(null))).toEqual([]);
  });

  it("list every line with its replayed step (none for an implementation actor's), under the machine filter", () => {
    const t = selectTimeline(ctx(ok));
    expect(t.map((l) => [l.line, l.step?.line ?? null, l.diverged])).toEqual([
      [2, 2, false],
      [3, 3, false],
      [4, 4, false],
      [5, 5, false],
      [6, null, false],
    ]);
    expect(t[1].entry).toBe(lines[1].entry);
    expect(selectTimeline(ctx(ok, 'session')).map((l) => l.line)).toEqual([3, 5]);
  });

  it('mark the line the replay parted at, and any step that did not match; a line without a step is not a divergence', () => {
    const diverged = { ...ok, ok: false, kind: 'diverged', line: 6, message: 'parted', steps: [step(3, 'session', true), step(4, 'tabs', false)] };
    expect(selectTimeline(ctx(diverged)).map((l) => [l.line, l.diverged])).toEqual([
      [2, false],
      [3, false],
      [4, true],
      [5, false],
      [6, true],
    ]);
  });
});

describe("the Events screen's order", () => {
  it('puts the newer time first, then the higher stored id (numbers or digit strings), and keeps two others as they are', () => {
    const at = (id: number | string, time: string) => ev(id, { time });
    expect(Math.sign(newestFirst(at(1, '2026-12-03T10:00:00Z'), at(2, '2026-12-03T09:00:00Z')))).toBe(-1);
    expect(Math.sign(newestFirst(at(2, '2026-12-03T09:00:00Z'), at(1, '2026-12-03T10:00:00Z')))).toBe(1);
    expect(newestFirst(at(7, '2026-12-03T10:00:00Z'), at('19', '2026-12-03T10:00:00Z'))).toBe(12);
    expect(newestFirst(at('live-1', '2026-12-03T10:00:00Z'), at(9, '2026-12-03T10:00:00Z'))).toBe(0);
    expect(newestFirst(at('12a', '2026-12-03T10:00:00Z'), at(9, '2026-12-03T10:00:00Z'))).toBe(0); // not a stored id
    expect(newestFirst(at(9, '2026-12-03T10:00:00Z'), at('a12', '2026-12-03T10:00:00Z'))).toBe(0);
    // a time that does not parse is the oldest; two of them fall back on the ids
    expect(Math.sign(newestFirst(at(1, 'soon'), at(2, '2026-12-03T10:00:00Z')))).toBe(1);
    expect(newestFirst(at(1, 'soon'), at(2, 'later'))).toBe(1);
  });
  it('merges by id as text (an id 7 and "7" are one row, the incoming copy kept)', () => {
    const incoming = ev('7', { message: 'new' });
    expect(mergeEvents([ev(7)], [incoming])).toEqual([incoming]);
    expect(mergeEvents([ev(1), ev(2), ev(3)], [], 2).map((e) => e.id)).toEqual([3, 2]);
  });
});

describe('the phone placeholder', () => {
  it("follows the client's zone, else the user's, and has one without a user (signed out)", () => {
    const snap = (user: unknown) => ({ context: { user } }) as unknown as SessionSnapshot;
    expect(selectPhonePlaceholder(snap(null))).toBe(phonePlaceholder(undefined));
    expect(selectPhonePlaceholder(snap({ timezone: 'Europe/Paris' }))).toBe(phonePlaceholder('Europe/Paris'));
    expect(selectPhonePlaceholder(snap({ timezone: 'Europe/Paris', clientTimezone: 'Asia/Tokyo' }))).toBe(phonePlaceholder('Asia/Tokyo'));
  });
});
