// The edge's doors (issue 47): every swipe is decided here, with the shared engine (access/engine.ts) over the
// snapshot held, online or not; the event is journaled (fsync'd) before the door acts. Offline, hard anti-passback
// goes soft (grant and log, as the issue says), and once the snapshot is older than its maxOfflineDays each door
// follows its degraded policy: keep deciding, facility code only, or locked. Who is where (anti-passback) is kept here
// from the snapshot's presence on and this edge's own grants. Readers are simulated for now (edge/osdp is the bus).
import { EVENT_CODES, eventLabel, fill } from '../contract';
import { decode } from '../contract/cardFormat';
import { DECISION_EVENT_CODES, DECISION_LABELS, type Decision } from '../contract/decision';
import { decide, presenceAfter, type Presented, type SwipeRequest, type ZoneState } from '../access/engine';
import { said, type Journal, type JournalEntry } from './journal';
import type { SnapshotStore } from './snapshot';

export interface SwipeInput {
  doorId: number;
  side?: 'entry' | 'exit';
  /** a card number as read, or (`bits`) the raw bits a reader sent, decoded with the door's card formats */
  card?: string;
  bits?: string;
  facilityCode?: number | null;
  pin?: string | null;
  at?: number;
}

export interface SwipeOutcome {
  decision: Decision;
  /** the journal entries written for it (the swipe, and an anti-passback alarm when soft anti-passback let through) */
  entries: JournalEntry[];
  /** how it was decided: from a current snapshot, offline within its age, or by the door's degraded policy */
  mode: 'online' | 'offline' | 'degraded';
}

export type Doors = ReturnType<typeof createDoors>;

export function createDoors(opts: {
  store: SnapshotStore;
  journal: Journal;
  online: () => boolean;
  now?: () => number;
  onEvent?: (e: JournalEntry) => void;
  /** a swipe was granted (journaled already): the door's strike is released */
  onGrant?: (doorId: number) => void;
}) {
  const { store, journal } = opts;
  const now = opts.now ?? Date.now;
  // who is where: this edge's own, changed in place (a grant records one entry, never a copy of everyone present)
  const presence = new Map<number, { zoneId: number | null; at: number }>();
  const state: ZoneState = { presence, openDoors: new Set(), lockedDown: new Set() };
  let stateOf = 0; // the snapshot version the presence was last taken from

  function zoneState(): ZoneState {
    const held = store.held;
    if (held && held.version !== stateOf) {
      // the server's presence, then what this edge let happen since (newer wins)
      for (const [id, zoneId, at] of held.snapshot.presence) {
        const mine = presence.get(id);
        if (!mine || mine.at < at) presence.set(id, { zoneId, at });
      }
      stateOf = held.version;
    }
    return state;
  }

  /** What a swipe comes to over the snapshot held: the decision, its mode, what to journal and who moves where. Changes
   *  nothing (but the presence taken from a new snapshot, as any swipe after it would). */
  function resolve(s: SwipeInput) {
    const at = s.at ?? now();
    const held = store.held;
    const online = opts.online();
    const doorFormats = held?.snapshot.doors.find((d) => d.id === s.doorId)?.formatIds ?? [];
    const read = s.bits !== undefined ? cardOf(s.bits, doorFormats, held) : { card: s.card ?? '', facility: s.facilityCode ?? null };
    const presented: Presented =
      s.bits !== undefined ? { kind: 'raw', bits: s.bits } : { kind: 'card', number: s.card ?? '', facilityCode: s.facilityCode ?? null };
    const req: SwipeRequest = { doorId: s.doorId, side: s.side ?? 'entry', at, presented, pin: s.pin };
    let decision: Decision;
    let mode: SwipeOutcome['mode'] = online ? 'online' : 'offline';
    let moved: ReturnType<typeof presenceAfter> = null;
    if (!held) {
      decision = denied('door-locked-down', 'door-mode', 'this controller has no snapshot yet: it lets nobody in');
      mode = 'degraded';
    } else {
      const door = held.snapshot.doors.find((d) => d.id === s.doorId);
      const tooOld = !online && at - held.freshAt > held.snapshot.maxOfflineDays * 86_400_000;
      if (tooOld && door && door.degraded !== 'keep') {
        mode = 'degraded';
        const days = held.snapshot.maxOfflineDays;
        if (door.degraded === 'locked') decision = denied('door-locked-down', 'door-mode', `${door.name}: offline for more than ${days} days, locked`);
        else {
          const known = read.facility != null && held.snapshot.credentials.some((c) => c.facilityCode === read.facility);
          decision = known
            ? {
                granted: true,
                reason: 'granted',
                identityId: null,
                credentialId: null,
                accessGroupIds: [],
                alarm: null,
                steps: [{ check: 'credential', ok: true, detail: `${door.name}: offline for more than ${days} days, facility code ${read.facility} only` }],
              }
            : denied('unknown-credential', 'credential', `${door.name}: offline for more than ${days} days, facility code only`);
        }
      } else {
        if (tooOld) mode = 'degraded';
        decision = decide(online ? held.index : held.softIndex, zoneState(), req);
        moved = presenceAfter(held.index, req, decision);
      }
    }
    const door = held?.snapshot.doors.find((d) => d.id === s.doorId);
    const doorName = door?.name ?? `door ${s.doorId}`;
    const card = read.card;
    const who = decision.identityId === null ? null : (held?.index.identities.get(decision.identityId)?.name ?? null);
    const base = { at, offline: !online, snapshotVersion: held?.version ?? 0 };
    const toJournal: Omit<JournalEntry, 'seq'>[] = [
      {
        ...base,
        eventCode: DECISION_EVENT_CODES[decision.reason],
        sourceId: `reader-${s.doorId}`,
        sourceName: `${doorName} reader`,
        pointId: `reader-${s.doorId}`,
        pointName: `${doorName} reader`,
        ...said(
          fill('event.swipeCard', '{event}: {who} (card {card}) at {door}', {
            event: DECISION_LABELS[decision.reason],
            who: who ?? 'unknown card',
            card,
            door: doorName,
          }),
        ),
        decided: {
          identityId: decision.identityId,
          decision: decision.granted ? 'granted' : 'denied',
          reason: decision.reason,
          card,
          doorId: s.doorId,
          side: req.side ?? 'entry',
          // the chain as this engine ran it over the snapshot held: the server's Why? explains the decision from it
          // (with each detail's key and values: the console says it in the operator's language)
          steps: decision.steps.slice(0, 16).map((x) => ({
            check: x.check,
            ok: x.ok,
            detail: x.detail.slice(0, 300),
            ...(x.code ? { code: x.code } : {}),
            ...(x.values ? { values: x.values } : {}),
          })),
          ...(held ? { snapshotBuiltAt: held.builtAt } : {}),
        },
      },
    ];
    if (decision.alarm === 'anti-passback') {
      const apb = eventLabel(EVENT_CODES.antiPassbackViolation);
      toJournal.push({
        ...base,
        eventCode: EVENT_CODES.antiPassbackViolation,
        sourceId: `reader-${s.doorId}`,
        sourceName: `${doorName} reader`,
        pointId: `apb-${s.doorId}`,
        pointName: `${doorName} anti-passback`,
        ...said(
          online
            ? fill('event.swipeCard', '{event}: {who} (card {card}) at {door}', { event: apb, who: who ?? 'unknown', card, door: doorName })
            : fill('event.antiPassbackSoftOffline', '{event}: {who} (card {card}) at {door} (offline: anti-passback is soft)', {
                event: apb,
                who: who ?? 'unknown',
                card,
                door: doorName,
              }),
        ),
      });
    }
    return { decision, mode, toJournal, moved };
  }

  function swipe(s: SwipeInput): SwipeOutcome {
    const { decision, mode, toJournal, moved } = resolve(s);
    const entries = toJournal.map((e) => journal.append(e));
    // journaled first, then who is where (in place: the presence map is this edge's own, and copying it per grant grows
    // with everyone present), then the door acts: a grant releases its strike for its unlock time (edge/doorIo.ts)
    if (moved) presence.set(moved[0], moved[1]);
    for (const e of entries) opts.onEvent?.(e);
    if (decision.granted) opts.onGrant?.(s.doorId);
    return { decision, entries, mode };
  }

  /**
   * The swipe's path run once over the snapshot held, a known card and an unknown one at its first door, its results
   * thrown away (nothing journaled, nobody moved): when a snapshot is taken, not in the first card's time. The first
   * swipe after a start was the slowest of a run (20 ms quiet, 70-250 ms under load, against p50 under 1 ms): the
   * engine's and the sentences' code compiled, the time zone's rules loaded, the server's presence merged.
   */
  function warm() {
    const held = store.held;
    const door = held?.snapshot.doors[0];
    if (!held || !door) return;
    for (const card of [held.snapshot.credentials[0]?.number ?? '0', '\u0000warm-up']) JSON.stringify(resolve({ doorId: door.id, card }).toJournal);
  }

  return { swipe, zoneState, warm };
}

