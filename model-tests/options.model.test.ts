// The reference pickers' look-ups (issue 11): a model of the options actor generated from its graph (ids named by
// several pickers, the batch window, searches typed, typed back and closed, answers and failures, sign-out), every
// edge replayed on a real actor with controllable look-ups; then its rules on a clock: one request per target per
// tick, each id once, long lists split, a stale search's answer never shown, nothing kept across clients.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor } from 'xstate';
import { OPTION_IDS_MAX, OPTION_SEARCH_PAUSE_MS } from '../contract';
import { emptyOptions, optionsMachine, type OptionsSnapshot } from '../machines/options';
import { chosenApart, labelOf, optionRows, selectDetailsOf, selectLabelsOf, selectNaming, selectSearchOf, shownOptions } from '../machines/options.selectors';
import { invariants } from '../machines/options.invariants';
import { createControls, edgePaths, onDemand, expectOracle, flush } from './harness';

// ---------- the graph ----------

const DOORS = '/event/manage/doors';
const SCHEDULES = '/event/manage/schedules';
// two models of one actor: the ids pickers name (batches, answers), and one picker's search (typing, the pause,
// answers, closing); each with sign-out, so the graph stays small enough to replay every edge
const labelCommands: any[] = [
  { type: 'options.label', api: DOORS, ids: [1, 2] },
  { type: 'options.label', api: DOORS, ids: [2, 3] },
  { type: 'session.ended' },
];
const searchCommands: any[] = [
  { type: 'options.open', key: 'a', api: DOORS, q: '' },
  { type: 'options.search', key: 'a', api: DOORS, q: 'lo' },
  { type: 'options.search', key: 'a', api: DOORS, q: '' },
  { type: 'options.close', key: 'a' },
  { type: 'session.ended' },
];
// the server: doors 1 and 2 exist (3 is not visible to this operator), schedule 1 exists; a search answers door 1
const answerOf = (s: OptionsSnapshot, child: string) => {
  const lookup = s.context.lookups[child];
  if (lookup) return { items: lookup.ids.filter((id) => id < 3).map((id) => ({ id, label: `${lookup.api === DOORS ? 'Door' : 'Schedule'} ${id}` })) };
  const search = Object.values(s.context.searches).find((x) => x.child === child)!;
  return { items: [{ id: 1, label: `Door 1 (${search.asking})` }] };
};
// the machine's own timers wait on a clock that never moves here: the model sends their events itself
const possible = (commands: any[]) => (s: OptionsSnapshot) => [
  ...commands,
  ...(s.matches({ batch: 'gathering' }) ? [{ type: 'xstate.after.batch.options.batch.gathering' }] : []),
  ...(s.matches({ pause: 'waiting' }) ? [{ type: 'xstate.after.pause.options.pause.waiting' }] : []),
  ...Object.keys(s.children).flatMap((id) => [
    { type: `xstate.done.actor.${id}`, output: answerOf(s, id), actorId: id },
    { type: `xstate.error.actor.${id}`, error: new Error('offline'), actorId: id },
  ]),
];
// bounded: child ids and the count of clears are left out (they only grow)
const serialize = (s: OptionsSnapshot) =>
  JSON.stringify([
    s.value,
    s.context.labels,
    s.context.queued,
    s.context.asking,
    Object.values(s.context.lookups),
    Object.entries(s.context.searches).map(([k, x]) => [k, x.typed, x.asking, x.child !== null, x.answered, x.items.length, x.failed]),
    s.context.epoch > 0,
  ]);
const models = [labelCommands, searchCommands].map(
  (commands) => new TestModel(optionsMachine as any, { events: possible(commands) as any, serializeState: serialize as any, limit: 100000 }),
);
const paths = onDemand(() => models.flatMap((model) => edgePaths(model, optionsMachine, serialize, [])));
const states = () => paths().flatMap((p) => p.path.steps.map((st) => st.state));

