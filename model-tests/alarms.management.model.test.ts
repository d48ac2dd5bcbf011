// Alarm management in the alarms machine (issue 50, ISA-18.2): model-based tests over its graph with the new commands
// (forward, shelve, whom to forward to) and facts (escalated, forwarded, shelved, unshelved, an alarm of a shelved
// source): every step of every generated path keeps the invariants of the machine's meta and these properties,
// written from the standard, not from the transitions; then flood and chatter as the console reads them.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { eventPointIdOf, sameId, type AlarmAction, type Event } from '../contract';
import { alarmsMachine, type AlarmsSnapshot } from '../machines/alarms';
import { chatteringOf, floodOfRaisings, keepRaisings } from '../machines/alarms.management';
import { selectAlarmGroups, selectChattering, selectFlood } from '../machines/alarms.management.selectors';
import { edgePaths, onDemand, expectOracle, type StepProperties } from './harness';
import { forcedDoorAlarm } from './events';

const ev = forcedDoorAlarm;
const A1 = ev({ id: 1 });
const A2 = ev({ id: 2, eventPointId: 20, eventPointName: 'Loading bay', time: '2024-05-01T10:00:10Z' });
const SHELVED = ev({ id: 3, shelved: true, time: '2024-05-01T10:00:20Z' });
const ESCALATED: AlarmAction = { eventPointId: 10, process: false, change: 'escalated', alarmId: 1, escalationStep: 1, escalatedTo: 'Duty manager' };
const FORWARDED: AlarmAction = { eventPointId: 20, process: false, change: 'forwarded', alarmId: 2, forwardedTo: 'Sam Operator', note: 'Camera 4' };
const SHELVE_10: AlarmAction = { eventPointId: 10, process: false, change: 'shelved', note: 'Contractor' };
const UNSHELVE_10: AlarmAction = { eventPointId: 10, process: false, change: 'unshelved' };
const TARGETS = { operators: [{ id: 7, name: 'Sam Operator', username: 'operator' }], groups: [{ id: 3, name: 'Duty manager' }] };

const events: any[] = [
  { type: 'event.received', event: A1 },
  { type: 'event.received', event: A2 },
  { type: 'event.received', event: SHELVED },
  { type: 'alarm.actioned', action: ESCALATED },
  { type: 'alarm.actioned', action: FORWARDED },
  { type: 'alarm.actioned', action: SHELVE_10 },
  { type: 'alarm.actioned', action: UNSHELVE_10 },
  {
    type: 'facts.received',
    facts: [
      { type: 'event.received', event: A1 },
      { type: 'alarm.actioned', action: UNSHELVE_10 },
    ],
  },
  { type: 'socket.resynced' },
  { type: 'xstate.done.actor.loadAlarms', output: [A1, A2] },
  { type: 'alarm.forward', id: 2, userId: 7, note: 'Camera 4' },
  { type: 'alarm.forward', id: 2, userId: 7, groupId: 3, note: 'both: refused' },
  { type: 'alarm.forward', id: 2, groupId: 3, note: '   ' },
  { type: 'source.shelve', pointId: '10', minutes: 60, reason: 'Contractor' },
  { type: 'source.shelve', pointId: '10', minutes: 60, reason: '' },
  { type: 'forward.targetsWanted' },
  { type: 'xstate.done.actor.forward', output: { id: 2, forwardedTo: 'Sam Operator', note: 'Camera 4' } },
  { type: 'xstate.error.actor.forward', error: new Error('Forbidden') },
  { type: 'xstate.done.actor.shelve', output: { id: 5, pointId: '10', until: '2024-05-01T11:00:00Z' } },
  { type: 'xstate.error.actor.shelve', error: new Error('This source is already shelved') },
  { type: 'xstate.done.actor.loadForwardTargets', output: TARGETS },
  { type: 'xstate.error.actor.loadForwardTargets', error: new Error('Forbidden') },
  { type: 'session.ended' },
];
function possible(s: AlarmsSnapshot) {
  return events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return m ? m[1] in s.children : true;
  });
}
const serialize = (s: AlarmsSnapshot) =>
  JSON.stringify([
    s.value,
    s.context.alarms.map((a) => `${a.id}:${a.escalationStep ?? 0}:${a.forwardedTo ? 1 : 0}`).sort(),
    s.context.raisings.length,
    s.context.targets !== null,
    s.context.error !== null,
  ]);
