// What the operator is told of new alarms (issue 10): a model of the alarms machine's notice board generated from
// its graph (facts, the first open list, the gather window, expiry, dismissing), every step checked against the board's
// invariants (the machine's meta) and the notice policy's properties; then the
// policy one rule at a time on a SimulatedClock: no toasts for what was open before the console connected, most
// urgent first, floods as one summary, a capped board, P1 sticky until seen, the others gone after 5 s (§9).
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor } from 'xstate';
import { ALARM_NOTICE_GATHER_MS, MAX_ALARM_NOTICES, NOTIFICATION_MS, type Event } from '../contract';
import { alarmsMachine, type AlarmsEmitted, type AlarmsSnapshot } from '../machines/alarms';
import { selectAlarmNotices, selectOpenByPriority } from '../machines/alarms.selectors';
import { createControls, edgePaths, onDemand, expectOracle, type StepProperties } from './harness';

let nextId = 100;
const ev = (over: Partial<Event> = {}): Event => {
  const id = over.id ?? nextId++;
  return {
    id,
    eventCode: 6001,
    eventPointId: `door-${id}`,
    eventSourceId: 1,
    eventPointName: `Door ${id}`,
    eventSourceName: null,
    message: 'Door forced open',
    alert: true,
    acknowledge: false,
    process: false,
    eventPoint: [],
    time: `2026-11-23T10:00:${String(Number(id) % 60).padStart(2, '0')}Z`,
    priority: 3,
    ...over,
  };
};

// ---------- the graph ----------

const A = ev({ id: 1, priority: 1, eventPointId: 'door-1' });
const B = ev({ id: 2, priority: 3, eventPointId: 'door-2' });
// an open list: at sign-in what was already open; after that (with A on the board), three raised while the console
// was cut off, which fold into a summary
const LIST = [A, ev({ id: 9, priority: 1 }), ev({ id: 10, priority: 2 }), ev({ id: 11, priority: 3 })];
const events: any[] = [
  { type: 'event.received', event: A },
  { type: 'event.received', event: B },
  { type: 'alarm.acknowledged', update: { id: 1, acknowledge: true } },
  { type: 'socket.resynced' },
  { type: 'xstate.done.actor.loadAlarms', output: [] },
  { type: 'xstate.done.actor.loadAlarms', output: LIST },
  { type: 'notices.flush' },
  { type: 'notice.expired', id: 1, version: 1 },
  { type: 'notice.dismiss', id: 1 },
  { type: 'notices.seen' },
  { type: 'session.ended' },
  // a sign-in that began after A was raised and before the others of LIST
  { type: 'session.started', at: Date.parse('2026-11-23T10:00:05Z') },
];
const possible = (s: AlarmsSnapshot) =>
  events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return m ? m[1] in s.children : true;
  });
// bounded: how many alarms (and whether A is acknowledged), the baseline, whether a batch waits, the board's shape
const serialize = (s: AlarmsSnapshot) =>
  JSON.stringify([
    s.value.feed,
    Math.min(s.context.alarms.length, 4),
    s.context.alarms.some((a) => a.acknowledge),
    s.context.baselined,
    Math.min(s.context.gathered.length, 3),
    s.context.board.notices.map((n) => `${n.kind}${n.sticky ? '!' : ''}`),
  ]);
const model = new TestModel(alarmsMachine as any, { events: possible as any, serializeState: serialize as any, limit: 5000 });
const paths = onDemand(() => edgePaths(model, alarmsMachine, serialize, ['xstate.emit']));

const noticed = (effects: Array<{ params: unknown }>) =>
  effects
    .map((e) => (e.params as { event: AlarmsEmitted }).event)
    .filter((e): e is Extract<AlarmsEmitted, { type: 'alarm.noticed' }> => e.type === 'alarm.noticed');
const ids = (s: AlarmsSnapshot) => s.context.board.notices.map((n) => n.id);

