// Issue 51: the reference pickers' look-ups (machines/options.ts) with small hand-made cases, for the mutation run
// (options.model.test.ts builds a 100,000-state graph per test: 4 hours a run). Each rule is written down here apart
// from the machine, with the values worked out by hand: the requests a tick sends, the labels and details kept, what a
// failure leaves, a search's pause and its stale request, sign-out; the selectors; and each invariant of
// machines/options.invariants.ts rejecting a state that breaks it.
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { OPTION_IDS_MAX, OPTION_LABELS_MAX, OPTION_SEARCH_PAUSE_MS } from '../contract';
import { emptyOptions, newIds, optionsMachine, withLabels, type OptionsContext, type PickerSearch } from '../machines/options';
import { invariants } from '../machines/options.invariants';
import {
  chosenApart,
  labelOf,
  optionRows,
  selectDetailsOf,
  selectEpoch,
  selectLabelsOf,
  selectNaming,
  selectSearchOf,
  shownOptions,
} from '../machines/options.selectors';
import { createControls, flush } from './harness';

const DOORS = '/event/manage/doors';
const ZONES = '/event/manage/zones';

function start() {
  const clock = new SimulatedClock();
  const controls = createControls();
  const actor = createActor(optionsMachine.provide({ actors: { lookup: controls.logic(), search: controls.logic() } }), { clock }).start();
  const asked = () => controls.inputs.map((x) => x.input);
  const ctx = () => actor.getSnapshot().context;
  const children = () => Object.keys(actor.getSnapshot().children).sort();
  return { clock, controls, actor, asked, ctx, children };
}
const ctxOf = (over: Partial<OptionsContext>): OptionsContext => ({ ...emptyOptions(), ...over });