const model = new TestModel(alarmsMachine as any, { events: possible as any, serializeState: serialize as any, limit: 20_000 });
const paths = onDemand(() => edgePaths(model, alarmsMachine, serialize, ['xstate.emit', 'xstate.raise']));

const ready = (s: AlarmsSnapshot) => s.matches({ command: 'ready' });
const open = (s: AlarmsSnapshot, id: Event['id']) => s.context.alarms.find((a) => sameId(a.id, id));
const told = (effects: Array<{ type: string; params: unknown }>) =>
  effects.filter((e) => e.type === 'xstate.emit').map((e) => (e.params as { event: { type: string; what?: string } }).event);

const properties: StepProperties<AlarmsSnapshot> = {
  'an alarm of a shelved source never reaches the open list': ({ after, event }) =>
    event.type === 'event.received' && event.event.shelved ? !open(after, event.event.id) : undefined,
  'an escalation heard shows the step and the group on the alarm': ({ after, event }) =>
    event.type === 'alarm.actioned' && event.action.change === 'escalated' && open(after, event.action.alarmId)
      ? open(after, event.action.alarmId)!.escalationStep === event.action.escalationStep &&
        open(after, event.action.alarmId)!.escalatedTo === event.action.escalatedTo
      : undefined,
  'a forward heard shows to whom on the alarm': ({ after, event }) =>
    event.type === 'alarm.actioned' && event.action.change === 'forwarded' && open(after, event.action.alarmId)
      ? open(after, event.action.alarmId)!.forwardedTo === event.action.forwardedTo
      : undefined,
  'a shelved point leaves the open list with every alarm of it': ({ after, event }) =>
    event.type === 'alarm.actioned' && event.action.change === 'shelved'
      ? !after.context.alarms.some((a) => sameId(eventPointIdOf(a), event.action.eventPointId))
      : undefined,
  'a shelving ended reads the open list again': ({ after, event }) =>
    (event.type === 'alarm.actioned' && event.action.change === 'unshelved') ||
    (event.type === 'facts.received' && event.facts.some((f: any) => f.action?.change === 'unshelved'))
      ? after.matches({ feed: 'syncing' })
      : undefined,
  'a forward starts only with one target, a note and an open alarm': ({ before, after, event }) =>
    ready(before) && after.matches({ command: 'forwarding' })
      ? event.type === 'alarm.forward' && (event.userId != null) !== (event.groupId != null) && event.note.trim() !== '' && !!open(before, event.id)
      : undefined,
  'a forward with two targets or no note is not sent': ({ before, after, event }) =>
    event.type === 'alarm.forward' && ready(before) && ((event.userId != null) === (event.groupId != null) || event.note.trim() === '')
      ? ready(after)
      : undefined,
  'a shelving starts only with a source, a time and a reason': ({ before, after, event }) =>
    ready(before) && after.matches({ command: 'shelving' }) ? event.type === 'source.shelve' && event.reason.trim() !== '' && event.minutes > 0 : undefined,
  'a forward or shelving answered ends the command and tells the shell once': ({ before, after, event, effects }) =>
    /^xstate\.done\.actor\.(forward|shelve)$/.test(event.type) && !ready(before)
      ? ready(after) && told(effects).filter((e) => e.type === 'alarm.commandDone').length === 1
      : undefined,
  'a shelving answered takes its source off the open list': ({ before, after, event }) =>
    event.type === 'xstate.done.actor.shelve' && before.matches({ command: 'shelving' })
      ? !after.context.alarms.some((a) => sameId(eventPointIdOf(a), event.output.pointId))
      : undefined,
  'a command refused says why and changes no alarm': ({ before, after, event }) =>
    /^xstate\.error\.actor\.(forward|shelve|loadForwardTargets)$/.test(event.type) && !ready(before)
      ? ready(after) && after.context.error !== null && after.context.alarms === before.context.alarms
      : undefined,
  'whom to forward to, once read, is kept': ({ before, after, event }) =>
    event.type === 'xstate.done.actor.loadForwardTargets' && before.matches({ command: 'readingTargets' }) ? after.context.targets === event.output : undefined,
  'sign-out forgets the raisings and whom to forward to': ({ after, event }) =>
    event.type === 'session.ended' ? after.context.raisings.length === 0 && after.context.targets === null && ready(after) : undefined,
};

