// The edge's door I/O (issue 47): each door's strike, simulated where there is no hardware, driven by the server's
// door commands over the link (lock, unlock, open briefly: the console's door actions, a lockdown, a threat level, an
// override, an unlock schedule, a logical block). A command is checked against the strike's state as the server's
// own doors are (contract/doors.ts checkDoorCommand, unless forced), journaled (fsync'd) before the strike moves, and
// answered with the event's journal number and the strike's state; "open briefly" relocks by itself after
// DOOR_MOMENTARY_MS unless a later command took over. A door that is not in this controller's snapshot is refused.
// A granted swipe pulses the door's strike for its unlock time (its strike output's pulse, Configure / Hardware); the
// door's inputs (its contact and exit buttons, simulated: `input(id, active)`) are watched: an exit button pressed is a
// request to exit (journaled as Input active on its point, then the strike is pulsed: free egress, whatever the door's
// mode); the contact opening while the strike is locked is Door forced open (6001); open longer than the door's
// held-open time after it was let open is Door held open (6002); closing after either is Door closed (6000), which
// returns the alarm to normal. Each is journaled before anything else happens, like every edge event.
// Where a strike or input is wired to a board of the controller's OSDP bus (the snapshot's `at`), edge/osdpIo.ts turns
// the strike's moves (onChange, state, relockIn) into osdp_OUT and the board's input states into `circuit`: the door's
// logic stays here, whatever drives it.
// The door's mode for its readers' steady LED colour (modeOf): locked down, held by a threat level, amber while the
// link is down, green while unlocked, red otherwise.
import {
  DOOR_MOMENTARY_MS,
  EVENT_CODES,
  checkDoorCommand,
  edgeAnswer,
  eventLabel,
  fill,
  sentenceValue,
  type EdgeCommandResult,
  type EdgeDoorCommand,
  type Sentence,
} from '../contract';
import { said, type Journal, type JournalEntry } from './journal';
import type { Mode } from './osdp/bus';
import type { SnapshotStore } from './snapshot';

export type StrikeState = 'locked' | 'unlocked' | 'unlocked-briefly';
/** The door mode a reader shows: the bus's modes, and amber while the edge decides without the server. */
export type ReaderMode = Mode | 'offline';

export type DoorIo = ReturnType<typeof createDoorIo>;
/** A simulated walk through a granted door: the contact opens this long after the grant (at most half the strike's
 *  unlock time), and closes this long after (at most half the door's held-open time). */
const WALK_OPEN_MS = 500;
const WALK_THROUGH_MS = 2_000;
/** An input's line as the I/O board reads it: closed or open; shorted, cut or of no known resistance (a fault: tampered
 *  with), which only a supervised line tells apart (OSDP 2.2's ISTATR 2, 3 and 4, edge/osdpIo.ts). */
export type CircuitReading = 'closed' | 'open' | 'short' | 'cut' | 'fault';