/** The card number raw bits decode to with the door's formats (what the server's "Why?" is given), else the bits. */
function cardOf(bits: string, formatIds: readonly number[], held: SnapshotStore['held']): { card: string; facility: number | null } {
  const formats = formatIds.map((id) => held?.index.formats.get(id)).filter((f): f is NonNullable<typeof f> => !!f);
  const r = decode(formats, bits);
  return r.ok ? { card: String(r.card), facility: r.facility } : { card: `raw ${bits}`.slice(0, 64), facility: null };
}

function denied(reason: Decision['reason'], check: Decision['steps'][number]['check'], detail: string): Decision {
  return { granted: false, reason, identityId: null, credentialId: null, accessGroupIds: [], alarm: null, steps: [{ check, ok: false, detail }] };
}

/** Simulated readers: now and then one of the snapshot's readers is presented a card (mostly known ones). */
export function simulateReaders(
  doors: Doors,
  store: SnapshotStore,
  opts: { everyMs?: number; random?: () => number; log?: (m: string) => void; walkThrough?: (doorId: number) => void } = {},
) {
  const random = opts.random ?? Math.random;
  const every = opts.everyMs ?? 3000;
  const pick = <T>(l: readonly T[]) => l[Math.floor(random() * l.length)];
  const timer = setInterval(() => {
    const s = store.held?.snapshot;
    if (!s || !s.readers.length) return;
    const reader = pick(s.readers);
    const card = s.credentials.length && random() < 0.8 ? pick(s.credentials).number : `9${Math.floor(random() * 1e8)}`;
    const out = doors.swipe({ doorId: reader.doorId, side: reader.direction, card });
    // a person let in walks through: the door's contact opens and closes (edge/doorIo.ts walkThrough)
    if (out.decision.granted) opts.walkThrough?.(reader.doorId);
    opts.log?.(
      `${reader.name}: card ${card} ${out.decision.granted ? 'granted' : `denied (${out.decision.reason})`}${out.mode === 'online' ? '' : ` [${out.mode}]`}`,
    );
  }, every);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
