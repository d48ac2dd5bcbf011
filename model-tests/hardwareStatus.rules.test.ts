// The live hardware state's rules (machines/hardwareStatus.ts, §3, §4) and what its selectors show, written down apart
// from the machine with values worked out by hand (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"):
// which name a device keeps, which kind, a door heartbeat without a status, a controller's without one, an event that
// changes nothing leaving the very same objects (a view's selector does not re-render), a batch in order, a REST
// snapshot merged, and the order the screens list things in. Small cases on the real actor and the pure functions.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { applyHardwareFact, hardwareStatusMachine, withControllers, withEvent, withPush, type HardwareStatusContext } from '../machines/hardwareStatus';
import {
  selectControllers,
  selectDevicesOfKind,
  selectDoorStatusCounts,
  selectDoorStatusOf,
  selectDoors,
  selectStatusOf,
} from '../machines/hardwareStatus.selectors';
import { invariants } from '../machines/hardwareStatus.invariants';

const empty = (): HardwareStatusContext => ({ statuses: {}, doors: {}, controllers: {} });

describe('hardware status rules, worked out by hand', () => {
  it("a pushed status keeps the push's name, else the name known before, else none; its kind from a §4 code, else the one known", () => {
    let s = withPush({}, { id: 5, name: 'Input 5', status: 2001 } as never);
    expect(s).toEqual({ '5': { id: 5, name: 'Input 5', status: 'active', kind: 'input' } });
    s = withPush(s, { id: 5, name: null, status: 'Held Open' } as never);
    expect(s['5']).toEqual({ id: 5, name: 'Input 5', status: 'held-open', kind: 'input' });
    s = withPush(s, { id: 5, status: 'idle' } as never);
    expect(s['5']).toEqual({ id: 5, name: 'Input 5', status: 'idle', kind: 'input' });
    s = withPush(s, { id: 5, name: 'Side gate', status: 'idle' } as never);
    expect(s['5'].name).toBe('Side gate');
    // a device never seen, without a code: no name, and no kind at all (not even an undefined one)
    const fresh = withPush(s, { id: 'x1', name: null, status: 'Online' } as never);
    expect(fresh['x1']).toEqual({ id: 'x1', name: null, status: 'online' });
    expect('kind' in fresh['x1']).toBe(false);
    // the others are kept as they were
    expect(fresh['5']).toBe(s['5']);
  });

  it('an event with a §4 code sets its source (named by the event, else as known, else none); any other returns the same object', () => {
    const before = { '9': { id: 9, name: 'Reader 9', status: 'online', kind: 'cardReader' as const } };
    expect(withEvent(before, { eventCode: 4003, eventSourceId: 9 } as never)['9']).toEqual({ id: 9, name: 'Reader 9', status: 'offline', kind: 'cardReader' });
    expect(withEvent(before, { eventCode: 4003, eventSourceId: 9, eventSourceName: 'Gate' } as never)['9'].name).toBe('Gate');
    expect(withEvent(before, { eventCode: 3001, eventSourceId: 12 } as never)['12']).toEqual({ id: 12, name: null, status: 'active', kind: 'output' });
    expect(withEvent(before, { eventCode: 9999, eventSourceId: 9 } as never)).toBe(before);
    expect(withEvent(before, { eventCode: 20000, eventSourceId: 9 } as never)).toBe(before);
  });

  it('a controller heartbeat: name or none, the status normalised or left undefined (§3), the others kept', () => {
    const prev = { '1': { id: 1, name: 'C1', status: 'online' } };
    const next = withControllers(prev, [{ id: 2 }, { id: 3, name: 'C3', status: 'Comms Lost' }] as never);
    expect(next).toEqual({ '1': prev['1'], '2': { id: 2, name: null, status: undefined }, '3': { id: 3, name: 'C3', status: 'comms-lost' } });
    expect(prev).toEqual({ '1': { id: 1, name: 'C1', status: 'online' } });
  });

  it('one fact: an event without a code is the same context; a door heartbeat without a status is closed, without a name none', () => {
    const c = empty();
    expect(applyHardwareFact(c, { type: 'event.received', event: { eventCode: 1, eventSourceId: 1 } } as never)).toBe(c);
    const d = applyHardwareFact(c, { type: 'door.heartbeatReceived', door: { id: 4 } } as never);
    expect(d.doors).toEqual({ '4': { id: 4, name: null, doorStatus: 'closed' } });
    expect(d.statuses).toBe(c.statuses);
    const e = applyHardwareFact(d, { type: 'door.heartbeatReceived', door: { id: 6, name: 'Dock', doorStatus: 'Forced Open' } } as never);
    expect(e.doors['6']).toEqual({ id: 6, name: 'Dock', doorStatus: 'forced-open' });
    expect(e.doors['4']).toEqual(d.doors['4']);
    const p = applyHardwareFact(e, { type: 'hardware.statusPushed', status: { id: 2, name: 'I2', status: 2003 } } as never);
    expect(p.statuses['2']).toEqual({ id: 2, name: 'I2', status: 'tamper', kind: 'input' });
    expect(p.doors).toBe(e.doors);
    const k = applyHardwareFact(p, { type: 'controller.heartbeatReceived', controllers: [{ id: 8, name: 'C8', status: 'Online' }] } as never);
    expect(k.controllers).toEqual({ '8': { id: 8, name: 'C8', status: 'online' } });
    const ev = applyHardwareFact(k, { type: 'event.received', event: { eventCode: 1013, eventSourceId: 2 } } as never);
    expect(ev.statuses['2']).toEqual({ id: 2, name: 'I2', status: 'offline', kind: 'interface' });
  });

  it('on the actor: a single fact, a batch in order, a REST snapshot merged over what is known, the end of the session', () => {
    const actor = createActor(hardwareStatusMachine).start();
    const s = () => actor.getSnapshot();
    actor.send({ type: 'event.received', event: { eventCode: 2001, eventSourceId: 5, eventSourceName: 'Input 5' } } as never);
    expect(s().context.statuses['5']).toEqual({ id: 5, name: 'Input 5', status: 'active', kind: 'input' });
    actor.send({ type: 'hardware.statusPushed', status: { id: 5, name: null, status: 'Idle' } } as never);
    expect(selectStatusOf(5)(s())).toBe('idle');
    actor.send({ type: 'door.heartbeatReceived', door: { id: 1, name: 'Front' } } as never);
    expect(selectDoorStatusOf(1)(s())).toBe('closed');
    actor.send({ type: 'controller.heartbeatReceived', controllers: [{ id: 2, name: 'C2' }] } as never);
    expect(s().context.controllers).toEqual({ '2': { id: 2, name: 'C2', status: undefined } });
    actor.send({
      type: 'facts.received',
      facts: [
        { type: 'event.received', event: { eventCode: 4002, eventSourceId: 9, eventSourceName: 'Reader 9' } },
        { type: 'door.heartbeatReceived', door: { id: 1, doorStatus: 'Open' } },
        { type: 'event.received', event: { eventCode: 4003, eventSourceId: 9 } },
      ],
    } as never);
    expect(s().context.statuses['9']).toEqual({ id: 9, name: 'Reader 9', status: 'offline', kind: 'cardReader' });
    expect(s().context.doors['1']).toEqual({ id: 1, name: null, doorStatus: 'open' });
    actor.send({
      type: 'hardware.statusesLoaded',
      statuses: [
        { id: 5, status: 2003 },
        { id: 7, name: 'Out 7', status: 3000 },
      ],
    } as never);
    expect(s().context.statuses['5']).toEqual({ id: 5, name: 'Input 5', status: 'tamper', kind: 'input' });
    expect(s().context.statuses['7']).toEqual({ id: 7, name: 'Out 7', status: 'idle', kind: 'output' });
    expect(s().context.statuses['9'].status).toBe('offline');
    // the snapshot leaves doors and controllers alone
    expect(Object.keys(s().context.doors)).toEqual(['1']);
    expect(Object.keys(s().context.controllers)).toEqual(['2']);
    actor.send({ type: 'session.ended' });
    expect(s().context).toEqual({ statuses: {}, doors: {}, controllers: {} });
    expect(selectStatusOf(5)(s())).toBeUndefined();
    expect(selectDoorStatusOf(1)(s())).toBeUndefined();
  });
});