describe('options rules: which ids a look-up asks', () => {
  it('newIds skips ids known (named or unnamed), on their way, queued, repeated or not safe integers', () => {
    const c = ctxOf({ labels: { [DOORS]: { 1: 'Lobby', 2: null } }, asking: { [DOORS]: [3] }, queued: { [DOORS]: [4] } });
    expect(newIds(c, DOORS, [1, 2, 3, 4, 5, 5, 6, 1.5, Number.NaN, 2 ** 60])).toEqual([5, 6]);
    // another target knows none of them
    expect(newIds(c, ZONES, [1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
    expect(newIds(emptyOptions(), DOORS, [])).toEqual([]);
  });
  it('withLabels keeps at most the bound, dropping the oldest of those not just added', () => {
    expect(withLabels({ 1: 'a' }, { 2: null })).toEqual({ 1: 'a', 2: null });
    expect(withLabels({ 1: 'a' }, { 1: 'b' })).toEqual({ 1: 'b' });
    const full = Object.fromEntries(Array.from({ length: OPTION_LABELS_MAX }, (_, i) => [String(i + 1), `L${i + 1}`]));
    const next = withLabels(full, { [String(OPTION_LABELS_MAX + 1)]: 'new', [String(OPTION_LABELS_MAX + 2)]: 'newer' });
    expect(Object.keys(next)).toHaveLength(OPTION_LABELS_MAX);
    expect('1' in next || '2' in next).toBe(false); // the two oldest went
    expect(next['3']).toBe('L3');
    expect(next[String(OPTION_LABELS_MAX + 2)]).toBe('newer');
    // exactly at the bound nothing goes
    const atBound = withLabels(Object.fromEntries(Object.entries(full).slice(1)), { x: 'x' });
    expect(Object.keys(atBound)).toHaveLength(OPTION_LABELS_MAX);
    expect(atBound['2']).toBe('L2');
    // an old label answered again is kept, the next oldest goes instead
    const again = withLabels(full, { 1: 'again', [String(OPTION_LABELS_MAX + 1)]: 'new' });
    expect([again['1'], '2' in again, again['3']]).toEqual(['again', false, 'L3']);
  });
});

describe('options rules: the batch of a tick', () => {
  it('splits the ids of a tick into requests of at most OPTION_IDS_MAX, with no empty one', async () => {
    for (const [n, sizes] of [
      [OPTION_IDS_MAX, [OPTION_IDS_MAX]],
      [OPTION_IDS_MAX + 1, [OPTION_IDS_MAX, 1]],
    ] as const) {
      const t = start();
      t.actor.send({ type: 'options.label', api: DOORS, ids: Array.from({ length: n }, (_, i) => i + 1) });
      t.clock.increment(0);
      await flush();
      expect(t.asked().map((x) => (x as { ids: number[] }).ids.length)).toEqual(sizes);
      expect((t.asked()[0] as { ids: number[] }).ids[OPTION_IDS_MAX - 1]).toBe(OPTION_IDS_MAX);
    }
  });
  it('asks nothing for ids all known; gathers only when something is new', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [] });
    expect(t.actor.getSnapshot().value).toEqual({ batch: 'idle', pause: 'idle' });
    t.actor.send({ type: 'options.label', api: DOORS, ids: [7, 7] });
    expect(t.actor.getSnapshot().value).toEqual({ batch: 'gathering', pause: 'idle' });
    expect(t.ctx().queued).toEqual({ [DOORS]: [7] });
    // within the window: more ids of the same and another target join, each once
    t.actor.send({ type: 'options.label', api: DOORS, ids: [7, 8] });
    t.actor.send({ type: 'options.label', api: ZONES, ids: [1] });
    t.actor.send({ type: 'options.label', api: ZONES, ids: [] });
    expect(t.ctx().queued).toEqual({ [DOORS]: [7, 8], [ZONES]: [1] });
    t.clock.increment(0);
    await flush();
    expect(t.asked()).toEqual([
      { api: DOORS, ids: [7, 8] },
      { api: ZONES, ids: [1] },
    ]);
    expect(t.ctx().queued).toEqual({});
    expect(t.ctx().asking).toEqual({ [DOORS]: [7, 8], [ZONES]: [1] });
    expect(t.ctx().lookups).toEqual({ 'lookup-1': { api: DOORS, ids: [7, 8] }, 'lookup-2': { api: ZONES, ids: [1] } });
    expect(t.ctx().seq).toBe(2);
    expect(t.children()).toEqual(['lookup-1', 'lookup-2']);
    expect(t.actor.getSnapshot().value).toEqual({ batch: 'idle', pause: 'idle' });
    // an id on its way joins the next window only when new
    t.actor.send({ type: 'options.label', api: DOORS, ids: [8, 9] });
    expect(t.ctx().queued).toEqual({ [DOORS]: [9] });
    t.clock.increment(0);
    await flush();
    expect(t.ctx().asking).toEqual({ [DOORS]: [7, 8, 9], [ZONES]: [1] });
    expect(selectNaming(DOORS, [9])(t.actor.getSnapshot())).toBe(true);
    expect(selectNaming(DOORS, [10])(t.actor.getSnapshot())).toBe(false);
  });
  it('an answer names the ids asked (null for those not answered), keeps their details, and lets the child go', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1, 2, 3] });
    t.clock.increment(0);
    t.actor.send({ type: 'options.label', api: ZONES, ids: [5] });
    t.clock.increment(0);
    await flush();
    expect(t.children()).toEqual(['lookup-1', 'lookup-2']);
    await t.controls.settle('lookup-1', 'done', {
      items: [
        { id: 1, label: 'Lobby', detail: 'Building A' },
        { id: 2, label: 'Dock' },
        { id: 99, label: 'not asked' },
      ],
    });
    expect(t.ctx().labels).toEqual({ [DOORS]: { 1: 'Lobby', 2: 'Dock', 3: null } });
    expect(t.ctx().details).toEqual({ [DOORS]: { 1: 'Building A', 2: null, 99: null } });
    expect(t.ctx().asking).toEqual({ [ZONES]: [5] });
    expect(t.ctx().lookups).toEqual({ 'lookup-2': { api: ZONES, ids: [5] } });
    expect(t.children()).toEqual(['lookup-2']);
    // a failed look-up leaves its ids unnamed and no longer on their way; they may be asked again
    await t.controls.settle('lookup-2', 'error', new Error('offline'));
    expect(t.ctx().asking).toEqual({});
    expect(t.ctx().lookups).toEqual({});
    expect(t.ctx().labels[ZONES]).toBeUndefined();
    expect(t.children()).toEqual([]);
    t.actor.send({ type: 'options.label', api: ZONES, ids: [5] });
    expect(t.ctx().queued).toEqual({ [ZONES]: [5] });
  });
  it('a finished look-up of part of the ids on their way leaves the others on their way', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1] });
    t.clock.increment(0);
    t.actor.send({ type: 'options.label', api: DOORS, ids: [2] });
    t.clock.increment(0);
    await flush();
    expect(t.ctx().asking).toEqual({ [DOORS]: [1, 2] });
    await t.controls.settle('lookup-2', 'error', new Error('offline'));
    expect(t.ctx().asking).toEqual({ [DOORS]: [1] });
    await t.controls.settle('lookup-1', 'done', { items: [{ id: 1, label: 'Lobby', detail: 'A' }] });
    expect(t.ctx().asking).toEqual({});
    // a second answer for the same target adds to what the first named
    t.actor.send({ type: 'options.label', api: DOORS, ids: [2] });
    t.clock.increment(0);
    await flush();
    await t.controls.settle('lookup-3', 'done', { items: [{ id: 2, label: 'Dock', detail: 'B' }] });
    expect(t.ctx().labels).toEqual({ [DOORS]: { 1: 'Lobby', 2: 'Dock' } });
    expect(t.ctx().details).toEqual({ [DOORS]: { 1: 'A', 2: 'B' } });
  });
});