describe('options actor model', () => {
  it('reaches ids on their way, a batch gathering, a search waiting for the pause and a stale one replaced', () => {
    expect(states().some((s) => s.matches({ batch: 'gathering' }) && s.context.lookups && Object.keys(s.context.lookups).length > 0)).toBe(true);
    expect(states().some((s) => s.matches({ pause: 'waiting' }) && s.context.searches.a?.asking !== null && s.context.searches.a?.asking !== undefined)).toBe(
      true,
    );
    expect(states().some((s) => s.context.labels[DOORS]?.['3'] === null)).toBe(true);
    expect(states().some((s) => s.context.searches.a?.failed)).toBe(true);
  });
  it('keeps the invariants of its states (options.invariants.ts) and the look-up rules at every step of the generated paths', () => {
    const batchEnds = (e: { type: string }) => e.type === 'xstate.after.batch.options.batch.gathering';
    const searchOf = (s: OptionsSnapshot, child: string) => Object.values(s.context.searches).find((x) => x.child === child);
    expectOracle(
      paths(),
      {
        'the batch window asks every id waiting, once per target, and leaves nothing waiting': ({ before, event, after }) =>
          before.matches({ batch: 'gathering' }) && batchEnds(event)
            ? Object.keys(after.context.queued).length === 0 &&
              Object.entries(before.context.queued).every(([api, ids]) => {
                const fresh = Object.entries(after.context.lookups).filter(([id, l]) => !(id in before.context.lookups) && l.api === api);
                return JSON.stringify(fresh.flatMap(([, l]) => l.ids)) === JSON.stringify(ids);
              })
            : undefined,
        'naming ids that are all known or on their way asks nothing more': ({ before, event, after }) =>
          event.type === 'options.label' &&
          event.ids.every((id: number) => String(id) in (before.context.labels[event.api] ?? {}) || (before.context.asking[event.api] ?? []).includes(id))
            ? JSON.stringify(after.context.queued) === JSON.stringify(before.context.queued)
            : undefined,
        'a failed look-up leaves its ids unnamed, no longer on their way': ({ before, event, after }) =>
          event.type.startsWith('xstate.error.actor.lookup') && before.context.lookups[event.actorId]
            ? before.context.lookups[event.actorId].ids.every(
                (id) => !(String(id) in (after.context.labels[DOORS] ?? {})) && !(after.context.asking[DOORS] ?? []).includes(id),
              )
            : undefined,
        'a failed search keeps the last answer shown and says it failed': ({ before, event, after }) => {
          const s = event.type.startsWith('xstate.error.actor.search') ? searchOf(before, event.actorId) : undefined;
          return s
            ? after.context.searches.a.failed && after.context.searches.a.items === s.items && after.context.searches.a.answered === s.answered
            : undefined;
        },
      },
      9,
      invariants,
    );
  });
  it('never asks for an id twice: nothing on its way is queued again, nothing known is asked', () => {
    for (const s of states()) {
      for (const [api, ids] of Object.entries({ ...s.context.queued })) {
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of ids) {
          expect(s.context.asking[api] ?? []).not.toContain(id);
          expect(String(id) in (s.context.labels[api] ?? {})).toBe(false);
        }
      }
      const onTheirWay = Object.values(s.context.lookups).flatMap((l) => l.ids.map((id) => `${l.api}#${id}`));
      expect(new Set(onTheirWay).size).toBe(onTheirWay.length);
      for (const l of Object.values(s.context.lookups)) expect(l.ids.length).toBeLessThanOrEqual(OPTION_IDS_MAX);
    }
  });
  it('keeps one request at most per picker, and only the children it waits for', () => {
    for (const s of states()) {
      const waited = [...Object.keys(s.context.lookups), ...Object.values(s.context.searches).flatMap((x) => (x.child ? [x.child] : []))];
      expect(Object.keys(s.children).sort()).toEqual(waited.sort());
    }
  });
  it('forgets everything of the signed-out user or the last client: labels, answers, requests', () => {
    let ended = 0; // a loop that met no sign-out would have asserted nothing
    for (const p of paths())
      p.path.steps.forEach((st) => {
        if (st.event.type !== 'session.ended') return;
        ended++;
        expect(st.state.context).toEqual(emptyOptions(st.state.context.epoch));
        expect(Object.keys(st.state.children)).toEqual([]);
        expect(st.state.value).toEqual({ batch: 'idle', pause: 'idle' });
      });
    expect(ended).toBeGreaterThan(0);
  });
  it('shows a search answer only for a text the picker asked', () => {
    let answers = 0; // a loop that met no answer would have asserted nothing
    for (const p of paths())
      p.path.steps.forEach((st, i) => {
        const a = st.state.context.searches.a;
        if (!a || a.answered === null || i === 0) return;
        const before = p.path.steps[i - 1].state.context.searches.a;
        if (before?.answered !== a.answered) {
          expect(before?.asking).toBe(a.answered);
          answers++;
        }
      });
    expect(answers).toBeGreaterThan(0);
  });
});

