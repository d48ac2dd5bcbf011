// Real door I/O on the OSDP bus (issue 47): a door's strike and inputs wired to a board of the controller's bus (a
// reader with a relay and inputs, or an I/O module: the snapshot's `at`, Configure / Hardware) are driven and read
// here, and only turned into edge/doorIo.ts's calls, where the door's logic is:
// - the strike moved (doorIo's onChange): osdp_OUT to its board's output point: unlocked is permanent on, locked is
//   permanent off, unlocked briefly is on for the time left (a temporary state: the board relocks by itself even when
//   this edge is gone), then back to off; a strike wired fail-safe (a magnetic lock, energised to lock) the other way
//   round: locked is permanent on, unlocked permanent off, released briefly off for the time left;
// - the board's inputs (ISTATR, the reply to a POLL when one changed, or to the ISTAT sent when the board comes online
//   or the wiring changed): each wired input whose state changed is fed to doorIo's `circuit`, 1 as the circuit closed
//   and 0 open (a normally-closed point is active when open: doorIo reads it as wired). Door forced open, a request to
//   exit and the rest follow from there, as for any input. A board that supervises its lines (end-of-line resistors)
//   says more, as OSDP 2.2's input status values (Table 52) have it: 2 the line shorted, 3 cut (open circuit), 4 a fault
//   (a resistance of no known state: tampered with), 5 unknown (not settled yet); a short, cut or fault is fed as such
//   (on an input wired *Supervised* an Input tamper, doorIo.ts), an unknown state feeds nothing until it is known;
//   2.1.7's boards say only 0 and 1, and so give no supervision (docs/EDGE.md);
// - a board going offline: its inputs are unknown until it is back (said in the log); nothing is fed, so a lost board
//   raises no Door forced open; back online, its inputs are asked again and its strikes set again.
import type { Bus } from './osdp';
import type { CircuitReading, DoorIo } from './doorIo';
import type { SnapshotStore } from './snapshot';

/** osdp_OUT's control codes (§6.8) that the strike uses. */
const OUT_PERMANENT_OFF = 1;
const OUT_PERMANENT_ON = 2;
const OUT_TEMPORARY_ON = 5;
const OUT_TEMPORARY_OFF = 6;
/** OUT's timer is in 100 ms and 16 bits */
const OUT_TIMER_MAX = 0xffff;
/** ISTATR's values (OSDP 2.2 Table 52; 2.1.7 has 0 and 1 only) as the circuit doorIo reads; 5 (unknown) and the
 *  reserved and vendor values (6-255) are none: nothing is fed */
const READINGS: readonly CircuitReading[] = ['open', 'closed', 'short', 'cut', 'fault'];

interface WiredInput {
  id: number;
  name: string;
  doorName: string;
  point: number;
}

/** Every bus address a door's strike or inputs are wired to in the snapshot held. */
export function boardAddresses(store: SnapshotStore): Set<number> {
  const doors = store.held?.snapshot.doors ?? [];
  return new Set(doors.flatMap((d) => [d.strike?.at?.address, ...d.inputs.map((i) => i.at?.address)].filter((a): a is number => a !== undefined)));
}

/** The name of the board at `address` (Configure / Hardware → Interfaces) as the snapshot's wiring says it. */
export function boardName(store: SnapshotStore, address: number): string | undefined {
  for (const d of store.held?.snapshot.doors ?? [])
    for (const at of [d.strike?.at, ...d.inputs.map((i) => i.at)]) if (at?.address === address && at.board) return at.board;
  return undefined;
}

