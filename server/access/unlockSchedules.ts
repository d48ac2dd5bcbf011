// Unlock schedules and first-person-in (issue 12, doors' `unlockScheduleId` and `firstPersonIn`): a door with an
// unlock schedule is unlocked while the schedule is open (the client's time zone, special days included) and locked
// again when it closes. With first-person-in it stays locked inside the window until somebody is let in with a valid
// card there: that swipe unlocks it for the rest of the window. The unlocks and locks go through the simulator's
// door commands, so the door's state, the events and the consoles show them with the reason. A locked-down door, or
// one an override holds, is left alone. Each window's unlock and lock happen once, on one server: the door row is
// claimed (`schedule_unlocked_at` set or cleared by the statement that checks it).
import { EVENT_CODES, fill, type Event } from '../../contract';
import type { Db } from '../db/db';
import type { Pipeline } from '../monitor/pipeline';
import type { HardwarePort } from '../doors/port';
import { localTime } from '../../access/clock';
import { scheduleOpen } from '../../access/schedule';
import { allScheduledDoors, claimScheduleWindow, doorsLeftUnlocked, lockedFirstPersonInDoor, type ScheduledDoor } from '../db/queries/unlockSchedules';

export interface UnlockScheduleClock {
  /** Unlocks and locks what the schedules call for now; answers how many doors it moved. */
  tick(): Promise<number>;
  /** Resolves when the first-person-in unlocks started so far are done (tests). */
  settled(): Promise<void>;
  /** A door changed: until the next tick, granted swipes ask the database whether their door is first-person-in. */
  doorsChanged(): void;
  start(): void;
  stop(): void;
}

export function createUnlockScheduleClock(
  db: Db,
  pipeline: Pipeline,
  simulator: Pick<HardwarePort, 'command' | 'access'>,
  opts: { everyMs?: number; log?: (m: string) => void; now?: () => number } = {},
): UnlockScheduleClock {
  const everyMs = opts.everyMs ?? 5000;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<number> | null = null;
  const pending = new Set<Promise<unknown>>();

  async function isOpen(d: ScheduledDoor, at: number): Promise<{ open: boolean; name: string }> {
    const index = await simulator.access.get(d.client_id);
    const s = index.schedules.get(d.schedule_id);
    if (!s) return { open: false, name: `schedule ${d.schedule_id}` };
    const t = localTime(at, index.timeZone);
    return { open: scheduleOpen(s, t, index.calendar.on(t)).open, name: s.name };
  }

  /** Claim the window's unlock (or its lock) of one door; false when another server or an earlier tick did it. */
  const claim = (id: number, unlock: boolean) => claimScheduleWindow(db, id, unlock);

  /** First-person-in doors as of the last tick: a granted swipe elsewhere costs no query (most swipes are). */
  let firstInDoors: ReadonlySet<number> | null = null;

  async function tick(): Promise<number> {
    let moved = 0;
    const scheduled = await allScheduledDoors(db);
    firstInDoors = new Set(scheduled.filter((d) => d.first_person_in).map((d) => d.id));
    for (const d of scheduled) {
      try {
        const { open, name } = await isOpen(d, now());
        if (open && !d.unlocked && !d.first_person_in && !d.held && (await claim(d.id, true))) {
          await simulator.command(d.client_id, d.id, 'unlock', fill('actor.unlockSchedule', 'unlock schedule {name}', { name }), { force: true });
          moved++;
        } else if (!open && d.unlocked && (await claim(d.id, false))) {
          if (!d.held)
            await simulator.command(d.client_id, d.id, 'lock', fill('actor.unlockScheduleClosed', 'unlock schedule {name} (closed)', { name }), {
              force: true,
            });
          moved++;
        }
      } catch (e) {
        log(`unlock schedule of door ${d.id}: ${e}`);
      }
    }
    // a door whose unlock schedule was taken away while it held the door unlocked: locked again
    const dropped = await doorsLeftUnlocked(db);
    for (const d of dropped) {
      try {
        if (!(await claim(d.id, false))) continue;
        if (!d.held) await simulator.command(d.client_id, d.id, 'lock', fill('actor.unlockScheduleRemoved', 'unlock schedule removed', {}), { force: true });
        moved++;
      } catch (e) {
        log(`unlock schedule of door ${d.id}: ${e}`);
      }
    }
    return moved;
  }

  /** The door of a granted swipe that may be a first person in (a reader of a door), else null: asked before any promise. */
  function firstInDoor(e: Event): number | null {
    if (Number(e.eventCode) !== EVENT_CODES.accessGranted) return null;
    const m = /^reader-(\d+)$/.exec(String(e.eventPointId ?? ''));
    if (!m) return null;
    // before the first tick nothing is known yet: ask the database; after it, only for a first-person-in door
    if (firstInDoors && !firstInDoors.has(Number(m[1]))) return null;
    return Number(m[1]);
  }
  /** A card granted at a first-person-in door inside its window: the first one unlocks it for the rest of it. */
  async function firstIn(clientId: number, e: Event, door: number): Promise<void> {
    const d = await lockedFirstPersonInDoor(db, clientId, door);
    if (!d || d.held) return;
    const { open, name } = await isOpen(d, Date.parse(e.time));
    if (!open || !(await claim(d.id, true))) return;
    // who swiped, from the swipe's values (issue 48), not read back out of its English
    const swiped = e.messageValues?.who;
    const who = typeof swiped === 'string' ? swiped : 'a valid card';
    await simulator.command(clientId, d.id, 'unlock', fill('actor.firstPersonIn', 'first person in ({who}), unlock schedule {name}', { who, name }), {
      force: true,
    });
  }
  const unsubscribe = pipeline.onCommitted((clientId, e) => {
    // most events are no first person in: let go here, without a promise each (issue 30: thousands a second)
    const door = firstInDoor(e);
    if (door === null) return;
    const p = firstIn(clientId, e, door).catch((err) => log(`first person in: ${err}`));
    pending.add(p);
    void p.finally(() => pending.delete(p));
  });

  // one tick at a time: a slow one is not overtaken by the next
  const guarded = (): Promise<number> =>
    (running ??= tick().finally(() => {
      running = null;
    }));
  return {
    tick: guarded,
    async settled() {
      while (pending.size) await Promise.all([...pending]);
    },
    doorsChanged() {
      firstInDoors = null;
    },
    start() {
      if (timer) return;
      timer = setInterval(() => {
        guarded().catch((e) => log(`unlock schedules: ${e}`));
      }, everyMs);
      (timer as { unref?: () => void }).unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      unsubscribe();
    },
  };
}
