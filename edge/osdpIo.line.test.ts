// edge/osdpIo.ts on a real line without a server: the real bus on one end of a socat pseudo-terminal pair, our PD (a
// reader with a relay and two inputs) on the other, the real doorIo and journal, and a snapshot held in memory whose
// wiring a test changes. What the server side adds (the fields, the snapshot, the events stored) is osdpIo.test.ts.
// OSDP_TEST_LINE=pipe: an in-process pipe instead of the pseudo-terminal, for the mutation run (serialport's native
// binding aborts Stryker's test process, docs/TESTING.md); the bus takes any byte duplex.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_CODES, type EdgeDoor } from '../contract';
import { createDoorIo } from './doorIo';
import { openJournal } from './journal';
import { attachOsdpIo, boardAddresses, boardName } from './osdpIo';
import { Bus, Command, Reader, type ByteDuplex } from './osdp';
import { ptyPair } from './osdp/testkit';
import type { SnapshotStore } from './snapshot';
import { until } from './testPeers';

const ADDRESS = 3;
const DOOR = 11;
const CONTACT = 21;
const EXIT = 22;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const door = (over: Partial<EdgeDoor> = {}): EdgeDoor => ({
  id: DOOR,
  name: 'Lab',
  mode: 'card',
  formatIds: [],
  entryZoneId: null,
  exitZoneId: null,
  interlockIds: [],
  qrSecret: null,
  overrides: [],
  threat: null,
  degraded: 'keep',
  strike: { id: 31, name: 'Lab strike', unlockMs: 1234, at: { address: ADDRESS, point: 1 } },
  inputs: [
    { id: CONTACT, name: 'Lab contact', kind: 'door-contact', normallyClosed: true, at: { address: ADDRESS, point: 0 } },
    { id: EXIT, name: 'Lab exit', kind: 'exit-button', normallyClosed: false, at: { address: ADDRESS, point: 1 } },
  ],
  heldOpenMs: 60_000,
  ...over,
});

/** Two ends of an in-process line: what one writes the other hears, a turn of the event loop later. */
function pipePair(): { a: ByteDuplex; b: ByteDuplex; close(): Promise<void> } {
  const end = () => new EventEmitter() as EventEmitter & ByteDuplex;
  const [a, b] = [end(), end()];
  a.write = (d: Uint8Array) => setImmediate(() => b.emit('data', Buffer.from(d)));
  b.write = (d: Uint8Array) => setImmediate(() => a.emit('data', Buffer.from(d)));
  return { a, b, close: async () => {} };
}

/** The line, the PD (contact closed, exit open, two relays), the bus, doorIo and the driver over a snapshot of `doors`. */
async function setup(doors: EdgeDoor[], pdInputs = [1, 0]) {
  const pty: { a: ByteDuplex; b: ByteDuplex; close(): Promise<void> } = process.env.OSDP_TEST_LINE === 'pipe' ? pipePair() : await ptyPair(9600);
  const pd = new Reader(pty.b, { address: ADDRESS, inputs: pdInputs, outputs: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'osdp-io-line-'));
  const journal = openJournal(dir);
  const held = { version: 1, snapshot: { doors } };
  // the store's one part these read: the snapshot held (its doors) and its version
  const store = { held } as unknown as SnapshotStore;
  const logs: string[] = [];
  const bus = new Bus(pty.a, { baudRate: 9600, offlineRetryMs: 300 });
  const io = createDoorIo({ store, journal, online: () => true, momentaryMs: 500, onChange: (id) => driver.strikeMoved(id) });
  const driver = attachOsdpIo(bus, io, store, { log: (m) => logs.push(m) });
  driver.snapshotChanged();
  for (const a of boardAddresses(store)) bus.add({ address: a });
  bus.start();
  stop = async () => {
    io.stop();
    pd.close();
    await bus.stop();
    await pty.close();
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  };
  await until('the board online', () => bus.reader(ADDRESS)?.state === 'online');
  const events = (code: number) => journal.all().filter((e) => e.eventCode === code);
  const outs = () => pd.seen.out;
  return { pd, bus, io, driver, held, logs, events, outs };
}