export function attachOsdpIo(bus: Bus, io: DoorIo, store: SnapshotStore, opts: { log?: (m: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  /** the value last read per input id, fed to doorIo when it is a state (none: unknown, fed whatever it reads next) */
  const fed = new Map<number, number>();
  let wiredAs = '';

  const doors = () => store.held?.snapshot.doors ?? [];
  const strikeAt = (doorId: number) => doors().find((d) => d.id === doorId)?.strike?.at;
  /** the inputs wired to the board at `address` */
  const inputsAt = (address: number): WiredInput[] =>
    doors().flatMap((d) => d.inputs.filter((i) => i.at?.address === address).map((i) => ({ id: i.id, name: i.name, doorName: d.name, point: i.at!.point })));
  const boards = () => boardAddresses(store);
  const online = (address: number) => bus.reader(address)?.state === 'online';

  /** The door's strike onto its board's output, as doorIo has it now. */
  function strikeMoved(doorId: number) {
    const at = strikeAt(doorId);
    if (!at || !online(at.address)) return; // not wired (simulated), or set when its board comes online
    const state = io.state(doorId);
    const left = io.relockIn(doorId);
    // fail-safe (a magnetic lock): energised while locked, so each state's code is the other one
    const [unlock, lock, release] = at.failSafe
      ? [OUT_PERMANENT_OFF, OUT_PERMANENT_ON, OUT_TEMPORARY_OFF]
      : [OUT_PERMANENT_ON, OUT_PERMANENT_OFF, OUT_TEMPORARY_ON];
    const spec =
      state === 'unlocked'
        ? { output: at.point, code: unlock }
        : state === 'locked' || !left // (none left: its relock is due, and sends lock)
          ? { output: at.point, code: lock }
          : { output: at.point, code: release, timer: Math.min(OUT_TIMER_MAX, Math.ceil(left / 100)) };
    bus.output(at.address, [spec]).catch((e: Error) => log(`OSDP board ${at.address}: the strike of door ${doorId} was not set (${state}): ${e.message}`));
  }

  /** A board's inputs read again and its strikes set again (it came online, or the wiring changed). */
  function sync(address: number) {
    if (!online(address)) return;
    if (inputsAt(address).length) bus.inputStatus(address).catch((e: Error) => log(`OSDP board ${address}: its inputs were not read: ${e.message}`));
    for (const d of doors()) if (d.strike?.at?.address === address) strikeMoved(d.id);
  }

  bus.on('inputs', ({ address, states }) => {
    for (const i of inputsAt(address)) {
      const state = states[i.point];
      if (state === undefined) {
        log(`OSDP board ${address}: ${i.name} (${i.doorName}) is wired to input ${i.point}, which the board does not report (${states.length} inputs)`);
        continue;
      }
      if (fed.get(i.id) === state) continue;
      fed.set(i.id, state);
      const reading = READINGS[state];
      if (!reading) {
        // not known yet (5), or a value the standard keeps for later or a vendor's: nothing fed until it says more
        log(
          `OSDP board ${address}: ${i.name} (${i.doorName}) on input ${i.point} reads ${state === 5 ? 'unknown (5)' : `${state}, no state OSDP defines`}: nothing is fed until it is known`,
        );
        continue;
      }
      const out = io.circuit(i.id, reading);
      if (out.entries.length) log(`OSDP board ${address} input ${i.point}: ${out.message}`);
    }
  });
  bus.on('online', ({ address }) => sync(address));
  bus.on('offline', ({ address }) => {
    const lost = inputsAt(address);
    for (const i of lost) fed.delete(i.id);
    if (lost.length)
      log(
        `OSDP board ${address} offline: the inputs of ${[...new Set(lost.map((i) => i.doorName))].join(', ')} are unknown until it is back (no alarm is raised from a lost board)`,
      );
  });

  return {
    /** the bus addresses of the boards the snapshot's doors are wired to (they are polled beside the readers) */
    boards,
    strikeMoved,
    /** a new snapshot: when the wiring changed, every wired input is read again and every wired strike set again */
    snapshotChanged() {
      const now = JSON.stringify(doors().map((d) => [d.id, d.strike?.at, d.inputs.map((i) => [i.id, i.at, i.normallyClosed])]));
      if (now === wiredAs) return;
      wiredAs = now;
      fed.clear();
      for (const a of boards()) sync(a);
    },
  };
}
