// Model-based tests generated from the hardwareStatus machine, then its rules (§3, §4) and selectors.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { DoorHeartbeat, ControllerHeartbeat, normaliseStatus, statusOfCode } from '../contract';
import { hardwareStatusMachine, type HardwareStatusSnapshot } from '../machines/hardwareStatus';
import {
  selectControllers,
  selectDevicesOfKind,
  selectDoorStatusCounts,
  selectDoorStatusOf,
  selectDoors,
  selectStatusOf,
} from '../machines/hardwareStatus.selectors';
import { invariants } from '../machines/hardwareStatus.invariants';
import { edgePaths, onDemand, expectOracle } from './harness';

const events: any[] = [
  { type: 'event.received', event: { eventCode: 1013, eventSourceId: 3, eventSourceName: 'Interface 3' } },
  { type: 'event.received', event: { eventCode: 9999, eventSourceId: 3, eventSourceName: 'x' } },
  { type: 'hardware.statusPushed', status: { id: 7, name: 'Input 7', status: 'Door Forced Open' } },
  { type: 'hardware.statusesLoaded', statuses: [{ id: 8, status: 3001 }] },
  { type: 'door.heartbeatReceived', door: DoorHeartbeat.create({ id: 1, name: 'Front' }) },
  {
    type: 'controller.heartbeatReceived',
    controllers: ControllerHeartbeat.create([
      { id: 2, name: 'C2' },
      { id: 4, name: 'C4', status: 'Online' },
    ]),
  },
  // one broker message's facts at once, in order: the later status of a source wins
  {
    type: 'facts.received',
    facts: [
      { type: 'event.received', event: { eventCode: 4002, eventSourceId: 9, eventSourceName: 'Reader 9' } },
      { type: 'door.heartbeatReceived', door: DoorHeartbeat.create({ id: 6, doorStatus: 'Open' }) },
      { type: 'event.received', event: { eventCode: 4003, eventSourceId: 9 } },
    ],
  },
  { type: 'session.ended' },
];
const serialize = (s: HardwareStatusSnapshot) =>
  JSON.stringify([s.value, Object.keys(s.context.statuses).length > 0, Object.keys(s.context.doors).length > 0, Object.keys(s.context.controllers).length > 0]);
const model = new TestModel(hardwareStatusMachine, { events, serializeState: serialize as any, limit: 5000 });
const paths = onDemand(() => edgePaths(model, hardwareStatusMachine, serialize, []));

describe('hardwareStatus machine model', () => {
  it('keeps its invariants (hardwareStatus.invariants.ts) and the rules of §3/§4 at every step of the generated paths', () => {
    const shown = (s: HardwareStatusSnapshot) => JSON.stringify(s.context);
    expectOracle(
      paths(),
      {
        'an event without a §4 status code changes nothing shown': ({ before, event, after }) =>
          event.type === 'event.received' && event.event.eventCode === 9999 ? shown(after) === shown(before) : undefined,
        'a status code sets its source: 1013 is the interface offline, named as the event names it': ({ event, after }) =>
          event.type === 'event.received' && event.event.eventCode === 1013
            ? JSON.stringify(after.context.statuses['3']) === JSON.stringify({ id: 3, name: 'Interface 3', status: 'offline', kind: 'interface' })
            : undefined,
        'in a batch the later fact of a source wins: reader 9 offline, door 6 open': ({ event, after }) =>
          event.type === 'facts.received' ? after.context.statuses['9']?.status === 'offline' && after.context.doors['6']?.doorStatus === 'open' : undefined,
        'the end of the session forgets every device, door and controller': ({ event, after }) =>
          event.type === 'session.ended' ? shown(after) === JSON.stringify({ statuses: {}, doors: {}, controllers: {} }) : undefined,
      },
      4,
      invariants,
    );
  });

  it('reaches a state with statuses, doors and controllers all known', () => {
    expect(paths().map((p) => serialize(p.path.state))).toContain(JSON.stringify(['tracking', true, true, true]));
  });
});

describe('hardware status rules', () => {
  it('normalises status values to lower-case hyphenated words (§4)', () => {
    expect(normaliseStatus('Door Forced Open')).toBe('door-forced-open');
    expect(normaliseStatus('  HELD_open ')).toBe('held-open');
    expect(normaliseStatus('doorHeldOpen')).toBe('door-held-open');
    expect(normaliseStatus(2003)).toBe('tamper');
    // a code sent as text is the same code, not a status called '1012' (found by the mutation work of 2026-12-03)
    expect(normaliseStatus('1012')).toBe('online');
    expect(normaliseStatus(' 2003 ')).toBe('tamper');
    expect(normaliseStatus('99999')).toBe('99999');
    expect(normaliseStatus(undefined)).toBe('unknown');
  });

  it('maps every status code of §4', () => {
    const table = Object.fromEntries([1012, 1013, 4002, 4003, 2000, 2001, 2002, 2003, 2004, 3000, 3001].map((c) => [c, statusOfCode(c)?.label]));
    expect(table).toEqual({
      1012: 'Interface online',
      1013: 'Interface offline',
      4002: 'CardReader online',
      4003: 'CardReader offline',
      2000: 'Input idle',
      2001: 'Input active',
      2002: 'Input open',
      2003: 'Input tamper',
      2004: 'Input unknown',
      3000: 'Output idle',
      3001: 'Output active',
    });
    expect(statusOfCode(5000)).toBeNull();
  });

  it('keeps door and controller heartbeat defaults (closed; undefined)', () => {
    const actor = createActor(hardwareStatusMachine).start();
    actor.send({ type: 'door.heartbeatReceived', door: DoorHeartbeat.create({ id: 1, name: 'Front' }) });
    actor.send({ type: 'door.heartbeatReceived', door: DoorHeartbeat.create({ id: 2, name: 'Back', doorStatus: 'Held Open' }) });
    actor.send({ type: 'controller.heartbeatReceived', controllers: ControllerHeartbeat.create([{ id: 2, name: 'C2' }]) });
    const s = actor.getSnapshot();
    expect(selectDoorStatusOf(1)(s)).toBe('closed');
    expect(selectDoorStatusOf(2)(s)).toBe('held-open');
    expect(s.context.controllers['2']).toEqual({ id: 2, name: 'C2', status: undefined });
    expect(selectDoors(s).map((d) => d.name)).toEqual(['Back', 'Front']);
    expect(selectDoors(s)).toBe(selectDoors(s));
    expect(selectControllers(s)).toHaveLength(1);
    expect(selectDoorStatusCounts(s)).toEqual({ closed: 1, 'held-open': 1 });
  });

  it('sets a device status from its event code and keeps its name on later pushes', () => {
    const actor = createActor(hardwareStatusMachine).start();
    actor.send({ type: 'event.received', event: { eventCode: 2003, eventSourceId: 5, eventSourceName: 'Input 5' } });
    actor.send({ type: 'hardware.statusPushed', status: { id: 5, name: null, status: 'Idle' } });
    const s = actor.getSnapshot();
    expect(s.context.statuses['5']).toEqual({ id: 5, name: 'Input 5', status: 'idle', kind: 'input' });
    expect(selectStatusOf(5)(s)).toBe('idle');
    expect(selectDevicesOfKind('input')(s).map((d) => d.id)).toEqual([5]);
    actor.send({ type: 'session.ended' });
    expect(actor.getSnapshot().context).toEqual({ statuses: {}, doors: {}, controllers: {} });
  });
});
