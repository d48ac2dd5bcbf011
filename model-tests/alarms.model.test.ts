// Model-based tests generated from the alarms machine's graph: every step of every generated path keeps the state
// invariants of the machine's meta and the §4 lifecycle's properties (an oracle of its own, not the machine compared
// with itself); then the §4 rules one by one, the resync buffering and the selectors.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { eventPointIdOf, sameId, type AcknowledgeUpdate, type AlarmAction, type Event } from '../contract';
import { alarmsMachine, applyFact, syncAlarms, type AlarmsSnapshot } from '../machines/alarms';
import {
  selectAlarmCount,
  selectAlarmError,
  selectIsCommandBusy,
  selectIsSyncing,
  selectOpenAlarms,
  selectOpenByPriority,
  selectServerAlarmCount,
  selectUnacknowledgedCount,
} from '../machines/alarms.selectors';
import { createControls, edgePaths, onDemand, expectOracle, type StepProperties } from './harness';

const ev = (over: Partial<Event> & Pick<Event, 'id'>): Event => ({
  eventCode: 5001,
  eventPointId: undefined,
  eventSourceId: 1,
  eventPointName: null,
  eventSourceName: null,
  message: '',
  alert: true,
  acknowledge: false,
  process: false,
  eventPoint: [],
  time: '2024-05-01T10:00:00Z',
  priority: 5,
  ...over,
});

const E1 = ev({ id: 1, eventPointId: 10, priority: 2, time: '2024-05-01T10:00:01Z' });
const E2 = ev({ id: 2, eventSourceId: 10, priority: 1 }); // no eventPointId: the point is its source, 10
const E3 = ev({ id: 3, eventPointId: 20, eventSourceId: 99 });
const CLEAR_10 = ev({ id: 4, eventPointId: null, eventSourceId: 10, alert: false });
const ACK_1: AcknowledgeUpdate = { id: 1, acknowledge: true };
const PROCESS_10: AlarmAction = { eventPointId: 10, process: true, note: 'checked' };

const events: any[] = [
  { type: 'event.received', event: E1 },
  { type: 'event.received', event: E2 },
  { type: 'event.received', event: E3 },
  { type: 'event.received', event: CLEAR_10 },
  { type: 'alarm.acknowledged', update: ACK_1 },
  { type: 'alarm.actioned', action: PROCESS_10 },
  { type: 'alarm.actioned', action: { eventPointId: 20, process: false } },
  { type: 'alarm.counted', count: 5 },
  // one broker message's facts at once: an alarm raised, acknowledged and another cleared, and a count
  {
    type: 'facts.received',
    facts: [
      { type: 'event.received', event: E3 },
      { type: 'event.received', event: E1 },
      { type: 'alarm.acknowledged', update: ACK_1 },
      { type: 'event.received', event: CLEAR_10 },
      { type: 'alarm.counted', count: 2 },
    ],
  },
  { type: 'socket.resynced' },
  { type: 'xstate.done.actor.loadAlarms', output: [E3] },
  { type: 'xstate.error.actor.loadAlarms', error: new Error('Service Unavailable') },
  { type: 'alarms.synced', alarms: [E1] },
  { type: 'alarm.acknowledge', id: 1 },
  { type: 'alarm.process', id: 1, note: 'checked' },
  { type: 'xstate.done.actor.acknowledge', output: ACK_1 },
  { type: 'xstate.error.actor.acknowledge', error: new Error('Forbidden') },
  { type: 'xstate.done.actor.process', output: PROCESS_10 },
  { type: 'xstate.error.actor.process', error: new Error('Forbidden') },
  { type: 'alarm.errorDismissed' },
  { type: 'session.ended' },
];

function possible(s: AlarmsSnapshot) {
  const invoked = new Set(Object.keys(s.children));
  return events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return m ? invoked.has(m[1]) : true;
  });
}