/** What an input change did at its door: the events journaled for it (none for an ordinary opening or closing). */
export interface InputOutcome {
  ok: boolean;
  message: string;
  entries: JournalEntry[];
}

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
  /** each door's strike as commands and pulses left it; `until`: when a brief unlock relocks by itself */
  const strikes = new Map<number, { state: StrikeState; relock: ReturnType<typeof setTimeout> | null; until: number | null }>();
  /** each door's contact: open or not, the alarm it is in (until it closes), the held-open timer running */
  const contacts = new Map<number, { open: boolean; alarm: 'forced' | 'held' | null; held: ReturnType<typeof setTimeout> | null }>();
  const doorOf = (doorId: number) => opts.store.held?.snapshot.doors.find((d) => d.id === doorId);

  /** The strike's state: as the last command left it, else as the door's mode leaves a closed door. */
  function state(doorId: number): StrikeState {
    return strikes.get(doorId)?.state ?? (doorOf(doorId)?.mode === 'unlocked' ? 'unlocked' : 'locked');
  }

  /** An event of the door journaled (and sent up): its words a sentence with its key and values (issue 48), made by
   *  `words` from the event's label and the door's name. */
  function journal(
    doorId: number,
    name: string,
    code: number,
    words: (v: { event: string; door: string }) => Sentence,
    point: { id: string; name: string } = { id: `output-${doorId}`, name },
  ): JournalEntry {
    const held = opts.store.held;
    const e = opts.journal.append({
      at: now(),
      offline: !opts.online(),
      snapshotVersion: held?.version ?? 0,
      eventCode: code,
      sourceId: `door-${doorId}`,
      sourceName: name,
      pointId: point.id,
      pointName: point.name,
      ...said(words({ event: eventLabel(code), door: name })),
    });
    opts.onEvent?.(e);
    return e;
  }

  function set(doorId: number, s: StrikeState, relock: ReturnType<typeof setTimeout> | null, forMs = 0) {
    const before = strikes.get(doorId);
    if (before?.relock) clearTimeout(before.relock);
    strikes.set(doorId, { state: s, relock, until: relock ? now() + forMs : null });
    opts.onChange?.(doorId);
  }

  /** A door command from the server: applied, journaled and answered; refused (nothing changed) when it makes no sense. */
  function command(c: EdgeDoorCommand): EdgeCommandResult {
    const door = doorOf(c.doorId);
    if (!door) return edgeAnswer(c.id, false, fill('edge.notThisDoor', 'door {id} is not a door of this controller', { id: c.doorId }));
    const check = checkDoorCommand(state(c.doorId), c.command);
    // said as the server's own doors say it (server/simulator/strike.ts): its key, the door's name as a value
    if (!check.allowed && !c.force)
      return edgeAnswer(c.id, false, { message: `${door.name} ${check.reason}`, code: check.code, values: { door: door.name } }, { state: state(c.doorId) });
    const code = c.command === 'lock' ? EVENT_CODES.doorLocked : c.command === 'unlock' ? EVENT_CODES.doorUnlocked : EVENT_CODES.doorMomentaryUnlock;
    // the actor as the server sent it: a person's name, or what acted as its sentence, a keyed value (as the server's
    // own door events say it: contract sentenceValue)
    const e = journal(c.doorId, door.name, code, (v) =>
      check.allowed
        ? fill('event.atDoorBy', '{event} at {door} by {actor}', { ...v, ...sentenceValue('actor', c.actor) })
        : fill('event.atDoorByForced', '{event} at {door} by {actor} (forced)', { ...v, ...sentenceValue('actor', c.actor) }),
    );
    if (c.command === 'momentary-unlock') {
      const t = setTimeout(() => {
        const s = strikes.get(c.doorId);
        if (s?.relock !== t) return; // a later command took over
        const name = doorOf(c.doorId)?.name ?? door.name;
        journal(c.doorId, name, EVENT_CODES.doorLocked, (v) => fill('event.atDoorRelocked', '{event} at {door} (relocked)', v));
        set(c.doorId, 'locked', null);
      }, momentaryMs);
      t.unref?.();
      set(c.doorId, 'unlocked-briefly', t, momentaryMs);
    } else set(c.doorId, c.command === 'lock' ? 'locked' : 'unlocked', null);
    return { type: 'result', id: c.id, ok: true, message: e.message, seq: e.seq, state: state(c.doorId) };
  }

  /**
   * The door's strike released for its unlock time (a granted swipe, a request to exit): a strike already unlocked by a
   * command or the door's mode stays so; one unlocked briefly is given the time again. It relocks by itself, silently
   * (the grant or the request to exit is the door's record), unless a later command took over.
   */
  function pulse(doorId: number): StrikeState {
    const door = doorOf(doorId);
    if (!door || state(doorId) === 'unlocked') return state(doorId);
    const ms = door.strike?.unlockMs ?? momentaryMs;
    const t = setTimeout(() => {
      if (strikes.get(doorId)?.relock !== t) return; // a later command took over
      set(doorId, 'locked', null);
    }, ms);
    t.unref?.();
    set(doorId, 'unlocked-briefly', t, ms);
    return state(doorId);
  }

  /** inputs whose supervised line is shorted or cut now (a tamper raised, until the line reads right again) */
  const tampered = new Set<number>();

  /**
   * What an I/O board reads on an input's line (its circuit): closed or open, and on a supervised line (end-of-line
   * resistors) shorted or cut as well. Read as the input is wired (Configure / Hardware, in the snapshot): a normally
   * closed input is active when its circuit opens, a normally open one when it closes. A supervised line shorted or cut
   * is Input tamper (2003, an alarm on the input's point) and says nothing of the door; read right again it is Input
   * idle (2000), which returns that alarm to normal, and the reading counts again. On a line that is not supervised a
   * short reads as closed and a cut as open (the board cannot tell them apart), as on real panels, and a fault (a
   * resistance of no known state) as nothing: the door's state is not known from it.
   */
  function circuit(inputId: number, reading: CircuitReading): InputOutcome {
    const door = opts.store.held?.snapshot.doors.find((d) => d.inputs.some((i) => i.id === inputId));
    const inp = door?.inputs.find((i) => i.id === inputId);
    if (!door || !inp) return { ok: false, message: `input ${inputId} is not a door contact or exit button of this controller`, entries: [] };
    const point = { id: `input-${inputId}`, name: inp.name };
    const fault = reading === 'short' || reading === 'cut' || reading === 'fault';
    if (fault && inp.supervised) {
      if (tampered.has(inputId)) return { ok: true, message: `${inp.name}: line ${reading} already`, entries: [] };
      tampered.add(inputId);
      const e = journal(
        door.id,
        door.name,
        EVENT_CODES.inputTamper,
        (v) =>
          reading === 'short'
            ? fill('event.inputLineShorted', '{event} at {door}: {input} line shorted (supervised)', { ...v, input: inp.name })
            : reading === 'cut'
              ? fill('event.inputLineCut', '{event} at {door}: {input} line cut (supervised)', { ...v, input: inp.name })
              : fill('event.inputLineFault', '{event} at {door}: {input} line fault (supervised)', { ...v, input: inp.name }),
        point,
      );
      return { ok: true, message: e.message, entries: [e] };
    }
    // a fault says nothing of open or closed on a line that is not supervised: the state is not known until it reads again
    if (reading === 'fault') return { ok: true, message: `${inp.name}: line fault, its state unknown (not supervised)`, entries: [] };
    const entries: JournalEntry[] = [];
    if (tampered.delete(inputId))
      entries.push(
        journal(
          door.id,
          door.name,
          EVENT_CODES.inputIdle,
          (v) => fill('event.inputLineRestored', '{event} at {door}: {input} line restored', { ...v, input: inp.name }),
          point,
        ),
      );
    const closed = reading === 'closed' || reading === 'short';
    const active = (inp.normallyClosed ?? true) ? !closed : closed;
    const out = input(inputId, active);
    return { ...out, message: entries.length && !out.entries.length ? entries[0].message : out.message, entries: [...entries, ...out.entries] };
  }

  /**
   * A door input changed (the contact: active is open; an exit button: active is pressed), as the I/O board reports it
   * once read as wired (`circuit`), simulated here. Refused, nothing journaled, for an input that is not a contact or exit button of this controller.
   */
  function input(inputId: number, active: boolean): InputOutcome {
    const door = opts.store.held?.snapshot.doors.find((d) => d.inputs.some((i) => i.id === inputId));
    const inp = door?.inputs.find((i) => i.id === inputId);
    if (!door || !inp) return { ok: false, message: `input ${inputId} is not a door contact or exit button of this controller`, entries: [] };
    const point = { id: `input-${inputId}`, name: inp.name };
    if (inp.kind === 'exit-button') {
      if (!active) return { ok: true, message: `${inp.name} released`, entries: [] };
      // journaled first, then the strike releases
      const e = journal(
        door.id,
        door.name,
        EVENT_CODES.inputActive,
        (v) => fill('event.requestToExit', '{event} at {door}: request to exit ({input})', { ...v, input: inp.name }),
        point,
      );
      pulse(door.id);
      return { ok: true, message: e.message, entries: [e] };
    }
    const c = contacts.get(door.id) ?? { open: false, alarm: null, held: null };
    contacts.set(door.id, c);
    if (active === c.open) return { ok: true, message: `${door.name} is ${active ? 'open' : 'closed'} already`, entries: [] };
    c.open = active;
    const doorPoint = { id: `door-${door.id}`, name: door.name };
    if (!active) {
      if (c.held) clearTimeout(c.held);
      c.held = null;
      if (!c.alarm) return { ok: true, message: `${door.name} closed`, entries: [] };
      c.alarm = null;
      const e = journal(door.id, door.name, EVENT_CODES.doorClosed, (v) => fill('event.atDoor', '{event} at {door}', v), doorPoint); // the forced or held alarm returns to normal
      return { ok: true, message: e.message, entries: [e] };
    }
    const strike = state(door.id);
    if (strike === 'locked') {
      // opened with no grant, no request to exit and no command that unlocked it
      c.alarm = 'forced';
      const e = journal(
        door.id,
        door.name,
        EVENT_CODES.doorForcedOpen,
        (v) => fill('event.doorOpenedAt', '{event} at {door} ({input})', { ...v, input: inp.name }),
        doorPoint,
      );
      return { ok: true, message: e.message, entries: [e] };
    }
    if (strike === 'unlocked-briefly') {
      // let open: it may stand open for the door's held-open time
      const t = setTimeout(() => {
        if (c.held !== t || !c.open) return;
        c.held = null;
        c.alarm = 'held';
        journal(
          door.id,
          door.name,
          EVENT_CODES.doorHeldOpen,
          (v) => fill('event.doorHeldOpenFor', '{event} at {door} (open longer than {seconds} s)', { ...v, seconds: Math.round(door.heldOpenMs / 1000) }),
          doorPoint,
        );
      }, door.heldOpenMs);
      t.unref?.();
      c.held = t;
    }
    return { ok: true, message: `${door.name} opened`, entries: [] };
  }

  /**
   * The snapshot changed: a door it holds locked (locked down, or a threat level in force that locks it) whose strike a
   * command left unlocked is locked now, journaled. So a lockdown or threat level set while this edge was offline (the
   * server could not command the door) reaches the strike with the snapshot when the link is back.
   */
  function enforce(): JournalEntry[] {
    const out: JournalEntry[] = [];
    const at = now();
    for (const door of opts.store.held?.snapshot.doors ?? []) {
      const t = door.threat;
      const why =
        door.mode === 'locked-down'
          ? (v: { event: string; door: string }) => fill('event.lockedByRulesLockdown', '{event} at {door} (locked down, as the server’s rules say)', v)
          : t && t.mode === 'locked' && at >= t.from && (t.until === null || at < t.until)
            ? (v: { event: string; door: string }) =>
                fill('event.lockedByRulesThreat', '{event} at {door} (threat level {level}, as the server’s rules say)', {
                  ...v,
                  level: t.name,
                })
            : null;
      const s = strikes.get(door.id);
      if (!why || !s || s.state === 'locked') continue;
      out.push(journal(door.id, door.name, EVENT_CODES.doorLocked, why));
      set(door.id, 'locked', null);
    }
    return out;
  }

  /** the timers of simulated walks through doors (stopped with the rest) */
  const walks = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      walks.delete(t);
      fn();
    }, ms);
    t.unref?.();
    walks.add(t);
  };

  /**
   * A simulated person walking through a door just granted (the demo's simulated readers, `--readers`): its contact
   * opens while the strike is released and closes again, as at a real door, so the door's state moves, and no alarm
   * comes of it: opened only while the strike is still released (else the person did not go: a door opened locked is
   * forced open), closed within half the door's held-open time. A contact wired to a board is the board's to report.
   */
  function walkThrough(doorId: number): boolean {
    const door = doorOf(doorId);
    const contact = door?.inputs.find((i) => i.kind === 'door-contact' && !i.at);
    if (!door || !contact || contacts.get(doorId)?.open) return false;
    const unlockMs = door.strike?.unlockMs ?? momentaryMs;
    later(Math.min(WALK_OPEN_MS, unlockMs / 2), () => {
      if (state(doorId) === 'locked' || contacts.get(doorId)?.open) return;
      input(contact.id, true);
      later(Math.min(WALK_THROUGH_MS, (doorOf(doorId) ?? door).heldOpenMs / 2), () => input(contact.id, false));
    });
    return true;
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
    pulse,
    input,
    circuit,
    enforce,
    state,
    /** how long until a briefly unlocked strike relocks by itself (ms; null: it is not unlocked briefly) */
    relockIn(doorId: number): number | null {
      const until = strikes.get(doorId)?.until;
      return until === null || until === undefined ? null : Math.max(0, until - now());
    },
    /** whether the door's contact is open now */
    isOpen: (doorId: number) => contacts.get(doorId)?.open ?? false,
    modeOf,
    walkThrough,
    stop() {
      for (const s of strikes.values()) if (s.relock) clearTimeout(s.relock);
      for (const c of contacts.values()) if (c.held) clearTimeout(c.held);
      for (const t of walks) clearTimeout(t);
      walks.clear();
    },
  };
}