// ---------- the rules, on a clock ----------

function start() {
  const clock = new SimulatedClock();
  const controls = createControls();
  const actor = createActor(optionsMachine.provide({ actors: { lookup: controls.logic(), search: controls.logic() } }), { clock }).start();
  const asked = () => controls.inputs.map((x) => x.input);
  return { clock, controls, actor, asked };
}

describe('options actor rules', () => {
  it('asks once per target for every id named within one tick, each id once', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1, 2] });
    t.actor.send({ type: 'options.label', api: DOORS, ids: [2, 3] });
    t.actor.send({ type: 'options.label', api: SCHEDULES, ids: [1] });
    t.actor.send({ type: 'options.label', api: DOORS, ids: [3] });
    expect(t.asked()).toEqual([]);
    t.clock.increment(0);
    await flush();
    expect(t.asked()).toEqual([
      { api: DOORS, ids: [1, 2, 3] },
      { api: SCHEDULES, ids: [1] },
    ]);
    // named again while on their way: not asked again
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1, 2, 3] });
    t.clock.increment(0);
    await t.controls.settle('lookup-1', 'done', {
      items: [
        { id: 1, label: 'Lobby' },
        { id: 2, label: 'Dock' },
      ],
    });
    const s = t.actor.getSnapshot();
    expect(t.asked()).toHaveLength(2);
    expect(selectLabelsOf(DOORS)(s)).toEqual({ 1: 'Lobby', 2: 'Dock', 3: null });
    expect(selectNaming(SCHEDULES, [1])(s)).toBe(true);
    expect(labelOf(selectLabelsOf(DOORS)(s), false, 3)).toBe('#3');
    expect(labelOf(selectLabelsOf(SCHEDULES)(s), selectNaming(SCHEDULES, [1])(s), 1)).toBe('…');
    // known: never asked again
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1, 3] });
    t.clock.increment(0);
    await flush();
    expect(t.asked()).toHaveLength(2);
  });
  it('splits a long list into requests the server takes', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: Array.from({ length: OPTION_IDS_MAX + 5 }, (_, i) => i + 1) });
    t.clock.increment(0);
    await flush();
    expect(t.asked().map((x) => (x as { ids: number[] }).ids.length)).toEqual([OPTION_IDS_MAX, 5]);
  });
  it('sends a search when typing pauses, stops the stale request and never shows its answer', async () => {
    const t = start();
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    await t.controls.settle('search-1', 'done', {
      items: [
        { id: 1, label: 'Lobby' },
        { id: 2, label: 'Dock' },
      ],
    });
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'l' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS - 1);
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'lo' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS - 1);
    expect(t.asked()).toEqual([{ api: DOORS, q: '' }]);
    // while the answer for "lo" is on its way, the last answer is shown narrowed to what is typed
    expect(shownOptions(selectSearchOf('k')(t.actor.getSnapshot()), 'lo')).toEqual({ items: [{ id: 1, label: 'Lobby' }], loading: true });
    t.clock.increment(1);
    await flush();
    expect(t.asked()).toEqual([
      { api: DOORS, q: '' },
      { api: DOORS, q: 'lo' },
    ]);
    t.actor.send({ type: 'options.search', key: 'k', api: DOORS, q: 'lob' });
    t.clock.increment(OPTION_SEARCH_PAUSE_MS);
    await flush();
    expect(t.controls.pending.has('search-2')).toBe(false); // stopped: its request is cancelled
    expect(await t.controls.settle('search-2', 'done', { items: [{ id: 9, label: 'stale' }] })).toBe(false);
    await t.controls.settle('search-3', 'done', { items: [{ id: 1, label: 'Lobby' }] });
    expect(shownOptions(selectSearchOf('k')(t.actor.getSnapshot()), 'lob')).toEqual({ items: [{ id: 1, label: 'Lobby' }], loading: false });
    t.actor.send({ type: 'options.close', key: 'k' });
    expect(selectSearchOf('k')(t.actor.getSnapshot())).toBeUndefined();
  });
  it('drops every label and answer at sign-out or a client switch, and an answer still on its way lands nowhere', async () => {
    const t = start();
    t.actor.send({ type: 'options.label', api: DOORS, ids: [1] });
    t.clock.increment(0);
    await t.controls.settle('lookup-1', 'done', { items: [{ id: 1, label: 'Client A door' }] });
    t.actor.send({ type: 'options.label', api: DOORS, ids: [2] });
    t.clock.increment(0);
    t.actor.send({ type: 'options.open', key: 'k', api: DOORS, q: '' });
    await flush();
    t.actor.send({ type: 'session.ended' });
    expect(await t.controls.settle('lookup-2', 'done', { items: [{ id: 2, label: 'Client A secret' }] })).toBe(false);
    const s = t.actor.getSnapshot();
    expect(s.context).toEqual(emptyOptions(1));
    expect(JSON.stringify(s.context)).not.toContain('Client A');
  });
});