describe('hardware selectors: what the screens list, in which order', () => {
  const snap = (context: HardwareStatusContext) => ({ context }) as never;
  it('doors and controllers by name (none first), then by id as text; the same array for the same context, a new one after a change', () => {
    const doors = {
      '10': { id: 10, name: 'Back', doorStatus: 'closed' },
      '2': { id: 2, name: 'Back', doorStatus: 'open' },
      '3': { id: 3, name: null, doorStatus: 'closed' },
      '1': { id: 1, name: 'Atrium', doorStatus: 'held-open' },
    };
    const c = { ...empty(), doors };
    // '10' < '2' as text
    expect(selectDoors(snap(c)).map((d) => d.id)).toEqual([3, 1, 10, 2]);
    expect(selectDoors(snap(c))).toBe(selectDoors(snap(c)));
    const changed = { ...c, doors: { ...doors, '4': { id: 4, name: 'Zed', doorStatus: 'closed' } } };
    expect(selectDoors(snap(changed)).map((d) => d.id)).toEqual([3, 1, 10, 2, 4]);
    const controllers = {
      b: { id: 'b', name: 'C', status: undefined },
      a: { id: 'a', name: 'C', status: 'online' },
      z: { id: 'z', name: 'A', status: 'online' },
    };
    const k = { ...empty(), controllers };
    expect(selectControllers(snap(k)).map((x) => x.id)).toEqual(['z', 'a', 'b']);
    expect(selectControllers(snap(k))).toBe(selectControllers(snap(k)));
    expect(selectControllers(snap({ ...k, controllers: { ...controllers } }))).not.toBe(selectControllers(snap(k)));
    expect(selectDoorStatusCounts(snap(c))).toEqual({ closed: 2, open: 1, 'held-open': 1 });
    expect(selectDoorStatusCounts(snap(empty()))).toEqual({});
  });

  it('devices of one kind, by name', () => {
    const statuses = {
      '1': { id: 1, name: 'Reader B', status: 'online', kind: 'cardReader' as const },
      '2': { id: 2, name: 'Input', status: 'idle', kind: 'input' as const },
      '3': { id: 3, name: 'Reader A', status: 'offline', kind: 'cardReader' as const },
      '4': { id: 4, name: 'Unknown', status: 'online' },
    };
    expect(selectDevicesOfKind('cardReader')(snap({ ...empty(), statuses })).map((d) => d.id)).toEqual([3, 1]);
    expect(selectDevicesOfKind('output')(snap({ ...empty(), statuses }))).toEqual([]);
  });
});