describe('osdpIo on a real line', () => {
  it('sets the strike as the board comes online, then follows doorIo: unlock on, lock off, a pulse on for its time (×100 ms, rounded up)', async () => {
    const { pd, io, outs } = await setup([door()]);
    await until('locked sent once online', () => outs().length === 1);
    expect(outs()[0]).toEqual([{ output: 1, code: 1, timer: 0 }]);
    io.command({ type: 'door', id: 'c1', doorId: DOOR, command: 'unlock', actor: 'test', force: false });
    await until('unlock sent', () => outs().length === 2);
    expect(outs()[1]).toEqual([{ output: 1, code: 2, timer: 0 }]);
    expect(pd.outputs).toEqual([0, 1]);
    io.command({ type: 'door', id: 'c2', doorId: DOOR, command: 'lock', actor: 'test', force: false });
    await until('lock sent', () => outs().length === 3);
    expect(outs()[2]).toEqual([{ output: 1, code: 1, timer: 0 }]);
    io.pulse(DOOR); // 1234 ms: 13 × 100 ms
    await until('pulse sent', () => outs().length === 4);
    expect(outs()[3]).toEqual([{ output: 1, code: 5, timer: 13 }]);
    expect(pd.outputs).toEqual([0, 1]);
    await until('relocked by the edge: permanent off', () => outs().length === 5);
    expect(outs()[4]).toEqual([{ output: 1, code: 1, timer: 0 }]);
    expect(pd.outputs).toEqual([0, 0]);
  });

  it('a pulse longer than OUT’s timer holds is sent as its longest (65,535 × 100 ms); open briefly as the time it has', async () => {
    const { io, outs } = await setup([door({ strike: { id: 31, name: 'Lab strike', unlockMs: 7_000_000, at: { address: ADDRESS, point: 1 } } })]);
    await until('locked sent once online', () => outs().length === 1);
    io.pulse(DOOR);
    await until('pulse sent', () => outs().length === 2);
    expect(outs()[1]).toEqual([{ output: 1, code: 5, timer: 65535 }]);
    io.command({ type: 'door', id: 'c1', doorId: DOOR, command: 'momentary-unlock', actor: 'test', force: true });
    await until('open briefly sent', () => outs().length === 3);
    expect(outs()[2]).toEqual([{ output: 1, code: 5, timer: 5 }]);
  });

  it('feeds the board’s inputs as wired: the exit button a request to exit that pulses the strike, the normally-closed contact opening Door forced open; each journaled change said in the log', async () => {
    const { pd, events, outs, io, logs } = await setup([door()]);
    await until('locked sent once online', () => outs().length === 1);
    pd.setInput(1, 1);
    await until('request to exit', () => events(EVENT_CODES.inputActive).length === 1);
    expect(events(EVENT_CODES.inputActive)[0].pointId).toBe(`input-${EXIT}`);
    await until('pulse sent', () => outs().length === 2);
    expect(outs()[1]).toEqual([{ output: 1, code: 5, timer: 13 }]);
    io.command({ type: 'door', id: 'c1', doorId: DOOR, command: 'lock', actor: 'test', force: true });
    pd.setInput(0, 0); // the contact's circuit opens (active) while the button is still held: ISTATR [0, 1]
    await until('Door forced open', () => events(EVENT_CODES.doorForcedOpen).length === 1);
    expect(io.isOpen(DOOR)).toBe(true);
    pd.setInput(1, 0);
    pd.setInput(0, 1);
    await until('Door closed', () => events(EVENT_CODES.doorClosed).length === 1);
    expect(io.isOpen(DOOR)).toBe(false);
    expect(events(EVENT_CODES.inputActive)).toHaveLength(1); // the held button is one request, its release none
    expect(logs.filter((l) => l.startsWith('OSDP board'))).toEqual([
      `OSDP board ${ADDRESS} input 1: Input active at Lab: request to exit (Lab exit)`,
      `OSDP board ${ADDRESS} input 0: Door forced open at Lab (Lab contact)`,
      `OSDP board ${ADDRESS} input 0: Door closed at Lab`,
    ]);
  });

  it('a normally-open contact reads the other way: its circuit closing is the door open', async () => {
    const nc = door();
    const no = door({ inputs: [{ ...nc.inputs[0], normallyClosed: false }] });
    const { pd, events, io } = await setup([no], [0, 0]);
    await until('inputs read', () => pd.seen.commands.includes(Command.ISTAT));
    expect(io.isOpen(DOOR)).toBe(false);
    pd.setInput(0, 1);
    await until('Door forced open', () => events(EVENT_CODES.doorForcedOpen).length === 1);
  });

  it('an input read open at the board’s first answer is fed: the door is open (forced, as it stands locked)', async () => {
    const { events, io } = await setup([door()], [0, 0]);
    await until('Door forced open', () => events(EVENT_CODES.doorForcedOpen).length === 1);
    expect(io.isOpen(DOOR)).toBe(true);
  });

  it('says an input wired to a point the board does not report, and feeds the others', async () => {
    const d = door();
    const { logs, pd, events } = await setup([door({ inputs: [{ ...d.inputs[0], at: { address: ADDRESS, point: 5 } }, d.inputs[1]] })]);
    await until('the missing input said', () =>
      logs.find((l) => l.includes('Lab contact (Lab) is wired to input 5, which the board does not report (2 inputs)')),
    );
    pd.setInput(1, 1);
    await until('request to exit', () => events(EVENT_CODES.inputActive).length === 1);
  });

  it('a board offline: its inputs unknown (logged), nothing sent to it; back online its inputs asked again and its strike set as it is then', async () => {
    const store = door({
      id: 12,
      name: 'Store',
      strike: null,
      inputs: [{ id: 24, name: 'Store contact', kind: 'door-contact', at: { address: ADDRESS, point: 1 } }],
    });
    const lab = door({ inputs: [door().inputs[0]] }); // its contact on input 0, the store's on input 1
    const { pd, logs, events, outs, io, held, driver, bus } = await setup([lab, store], [1, 1]);
    await until('locked sent once online', () => outs().length === 1);
    const istats = () => pd.seen.commands.filter((c) => c === Command.ISTAT).length;
    await until('inputs read', () => istats() === 1);
    pd.fault({ kind: 'silent' }, 3);
    await until('offline said', () =>
      logs.find((l) => l === `OSDP board ${ADDRESS} offline: the inputs of Lab, Store are unknown until it is back (no alarm is raised from a lost board)`),
    );
    // while it is offline: a command and a wiring change send nothing (nothing fails, nothing is said of it)
    io.command({ type: 'door', id: 'c1', doorId: DOOR, command: 'unlock', actor: 'test', force: false });
    held.snapshot = { doors: [lab, { ...store, inputs: [{ ...store.inputs[0], at: { address: ADDRESS, point: 0 } }] }] };
    driver.snapshotChanged();
    expect(bus.reader(ADDRESS)?.state).not.toBe('online');
    await until('inputs asked again', () => istats() === 2);
    await until('the strike set again, unlocked', () => outs().length === 2);
    expect(outs()[1]).toEqual([{ output: 1, code: 2, timer: 0 }]);
    expect(logs.filter((l) => l.includes('not set') || l.includes('not read'))).toEqual([]);
    expect(events(EVENT_CODES.doorForcedOpen)).toHaveLength(0);
  });

  it('a wiring change asks the inputs again and sets the strike on its new point; the same wiring again sends nothing', async () => {
    const { pd, driver, held, outs } = await setup([door()]);
    await until('locked sent once online', () => outs().length === 1);
    const istats = () => pd.seen.commands.filter((c) => c === Command.ISTAT).length;
    await until('inputs read', () => istats() === 1);
    held.snapshot = { doors: [door()] };
    driver.snapshotChanged();
    held.snapshot = { doors: [door({ strike: { id: 31, name: 'Lab strike', unlockMs: 1234, at: { address: ADDRESS, point: 0 } } })] };
    driver.snapshotChanged();
    await until('the strike on point 0', () => outs().length === 2);
    expect(outs()[1]).toEqual([{ output: 0, code: 1, timer: 0 }]);
    await until('inputs read again', () => istats() === 2);
    // only an input moved (the contact to point 1): its board's inputs are asked again
    const d = door({ strike: { id: 31, name: 'Lab strike', unlockMs: 1234, at: { address: ADDRESS, point: 0 } } });
    held.snapshot = { doors: [{ ...d, inputs: [{ ...d.inputs[0], at: { address: ADDRESS, point: 1 } }] }] };
    driver.snapshotChanged();
    await until('inputs read a third time', () => istats() === 3);
  });

  it('a door not wired to a board sends nothing: its strike and inputs stay simulated (and a board with no inputs wired is not asked for them)', async () => {
    const wired = door({ id: 12, name: 'Wired', inputs: [] });
    const plain = door({ strike: { id: 32, name: 'Plain strike', unlockMs: 1000 }, inputs: [{ id: 23, name: 'Plain contact', kind: 'door-contact' }] });
    const bare = door({ id: 13, name: 'Bare', strike: null, inputs: [] });
    const { io, outs, pd, driver } = await setup([plain, wired, bare]);
    await until('the wired door set once online', () => outs().length === 1);
    io.command({ type: 'door', id: 'c1', doorId: DOOR, command: 'unlock', actor: 'test', force: false });
    io.command({ type: 'door', id: 'c3', doorId: 13, command: 'unlock', actor: 'test', force: false });
    driver.strikeMoved(99); // no such door: nothing
    io.command({ type: 'door', id: 'c2', doorId: 12, command: 'unlock', actor: 'test', force: false });
    await until('the wired door unlocked', () => outs().length === 2);
    expect(outs()).toEqual([[{ output: 1, code: 1, timer: 0 }], [{ output: 1, code: 2, timer: 0 }]]);
    expect(pd.seen.commands).not.toContain(Command.ISTAT);
  });

  it('the boards of a snapshot: every address a strike or an input is wired to; none without a snapshot', () => {
    const d = door();
    const held = { snapshot: { doors: [d, door({ id: 12, strike: null, inputs: [{ ...d.inputs[0], at: { address: 5, point: 0 } }] })] } };
    held.snapshot.doors[0] = {
      ...d,
      inputs: [
        { ...d.inputs[0], at: { address: 4, point: 0 } },
        { ...d.inputs[1], at: undefined },
      ],
    };
    expect([...boardAddresses({ held } as unknown as SnapshotStore)].sort()).toEqual([ADDRESS, 4, 5]);
    const none = { held: null } as unknown as SnapshotStore;
    expect(boardAddresses(none).size).toBe(0);
    const line = pipePair();
    const bus = new Bus(line.a);
    const driver = attachOsdpIo(bus, createDoorIo({ store: none, journal: undefined as never, online: () => true }), none);
    expect(() => {
      driver.snapshotChanged();
      driver.strikeMoved(DOOR);
    }).not.toThrow();
    expect([...driver.boards()]).toEqual([]);
  });
});

