// Issue 51: the alarm lifecycle (machines/alarms.ts, alarms.management.ts, alarms.notices.ts and their selectors) with
// small hand-made cases, for the mutation run (the three alarms model tests build their graphs per test: over 3 hours
// a run). Each rule of §4, issue 10 and issue 50 is written down here apart from the machine, with the values worked
// out by hand: the open list after each kind of fact, what is news and when, the board of notices, the commands' inputs
// and answers, flood and chatter, the selectors; and each invariant of machines/alarms.invariants.ts rejecting a state
// that breaks it.
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { Event } from '../contract';
import { alarmsMachine, applyFact, applyFacts, syncAlarms, type AlarmsEmitted, type AlarmsSnapshot } from '../machines/alarms';
import type { AlarmsContext } from '../machines/alarms.context';
import { invariants } from '../machines/alarms.invariants';
import { applyChange, chatteringOf, floodOfRaisings, keepRaisings, RAISINGS_MAX, type Raising } from '../machines/alarms.management';
import { selectAlarmGroups, selectChattering, selectFlood, selectForwardTargets, selectRunningCommand } from '../machines/alarms.management.selectors';
import { addToBoard, noticeFor, pruneBoard, raisedSince, unseen, type AlarmNotice } from '../machines/alarms.notices';
import {
  commandsOf,
  sameAlarmCommands,
  selectAlarmCommands,
  selectAlarmCount,
  selectAlarmError,
  selectAlarmsKnown,
  selectAlarmNotices,
  selectIsCommandBusy,
  selectIsSyncing,
  selectOpenAlarms,
  selectOpenByPriority,
  selectServerAlarmCount,
  selectUnacknowledgedCount,
} from '../machines/alarms.selectors';
import { forcedDoorAlarm } from './events';
import { createControls } from './harness';

// the shared forced-door alarm (./events.ts), without a point name and at priority 3, as these rules were worked out
const ev = (over: Partial<Event> & Pick<Event, 'id'>): Event => forcedDoorAlarm({ eventPointName: null, priority: 3, ...over });
const ids = (list: readonly { id: Event['id'] }[]) => list.map((a) => a.id);

// ---------- §4: the open list ----------