/** The notice policy (issue 10, §9) as properties of each step, besides the board's invariants in the machine's meta. */
const properties: StepProperties<AlarmsSnapshot> = {
  'a notice goes up only when the gather window ends, and is told to the shell then': ({ before, after, event, effects }) =>
    ids(after).some((id) => !ids(before).includes(id)) ? event.type === 'notices.flush' && noticed(effects).length === 1 : undefined,
  'what is told is what went up or grew, at its most urgent priority': ({ after, effects }) =>
    noticed(effects).length
      ? noticed(effects).every(
          (e) => e.notices.every((n) => after.context.board.notices.some((m) => m.id === n.id)) && e.priority === Math.min(...e.notices.map((n) => n.priority)),
        )
      : undefined,
  'a sticky (P1) notice is never expired by time': ({ before, after, event }) =>
    event.type === 'notice.expired' ? before.context.board.notices.filter((n) => n.sticky).every((n) => ids(after).includes(n.id)) : undefined,
  'the operator closes a notice, or all of them by opening the alarms': ({ after, event }) =>
    event.type === 'notice.dismiss' ? !ids(after).includes(event.id) : event.type === 'notices.seen' ? ids(after).length === 0 : undefined,
  'what was open at the first list of a session before it began is not news': ({ before, after, event }) =>
    event.type === 'xstate.done.actor.loadAlarms' && !before.context.baselined
      ? after.context.gathered.every(
          (a) => before.context.gathered.some((g) => g.id === a.id) || (before.context.openedAt !== null && Date.parse(a.time) >= before.context.openedAt),
        )
      : undefined,
  'sign-out takes every notice down, and nothing waits to be told': ({ after, event }) =>
    event.type === 'session.ended' ? ids(after).length === 0 && after.context.gathered.length === 0 : undefined,
};

describe('alarm notice board model', () => {
  it('reaches a summary, a sticky P1 and an empty board', () => {
    const boards = new Set(paths().map((p) => JSON.stringify(p.path.state.context.board.notices.map((n) => [n.kind, n.sticky]))));
    expect(boards).toContain('[]');
    expect([...boards].some((b) => b.includes('"summary"'))).toBe(true);
    expect([...boards].some((b) => b.includes('["alarm",true]'))).toBe(true);
  });
  it(`keeps the board's invariants (its meta) and the notice policy at every step of the generated paths`, () => {
    expectOracle(paths(), properties, 7);
  });
});

// ---------- the rules, on a clock ----------

function start() {
  const clock = new SimulatedClock();
  const controls = createControls();
  const actor = createActor(alarmsMachine.provide({ actors: { loadAlarms: controls.logic() } }), { clock }).start();
  const noticed: Extract<AlarmsEmitted, { type: 'alarm.noticed' }>[] = [];
  actor.on('alarm.noticed', (e) => {
    noticed.push(e);
  });
  const board = () => selectAlarmNotices(actor.getSnapshot());
  /** The first open list of the sign-in: what was already open when the console connected. */
  const connect = async (open: Event[]) => {
    actor.send({ type: 'socket.resynced' });
    await controls.settle('loadAlarms', 'done', open);
  };
  const raise = (...alarms: Event[]) => {
    for (const a of alarms) actor.send({ type: 'event.received', event: a });
  };
  return { clock, actor, noticed, board, connect, raise, controls };
}