describe("a picker's rows (issue 29)", () => {
  it('say what tells two rows of one title apart, and leave a unique title alone', () => {
    const rows = optionRows([
      { id: 7, label: 'Abdullah, Priya', detail: 'E-1042 · Sales' },
      { id: 9, label: 'Abdullah, Priya', detail: 'E-2210 · Warehouse' },
      { id: 3, label: 'Brown, Ben', detail: 'E-0003 · Sales' },
      { id: 11, label: 'Chua, Mei', detail: null },
      { id: 12, label: 'Chua, Mei', detail: null },
    ]);
    expect(rows.map((r) => r.apart)).toEqual(['E-1042 · Sales', 'E-2210 · Warehouse', null, '#11', '#12']);
    expect(rows.map((r) => r.option.id)).toEqual([7, 9, 3, 11, 12]);
  });

  it("a chosen namesake's button says what tells it apart, once the picker's list showed both; a unique title stays alone", async () => {
    const IDS = '/event/manage/identities';
    const t = start();
    // an edit form names its chosen host: one row known, nothing to tell it from
    t.actor.send({ type: 'options.label', api: IDS, ids: [9] });
    t.clock.increment(0);
    await t.controls.settle('lookup-1', 'done', { items: [{ id: 9, label: 'Abdullah, Priya', detail: 'E-2210 · Warehouse' }] });
    let s = t.actor.getSnapshot();
    expect(chosenApart(selectLabelsOf(IDS)(s), selectDetailsOf(IDS)(s), 9)).toBeNull();
    // the list opened shows both namesakes and another person; the one chosen is told apart on the button
    t.actor.send({ type: 'options.open', key: 'host', api: IDS, q: '' });
    await t.controls.settle('search-2', 'done', {
      items: [
        { id: 7, label: 'Abdullah, Priya', detail: 'E-1042 · Sales' },
        { id: 9, label: 'Abdullah, Priya', detail: 'E-2210 · Warehouse' },
        { id: 3, label: 'Brown, Ben', detail: 'E-0003 · Sales' },
        { id: 11, label: 'Chua, Mei' },
        { id: 12, label: 'Chua, Mei', detail: null },
      ],
    });
    t.actor.send({ type: 'options.close', key: 'host' });
    s = t.actor.getSnapshot();
    const apart = (id: number) => chosenApart(selectLabelsOf(IDS)(s), selectDetailsOf(IDS)(s), id);
    expect([apart(9), apart(7), apart(3), apart(11), apart(404)]).toEqual(['E-2210 · Warehouse', 'E-1042 · Sales', null, '#11', null]);
    // another client's or user's labels are never shown: sign-out drops the details with the labels
    t.actor.send({ type: 'session.ended' });
    expect(selectDetailsOf(IDS)(t.actor.getSnapshot())).toEqual({});
  });
});