// an abstraction that bounds the graph; every step still compares the full context
const serialize = (s: AlarmsSnapshot) =>
  JSON.stringify([s.value, Math.min(s.context.alarms.length, 2), s.context.alarms.some((a) => a.acknowledge), s.context.baselined]);
// the notice board has its own model (alarms.notices.model.test.ts)

const model = new TestModel(alarmsMachine as any, { events: possible as any, serializeState: serialize as any, limit: 20_000 });
const paths = onDemand(() => edgePaths(model, alarmsMachine, serialize, ['xstate.emit']));

const open = (s: AlarmsSnapshot, id: Event['id']) => s.context.alarms.find((a) => sameId(a.id, id));
const commandIdle = (s: AlarmsSnapshot) => s.matches({ command: 'ready' });
const told = (effects: Array<{ params: unknown }>) => effects.map((e) => (e.params as { event: { type: string; what?: string } }).event);

/** The §4 lifecycle as properties of each step, written from the specification, not from the machine's transitions. */
const properties: StepProperties<AlarmsSnapshot> = {
  'an acknowledge starts only for an open alarm nobody has acknowledged yet': ({ before, after, event }) =>
    commandIdle(before) && after.matches({ command: 'acknowledging' })
      ? event.type === 'alarm.acknowledge' && open(before, event.id)?.acknowledge === false
      : undefined,
  'an acknowledge asked for an open, unacknowledged alarm starts when no command runs': ({ before, after, event }) =>
    event.type === 'alarm.acknowledge' && commandIdle(before) && open(before, event.id)?.acknowledge === false
      ? after.matches({ command: 'acknowledging' })
      : undefined,
  'a process starts only for an open alarm': ({ before, after, event }) =>
    commandIdle(before) && after.matches({ command: 'processing' }) ? event.type === 'alarm.process' && !!open(before, event.id) : undefined,
  'a command answered ends the command and tells the shell once': ({ before, after, event, effects }) =>
    /^xstate\.done\.actor\.(acknowledge|process)$/.test(event.type) && !commandIdle(before)
      ? commandIdle(after) && told(effects).filter((e) => e.type === 'alarm.commandDone').length === 1
      : undefined,
  'a command refused ends the command with an error, the list unchanged': ({ before, after, event }) =>
    /^xstate\.error\.actor\.(acknowledge|process)$/.test(event.type) && !commandIdle(before)
      ? commandIdle(after) && after.context.error !== null && after.context.alarms === before.context.alarms
      : undefined,
  'an alert heard is open afterwards, heard once': ({ after, event }) =>
    event.type === 'event.received' && event.event.alert ? after.context.alarms.filter((a) => sameId(a.id, event.event.id)).length === 1 : undefined,
  'a non-alert event clears every alarm of its point': ({ after, event }) =>
    event.type === 'event.received' && !event.event.alert
      ? !after.context.alarms.some((a) => sameId(eventPointIdOf(a), eventPointIdOf(event.event)))
      : undefined,
  "an acknowledge update sets the alarm's acknowledge value": ({ after, event }) =>
    event.type === 'alarm.acknowledged' && open(after, event.update.id) ? open(after, event.update.id)!.acknowledge === event.update.acknowledge : undefined,
  'an alarm processed leaves the open list with every alarm of its point': ({ after, event }) =>
    event.type === 'alarm.actioned' && event.action.process
      ? !after.context.alarms.some((a) => sameId(eventPointIdOf(a), event.action.eventPointId))
      : undefined,
  'a reconnect reads the open list again': ({ after, event }) => (event.type === 'socket.resynced' ? after.matches({ feed: 'syncing' }) : undefined),
  'the open list read replaces the list with its alerts': ({ before, after, event }) =>
    event.type === 'xstate.done.actor.loadAlarms' && before.matches({ feed: 'syncing' })
      ? after.matches({ feed: 'live' }) && event.output.every((a: Event) => !a.alert || !!open(after, a.id))
      : undefined,
  'sign-out forgets every alarm, notice and command, and notice ids keep counting': ({ before, after, event }) =>
    event.type === 'session.ended'
      ? after.matches({ feed: 'live', command: 'ready' }) &&
        after.context.alarms.length === 0 &&
        after.context.board.notices.length === 0 &&
        after.context.board.seq >= before.context.board.seq &&
        !after.context.baselined
      : undefined,
};