describe('alarms machine model: alarm management (issue 50)', () => {
  it('reaches forwarding, shelving and reading whom to forward to, live and while syncing', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const feed of ['live', 'syncing'])
      for (const command of ['forwarding', 'shelving', 'readingTargets']) expect(values).toContain(JSON.stringify({ feed, command }));
  });
  it(`keeps the invariants of its meta and the standard's rules at every step of the generated paths`, () => {
    expectOracle(paths(), properties, 13);
  });
});

describe('flood and chatter (ISA-18.2) as this console reads them', () => {
  const at = (s: number) => new Date(Date.UTC(2024, 4, 1, 10, 0, 0) + s * 1000).toISOString();
  const raise = (id: number, point: number, s: number) => ev({ id, eventPointId: point, eventPointName: `Door ${point}`, time: at(s) });

  it('is a flood with more than 10 alarms within 10 minutes, and not with 10', () => {
    const ten = Array.from({ length: 10 }, (_, i) => raise(i + 1, i + 1, i * 55));
    expect(floodOfRaisings(keepRaisings([], ten))).toEqual({ inFlood: false, count: 10 });
    const eleven = keepRaisings(keepRaisings([], ten), [raise(11, 11, 560)]);
    expect(floodOfRaisings(eleven)).toEqual({ inFlood: true, count: 11 });
    // the first two fell out of the window of the newest: 10 again
    expect(floodOfRaisings(keepRaisings(eleven, [raise(12, 12, 656)]))).toEqual({ inFlood: false, count: 10 });
  });

  it('calls a source chattering when it raised more than 3 times within a minute', () => {
    const three = [raise(1, 5, 0), raise(2, 5, 20), raise(3, 5, 40)];
    expect(chatteringOf(keepRaisings([], three))).toEqual([]);
    const four = keepRaisings(keepRaisings([], three), [raise(4, 5, 59), raise(5, 6, 59)]);
    expect(chatteringOf(four)).toEqual([{ pointId: 5, name: 'Door 5', count: 4 }]);
    // spread over more than a minute: not chattering
    expect(chatteringOf(keepRaisings([], [raise(1, 5, 0), raise(2, 5, 30), raise(3, 5, 61), raise(4, 5, 91)]))).toEqual([]);
  });

  it('groups the open alarms by source in a flood, says so, and suggests the chattering source for shelving', () => {
    const actor = createActor(alarmsMachine).start();
    // a source chattering: raised and cleared five times in 40 s, then eleven alarms from six doors
    for (let i = 0; i < 5; i++) {
      actor.send({ type: 'event.received', event: raise(100 + i, 9, i * 10) });
      actor.send({ type: 'event.received', event: ev({ id: 200 + i, eventPointId: 9, alert: false, time: at(i * 10 + 5) }) });
    }
    expect(selectFlood(actor.getSnapshot())).toEqual({ inFlood: false, count: 5 });
    expect(selectChattering(actor.getSnapshot())).toEqual([{ pointId: 9, name: 'Door 9', count: 5 }]);
    for (let i = 0; i < 6; i++) actor.send({ type: 'event.received', event: raise(300 + i, 1 + (i % 3), 60 + i) });
    const s = actor.getSnapshot();
    expect(selectFlood(s)).toEqual({ inFlood: true, count: 11 });
    const groups = selectAlarmGroups(s);
    // newest first within a priority: door 3's alarm came last
    expect(groups.map((g) => [g.pointId, g.alarms.length])).toEqual([
      [3, 2],
      [2, 2],
      [1, 2],
    ]);
    expect(selectAlarmGroups(s)).toBe(groups); // stable for the same list
  });
});
