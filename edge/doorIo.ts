// The edge's door I/O (issue 47): each door's strike, simulated where there is no hardware, driven by the server's
// door commands over the link (lock, unlock, open briefly: the console's door actions, a lockdown, a threat level, an
// override, an unlock schedule, a logical block). A command is checked against the strike's state as the server's
// own doors are (contract/doors.ts checkDoorCommand, unless forced), journaled (fsync'd) before the strike moves, and
// answered with the event's journal number and the strike's state; "open briefly" relocks by itself after
// DOOR_MOMENTARY_MS unless a later command took over. A door that is not in this controller's snapshot is refused.
// The door's mode for its readers' steady LED colour (modeOf): locked down, held by a threat level, amber while the
// link is down, green while unlocked, red otherwise.
import { DOOR_MOMENTARY_MS, EVENT_CODES, checkDoorCommand, eventLabel, type EdgeCommandResult, type EdgeDoorCommand } from '../contract';
import type { Journal, JournalEntry } from './journal';
import type { Mode } from './osdp/bus';
import type { SnapshotStore } from './snapshot';

export type StrikeState = 'locked' | 'unlocked' | 'unlocked-briefly';
/** The door mode a reader shows: the bus's modes, and amber while the edge decides without the server. */
export type ReaderMode = Mode | 'offline';

export type DoorIo = ReturnType<typeof createDoorIo>;

export function createDoorIo(opts: {
  store: SnapshotStore;
  journal: Journal;
  online: () => boolean;
  momentaryMs?: number;
  now?: () => number;
  /** a journaled event (sent up) */
  onEvent?: (e: JournalEntry) => void;
  /** a door's strike moved (its readers' colour may change) */
  onChange?: (doorId: number) => void;
}) {
  const now = opts.now ?? Date.now;
  const momentaryMs = opts.momentaryMs ?? (Number(process.env.DOOR_MOMENTARY_MS) || DOOR_MOMENTARY_MS);
  const strikes = new Map<number, { state: StrikeState; relock: ReturnType<typeof setTimeout> | null }>();
  const doorOf = (doorId: number) => opts.store.held?.snapshot.doors.find((d) => d.id === doorId);

  /** The strike's state: as the last command left it, else as the door's mode leaves a closed door. */
  function state(doorId: number): StrikeState {
    return strikes.get(doorId)?.state ?? (doorOf(doorId)?.mode === 'unlocked' ? 'unlocked' : 'locked');
  }

  function journal(doorId: number, name: string, code: number, extra: string): JournalEntry {
    const held = opts.store.held;
    const e = opts.journal.append({
      at: now(),
      offline: !opts.online(),
      snapshotVersion: held?.version ?? 0,
      eventCode: code,
      sourceId: `door-${doorId}`,
      sourceName: name,
      pointId: `output-${doorId}`,
      pointName: name,
      message: `${eventLabel(code)} at ${name}${extra}`.slice(0, 500),
    });
    opts.onEvent?.(e);
    return e;
  }

  function set(doorId: number, s: StrikeState, relock: ReturnType<typeof setTimeout> | null) {
    const before = strikes.get(doorId);
    if (before?.relock) clearTimeout(before.relock);
    strikes.set(doorId, { state: s, relock });
    opts.onChange?.(doorId);
  }

  /** A door command from the server: applied, journaled and answered; refused (nothing changed) when it makes no sense. */
  function command(c: EdgeDoorCommand): EdgeCommandResult {
    const door = doorOf(c.doorId);
    if (!door) return { type: 'result', id: c.id, ok: false, message: `door ${c.doorId} is not a door of this controller`, seq: 0 };
    const check = checkDoorCommand(state(c.doorId), c.command);
    if (!check.allowed && !c.force) return { type: 'result', id: c.id, ok: false, message: `${door.name} ${check.reason}`, seq: 0, state: state(c.doorId) };
    const code = c.command === 'lock' ? EVENT_CODES.doorLocked : c.command === 'unlock' ? EVENT_CODES.doorUnlocked : EVENT_CODES.doorMomentaryUnlock;
    const e = journal(c.doorId, door.name, code, ` by ${c.actor}${check.allowed ? '' : ' (forced)'}`);
    if (c.command === 'momentary-unlock') {
      const t = setTimeout(() => {
        const s = strikes.get(c.doorId);
        if (s?.relock !== t) return; // a later command took over
        const name = doorOf(c.doorId)?.name ?? door.name;
        journal(c.doorId, name, EVENT_CODES.doorLocked, ' (relocked)');
        set(c.doorId, 'locked', null);
      }, momentaryMs);
      t.unref?.();
      set(c.doorId, 'unlocked-briefly', t);
    } else set(c.doorId, c.command === 'lock' ? 'locked' : 'unlocked', null);
    return { type: 'result', id: c.id, ok: true, message: e.message, seq: e.seq, state: state(c.doorId) };
  }

  /** What a reader of the door shows steadily: locked down, a threat level in force, offline, unlocked, or normal. */
  function modeOf(doorId: number): ReaderMode {
    const door = doorOf(doorId);
    if (!door) return opts.online() ? 'normal' : 'offline';
    if (door.mode === 'locked-down') return 'lockdown';
    const t = door.threat;
    const at = now();
    if (t && t.mode !== 'card' && at >= t.from && (t.until === null || at < t.until)) return 'threat';
    if (!opts.online()) return 'offline';
    const override = door.overrides.find((o) => at >= o.from && at < o.to);
    if (override?.mode === 'locked') return 'locked';
    if (state(doorId) !== 'locked' || override?.mode === 'unlocked') return 'unlocked';
    return 'normal';
  }

  return {
    command,
    state,
    modeOf,
    stop() {
      for (const s of strikes.values()) if (s.relock) clearTimeout(s.relock);
    },
  };
}