describe('alarms machine model', () => {
  it('reaches every region state', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const feed of ['live', 'syncing'])
      for (const command of ['ready', 'acknowledging', 'processing']) {
        expect(values).toContain(JSON.stringify({ feed, command }));
      }
  });
  it(`keeps the state invariants of its meta and the §4 lifecycle at every step of the generated paths`, () => {
    expectOracle(paths(), properties, 8);
  });
});

describe('alarm lifecycle rules (§4)', () => {
  it('adds an alert once: a repeat of the same id is ignored', () => {
    const once = applyFact([], { type: 'event.received', event: E1 });
    expect(once.raised).toBe(E1);
    const twice = applyFact(once.alarms, { type: 'event.received', event: { ...E1, message: 'again' } });
    expect(twice.alarms).toEqual([E1]);
    expect(twice.raised).toBeUndefined();
  });

  it('clears every alert of a point on a non-alert event for it, eventPointId falling back to eventSourceId', () => {
    const { alarms } = [E1, E2, E3].reduce((acc, e) => applyFact(acc.alarms, { type: 'event.received', event: e }), { alarms: [] as Event[] });
    expect(applyFact(alarms, { type: 'event.received', event: CLEAR_10 }).alarms).toEqual([E3]);
    // an event whose point is given explicitly clears by that point, not by its source
    expect(applyFact(alarms, { type: 'event.received', event: ev({ id: 8, eventPointId: 20, eventSourceId: 10, alert: false }) }).alarms).toEqual([E1, E2]);
  });

  it('sets the acknowledge value of the matching alert only', () => {
    const { alarms } = applyFact([E1, E3], { type: 'alarm.acknowledged', update: ACK_1 });
    expect(alarms.map((a) => [a.id, a.acknowledge])).toEqual([
      [1, true],
      [3, false],
    ]);
    expect(applyFact(alarms, { type: 'alarm.acknowledged', update: { id: '1', acknowledge: false } }).alarms[0].acknowledge).toBe(false);
  });

  it('removes the alerts of a point on an alarm action with the process flag, and only then', () => {
    expect(applyFact([E1, E2, E3], { type: 'alarm.actioned', action: PROCESS_10 }).alarms).toEqual([E3]);
    expect(applyFact([E1, E2, E3], { type: 'alarm.actioned', action: { eventPointId: 10, process: false } }).alarms).toEqual([E1, E2, E3]);
  });

  it('gives back the very list when a fact changes nothing, so what views select from it stays the same', () => {
    const list = [E1, E3];
    const none = ev({ id: 99, eventPointId: 77, eventSourceId: 77, alert: false });
    expect(applyFact(list, { type: 'event.received', event: none }).alarms).toBe(list);
    expect(applyFact(list, { type: 'event.received', event: { ...E1, message: 'again' } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.actioned', action: { eventPointId: 10, process: false } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.actioned', action: { eventPointId: 77, process: true } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.acknowledged', update: { id: 99, acknowledge: true } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.counted', count: 4 }).alarms).toBe(list);
    expect(applyFact(list, { type: 'event.received', event: CLEAR_10 }).alarms).not.toBe(list); // a change is a new list
    // through the machine: a busy site's ordinary events leave the header's and dashboard's selections untouched
    const actor = createActor(alarmsMachine).start();
    actor.send({ type: 'event.received', event: E1 });
    const before = selectOpenByPriority(actor.getSnapshot());
    for (let i = 0; i < 50; i++)
      actor.send({ type: 'event.received', event: ev({ id: 1000 + i, eventPointId: 500 + i, eventSourceId: 500 + i, alert: false }) });
    expect(selectOpenByPriority(actor.getSnapshot())).toBe(before);
    actor.stop();
  });

  it('replaces the list from REST and re-applies what arrived meanwhile, raising only the new ones', () => {
    const r = syncAlarms(
      [E1],
      [E1, E3, CLEAR_10, E3],
      [
        { type: 'event.received', event: E2 },
        { type: 'alarm.acknowledged', update: { id: 3, acknowledge: true } },
      ],
    );
    expect(r.alarms.map((a) => [a.id, a.acknowledge])).toEqual([
      [1, false],
      [3, true],
      [2, false],
    ]);
    expect(r.raised.map((a) => a.id)).toEqual([3, 2]);
  });

  it('keeps a fact heard during the REST read on top of the snapshot', async () => {
    const controls = createControls();
    const actor = createActor(alarmsMachine.provide({ actors: { loadAlarms: controls.logic() } })).start();
    actor.send({ type: 'socket.resynced' });
    actor.send({ type: 'event.received', event: E2 });
    await controls.settle('loadAlarms', 'done', [E1]); // the snapshot was taken before E2
    expect(actor.getSnapshot().context.alarms.map((a) => a.id)).toEqual([1, 2]);
    expect(actor.getSnapshot().context.pending).toEqual([]);
  });

  it('acknowledges and processes through the REST actors, with the note and the point', async () => {
    const controls = createControls();
    const actor = createActor(
      alarmsMachine.provide({
        actors: { acknowledgeAlarm: controls.logic(), processAlarm: controls.logic() },
      }),
    ).start();
    actor.send({ type: 'event.received', event: E2 });
    expect(actor.getSnapshot().can({ type: 'alarm.acknowledge', id: 2 })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'alarm.acknowledge', id: 404 })).toBe(false);
    actor.send({ type: 'alarm.acknowledge', id: 2 });
    expect(selectIsCommandBusy(actor.getSnapshot())).toBe(true);
    await controls.settle('acknowledge', 'done', { id: 2, acknowledge: true });
    expect(actor.getSnapshot().context.alarms[0].acknowledge).toBe(true);
    actor.send({ type: 'alarm.process', id: 2, note: 'guard sent' });
    expect(controls.inputs.at(-1)).toEqual({ id: 'process', input: { id: 2, note: 'guard sent', eventPointId: 10 } });
    await controls.settle('process', 'error', new Error('Forbidden'));
    expect(selectAlarmError(actor.getSnapshot())).toBe('Forbidden');
    expect(selectAlarmCount(actor.getSnapshot())).toBe(1);
  });
});

describe('alarms selectors', () => {
  it('sorts open alarms by priority, then newest first, and counts them', () => {
    const actor = createActor(alarmsMachine).start();
    const late = ev({ id: 5, eventPointId: 50, priority: 2, time: '2024-05-01T11:00:00Z' });
    for (const e of [E3, E1, late, E2]) actor.send({ type: 'event.received', event: e });
    actor.send({ type: 'alarm.acknowledged', update: ACK_1 });
    const s = actor.getSnapshot();
    expect(selectOpenAlarms(s).map((a) => a.id)).toEqual([2, 5, 1, 3]);
    expect(selectOpenAlarms(s)).toBe(selectOpenAlarms(s)); // the same array for the same list
    expect(selectAlarmCount(s)).toBe(4);
    expect(selectUnacknowledgedCount(s)).toBe(3);
    expect(selectServerAlarmCount(s)).toBe(4);
    actor.send({ type: 'alarm.counted', count: 7 });
    expect(selectServerAlarmCount(actor.getSnapshot())).toBe(7);
    expect(selectIsSyncing(actor.getSnapshot())).toBe(false);
  });
});