describe('what the operator is told of new alarms (issue 10)', () => {
  it('raises no notice for the alarms already open at sign-in or reload, and does for one raised afterwards', async () => {
    const t = start();
    const earlier = Array.from({ length: 9 }, (_, i) => ev({ priority: i < 2 ? 1 : 3 }));
    await t.connect(earlier);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board()).toEqual([]);
    expect(t.noticed).toEqual([]);
    expect(selectOpenByPriority(t.actor.getSnapshot())).toEqual([
      { priority: 1, count: 2 },
      { priority: 3, count: 7 },
    ]);
    const fresh = ev({ priority: 2, eventPointName: 'Server Room' });
    t.raise(fresh);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board().map((n) => n.title)).toEqual(['P2 alarm: Server Room']);
    expect(t.noticed).toHaveLength(1);
  });

  it('notices an alarm raised after sign-in though the first open list brought it (the socket was not up yet)', async () => {
    const t = start();
    const signedInAt = Date.parse('2026-11-23T10:00:30Z');
    t.actor.send({ type: 'session.started', at: signedInAt });
    const before = ev({ priority: 1, time: '2026-11-23T10:00:29.999Z' });
    const after = ev({ priority: 1, time: '2026-11-23T10:00:30Z', eventPointName: 'Main Entrance' });
    await t.connect([before, after]);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board().map((n) => n.alarmIds)).toEqual([[after.id]]);
    expect(t.noticed).toHaveLength(1);
    // the next sign-in forgets it: its own start decides again
    t.actor.send({ type: 'session.ended' });
    await t.connect([before, after]);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board()).toEqual([]);
  });

  it('notices alarms raised while a connected console was cut off, after the reconnect', async () => {
    const t = start();
    await t.connect([ev()]);
    const missed = ev({ priority: 1 });
    await t.connect([...t.actor.getSnapshot().context.alarms, missed]);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board().map((n) => n.alarmIds)).toEqual([[missed.id]]);
  });

  it('notices a session again from scratch after sign-out: the next sign-in list is not news', async () => {
    const t = start();
    await t.connect([]);
    t.actor.send({ type: 'session.ended' });
    await t.connect([ev(), ev()]);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board()).toEqual([]);
  });

  it('waits out the gather window, then shows the batch most urgent first', async () => {
    const t = start();
    await t.connect([]);
    const p3 = ev({ priority: 3 });
    const p1 = ev({ priority: 1 });
    const p2 = ev({ priority: 2 });
    t.raise(p3, p1);
    t.clock.increment(ALARM_NOTICE_GATHER_MS - 1);
    t.raise(p2);
    expect(t.board()).toEqual([]);
    t.clock.increment(1);
    expect(t.board().map((n) => n.priority)).toEqual([1, 2, 3]);
    expect(t.noticed).toHaveLength(1); // one sound for the batch
    expect(t.noticed[0].priority).toBe(1);
  });

  it('collapses a flood into one summary naming how many and how many P1', async () => {
    const t = start();
    await t.connect([]);
    t.raise(...Array.from({ length: 12 }, (_, i) => ev({ priority: i % 4 === 0 ? 1 : 3, eventPointName: `Door ${i}` })));
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board()).toHaveLength(1);
    expect(t.board()[0]).toMatchObject({ kind: 'summary', title: '12 new alarms, 3 P1', sticky: true, priority: 1 });
    expect(t.board()[0].message).toMatch(/^Most urgent: P1 /);
  });

  it(`never shows more than ${MAX_ALARM_NOTICES} notices: more fold into the summary, which then grows`, async () => {
    const t = start();
    await t.connect([]);
    t.raise(ev(), ev());
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board()).toHaveLength(2);
    t.raise(ev(), ev());
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board().map((n) => n.title)).toEqual(['4 new alarms']);
    t.raise(ev({ priority: 1 }));
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board().map((n) => n.title)).toEqual(['5 new alarms, 1 P1']);
  });

  it('takes a non-P1 notice down after 5 s (§9) and keeps a P1 until it is seen', async () => {
    const t = start();
    await t.connect([]);
    const p1 = ev({ priority: 1 });
    const p3 = ev({ priority: 3 });
    t.raise(p1, p3);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    t.clock.increment(NOTIFICATION_MS - 1);
    expect(t.board()).toHaveLength(2);
    t.clock.increment(1);
    expect(t.board().map((n) => n.alarmIds)).toEqual([[p1.id]]);
    t.clock.increment(60 * 60_000);
    expect(t.board()[0]).toMatchObject({ sticky: true, alarmIds: [p1.id] });
    t.actor.send({ type: 'notice.dismiss', id: t.board()[0].id });
    expect(t.board()).toEqual([]);
  });

  it('takes a P1 notice down once someone acknowledges its alarm, and "View" clears the board', async () => {
    const t = start();
    await t.connect([]);
    const p1 = ev({ priority: 1 });
    const other = ev({ priority: 1 });
    t.raise(p1, other);
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    t.actor.send({ type: 'alarm.acknowledged', update: { id: p1.id, acknowledge: true } });
    expect(t.board().map((n) => n.alarmIds)).toEqual([[other.id]]);
    t.actor.send({ type: 'notices.seen' });
    expect(t.board()).toEqual([]);
  });

  it('does not notice an alarm cleared within the gather window', async () => {
    const t = start();
    await t.connect([]);
    const a = ev({ priority: 3, eventPointId: 'door-77' });
    t.raise(a, ev({ id: 7777, alert: false, eventPointId: 'door-77' }));
    t.clock.increment(ALARM_NOTICE_GATHER_MS);
    expect(t.board()).toEqual([]);
    expect(t.noticed).toEqual([]);
  });
});