describe('alarms rules: one fact at a time (§4)', () => {
  const A = ev({ id: 1, eventPointId: 10 });
  const B = ev({ id: 2, eventPointId: null, eventSourceId: 20 }); // its point is its source, 20
  const C = ev({ id: 3, eventPointId: 10 });
  const list = [A, B, C];
  it('an alert is added once and raised; a repeat of its id (as text too) or a shelved one changes nothing', () => {
    const D = ev({ id: 4 });
    expect(applyFact(list, { type: 'event.received', event: D })).toEqual({ alarms: [A, B, C, D], raised: D });
    const repeat = applyFact(list, { type: 'event.received', event: ev({ id: '2' as unknown as number }) });
    expect(repeat.alarms).toBe(list);
    expect(repeat.raised).toBeUndefined();
    const shelved = applyFact(list, { type: 'event.received', event: ev({ id: 5, shelved: true }) });
    expect(shelved.alarms).toBe(list);
    expect(shelved.raised).toBeUndefined();
  });
  it("a non-alert event clears its point's alerts (the point falling back to the source); none of them: the very list", () => {
    expect(applyFact(list, { type: 'event.received', event: ev({ id: 9, alert: false, eventPointId: 10 }) })).toEqual({ alarms: [B] });
    expect(applyFact(list, { type: 'event.received', event: ev({ id: 9, alert: false, eventPointId: undefined, eventSourceId: 20 }) })).toEqual({
      alarms: [A, C],
    });
    const none = applyFact(list, { type: 'event.received', event: ev({ id: 9, alert: false, eventPointId: 30 }) });
    expect(none.alarms).toBe(list);
    expect(none.raised).toBeUndefined();
  });
  it('an acknowledge sets the value on its alert only; the same value or an unknown id: the very list', () => {
    const r = applyFact(list, { type: 'alarm.acknowledged', update: { id: 2, acknowledge: true } });
    expect(r.alarms.map((a) => a.acknowledge)).toEqual([false, true, false]);
    expect(r.alarms[0]).toBe(A);
    expect(applyFact(r.alarms, { type: 'alarm.acknowledged', update: { id: 2, acknowledge: false } }).alarms.map((a) => a.acknowledge)).toEqual([
      false,
      false,
      false,
    ]);
    expect(applyFact(list, { type: 'alarm.acknowledged', update: { id: 1, acknowledge: false } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.acknowledged', update: { id: 7, acknowledge: true } }).alarms).toBe(list);
  });
  it("a processed action removes its point's alerts; one without the process flag is a change (shelving removes too)", () => {
    expect(applyFact(list, { type: 'alarm.actioned', action: { eventPointId: 10, process: true } }).alarms).toEqual([B]);
    expect(applyFact(list, { type: 'alarm.actioned', action: { eventPointId: 30, process: true } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.actioned', action: { eventPointId: 10, process: false } }).alarms).toBe(list);
    expect(applyFact(list, { type: 'alarm.actioned', action: { eventPointId: 20, process: false, change: 'shelved' } }).alarms).toEqual([A, C]);
    const f = applyFact(list, {
      type: 'alarm.actioned',
      action: { eventPointId: '', process: false, change: 'forwarded', alarmId: 3, forwardedTo: 'Ops', note: 'look' },
    });
    expect(f.alarms[2].forwardNote).toBe('To Ops: look');
    expect(applyFact(list, { type: 'alarm.counted', count: 9 }).alarms).toBe(list);
  });
  it('several facts in order: the list after the last, each alert raised once, at its last raising', () => {
    const r = applyFacts(
      [A],
      [
        { type: 'event.received', event: B },
        { type: 'event.received', event: C },
        { type: 'event.received', event: ev({ id: 9, alert: false, eventPointId: null, eventSourceId: 20 }) },
        { type: 'event.received', event: B },
        { type: 'alarm.counted', count: 3 },
      ],
    );
    expect(ids(r.alarms)).toEqual([1, 3, 2]);
    expect(ids(r.raised)).toEqual([3, 2]);
    expect(applyFacts([A], []).alarms).toEqual([A]);
  });
  it('a snapshot: alerts only, each once, the facts meanwhile on top; news is what the previous list did not hold', () => {
    const r = syncAlarms([A], [A, ev({ id: 8, alert: false }), B, B, C], [{ type: 'alarm.acknowledged', update: { id: 3, acknowledge: true } }]);
    expect(ids(r.alarms)).toEqual([1, 2, 3]);
    expect(r.alarms[2].acknowledge).toBe(true);
    expect(ids(r.raised)).toEqual([2, 3]);
    expect(syncAlarms([], [], []).alarms).toEqual([]);
  });
});

// ---------- issue 50: changes, raisings, flood and chatter ----------

describe('alarm management rules (issue 50)', () => {
  const A = ev({ id: 1, eventPointId: 10 });
  const B = ev({ id: 2, eventPointId: 20 });
  it('an escalation and a forward patch their alarm; an unknown or absent alarm, an unshelving: the very list', () => {
    const list = [A, B];
    const esc = applyChange(list, { eventPointId: '', process: false, change: 'escalated', alarmId: 2, escalationStep: 2, escalatedTo: 'Supervisors' });
    expect(esc[0]).toBe(A);
    expect(esc[1]).toEqual({ ...B, escalationStep: 2, escalatedTo: 'Supervisors' });
    expect(applyChange(list, { eventPointId: '', process: false, change: 'escalated', alarmId: 2, escalationStep: 1 })[1].escalatedTo).toBeNull();
    expect(applyChange(list, { eventPointId: '', process: false, change: 'forwarded', alarmId: 1, forwardedTo: 'Kim', note: 'see cam 4' })[0]).toEqual({
      ...A,
      forwardedTo: 'Kim',
      forwardNote: 'To Kim: see cam 4',
    });
    expect(applyChange(list, { eventPointId: '', process: false, change: 'forwarded', alarmId: 1, forwardedTo: 'Kim' })[0].forwardNote).toBe('To Kim: ');
    expect(applyChange(list, { eventPointId: '', process: false, change: 'forwarded', alarmId: 1, note: 'n' })[0]).toEqual({
      ...A,
      forwardedTo: null,
      forwardNote: 'n',
    });
    expect(applyChange(list, { eventPointId: '', process: false, change: 'forwarded', alarmId: 1 })[0].forwardNote).toBeNull();
    expect(applyChange(list, { eventPointId: '', process: false, change: 'forwarded', alarmId: 7, forwardedTo: 'Kim' })).toBe(list);
    expect(applyChange(list, { eventPointId: '', process: false, change: 'escalated', escalationStep: 2 })).toBe(list);
    expect(applyChange(list, { eventPointId: 10, process: false, change: 'unshelved' })).toBe(list);
    expect(applyChange(list, { eventPointId: 30, process: false, change: 'shelved' })).toBe(list);
    expect(applyChange(list, { eventPointId: 10, process: false, change: 'shelved' })).toEqual([B]);
  });
  const at = (min: number, sec = 0) => new Date(Date.UTC(2024, 4, 1, 10, min, sec)).toISOString();
  it('keeps each raising once, named, within 10 minutes of the newest, oldest first, at most 200', () => {
    const kept: Raising[] = [{ id: 1, point: 10, name: 'old', time: at(0) }];
    expect(keepRaisings(kept, [])).toBe(kept);
    const r = keepRaisings(kept, [
      ev({ id: 3, eventPointId: null, eventSourceId: 30, eventSourceName: 'Gate', time: at(5) }),
      ev({ id: 2, eventPointId: 20, eventPointName: 'Dock', eventSourceName: 'x', time: at(3) }),
      ev({ id: 1, time: at(4) }),
      ev({ id: 4, time: 'not a time' }),
      ev({ id: 5, time: at(6) }),
    ]);
    expect(r).toEqual([
      { id: 1, point: 10, name: 'old', time: at(0) },
      { id: 2, point: 20, name: 'Dock', time: at(3) },
      { id: 3, point: 30, name: 'Gate', time: at(5) },
      { id: 5, point: 10, name: null, time: at(6) },
    ]);
    // 10 minutes after the first: it is out (the window is open at its start)
    expect(ids(keepRaisings(r, [ev({ id: 6, time: at(10) })]))).toEqual([2, 3, 5, 6]);
    const many = Array.from({ length: RAISINGS_MAX + 2 }, (_, i) => ev({ id: i + 1, time: at(1, i % 60) }));
    const bounded = keepRaisings([], many);
    expect(bounded).toHaveLength(RAISINGS_MAX);
    expect(bounded[bounded.length - 1].time).toBe(at(1, 59));
  });
  it('a flood is more than 10 raisings within 10 minutes; a source chatters past 3 within a minute, most first', () => {
    const r = (id: number, point: number, min: number, sec = 0, name: string | null = null): Raising => ({ id, point, name, time: at(min, sec) });
    expect(floodOfRaisings(Array.from({ length: 10 }, (_, i) => r(i, 1, i)))).toEqual({ inFlood: false, count: 10 });
    expect(floodOfRaisings(Array.from({ length: 11 }, (_, i) => r(i, 1, i / 2)))).toEqual({ inFlood: true, count: 11 });
    const raisings = [
      r(1, 10, 0, 0, 'a'),
      r(2, 10, 0, 10),
      r(3, 10, 0, 20),
      r(4, 10, 0, 30, 'Lobby'),
      r(5, 20, 0, 0),
      r(6, 20, 0, 1),
      r(7, 20, 0, 2),
      r(8, 20, 0, 3),
      r(9, 20, 0, 4, 'Dock'),
      r(10, 30, 0, 0),
      r(11, 30, 1, 0),
      r(12, 30, 1, 1),
      r(13, 30, 1, 2),
    ];
    expect(chatteringOf(raisings)).toEqual([
      { pointId: 20, name: 'Dock', count: 5 },
      { pointId: 10, name: 'Lobby', count: 4 },
    ]);
    expect(chatteringOf([])).toEqual([]);
  });
});

// ---------- issue 10: the notices ----------

describe('alarm notices (issue 10)', () => {
  const P1 = ev({ id: 1, priority: 1, eventPointName: 'Lobby', message: 'Forced', time: '2024-05-01T10:00:00Z' });
  const P2 = ev({ id: 2, priority: 2, eventPointId: null, eventSourceId: 20, eventSourceName: 'Dock', time: '2024-05-01T10:00:02Z' });
  const P3 = ev({ id: 3, priority: 3, eventPointId: 30, message: '', time: '2024-05-01T10:00:03Z' });
  const P3b = ev({ id: 4, priority: 3, eventPointId: null, eventSourceId: 40, time: '2024-05-01T10:00:04Z' });
  it("an alarm's notice says its priority and place; a P1 stays up", () => {
    expect(noticeFor([P1], 'alarm', 7, 9)).toEqual({
      id: 7,
      kind: 'alarm',
      alarmIds: [1],
      priority: 1,
      title: 'P1 alarm: Lobby',
      message: 'Forced',
      point: 'Lobby',
      count: 1,
      p1: 1,
      top: { message: 'Forced', messageCode: undefined, messageValues: undefined },
      sticky: true,
      version: 9,
    });
    expect(noticeFor([P2], 'alarm', 1, 1)).toMatchObject({ title: 'P2 alarm: Dock', point: 'Dock', sticky: false, p1: 0 });
    expect(noticeFor([P3], 'alarm', 1, 1).point).toBe('30');
    expect(noticeFor([P3b], 'alarm', 1, 1).point).toBe('40');
  });
  it('a summary counts them, most urgent first, and names the most urgent', () => {
    expect(noticeFor([P3, P1, P2], 'summary', 5, 6)).toEqual({
      id: 5,
      kind: 'summary',
      alarmIds: [1, 2, 3],
      priority: 1,
      title: '3 new alarms, 1 P1',
      message: 'Most urgent: P1 Lobby (Forced)',
      point: 'Lobby',
      count: 3,
      p1: 1,
      top: { message: 'Forced', messageCode: undefined, messageValues: undefined },
      sticky: true,
      version: 6,
    });
    expect(noticeFor([P3], 'summary', 1, 1)).toMatchObject({ title: '1 new alarm', message: 'Most urgent: P3 30', sticky: false });
    // the same priority: the newest first
    expect(noticeFor([P3, P3b], 'summary', 1, 1)).toMatchObject({ alarmIds: [4, 3], title: '2 new alarms' });
  });
  it('a batch goes up one notice each while 3 fit, most urgent first; past that, one summary of all', () => {
    const open = [P1, P2, P3, P3b];
    const one = addToBoard({ notices: [], seq: 0 }, [P2, P1], open);
    expect(one.board.seq).toBe(2);
    expect(one.board.notices.map((n) => [n.id, n.alarmIds, n.version])).toEqual([
      [1, [1], 1],
      [2, [2], 2],
    ]);
    expect(one.changed.map((n) => n.id)).toEqual([1, 2]);
    const three = addToBoard(one.board, [P3], open);
    expect(three.board.notices.map((n) => n.alarmIds[0])).toEqual([1, 2, 3]);
    expect(three.changed.map((n) => n.id)).toEqual([3]);
    const four = addToBoard(three.board, [P3b, P1], open);
    expect(four.board.notices).toHaveLength(1);
    expect(four.board.notices[0]).toMatchObject({ kind: 'summary', id: 4, version: 5, alarmIds: [1, 2, 4, 3], title: '4 new alarms, 1 P1' });
    expect(four.board.seq).toBe(5);
    expect(four.changed).toEqual(four.board.notices);
    // a summary up: a new alarm joins it, keeping its id
    const P5 = ev({ id: 5, priority: 4 });
    const five = addToBoard(four.board, [P5], [...open, P5]);
    expect(five.board.notices.map((n) => [n.id, n.version, n.count])).toEqual([[4, 6, 5]]);
    // nothing new (acknowledged, or not open): the very board
    const same = addToBoard(one.board, [ev({ id: 9 }), { ...P1 }], [{ ...P1, acknowledge: true }]);
    expect(same.board).toBe(one.board);
    expect(same.changed).toEqual([]);
    // at 3 exactly: one notice each still
    expect(addToBoard({ notices: [], seq: 0 }, [P1, P2, P3], open).board.notices.map((n) => n.kind)).toEqual(['alarm', 'alarm', 'alarm']);
  });
  it('what is acknowledged or gone leaves its notice; a summary shrinks; nothing changed: the very board', () => {
    const open = [P1, P2, P3];
    const { board } = addToBoard({ notices: [], seq: 0 }, [P1, P2], open);
    expect(pruneBoard(board, open).board).toBe(board);
    const gone = pruneBoard(board, [P2]);
    expect(gone.board.notices.map((n) => n.alarmIds)).toEqual([[2]]);
    expect(gone.changed).toEqual([]);
    const summary = addToBoard({ notices: [], seq: 0 }, [P1, P2, P3, P3b], [...open, P3b]).board;
    const shrunk = pruneBoard(summary, [{ ...P1, acknowledge: true }, P2, P3b]);
    expect(shrunk.board.notices.map((n) => [n.id, n.version, n.alarmIds])).toEqual([[1, 3, [2, 4]]]);
    expect(shrunk.changed).toEqual(shrunk.board.notices);
    expect(unseen([P1], 1)).toBe(P1);
    expect(unseen([{ ...P1, acknowledge: true }], 1)).toBeUndefined();
    expect(raisedSince(P1, Date.parse(P1.time))).toBe(true);
    expect(raisedSince(P1, Date.parse(P1.time) + 1)).toBe(false);
    expect(raisedSince(ev({ id: 1, time: 'x' }), 0)).toBe(false);
  });
});

// ---------- the machine ----------

function start() {
  const clock = new SimulatedClock();
  const controls = createControls();
  const machine = alarmsMachine.provide({
    actors: {
      loadAlarms: controls.logic(),
      acknowledgeAlarm: controls.logic(),
      processAlarm: controls.logic(),
      forwardAlarm: controls.logic(),
      shelveSource: controls.logic(),
      loadForwardTargets: controls.logic(),
    },
  });
  const actor = createActor(machine, { clock }).start();
  const emitted: AlarmsEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as AlarmsEmitted));
  const ctx = () => actor.getSnapshot().context;
  const snap = () => actor.getSnapshot() as AlarmsSnapshot;
  const send = (e: unknown) => actor.send(e as never);
  return { clock, controls, actor, emitted, ctx, snap, send };
}
const T0 = Date.parse('2024-05-01T10:00:00Z');

describe('the alarms machine: the feed', () => {
  it('the first open list is not news; one raised since the session began is, after the gather window', async () => {
    const t = start();
    t.send({ type: 'session.started', at: T0 });
    expect(t.ctx().openedAt).toBe(T0);
    t.send({ type: 'socket.resynced' });
    expect(t.snap().hasTag('syncing')).toBe(true);
    expect(selectIsSyncing(t.snap())).toBe(true);
    await t.controls.settle('loadAlarms', 'done', [ev({ id: 1, time: '2024-05-01T09:59:59Z' }), ev({ id: 2, priority: 2, time: '2024-05-01T10:00:00Z' })]);
    expect(t.snap().value).toEqual({ feed: 'live', command: 'ready' });
    expect(t.ctx().baselined).toBe(true);
    expect(ids(t.ctx().gathered)).toEqual([2]);
    expect(ids(t.ctx().raisings)).toEqual([1, 2]);
    t.clock.increment(299);
    expect(t.ctx().board.notices).toEqual([]);
    t.clock.increment(1);
    expect(t.ctx().gathered).toEqual([]);
    expect(t.ctx().board.notices.map((n) => n.alarmIds)).toEqual([[2]]);
    expect(t.emitted).toEqual([{ type: 'alarm.noticed', notices: t.ctx().board.notices, priority: 2 }]);
    // a P2 notice goes after 5 s
    t.clock.increment(4999);
    expect(selectAlarmNotices(t.snap())).toHaveLength(1);
    t.clock.increment(1);
    expect(selectAlarmNotices(t.snap())).toEqual([]);
  });
  it('without a readable start, the first list is not news at all; later lists are', async () => {
    for (const at of [undefined, null, Number.NaN, Number.POSITIVE_INFINITY]) {
      const t = start();
      t.send({ type: 'session.started', at });
      expect(t.ctx().openedAt).toBeNull();
      t.send({ type: 'alarms.synced', alarms: [ev({ id: 1, time: '2030-01-01T00:00:00Z' })] });
      expect(t.ctx().gathered).toEqual([]);
    }
    const t = start();
    t.send({ type: 'alarms.synced', alarms: [ev({ id: 1 })] });
    t.send({ type: 'alarms.synced', alarms: [ev({ id: 1 }), ev({ id: 2 })] });
    expect(ids(t.ctx().gathered)).toEqual([2]);
  });
  it('a live alarm is news, several in one batch noticed together, the most urgent priority told', () => {
    const t = start();
    t.send({ type: 'event.received', event: ev({ id: 1, priority: 3 }) });
    expect(ids(t.ctx().gathered)).toEqual([1]);
    t.send({
      type: 'facts.received',
      facts: [
        { type: 'event.received', event: ev({ id: 2, priority: 1, eventPointId: 20 }) },
        { type: 'alarm.counted', count: 7 },
        { type: 'alarm.counted', count: 8 },
      ],
    });
    expect(t.ctx().serverCount).toBe(8);
    expect(selectServerAlarmCount(t.snap())).toBe(8);
    t.clock.increment(300);
    expect(t.emitted).toHaveLength(1);
    expect(t.emitted[0]).toMatchObject({ type: 'alarm.noticed', priority: 1 });
    // the P1 stays; the P3 goes after 5 s
    t.clock.increment(5000);
    expect(t.ctx().board.notices.map((n) => n.alarmIds)).toEqual([[2]]);
    // a fact for nothing changes nothing, not even the list
    const before = t.ctx();
    t.send({ type: 'facts.received', facts: [] });
    expect(t.ctx()).toBe(before);
  });
  it('an alarm gathered stays gathered while other facts arrive; one raised and acknowledged in one batch is not news', () => {
    const t = start();
    t.send({ type: 'event.received', event: ev({ id: 1, priority: 3 }) });
    t.send({ type: 'alarm.counted', count: 1 });
    t.send({
      type: 'facts.received',
      facts: [
        { type: 'event.received', event: ev({ id: 2, priority: 1, eventPointId: 20 }) },
        { type: 'event.received', event: ev({ id: 3, eventPointId: 30 }) },
        { type: 'alarm.acknowledged', update: { id: 3, acknowledge: true } },
      ],
    });
    expect(ids(t.ctx().gathered)).toEqual([1, 2]);
    t.clock.increment(300);
    expect(t.ctx().board.notices.map((n) => n.alarmIds)).toEqual([[2], [1]]);
  });
  it("the server's count: a count heard alone or in a batch, kept by the facts after it; an unshelving alone re-reads the list", () => {
    const t = start();
    t.send({ type: 'alarm.counted', count: 4 });
    expect(t.ctx().serverCount).toBe(4);
    t.send({
      type: 'facts.received',
      facts: [
        { type: 'alarm.counted', count: 6 },
        { type: 'event.received', event: ev({ id: 1 }) },
      ],
    });
    expect(t.ctx().serverCount).toBe(6);
    t.send({ type: 'event.received', event: ev({ id: 2, eventPointId: 20 }) });
    t.send({ type: 'alarm.actioned', action: { eventPointId: 30, process: true } });
    expect(selectIsSyncing(t.snap())).toBe(false);
    t.send({
      type: 'facts.received',
      facts: [
        { type: 'alarm.actioned', action: { eventPointId: 40, process: false, change: 'unshelved' } },
        { type: 'alarm.counted', count: 2 },
      ],
    });
    expect(selectIsSyncing(t.snap())).toBe(true);
  });
  it('the open alarms are known only once the first list came: an empty list before it is not "none open"; a sign-out forgets it', () => {
    const t = start();
    expect(selectAlarmsKnown(t.snap())).toBe(false);
    t.send({ type: 'event.received', event: ev({ id: 1 }) }); // a live alarm alone does not say what else is open
    expect(selectAlarmsKnown(t.snap())).toBe(false);
    t.send({ type: 'alarms.synced', alarms: [] });
    expect(selectAlarmsKnown(t.snap())).toBe(true);
    t.send({ type: 'session.ended' });
    expect(selectAlarmsKnown(t.snap())).toBe(false);
  });
  it('an alarm acknowledged before its gather window ends is not noticed; one acknowledged on the board leaves it', () => {
    const t = start();
    t.send({ type: 'event.received', event: ev({ id: 1 }) });
    t.send({ type: 'alarm.acknowledged', update: { id: 1, acknowledge: true } });
    expect(t.ctx().gathered).toEqual([]);
    t.clock.increment(300);
    expect(t.emitted).toEqual([]);
    t.send({ type: 'event.received', event: ev({ id: 2, priority: 1, eventPointId: 20 }) });
    t.clock.increment(300);
    expect(t.ctx().board.notices).toHaveLength(1);
    t.send({ type: 'alarm.acknowledged', update: { id: 2, acknowledge: true } });
    expect(t.ctx().board.notices).toEqual([]);
  });
  it('a notice closed, all seen, or an expiry of an older version', () => {
    const t = start();
    t.send({ type: 'event.received', event: ev({ id: 1, priority: 1 }) });
    t.send({ type: 'event.received', event: ev({ id: 2, priority: 1, eventPointId: 20 }) });
    t.clock.increment(300);
    const [n1, n2] = t.ctx().board.notices;
    t.send({ type: 'notice.expired', id: n1.id, version: n1.version });
    expect(t.ctx().board.notices).toHaveLength(2); // sticky
    t.send({ type: 'notice.dismiss', id: n1.id });
    expect(t.ctx().board.notices).toEqual([n2]);
    const b = t.ctx().board;
    t.send({ type: 'notice.dismiss', id: 999 });
    expect(t.ctx().board).toBe(b);
    t.send({ type: 'notices.seen' });
    expect(t.ctx().board.notices).toEqual([]);
    const b2 = t.ctx().board;
    t.send({ type: 'notices.seen' });
    expect(t.ctx().board).toBe(b2);
    const u = start();
    u.send({ type: 'event.received', event: ev({ id: 1, priority: 3 }) });
    u.clock.increment(300);
    const n = u.ctx().board.notices[0];
    u.send({ type: 'notice.expired', id: n.id, version: n.version + 1 });
    u.send({ type: 'notice.expired', id: n.id + 1, version: n.version });
    expect(u.ctx().board.notices).toEqual([n]);
    u.send({ type: 'notice.expired', id: n.id, version: n.version });
    expect(u.ctx().board.notices).toEqual([]);
  });
  it('while the open list is read: facts apply and are buffered (never a count), then re-applied on the list', async () => {
    const t = start();
    t.send({ type: 'socket.resynced' });
    t.send({ type: 'event.received', event: ev({ id: 5 }) });
    t.send({ type: 'alarm.counted', count: 3 });
    t.send({ type: 'facts.received', facts: [{ type: 'alarm.counted', count: 4 }] });
    t.send({
      type: 'facts.received',
      facts: [
        { type: 'alarm.acknowledged', update: { id: 5, acknowledge: true } },
        { type: 'alarm.counted', count: 5 },
      ],
    });
    expect(t.ctx().pending.map((f) => f.type)).toEqual(['event.received', 'alarm.acknowledged']);
    expect(ids(t.ctx().alarms)).toEqual([5]);
    // a second resync reads again
    t.send({ type: 'socket.resynced' });
    expect(t.controls.inputs.filter((x) => x.id === 'loadAlarms')).toHaveLength(2);
    t.send({ type: 'alarms.synced', alarms: [ev({ id: 6, eventPointId: 60 })] });
    expect(t.snap().value).toEqual({ feed: 'live', command: 'ready' });
    expect(ids(t.ctx().alarms)).toEqual([6, 5]);
    expect(t.ctx().alarms[1].acknowledge).toBe(true);
    expect(t.ctx().pending).toEqual([]);
    // an unshelving: the list is read again
    t.send({ type: 'alarm.actioned', action: { eventPointId: 60, process: false, change: 'unshelved' } });
    expect(selectIsSyncing(t.snap())).toBe(true);
    t.send({ type: 'alarm.actioned', action: { eventPointId: 60, process: false, change: 'unshelved' } });
    expect(t.controls.inputs.filter((x) => x.id === 'loadAlarms')).toHaveLength(4);
    await t.controls.settle('loadAlarms', 'error', new Error(''));
    expect(t.ctx().error).toBe('Could not load the open alarms');
    expect(selectAlarmError(t.snap())).toBe('Could not load the open alarms');
    t.send({ type: 'alarm.errorDismissed' });
    expect(t.ctx().error).toBeNull();
    t.send({ type: 'socket.resynced' });
    t.send({ type: 'event.received', event: ev({ id: 7, eventPointId: 70 }) });
    await t.controls.settle('loadAlarms', 'error', new Error('Service Unavailable'));
    expect(t.ctx().error).toBe('Service Unavailable');
    expect(t.ctx().pending).toEqual([]);
  });
  it('sign-out forgets everything but the notice count', () => {
    const t = start();
    t.send({ type: 'session.started', at: T0 });
    t.send({ type: 'event.received', event: ev({ id: 1 }) });
    t.send({ type: 'alarm.counted', count: 2 });
    t.clock.increment(300);
    t.send({ type: 'socket.resynced' });
    t.send({ type: 'alarm.acknowledge', id: 1 });
    t.send({ type: 'session.ended' });
    expect(t.snap().value).toEqual({ feed: 'live', command: 'ready' });
    expect(t.ctx()).toEqual({
      alarms: [],
      serverCount: null,
      pending: [],
      error: null,
      baselined: false,
      openedAt: null,
      gathered: [],
      board: { notices: [], seq: 1 },
      raisings: [],
      targets: null,
    } satisfies AlarmsContext);
    expect(Object.keys(t.snap().children)).toEqual([]);
  });
});

describe('the alarms machine: the commands', () => {
  const A = ev({ id: 1, eventPointId: null, eventSourceId: 40 });
  const B = ev({ id: 2, eventPointId: 20 });
  function ready() {
    const t = start();
    t.send({ type: 'alarms.synced', alarms: [A, B] });
    return t;
  }
  it('acknowledge: asked with its id, the answer applied and told; an error said', async () => {
    const t = ready();
    t.send({ type: 'alarm.acknowledge', id: 1 });
    expect(selectRunningCommand(t.snap())).toBe('acknowledging');
    expect(selectIsCommandBusy(t.snap())).toBe(true);
    expect(t.controls.inputs.at(-1)).toEqual({ id: 'acknowledge', input: { id: 1 } });
    await t.controls.settle('acknowledge', 'done', { id: 1, acknowledge: true });
    expect(t.ctx().alarms[0].acknowledge).toBe(true);
    expect(t.emitted).toEqual([{ type: 'alarm.commandDone', what: 'acknowledged' }]);
    expect(selectRunningCommand(t.snap())).toBe('ready');
    expect(t.ctx().pending).toEqual([]); // live: nothing to re-apply on a list
    t.send({ type: 'alarm.acknowledge', id: 2 });
    await t.controls.settle('acknowledge', 'error', 'nope');
    expect(t.ctx().error).toBe('nope');
    t.send({ type: 'alarm.acknowledge', id: 2 });
    expect(t.ctx().error).toBeNull();
    await t.controls.settle('acknowledge', 'error', {});
    expect(t.ctx().error).toBe('Could not acknowledge the alarm');
  });
  it("process: asked with the note and the alarm's point (its source when it has none)", async () => {
    const t = ready();
    t.send({ type: 'alarm.process', id: 1, note: 'checked' });
    expect(t.controls.inputs.at(-1)).toEqual({ id: 'process', input: { id: 1, note: 'checked', eventPointId: 40 } });
    await t.controls.settle('process', 'done', { eventPointId: 40, process: true });
    expect(ids(t.ctx().alarms)).toEqual([2]);
    expect(t.emitted).toEqual([{ type: 'alarm.commandDone', what: 'processed' }]);
    t.send({ type: 'alarm.process', id: 9, note: 'x' });
    expect(selectRunningCommand(t.snap())).toBe('ready');
    t.send({ type: 'alarm.process', id: 2, note: 'x' });
    await t.controls.settle('process', 'error', new Error(''));
    expect(t.ctx().error).toBe('Could not process the alarm');
  });
  it('an answer while the list is read is buffered, and still applied once the list arrives', async () => {
    const t = ready();
    t.send({ type: 'alarm.acknowledge', id: 2 });
    t.send({ type: 'socket.resynced' });
    await t.controls.settle('acknowledge', 'done', { id: 2, acknowledge: true });
    expect(t.ctx().pending).toEqual([{ type: 'alarm.acknowledged', update: { id: 2, acknowledge: true } }]);
    expect(t.emitted).toEqual([{ type: 'alarm.commandDone', what: 'acknowledged' }]);
    await t.controls.settle('loadAlarms', 'done', [A, B]);
    expect(t.ctx().alarms.map((a) => a.acknowledge)).toEqual([false, true]);
  });
  it('forward: asked without the event type, the forward shown on the alarm; errors said', async () => {
    const t = ready();
    t.send({ type: 'alarm.forward', id: 2, userId: 7, note: 'cam 4' });
    expect(selectRunningCommand(t.snap())).toBe('forwarding');
    expect(t.controls.inputs.at(-1)).toEqual({ id: 'forward', input: { id: 2, userId: 7, note: 'cam 4' } });
    await t.controls.settle('forward', 'done', { id: 2, forwardedTo: 'Kim', note: 'cam 4' });
    expect(t.ctx().alarms[1]).toMatchObject({ forwardedTo: 'Kim', forwardNote: 'To Kim: cam 4' });
    expect(t.emitted).toEqual([{ type: 'alarm.commandDone', what: 'forwarded' }]);
    t.send({ type: 'alarm.forward', id: 2, groupId: 3, note: 'x' });
    await t.controls.settle('forward', 'error', null);
    expect(t.ctx().error).toBe('Could not forward the alarm');
  });
  it("shelve: asked without the event type, the point's alarms leave; errors said", async () => {
    const t = ready();
    t.send({ type: 'source.shelve', pointId: '20', minutes: 15, reason: 'works' });
    expect(selectRunningCommand(t.snap())).toBe('shelving');
    expect(t.controls.inputs.at(-1)).toEqual({ id: 'shelve', input: { pointId: '20', minutes: 15, reason: 'works' } });
    await t.controls.settle('shelve', 'done', { pointId: 20, minutes: 15, reason: 'works' });
    expect(ids(t.ctx().alarms)).toEqual([1]);
    expect(t.emitted).toEqual([{ type: 'alarm.commandDone', what: 'shelved' }]);
    t.send({ type: 'source.shelve', pointId: '40', minutes: 15, reason: 'works' });
    await t.controls.settle('shelve', 'error', undefined);
    expect(t.ctx().error).toBe('Could not shelve the source');
  });
  it('whom to forward to: read, kept; an error said', async () => {
    const t = ready();
    expect(selectForwardTargets(t.snap())).toBeNull();
    t.send({ type: 'forward.targetsWanted' });
    expect(selectRunningCommand(t.snap())).toBe('readingTargets');
    const targets = { users: [{ id: 7, name: 'Kim' }], groups: [] };
    await t.controls.settle('loadForwardTargets', 'done', targets);
    expect(selectForwardTargets(t.snap())).toEqual(targets);
    t.send({ type: 'forward.targetsWanted' });
    await t.controls.settle('loadForwardTargets', 'error', new Error(' '));
    expect(t.ctx().error).toBe('Could not read whom to forward to');
  });
});

// ---------- selectors ----------

describe('alarms selectors, worked out by hand', () => {
  const A = ev({ id: 1, priority: 2, eventPointId: 10, eventPointName: 'Lobby', time: '2024-05-01T10:00:01Z' });
  const B = ev({ id: 2, priority: 1, eventPointId: null, eventSourceId: 20, eventSourceName: 'Dock', acknowledge: true });
  const C = ev({ id: 3, priority: 2, eventPointId: 10, time: '2024-05-01T10:00:02Z' });
  const D = ev({ id: 4, priority: 5, eventPointId: 30 });
  it('sort, count and group the open alarms, stable per list', () => {
    const t = start();
    expect(selectServerAlarmCount(t.snap())).toBe(0);
    t.send({ type: 'alarms.synced', alarms: [A, B, C, D] });
    const s = t.snap();
    expect(ids(selectOpenAlarms(s))).toEqual([2, 3, 1, 4]);
    expect(selectOpenAlarms(s)).toBe(selectOpenAlarms(t.snap()));
    expect(selectAlarmCount(s)).toBe(4);
    expect(selectServerAlarmCount(s)).toBe(4);
    expect(selectUnacknowledgedCount(s)).toBe(3);
    expect(selectOpenByPriority(s)).toEqual([
      { priority: 1, count: 1 },
      { priority: 2, count: 2 },
      { priority: 5, count: 1 },
    ]);
    expect(selectOpenByPriority(s)).toBe(selectOpenByPriority(t.snap()));
    expect(selectAlarmGroups(s)).toEqual([
      { pointId: 20, name: 'Dock', alarms: [B] },
      { pointId: 10, name: '10', alarms: [C, A] }, // named after its most urgent alarm, C, which has no name
      { pointId: 30, name: '30', alarms: [D] },
    ]);
    expect(selectAlarmGroups(s)).toBe(selectAlarmGroups(t.snap()));
    expect(selectIsSyncing(s)).toBe(false);
    expect(selectIsCommandBusy(s)).toBe(false);
    expect(selectAlarmError(s)).toBeNull();
  });
  it('the buttons of each alarm, and when two sets of them are the same', () => {
    const t = start();
    t.send({ type: 'alarms.synced', alarms: [A, B] });
    const c = selectAlarmCommands(t.snap());
    expect([...c]).toEqual([
      ['1', { acknowledge: true, process: true }],
      ['2', { acknowledge: false, process: true }],
    ]);
    expect(commandsOf(c, 2)).toEqual({ acknowledge: false, process: true });
    expect(commandsOf(c, 9)).toEqual({ acknowledge: false, process: false });
    expect(sameAlarmCommands(c, new Map(c))).toBe(true);
    expect(sameAlarmCommands(c, new Map([...c].slice(1)))).toBe(false);
    expect(sameAlarmCommands(new Map([...c].slice(1)), c)).toBe(false);
    expect(sameAlarmCommands(c, new Map([...c].map(([k, v]) => [k === '1' ? '9' : k, v])))).toBe(false);
    expect(sameAlarmCommands(c, new Map([...c].map(([k, v]) => [k, k === '1' ? { ...v, acknowledge: false } : v])))).toBe(false);
    expect(sameAlarmCommands(c, new Map([...c].map(([k, v]) => [k, k === '2' ? { ...v, process: false } : v])))).toBe(false);
    // while a command runs, no button
    t.send({ type: 'alarm.acknowledge', id: 1 });
    expect([...selectAlarmCommands(t.snap()).values()]).toEqual([
      { acknowledge: false, process: false },
      { acknowledge: false, process: false },
    ]);
  });
  it('flood and chatter of the raisings, stable per list', () => {
    const t = start();
    const at = (s: number) => new Date(T0 + s * 1000).toISOString();
    t.send({ type: 'facts.received', facts: Array.from({ length: 11 }, (_, i) => ({ type: 'event.received', event: ev({ id: i + 1, time: at(i) }) })) });
    const s = t.snap();
    expect(selectFlood(s)).toEqual({ inFlood: true, count: 11 });
    expect(selectFlood(s)).toBe(selectFlood(t.snap()));
    expect(selectChattering(s)).toEqual([{ pointId: 10, name: null, count: 11 }]);
    expect(selectChattering(s)).toBe(selectChattering(t.snap()));
  });
});

// ---------- the invariants ----------

describe('the invariants of the alarms machine reject the states that break them', () => {
  type Snap = { context: AlarmsContext; children: Record<string, unknown> };
  type Inv = Record<string, (s: Snap) => boolean>;
  const at = (s: string) => (invariants as unknown as Record<string, Inv>)[s];
  const base: AlarmsContext = {
    alarms: [],
    serverCount: null,
    pending: [],
    error: null,
    baselined: false,
    openedAt: null,
    gathered: [],
    board: { notices: [], seq: 0 },
    raisings: [],
    targets: null,
  };
  const snap = (c: Partial<AlarmsContext>, children: string[] = []): Snap => ({
    context: { ...base, ...c },
    children: Object.fromEntries(children.map((id) => [id, {}])),
  });
  const notice = (id: number, alarmIds: number[], version = id): AlarmNotice => ({
    ...noticeFor([ev({ id: alarmIds[0] ?? 1 })], 'alarm', id, version),
    alarmIds,
  });
  const A = ev({ id: 1 });
  const B = ev({ id: 2 });
  const acked = ev({ id: 3, acknowledge: true });
  const r = (id: number, time: string): Raising => ({ id, point: 1, name: null, time });
  const names = Object.keys(invariants.machine);
  const [LIST, NOTICE, MAX, GATHER, SHELVED, RAISINGS, STEP] = names;
  const LIVE = 'no read of the open list runs, nothing is buffered';
  const SYNC = 'the open list is read; facts are buffered, never a count';
  const fact = { type: 'event.received' as const, event: A };
  const cases: Array<[string, string, Snap, boolean]> = [
    ['machine', LIST, snap({ alarms: [A, B] }), true],
    ['machine', LIST, snap({ alarms: [A, { ...B, alert: false }] }), false],
    ['machine', LIST, snap({ alarms: [A, { ...A, id: '1' as unknown as number }] }), false],
    ['machine', NOTICE, snap({ alarms: [A, B], board: { notices: [notice(1, [1, 2])], seq: 1 } }), true],
    ['machine', NOTICE, snap({ alarms: [A], board: { notices: [notice(1, [])], seq: 1 } }), false],
    ['machine', NOTICE, snap({ alarms: [A], board: { notices: [notice(1, [1, 2])], seq: 1 } }), false],
    ['machine', NOTICE, snap({ alarms: [acked], board: { notices: [notice(1, [3])], seq: 1 } }), false],
    ['machine', MAX, snap({ board: { notices: [notice(1, [1]), notice(2, [1]), notice(3, [1])], seq: 3 } }), true],
    ['machine', MAX, snap({ board: { notices: [notice(1, [1]), notice(2, [1]), notice(3, [1]), notice(4, [1])], seq: 4 } }), false],
    ['machine', MAX, snap({ board: { notices: [notice(1, [1]), notice(1, [1])], seq: 2 } }), false],
    ['machine', MAX, snap({ board: { notices: [notice(1, [1], 3)], seq: 2 } }), false],
    ['machine', GATHER, snap({ alarms: [A], gathered: [A] }), true],
    ['machine', GATHER, snap({ alarms: [A], gathered: [B] }), false],
    ['machine', GATHER, snap({ alarms: [acked], gathered: [acked] }), false],
    ['machine', SHELVED, snap({ alarms: [A, { ...B, shelved: false }] }), true],
    ['machine', SHELVED, snap({ alarms: [{ ...A, shelved: true }] }), false],
    ['machine', RAISINGS, snap({ raisings: [r(1, '2024-05-01T10:00:00Z'), r(2, '2024-05-01T10:00:00Z'), r(3, '2024-05-01T10:09:59Z')] }), true],
    ['machine', RAISINGS, snap({ raisings: Array.from({ length: RAISINGS_MAX + 1 }, (_, i) => r(i, '2024-05-01T10:00:00Z')) }), false],
    ['machine', RAISINGS, snap({ raisings: [r(1, '2024-05-01T10:00:00Z'), r(1, '2024-05-01T10:00:01Z')] }), false],
    ['machine', RAISINGS, snap({ raisings: [r(1, '2024-05-01T10:00:01Z'), r(2, '2024-05-01T10:00:00Z')] }), false],
    ['machine', RAISINGS, snap({ raisings: [r(1, '2024-05-01T10:00:00Z'), r(2, '2024-05-01T10:10:00Z')] }), false],
    ['machine', STEP, snap({ alarms: [A, { ...B, escalationStep: 1 }] }), true],
    ['machine', STEP, snap({ alarms: [{ ...A, escalationStep: 0 }] }), false],
    ['live', LIVE, snap({}), true],
    ['live', LIVE, snap({}, ['loadAlarms']), false],
    ['live', LIVE, snap({ pending: [fact] }), false],
    ['syncing', SYNC, snap({ pending: [fact] }, ['loadAlarms']), true],
    ['syncing', SYNC, snap({}, []), false],
    ['syncing', SYNC, snap({ pending: [{ type: 'alarm.counted', count: 1 }] }, ['loadAlarms']), false],
    ['ready', 'no command runs', snap({}, ['loadAlarms']), true],
    ...['acknowledge', 'process', 'forward', 'shelve', 'loadForwardTargets'].map((id): [string, string, Snap, boolean] => [
      'ready',
      'no command runs',
      snap({}, [id]),
      false,
    ]),
  ];
  const one: Array<[string, string, string]> = [
    ['acknowledging', 'one acknowledge runs, nothing else', 'acknowledge'],
    ['processing', 'one process runs, nothing else', 'process'],
    ['forwarding', 'one forward runs, nothing else', 'forward'],
    ['shelving', 'one shelving runs, nothing else', 'shelve'],
    ['readingTargets', 'whom to forward to is read, nothing else runs', 'loadForwardTargets'],
  ];
  for (const [state, name, id] of one) {
    cases.push([state, name, snap({}, [id, 'loadAlarms']), true]);
    cases.push([state, name, snap({}, []), false]);
    cases.push([state, name, snap({}, [id, id === 'process' ? 'acknowledge' : 'process']), false]);
  }
  it.each(cases.map(([where, name, s, holds], i) => ({ i, where, name, s, holds })))('#$i $where: $name → $holds', ({ where, name, s, holds }) => {
    expect(at(where)[name](s)).toBe(holds);
  });
});
