// Overrides at the doors (issue 12): an unlocking override unlocks its doors when it starts and locks them again when
// it ends; a locking one locks them at its start (and gives an unlocked door back at its end). The access engine
// decides swipes by the override in force on its own (access/engine.ts overrideAt); this clock moves the
// locks. Each start and end happens once, on one server: the rows are marked (applied_start_at / applied_end_at) in
// the same transaction that claims them (`for update skip locked`). A locked-down door is left to the lockdown.
import type { Db } from '../db/db';
import { fill } from '../../contract';
import type { HardwarePort } from '../doors/port';
import { claimDueOverrides, doorModeAndHold, type DueOverride } from '../db/queries/overrides';

type Due = DueOverride;

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

  const claim = () => claimDueOverrides(db);

  /** The door's own mode and whether another override in force still holds it in `mode`. */
  async function doorNow(doorId: number, except: number): Promise<{ mode: string; heldBy: string | null } | null> {
    const row = await doorModeAndHold(db, doorId, except);
    return row ? { mode: row.mode, heldBy: row.held } : null;
  }

  async function move(o: Due, cmd: 'lock' | 'unlock') {
    for (const doorId of o.door_ids) {
      try {
        const d = await doorNow(doorId, o.id);
        if (!d || d.mode === 'locked-down') continue;
        await simulator.command(o.client_id, doorId, cmd, fill('actor.override', 'the override {name}', { name: o.name }), { force: true });
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
        await simulator.command(o.client_id, doorId, want, fill('actor.overrideEnded', 'the end of the override {name}:', { name: o.name }), {
          force: true,
        });
      } catch (e) {
        opts.log?.(`override ${o.id} door ${doorId}: ${e}`);
      }
    }
  }

  async function once(): Promise<number> {
    const { starts, ends } = await claim();
    for (const o of starts) {
      if (o.mode === 'unlocked') await move(o, 'unlock');
      else if (o.mode === 'locked') await move(o, 'lock');
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