describe("options rules: a picker's search", () => {
  it('opening asks at once; the answer is shown, names its rows, and the child is let go', async () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: 'lo' });
    expect(t.asked()).toEqual([{ api: DOORS, q: 'lo' }]);
    expect(t.ctx().searches.k).toEqual({ api: DOORS, typed: 'lo', asking: 'lo', child: 'search-1', items: [], answered: null, failed: false });
    expect(t.children()).toEqual(['search-1']);
    await t.controls.settle('search-1', 'done', { items: [{ id: 4, label: 'Lobby', detail: 'North' }] });
    expect(t.ctx().searches.k).toEqual({
      api: DOORS,
      typed: 'lo',
      asking: null,
      child: null,
      items: [{ id: 4, label: 'Lobby', detail: 'North' }],
      answered: 'lo',
      failed: false,
    });
    expect(t.ctx().labels).toEqual({ [DOORS]: { 4: 'Lobby' } });
    expect(t.ctx().details).toEqual({ [DOORS]: { 4: 'North' } });
    expect(t.children()).toEqual([]);
    // an answer of a child nobody waits for changes nothing
    const before = t.ctx();
    t.actor.send({ type: 'xstate.done.actor.search-404', actorId: 'search-404', output: { items: [{ id: 5, label: 'x' }] } });
    t.actor.send({ type: 'xstate.error.actor.search-405', actorId: 'search-405', error: new Error('x') });
    expect(t.ctx()).toEqual(before);
  });
  it('opened again before its answer: the first request is stopped, the second asks', () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: 'a' });
    expect(t.children()).toEqual(['search-2']);
    expect(t.controls.pending.has('search-1')).toBe(false);
    expect(t.ctx().searches.k).toMatchObject({ asking: 'a', child: 'search-2' });
  });
  it('opened again for the same target keeps its last answer; for another target starts afresh', async () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    await t.controls.settle('search-1', 'done', { items: [{ id: 4, label: 'Lobby' }] });
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: 'l' });
    expect(t.ctx().searches.k.items).toEqual([{ id: 4, label: 'Lobby' }]);
    expect(t.ctx().searches.k.answered).toBe('');
    expect(t.ctx().searches.k.asking).toBe('l');
    expect(t.ctx().searches.k.child).toBe('search-2');
    t.actor.send({ type: 'options.open', key: 'k', api: ZONES, q: 'l' });
    expect(t.ctx().searches.k).toEqual({ api: ZONES, typed: 'l', asking: 'l', child: 'search-3', items: [], answered: null, failed: false });
    // the request for the other target was stopped (a bug found here on 2026-12-03: it ran on, waited for by no one)
    expect(t.children()).toEqual(['search-3']);
    expect(t.controls.pending.has('search-2')).toBe(false);
  });
  it('typing waits for the pause, each keystroke restarting it; typed back to the text shown stops the stale request', async () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    await t.controls.settle('search-1', 'done', { items: [{ id: 4, label: 'Lobby' }] });
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'x' });
    expect(t.actor.getSnapshot().value).toEqual({ batch: 'idle', pause: 'waiting' });
    expect(t.ctx().searches.k.typed).toBe('x');
    t.clock.increment(OPTION_SEARCH_PAUSE_MS - 1);
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'xy' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS - 1);
    expect(t.asked()).toHaveLength(1);
    t.clock.increment(1);
    await flush();
    expect(t.asked()).toEqual([
      { api: DOORS, q: '' },
      { api: DOORS, q: 'xy' },
    ]);
    expect(t.actor.getSnapshot().value).toEqual({ batch: 'idle', pause: 'idle' });
    // typed back to '' (the answer shown) while 'xy' is on its way: the request for 'xy' is stopped, nothing asked
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: '' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS);
    await flush();
    expect(t.asked()).toHaveLength(2);
    expect(t.ctx().searches.k).toMatchObject({ typed: '', asking: null, child: null, answered: '', items: [{ id: 4, label: 'Lobby' }] });
    expect(t.children()).toEqual([]);
    // the same text typed again as the one on its way is not asked twice
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'z' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS);
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'z' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS);
    await flush();
    expect(t.asked()).toEqual([
      { api: DOORS, q: '' },
      { api: DOORS, q: 'xy' },
      { api: DOORS, q: 'z' },
    ]);
    // a search typed for another target in a picker starts afresh
    t.actor.send({ type: 'options.search', key: 'k', api: ZONES, q: 'z' });
    expect(t.ctx().searches.k).toMatchObject({ api: ZONES, typed: 'z', items: [], answered: null, asking: null, child: null });
    // and the request of the other target still on its way is stopped (it could no longer land)
    expect(t.children()).toEqual([]);
    expect(t.controls.pending.has('search-3')).toBe(false);
    // a search for a picker never opened waits and then asks
    t.actor.send({ type: 'options.search', key: 'j', api: DOORS, q: 'q' });
    expect(t.ctx().searches.j).toEqual({ api: DOORS, typed: 'q', asking: null, child: null, items: [], answered: null, failed: false });
  });
  it('a failed search keeps the last answer and says so; the next request clears the failure', async () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    await t.controls.settle('search-1', 'done', { items: [{ id: 4, label: 'Lobby' }] });
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'd' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS);
    await flush();
    await t.controls.settle('search-2', 'error', new Error('offline'));
    expect(t.ctx().searches.k).toEqual({ api: DOORS, typed: 'd', asking: null, child: null, items: [{ id: 4, label: 'Lobby' }], answered: '', failed: true });
    expect(t.children()).toEqual([]);
    expect(shownOptions(t.ctx().searches.k, 'd')).toEqual({ items: [], loading: false });
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: 'd' });
    expect(t.ctx().searches.k.failed).toBe(false);
    await t.controls.settle('search-3', 'done', { items: [{ id: 5, label: 'Dock' }] });
    expect(t.ctx().searches.k).toMatchObject({ failed: false, answered: 'd', items: [{ id: 5, label: 'Dock' }] });
  });
  it('closing stops its request and forgets it; closing a picker not open changes nothing', async () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    t.actor.send({ type: 'options.open', key: 'j', api: DOORS, q: 'a' });
    t.actor.send({ type: 'options.close', key: 'k' });
    expect(Object.keys(t.ctx().searches)).toEqual(['j']);
    expect(t.children()).toEqual(['search-2']);
    expect(t.controls.pending.has('search-1')).toBe(false);
    const before = t.ctx();
    t.actor.send({ type: 'options.close', key: 'nope' });
    expect(t.ctx()).toBe(before);
    expect(t.actor.getSnapshot().status).toBe('active');
  });
  it('sign-out stops every request and forgets everything, counting the drop', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1] });
    t.clock.increment(0);
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'x' });
    t.actor.send({ type: 'options.label', api: DOORS, ids: [2] });
    await flush();
    expect(t.children()).toEqual(['lookup-1', 'search-2']);
    t.actor.send({ type: 'session.ended' });
    expect(t.ctx()).toEqual(emptyOptions(1));
    expect(t.children()).toEqual([]);
    expect(t.controls.pending.size).toBe(0);
    expect(t.actor.getSnapshot().value).toEqual({ batch: 'idle', pause: 'idle' });
    expect(selectEpoch(t.actor.getSnapshot())).toBe(1);
    // the pause and the batch of the last session send nothing
    t.clock.increment(OPTION_SEARCH_PAUSE_MS);
    await flush();
    expect(t.asked()).toHaveLength(2);
  });
});

