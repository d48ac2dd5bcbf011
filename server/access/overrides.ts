// Overrides at the doors (issue 12): an unlocking override unlocks its doors when it starts and locks them again when
// it ends; a locking one locks them at its start (and gives an unlocked door back at its end). The access engine
// decides swipes by the override in force on its own (access/engine.ts overrideAt); this clock moves the
// locks. Each start and end happens once, on one server: the rows are marked (applied_start_at / applied_end_at) in
// the same transaction that claims them (`for update skip locked`). A locked-down door is left to the lockdown.
import type { Db } from '../db/db';
import type { HardwarePort } from '../doors/port';

interface Due {
  id: number;
  client_id: number;
  name: string;
  mode: string;
  started: boolean;
  door_ids: number[];
}

export interface OverrideClock {
  /** Starts and ends what is due now; answers how many overrides it started or ended. */
  tick(): Promise<number>;
  start(): void;
  stop(): void;
}

export function createOverrideClock(
  db: Db,
  simulator: Pick<HardwarePort, 'command'>,
  opts: { everyMs?: number; log?: (m: string) => void } = {},
): OverrideClock {
  const everyMs = opts.everyMs ?? 2000;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<number> | null = null;

  async function claim(): Promise<{ starts: Due[]; ends: Due[] }> {
    return db.transaction(async (tx) => {
      const pick = async (where: string) =>
        (
          await tx.query<Due>(
            `select o.id, o.client_id, o.name, o.mode, o.applied_start_at is not null as started,
                coalesce((select array_agg(d.door_id order by d.door_id) from door_override_doors d where d.override_id = o.id), '{}') as door_ids
           from door_overrides o where ${where} order by o.starts_at, o.id for update of o skip locked`,
          )
        ).rows;
      const ends = await pick('o.applied_end_at is null and o.ends_at <= now()');
      const starts = await pick('o.applied_start_at is null and o.starts_at <= now() and o.ends_at > now()');
      if (ends.length)
        await tx.query('update door_overrides set applied_end_at = now(), applied_start_at = coalesce(applied_start_at, now()) where id = any($1::int[])', [
          ends.map((e) => e.id),
        ]);
      if (starts.length) await tx.query('update door_overrides set applied_start_at = now() where id = any($1::int[])', [starts.map((e) => e.id)]);
      return { starts, ends };
    });
  }

  /** The door's own mode and whether another override in force still holds it in `mode`. */
  async function doorNow(doorId: number, except: number): Promise<{ mode: string; heldBy: string | null } | null> {
    const { rows } = await db.query<{ mode: string; held: string | null }>(
      `select d.mode, (select o.mode from door_overrides o join door_override_doors x on x.override_id = o.id
                        where x.door_id = d.id and o.id <> $2 and o.starts_at <= now() and o.ends_at > now()
                        order by o.starts_at desc, o.id desc limit 1) as held
         from doors d where d.id = $1`,
      [doorId, except],
    );
    return rows[0] ? { mode: rows[0].mode, heldBy: rows[0].held } : null;
  }

  async function move(o: Due, cmd: 'lock' | 'unlock', why: string) {
    for (const doorId of o.door_ids) {
      try {
        const d = await doorNow(doorId, o.id);
        if (!d || d.mode === 'locked-down') continue;
        await simulator.command(o.client_id, doorId, cmd, `${why} ${o.name}`, { force: true });
      } catch (e) {
        opts.log?.(`override ${o.id} door ${doorId}: ${e}`);
      }
    }
  }

  async function restore(o: Due) {
    for (const doorId of o.door_ids) {
      try {
        const d = await doorNow(doorId, o.id);
        if (!d || d.mode === 'locked-down') continue;
        // what holds the door now: another override in force, else its own mode
        const want = (d.heldBy ?? d.mode) === 'unlocked' ? 'unlock' : 'lock';
        await simulator.command(o.client_id, doorId, want, `the end of the override ${o.name}:`, { force: true });
      } catch (e) {
        opts.log?.(`override ${o.id} door ${doorId}: ${e}`);
      }
    }
  }

  async function once(): Promise<number> {
    const { starts, ends } = await claim();
    for (const o of starts) {
      if (o.mode === 'unlocked') await move(o, 'unlock', 'the override');
      else if (o.mode === 'locked') await move(o, 'lock', 'the override');
    }
    // an override that ended before it was ever started (a window in the past) changed nothing at the doors
    for (const o of ends) if (o.started && (o.mode === 'unlocked' || o.mode === 'locked')) await restore(o);
    return starts.length + ends.length;
  }

  return {
    tick() {
      // one tick at a time on this server
      running ??= once().finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      if (timer || everyMs <= 0) return;
      timer = setInterval(() => {
        void this.tick().catch((e) => opts.log?.(`overrides: ${e}`));
      }, everyMs);
      (timer as { unref?: () => void }).unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
