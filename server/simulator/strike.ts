// A simulated door's strike: the operators' (and schedules', threat levels', logical blocks') door commands, one
// door's in arrival order, the latest winning; a momentary unlock relocks by itself when its time is up, unless a
// later command (on any server: the last command event of the door's output point) took over. The hardware port's
// `command` (server/doors/port.ts), as the simulator implements it.
import { EVENT_CODES, checkDoorCommand, doorNeedsAttention, type DoorCommand, type Event } from '../../contract';
import type { Db } from '../db/db';
import { HardwareError, type Actor } from '../doors/port';
import { lastEventIdAt } from '../db/queries/simulator';

/** How a door event came about, beyond its code: an operator's command (`by`, forced despite a refusal) or the relock
 *  after Open briefly; nothing for the door's own (closed, forced open, held open). */
export type DoorEventHow = { by: Actor; forced: boolean } | 'relocked';

/** What the relock timers need of a clock: xstate's SimulatedClock fits, so tests move time without waiting. */
export interface SimulatorClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: any): void;
}

/** The operators' commands, all on the door's strike output point (`output-{id}`). */
const COMMAND_CODES = [EVENT_CODES.doorLocked, EVENT_CODES.doorUnlocked, EVENT_CODES.doorMomentaryUnlock];

/** What the strikes need of a door row (the simulator's door rows). */
interface StrikeDoor {
  id: number;
  client_id: number;
  name: string;
  status: string;
}

export interface StrikeDeps<D extends StrikeDoor> {
  db: Db;
  /** How long a momentary unlock lasts. */
  momentaryMs: number;
  log: (message: string) => void;
  /** The clock of the relock timers now (the simulator's; tests swap it). */
  clock: () => SimulatorClock;
  /** Whether the simulator has stopped (no relock is started or fired then). */
  stopped: () => boolean;
  /** A door of the tenant (any tenant's with null), or a 404 HardwareError. */
  door(clientId: number | null, doorId: number): Promise<D>;
  /** Records a door event at the door's point `pointId` and, unless `keepStatus`, the status it means. */
  doorEvent(d: D, code: number, pointId?: string, how?: DoorEventHow, keepStatus?: boolean): Promise<Event>;
}

export function createStrikes<D extends StrikeDoor>({ db, momentaryMs, log, clock, stopped, door, doorEvent }: StrikeDeps<D>) {
  /** per door, the relock its latest "Open briefly" is waiting for */
  const relocks = new Map<number, { timer: unknown; eventId: number; due: number }>();
  /** per door, the tail of its queue: commands and relocks of one door run one after another, in arrival order */
  const queues = new Map<number, Promise<unknown>>();

  function serial<T>(doorId: number, run: () => Promise<T>): Promise<T> {
    const result = (queues.get(doorId) ?? Promise.resolve()).then(run);
    const tail = result.catch(() => {});
    queues.set(doorId, tail);
    void tail.then(() => {
      if (queues.get(doorId) === tail) queues.delete(doorId);
    });
    return result;
  }

  function cancelRelock(doorId: number) {
    const r = relocks.get(doorId);
    if (r) clock().clearTimeout(r.timer);
    relocks.delete(doorId);
  }

  /** The relock of the momentary unlock `eventId`, once its time is up; false when a later command took over. */
  function fireRelock(doorId: number, eventId: number): Promise<boolean> {
    const r = relocks.get(doorId);
    if (!r || r.eventId !== eventId) return Promise.resolve(false);
    relocks.delete(doorId);
    return serial(doorId, async () => {
      if (stopped()) return false;
      const fresh = await door(null, doorId);
      // the last operator command wins: a lock, unlock or another "Open briefly" since (on any server) cancels this one
      if (Number(await lastEventIdAt(db, fresh.client_id, `output-${doorId}`, COMMAND_CODES)) !== eventId) return false;
      // the strike relocks; a door in an alarm state (held open, forced) keeps showing it until the door says otherwise
      await doorEvent(fresh, EVENT_CODES.doorLocked, `output-${fresh.id}`, 'relocked', doorNeedsAttention(fresh.status));
      return true;
    }).catch((err) => {
      log(`relock ${doorId}: ${err}`);
      return false;
    });
  }

  /**
   * An operator's door command: the strike output changes (its own point, so the door's alarms stay open). Commands
   * of one door run in arrival order, and the latest wins: Lock or Unlock cancels the relock a momentary unlock is
   * waiting for, and another momentary unlock starts its time again. A command that makes no sense for the door's
   * state (contract/doors.ts) is refused with 409 and changes nothing, unless `force` is given.
   */
  async function command(clientId: number, doorId: number, cmd: DoorCommand, actor: Actor, opts: { force?: boolean } = {}): Promise<Event> {
    return serial(doorId, async () => {
      const d = await door(clientId, doorId);
      const check = checkDoorCommand(d.status, cmd);
      if (!check.allowed && !opts.force) throw new HardwareError(409, { message: `${d.name} ${check.reason}`, code: check.code, values: { door: d.name } });
      const code = cmd === 'lock' ? EVENT_CODES.doorLocked : cmd === 'unlock' ? EVENT_CODES.doorUnlocked : EVENT_CODES.doorMomentaryUnlock;
      cancelRelock(d.id);
      const e = await doorEvent(d, code, `output-${d.id}`, { by: actor, forced: !check.allowed });
      if (cmd === 'momentary-unlock' && !stopped()) {
        const eventId = Number(e.id);
        const timer = clock().setTimeout(() => {
          void fireRelock(d.id, eventId);
        }, momentaryMs);
        relocks.set(d.id, { timer, eventId, due: clock().now() + momentaryMs });
      }
      return e;
    });
  }

  return {
    command,
    /** The test hook: the relocks due within `ms` happen now, as if that much time had passed. Resolves with how many relocked. */
    async fastForward(ms: number): Promise<number> {
      const until = clock().now() + ms;
      const due = [...relocks].filter(([, r]) => r.due <= until);
      for (const [, r] of due) clock().clearTimeout(r.timer);
      const done = await Promise.all(due.map(([doorId, r]) => fireRelock(doorId, r.eventId)));
      return done.filter(Boolean).length;
    },
    /** Resolves when every door's queued commands and relocks have finished. */
    async settled(): Promise<void> {
      while (queues.size) await Promise.all([...queues.values()]);
    },
    /** No relock is waited for any more (the simulator stops). */
    stop() {
      for (const r of relocks.values()) clock().clearTimeout(r.timer);
      relocks.clear();
    },
  };
}