describe('options selectors, worked out by hand', () => {
  it('the labels, details and search of one target or picker; naming while any id asked is queued or on its way', async () => {
    const t = start();
    const s0 = t.actor.getSnapshot();
    expect(selectLabelsOf(DOORS)(s0)).toEqual({});
    expect(selectLabelsOf(DOORS)(s0)).toBe(selectLabelsOf(ZONES)(s0)); // one stable empty object
    expect(selectDetailsOf(DOORS)(s0)).toEqual({});
    expect(selectSearchOf('k')(s0)).toBeUndefined();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [9] });
    expect(selectNaming(DOORS, [8, 9])(t.actor.getSnapshot())).toBe(true);
    t.clock.increment(0);
    await flush();
    expect(selectNaming(DOORS, [8, 9])(t.actor.getSnapshot())).toBe(true);
    expect(selectNaming(ZONES, [9])(t.actor.getSnapshot())).toBe(false);
    await t.controls.settle('lookup-1', 'done', { items: [{ id: 9, label: 'Gate', detail: 'North' }] });
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    const s = t.actor.getSnapshot();
    expect([selectLabelsOf(DOORS)(s), selectDetailsOf(DOORS)(s)]).toEqual([{ 9: 'Gate' }, { 9: 'North' }]);
    expect(selectSearchOf('k')(s)).toBe(s.context.searches.k);
  });
  it('labelOf: the name, … while asked, #id when named none', () => {
    expect(labelOf({ 1: 'Lobby', 2: null }, true, 1)).toBe('Lobby');
    expect(labelOf({ 1: 'Lobby', 2: null }, true, 2)).toBe('#2');
    expect(labelOf({}, true, 3)).toBe('…');
    expect(labelOf({}, false, 3)).toBe('#3');
  });
  it('shownOptions: the answer for the text, or the last answer narrowed while the next is on its way', () => {
    const s = (over: Partial<PickerSearch>): PickerSearch => ({
      api: DOORS,
      typed: 'a',
      asking: null,
      child: null,
      items: [],
      answered: 'a',
      failed: false,
      ...over,
    });
    const items = [
      { id: 1, label: 'Lobby' },
      { id: 2, label: 'Dock' },
    ];
    expect(shownOptions(undefined, 'a')).toEqual({ items: [], loading: false });
    expect(shownOptions(s({ items }), 'a')).toEqual({ items, loading: false });
    expect(shownOptions(s({ items, typed: 'LO', asking: 'LO', child: 'c' }), 'LO')).toEqual({ items: [items[0]], loading: true });
    expect(shownOptions(s({ items, typed: 'do' }), 'do')).toEqual({ items: [items[1]], loading: true });
    expect(shownOptions(s({ items, typed: 'do', failed: true }), 'do')).toEqual({ items: [items[1]], loading: false });
    expect(shownOptions(s({ items }), ' DO ')).toEqual({ items: [items[1]], loading: true });
    expect(shownOptions(s({ items, answered: null, typed: '' }), '')).toEqual({ items, loading: true });
    // typed back to the text shown while a request for another is still on its way: loading all the same
    expect(shownOptions(s({ items, asking: 'x', child: 'c' }), 'a')).toEqual({ items, loading: true });
  });
  it('optionRows and chosenApart tell namesakes apart', () => {
    expect(
      optionRows([
        { id: 1, label: 'A', detail: '' },
        { id: 2, label: 'A' },
        { id: 3, label: 'B', detail: 'x' },
      ]).map((r) => r.apart),
    ).toEqual(['#1', '#2', null]);
    expect(chosenApart({ 1: 'A', 2: 'A', 3: 'B', 4: null }, { 1: 'd1', 2: '' }, 1)).toBe('d1');
    expect(chosenApart({ 1: 'A', 2: 'A' }, { 2: '' }, 2)).toBe('#2');
    expect(chosenApart({ 1: 'A', 3: 'B' }, {}, 1)).toBeNull();
    expect(chosenApart({ 1: null }, {}, 1)).toBeNull();
    expect(chosenApart({ 1: null, 2: null }, {}, 1)).toBeNull(); // an unnamed row is told apart from nothing
  });
});