describe('osdpIo: the input status values of OSDP 2.2 (Table 52)', () => {
  it('a supervised contact cut (3) or at fault (4) is one tamper; unknown (5) and a vendor value feed nothing until the board says 0 or 1', async () => {
    const supervised = door({
      inputs: [{ id: CONTACT, name: 'Lab contact', kind: 'door-contact', normallyClosed: true, supervised: true, at: { address: ADDRESS, point: 0 } }],
    });
    const { pd, io, logs, events } = await setup([supervised]);
    await until('the inputs read', () => pd.seen.commands.includes(Command.ISTAT));
    pd.setInput(0, 3);
    await until('the cut line a tamper', () => events(EVENT_CODES.inputTamper).length === 1);
    expect(events(EVENT_CODES.inputTamper)[0].messageCode).toBe('event.inputLineCut');
    pd.setInput(0, 4); // a fault while the tamper stands: the same alarm, not a second one
    pd.setInput(0, 5); // unknown: nothing fed, said
    await until('unknown said', () =>
      logs.some((l) => l === `OSDP board ${ADDRESS}: Lab contact (Lab) on input 0 reads unknown (5): nothing is fed until it is known`),
    );
    pd.setInput(0, 0x80); // a vendor's value: nothing OSDP defines
    await until('the vendor value said', () => logs.some((l) => l.endsWith('on input 0 reads 128, no state OSDP defines: nothing is fed until it is known')));
    expect(events(EVENT_CODES.inputTamper)).toHaveLength(1);
    expect(events(EVENT_CODES.inputIdle)).toHaveLength(0);
    // 0: the normally closed contact's circuit open, read right: the line restored, then the door open while locked
    pd.setInput(0, 0);
    await until('Door forced open', () => events(EVENT_CODES.doorForcedOpen).length === 1);
    expect(events(EVENT_CODES.inputIdle).map((e) => e.messageCode)).toEqual(['event.inputLineRestored']);
    expect(io.isOpen(DOOR)).toBe(true);
  });

  it('on a contact that is not supervised a short (2) reads as closed, a cut (3) as open, a fault (4) as nothing', async () => {
    const { pd, io, events } = await setup([door()]);
    await until('the inputs read', () => pd.seen.commands.includes(Command.ISTAT));
    pd.setInput(0, 3); // cut: the circuit open, the normally closed contact open while locked
    await until('Door forced open', () => events(EVENT_CODES.doorForcedOpen).length === 1);
    pd.setInput(0, 2); // short: closed
    await until('Door closed', () => events(EVENT_CODES.doorClosed).length === 1);
    pd.setInput(0, 4); // a fault: the door's state not known from it, nothing fed
    pd.setInput(1, 1); // the exit button pressed after it, so the fault was read before it
    await until('the request to exit', () => events(EVENT_CODES.inputActive).length === 1);
    expect(io.isOpen(DOOR)).toBe(false);
    expect(events(EVENT_CODES.inputTamper)).toHaveLength(0);
    expect(events(EVENT_CODES.doorForcedOpen)).toHaveLength(1);
  });
});

describe('boardName: a board’s name from the snapshot’s wiring', () => {
  it('is the `board` of the first strike or input wired at that address; none for another address or no snapshot', () => {
    const store = (doors: EdgeDoor[] | null) => ({ held: doors && { version: 1, snapshot: { doors } } }) as unknown as SnapshotStore;
    const named = door({
      strike: { id: 31, name: 'Lab strike', unlockMs: 1000, at: { address: ADDRESS, point: 1 } }, // a server before names: none
      inputs: [{ id: CONTACT, name: 'Lab contact', kind: 'door-contact', normallyClosed: true, at: { address: ADDRESS, point: 0, board: 'Lab board' } }],
    });
    const other = door({ id: 12, strike: { id: 32, name: 'Hall strike', unlockMs: 1000, at: { address: 40, point: 0, board: 'Hall board' } }, inputs: [] });
    expect(boardName(store([other, named]), ADDRESS)).toBe('Lab board');
    expect(boardName(store([other, named]), 40)).toBe('Hall board');
    expect(boardName(store([other, named]), 41)).toBeUndefined();
    expect(boardName(store([door({ strike: null, inputs: [] })]), ADDRESS)).toBeUndefined();
    expect(boardName(store(null), ADDRESS)).toBeUndefined();
  });
});