describe('hardware status invariants, each against a state that breaks it', () => {
  const all = invariants[''];
  const held = (c: Partial<HardwareStatusContext>) => ({ context: { ...empty(), ...c } }) as never;
  it('each device, door and controller is kept once, under its own id', () => {
    const rule = all['each device, door and controller is kept once, under its own id'];
    expect(rule(held({ statuses: { '1': { id: 1, name: null, status: 'online' } }, doors: { a: { id: 'a', name: null, doorStatus: 'closed' } } }))).toBe(true);
    expect(rule(held({ statuses: { '1': { id: 2, name: null, status: 'online' } } }))).toBe(false);
    expect(rule(held({ doors: { '1': { id: 3, name: null, doorStatus: 'closed' } } }))).toBe(false);
    expect(rule(held({ controllers: { '1': { id: 4, name: null, status: undefined } } }))).toBe(false);
  });

  it('a device status is lower-case hyphenated words, its kind (when known) one of §4', () => {
    const rule = all['a device status is lower-case hyphenated words, its kind (when known) one of §4'];
    const dev = (status: unknown, kind?: string) => held({ statuses: { '1': { id: 1, name: null, status, ...(kind ? { kind } : {}) } as never } });
    for (const ok of ['online', 'door-forced-open', 'input2', '3001']) expect(rule(dev(ok))).toBe(true);
    for (const kind of ['interface', 'cardReader', 'input', 'output']) expect(rule(dev('online', kind))).toBe(true);
    for (const bad of ['Online', 'door--open', '-open', 'open-', 'door open', '', 5]) expect(rule(dev(bad))).toBe(false);
    // anchored at both ends: a word with something after or before it is not one
    expect(rule(dev('open!'))).toBe(false);
    expect(rule(dev('!open'))).toBe(false);
    expect(rule(dev('online', 'reader'))).toBe(false);
  });

  it('a door status is lower-case hyphenated words', () => {
    const rule = all['a door status is lower-case hyphenated words (closed when the heartbeat said none)'];
    expect(rule(held({ doors: { '1': { id: 1, name: null, doorStatus: 'held-open' } } }))).toBe(true);
    expect(rule(held({ doors: { '1': { id: 1, name: null, doorStatus: 'Held Open' } } }))).toBe(false);
  });

  it('a controller status is lower-case hyphenated words, or none', () => {
    const rule = all['a controller status is lower-case hyphenated words, or none when its heartbeat had none (§3)'];
    expect(rule(held({ controllers: { '1': { id: 1, name: null, status: undefined } } }))).toBe(true);
    expect(rule(held({ controllers: { '1': { id: 1, name: null, status: 'online' } } }))).toBe(true);
    expect(rule(held({ controllers: { '1': { id: 1, name: null, status: 'Online' } } }))).toBe(false);
  });
});