describe('the invariants of the options actor reject the states that break them', () => {
  type Inv = Record<string, (s: any) => boolean>;
  const at = (s: string) => (invariants as unknown as Record<string, Inv>)[s];
  const snap = (c: Partial<OptionsContext>, children: string[] = []) => ({
    context: { ...emptyOptions(), ...c },
    children: Object.fromEntries(children.map((id) => [id, {}])),
  });
  const search = (over: Partial<PickerSearch>): PickerSearch => ({
    api: DOORS,
    typed: '',
    asking: null,
    child: null,
    items: [],
    answered: '',
    failed: false,
    ...over,
  });
  const CALLS = 'the calls running are exactly the look-ups and searches waited for';
  const WAY = 'an id is on its way exactly while a look-up of its target asks it, each once';
  const MAX = 'a look-up asks at most the ids one request may carry';
  const ONCE = 'an id waits for the next request once, and not while it is on its way';
  const BOUND = 'labels are kept within their bound per target';
  const CHILD = "a picker's search has a request on its way exactly when it names the call, for a text typed or shown";
  const IDLE = 'nothing waits for the next request';
  const GATHER = 'ids wait for the next request';
  const PAUSE = "no picker's typed text waits for the pause: each is on its way, answered, or its request failed";
  const lk = { 'lookup-1': { api: DOORS, ids: [1, 2] } };
  const two = (a: PickerSearch, b: PickerSearch) => ({ k: a, j: b });
  const cases: Array<[string, string, ReturnType<typeof snap>, boolean]> = [
    // two of a kind, one breaking the rule: a rule checked on one of them only would pass
    [
      '',
      CALLS,
      snap(
        { lookups: { 'x-lookup': { api: DOORS, ids: [1] } }, asking: { [DOORS]: [1] }, searches: two(search({ asking: 'a', child: 'a-search' }), search({})) },
        ['a-search', 'x-lookup'],
      ),
      true,
    ],
    [
      '',
      CALLS,
      snap({ lookups: { 'x-lookup': { api: DOORS, ids: [1] } }, searches: { k: search({ asking: 'a', child: 'a-search' }) } }, ['x-lookup', 'a-search']),
      true,
    ],
    ['', CALLS, snap({ lookups: { a: { api: DOORS, ids: [1] }, bc: { api: DOORS, ids: [2] } } }, ['ab', 'c']), false],
    [
      '',
      WAY,
      snap({ lookups: { 'lookup-1': { api: DOORS, ids: [1, 2] }, 'lookup-2': { api: ZONES, ids: [5] } }, asking: { [DOORS]: [1, 2], [ZONES]: [5] } }),
      true,
    ],
    [
      '',
      WAY,
      snap({ lookups: { 'lookup-1': { api: DOORS, ids: [1, 2] }, 'lookup-2': { api: ZONES, ids: [5] } }, asking: { [DOORS]: [1, 2], [ZONES]: [6] } }),
      false,
    ],
    ['', WAY, snap({ lookups: { 'lookup-1': { api: DOORS, ids: [1, 2] } }, asking: { [DOORS]: [12] } }), false],
    ['', MAX, snap({ lookups: { 'lookup-1': { api: DOORS, ids: [1] }, 'lookup-2': { api: DOORS, ids: [] } } }), false],
    ['', ONCE, snap({ queued: { [DOORS]: [1], [ZONES]: [2, 2] } }), false],
    ['', ONCE, snap({ queued: { [DOORS]: [1, 3] }, asking: { [DOORS]: [3] } }), false],
    [
      '',
      BOUND,
      snap({ labels: { [ZONES]: {}, [DOORS]: Object.fromEntries(Array.from({ length: OPTION_LABELS_MAX + 1 }, (_, i) => [String(i), 'x'])) } }),
      false,
    ],
    ['', CHILD, snap({ searches: two(search({}), search({ asking: 'a' })) }), false],
    ['pause.idle', PAUSE, snap({ searches: two(search({ typed: 'b', answered: 'b' }), search({ typed: 'b', answered: 'a' })) }), false],
    ['', CALLS, snap({}), true],
    ['', CALLS, snap({ lookups: lk, asking: { [DOORS]: [1, 2] } }, ['lookup-1']), true],
    ['', CALLS, snap({ lookups: lk }, []), false],
    ['', CALLS, snap({}, ['lookup-1']), false],
    ['', CALLS, snap({ searches: { k: search({ asking: 'a', child: 'search-2' }) } }, ['search-2']), true],
    ['', CALLS, snap({ searches: { k: search({ asking: 'a', child: 'search-2' }) } }, []), false],
    ['', WAY, snap({ lookups: lk, asking: { [DOORS]: [2, 1] } }), true],
    ['', WAY, snap({ lookups: lk, asking: { [DOORS]: [1] } }), false],
    ['', WAY, snap({ lookups: lk, asking: {} }), false],
    ['', WAY, snap({ asking: { [DOORS]: [1] } }), false],
    ['', WAY, snap({ asking: { [DOORS]: [] } }), false],
    ['', WAY, snap({ lookups: { 'lookup-1': { api: DOORS, ids: [1] }, 'lookup-2': { api: DOORS, ids: [1] } }, asking: { [DOORS]: [1, 1] } }), false],
    ['', WAY, snap({ lookups: { 'lookup-1': { api: ZONES, ids: [1] } }, asking: { [DOORS]: [1] } }), false],
    ['', MAX, snap({ lookups: { 'lookup-1': { api: DOORS, ids: Array.from({ length: 200 }, (_, i) => i) } } }), true],
    ['', MAX, snap({ lookups: { 'lookup-1': { api: DOORS, ids: Array.from({ length: 201 }, (_, i) => i) } } }), false],
    ['', MAX, snap({ lookups: { 'lookup-1': { api: DOORS, ids: [] } } }), false],
    ['', ONCE, snap({ queued: { [DOORS]: [1, 2] }, asking: { [DOORS]: [3] } }), true],
    ['', ONCE, snap({ queued: { [DOORS]: [1, 1] } }), false],
    ['', ONCE, snap({ queued: { [DOORS]: [3] }, asking: { [DOORS]: [3] } }), false],
    ['', ONCE, snap({ queued: { [DOORS]: [3] }, asking: { [ZONES]: [3] } }), true],
    ['', BOUND, snap({ labels: { [DOORS]: Object.fromEntries(Array.from({ length: OPTION_LABELS_MAX }, (_, i) => [String(i), 'x'])) } }), true],
    ['', BOUND, snap({ labels: { [DOORS]: Object.fromEntries(Array.from({ length: OPTION_LABELS_MAX + 1 }, (_, i) => [String(i), 'x'])) } }), false],
    ['', CHILD, snap({ searches: { k: search({ asking: 'a', child: 'c' }), j: search({}) } }), true],
    ['', CHILD, snap({ searches: { k: search({ asking: 'a', child: null }) } }), false],
    ['', CHILD, snap({ searches: { k: search({ asking: null, child: 'c' }) } }), false],
    ['batch.idle', IDLE, snap({ queued: {} }), true],
    ['batch.idle', IDLE, snap({ queued: { [DOORS]: [1] } }), false],
    ['batch.gathering', GATHER, snap({ queued: { [DOORS]: [1] } }), true],
    ['batch.gathering', GATHER, snap({ queued: { [DOORS]: [] } }), false],
    ['pause.idle', PAUSE, snap({ searches: { k: search({ typed: 'a', asking: 'a', child: 'c' }), j: search({ typed: 'b', answered: 'b' }) } }), true],
    ['pause.idle', PAUSE, snap({ searches: { k: search({ typed: 'b', answered: 'a', failed: true }) } }), true],
    ['pause.idle', PAUSE, snap({ searches: { k: search({ typed: 'b', answered: 'a' }) } }), false],
    ['pause.idle', PAUSE, snap({ searches: { k: search({ typed: 'b', asking: 'a', child: 'c', answered: 'b' }) } }), false],
  ];
  it.each(cases.map(([where, name, s, holds], i) => ({ i, where, name, s, holds })))('#$i $where: $name → $holds', ({ where, name, s, holds }) => {
    expect(at(where)[name](s)).toBe(holds);
  });
});
