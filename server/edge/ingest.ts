// Gatehouse Edge's events through the device interface (issue 47, server/http/ingest.ts): a controller's key sends
// events of its own controller only; events with an `edge` part carry the controller's journal sequence number and
// are stored once and in order: a number already stored is skipped (a resend after a reconnect is not a duplicate),
// a gap refuses that message and those after it (the edge sends them again from the gap). One batch per controller
// at a time; the last number stored is kept in edge_controllers (migration 132). A swipe decided at the edge is
// stored as a decided swipe (identity, decision, reason, what was presented, when it happened and whether offline),
// with the chain of checks the edge's engine ran over its snapshot (its version, when it was built): the server's
// "Why?" explains an edge's decision from it, beside the same swipe decided again with today's rules. One bad event
// holds back no other (docs/EDGE.md, server/edge/staleNames.test.ts): refused naming its field, its number used when it
// is the next; a swipe whose person or door is not the client's (deleted since the edge decided, another client's or
// nobody's, which the client is never told apart: server/edge/othersNames.test.ts) is stored as the door saw it,
// attributed to no one; what an event moves is never later than the server's clock.
import type { FastifyRequest } from 'fastify';
import { DOOR_STATUSES, EVENT_CODES, fill, type DeviceBatchResult, type DeviceEvent, type Event, type Violation } from '../../contract';
import type { Db } from '../db/db';
import { controllerOfKey, doorZones, edgeAheadSeqs, edgeLastSeq, noteEdgeLastSeq, ownControllerIds, ownIdentityIds } from '../db/queries/edgeIngest';
import type { EventInput } from '../monitor/pipeline';
import type { NumberedRefusal } from './refused';

type Rejected = DeviceBatchResult['rejected'];

/** How long a batch whose first number is ahead of the last stored waits for the batch before it (two in flight). */
const ORDER_WAIT_MS = 2_000;
/** The most events a batch of live events has (an edge online sends each swipe as it comes: one or a few). */
const LIVE_BATCH_MAX = 20;
type Stored = { input: EventInput; event: Event };
/** An edge's part of a stored swipe (events.swipe.edge). */
/** What a stored swipe keeps of its edge part; `live`: sent at once beside the backlog, stored ahead of it (the live lane). */
type StoredEdgeSwipe = { seq: number; offline: boolean; snapshotVersion: number; live?: true; steps?: unknown[]; snapshotBuiltAt?: string };

/** The door status an edge's door event means (as the simulator's doors have it, server/simulator/hardware.ts). */
const DOOR_STATUS_OF: Partial<Record<number, string>> = {
  [EVENT_CODES.doorForcedOpen]: DOOR_STATUSES.forcedOpen,
  [EVENT_CODES.doorHeldOpen]: DOOR_STATUSES.heldOpen,
  [EVENT_CODES.doorClosed]: DOOR_STATUSES.closed,
  [EVENT_CODES.doorLocked]: DOOR_STATUSES.locked,
  [EVENT_CODES.doorUnlocked]: DOOR_STATUSES.unlocked,
  [EVENT_CODES.doorMomentaryUnlock]: DOOR_STATUSES.unlockedBriefly,
};

export interface EdgeAdmission {
  /** the messages to store, in the order sent */
  good: { index: number; e: DeviceEvent }[];
  rejected: Rejected;
  duplicates: number;
  /** a journal's backlog (an event journaled offline, or more than LIVE_BATCH_MAX): the pipeline's resync lane */
  resync: boolean;
  /** how many of them are stored ahead of their controller's last number (the live lane) */
  ahead: number;
  /** the events to store are in the pipeline's queue (a batch behind them may be admitted now) */
  queued(): void;
  /** after the store: the controllers' last sequence numbers move on (stored: each event stored with what it was made
   *  from; null: the store failed) */
  done(stored: Stored[] | null): Promise<{ edgeLastSeq?: number }>;
}

export type EdgeIngest = ReturnType<typeof createEdgeIngest>;

/** ms since the epoch as ISO text, the last one converted kept (no Date and string made again for the same moment). */
function isoCache(): (at: number) => string {
  let ms = NaN;
  let text = '';
  return (at) => {
    if (at !== ms) {
      ms = at;
      text = new Date(at).toISOString();
    }
    return text;
  };
}

export function createEdgeIngest(db: Db) {
  /** controller id → the last sequence number stored (read once, then kept) */
  const lastSeq = new Map<number, number>();
  /** controller id → the numbers stored ahead of its last one, or on their way to be (the live lane; read with lastSeq) */
  const aheadOf = new Map<number, Set<number>>();
  /** `${controller}:${seq}` → who waits for that event to be stored (a door command's answer) */
  const waiting = new Map<string, (e: Event) => void>();
  /** the door events stored lately (the edge's upload may store one before its command's answer arrives) */
  const recent = new Map<string, Event>();

  /** where each granted swipe admitted lets its person go (anti-passback): written with the event (EventInput.presence) */
  const presenceOf = new WeakMap<DeviceEvent, NonNullable<EventInput['presence']>>();
  /** the decided swipes admitted whose person is not the client's (deleted since the edge decided, another client's or
   *  nobody's): stored as the door saw them, attributed to no one */
  const unattributed = new WeakSet<DeviceEvent>();
  /** the numbered refusals (NumberedRefusal) as they go through admit beside the messages, with their violations */
  const invalidOf = new WeakMap<DeviceEvent, Violation[]>();

  /** The stored event of a controller's journal number, once it is stored (a door command waits for its event). */
  function stored(controllerId: number, seq: number, ms: number): Promise<Event | null> {
    const k = `${controllerId}:${seq}`;
    const known = recent.get(k);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        waiting.delete(k);
        resolve(null);
      }, ms);
      waiting.set(k, (e) => {
        clearTimeout(t);
        waiting.delete(k);
        resolve(e);
      });
    });
  }
  /** controller id → the last number of the batches admitted and queued in the pipeline, not yet stored */
  const queuedUpTo = new Map<number, number>();
  /** a batch's first and last event stored: the numbers the batch used (EventInput.edgeSeq from, upTo) */
  const ranges = new WeakMap<DeviceEvent, { from?: number; upTo?: number }>();
  /** the events admitted to be stored ahead of their controller's last number (the live lane) */
  const storedAheadOf = new WeakSet<DeviceEvent>();
  /** controller id → the batch under way (one at a time per controller, until it is in the pipeline's queue) */
  const turns = new Map<number, Promise<void>>();
  /** Waits for the turn of each controller in `controllers` (in order), returning how to give each back. */
  async function takeTurns(controllers: number[]): Promise<(() => void)[]> {
    const releases: (() => void)[] = [];
    for (const c of controllers) {
      const before = turns.get(c) ?? Promise.resolve();
      let release!: () => void;
      const mineTurn = new Promise<void>((r) => (release = r));
      const chained = before.then(() => mineTurn);
      turns.set(c, chained);
      releases.push(() => {
        release();
        if (turns.get(c) === chained) turns.delete(c);
      });
      await before;
    }
    return releases;
  }
  /** controller id → the batch admitted last, done once it is stored or failed (and those before it) */
  const settledOf = new Map<number, Promise<void>>();
  /** who waits for a controller's last number to move (a batch that came before the one ahead of it) */
  const movedWaiters = new Set<() => void>();
  const seqMoved = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        movedWaiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      movedWaiters.add(done);
    });

  async function seqOf(controllerId: number, clientId: number): Promise<number> {
    const known = lastSeq.get(controllerId);
    if (known !== undefined) return known;
    const n = await edgeLastSeq(db, clientId, controllerId);
    aheadOf.set(controllerId, new Set(await edgeAheadSeqs(db, controllerId)));
    lastSeq.set(controllerId, n);
    return n;
  }
  const forget = (controllerId: number) => {
    lastSeq.delete(controllerId);
    aheadOf.delete(controllerId);
  };

  /** The controller the request's key is bound to (a controller's key), or null. */
  async function boundController(req: FastifyRequest): Promise<number | null> {
    const p = req.principal;
    if (!p || !p.jti.startsWith('apikey:')) return null;
    return controllerOfKey(db, p.userId);
  }

  /** Which of a batch's checked messages may be stored (see the file's head); the caller stores them, then calls done. */
  async function admit(
    req: FastifyRequest,
    clientId: number,
    valid: { index: number; e: DeviceEvent }[],
    numbered: NumberedRefusal[] = [],
  ): Promise<EdgeAdmission> {
    const bound = await boundController(req);
    const rejected: Rejected = [];
    // a numbered refusal goes through as a message of its controller and number, refused in its place with its violations
    let checked = valid;
    if (numbered.length) {
      const stand = numbered.map((n) => {
        const e = { controllerId: n.controllerId, eventCode: 0, sourceId: '', edge: { seq: n.seq, occurredAt: 0, offline: false, snapshotVersion: 0 } };
        invalidOf.set(e as DeviceEvent, n.violations);
        return { index: n.index, e: e as DeviceEvent };
      });
      checked = [...valid, ...stand].sort((a, b) => a.index - b.index);
    }
    let good = checked;
    if (bound !== null) {
      good = [];
      for (const g of checked) {
        if (g.e.controllerId === bound) good.push(g);
        else
          rejected.push({
            index: g.index,
            violations: invalidOf.get(g.e) ?? [{ field: 'controllerId', ...fill('ingest.notKeysController', 'is not the controller of this key', {}) }],
          });
      }
    }
    const named = [...new Set(good.filter((g) => g.e.edge).map((g) => g.e.controllerId))];
    if (!named.length) return { good, rejected, duplicates: 0, resync: false, ahead: 0, queued: () => {}, done: async () => ({}) };
    // another client's controller is answered as an unknown one, as the device interface does (and keeps no number for it)
    const edgeOf = new Set(await ownControllerIds(db, clientId, named));
    good = good.filter((g) => {
      if (!g.e.edge || edgeOf.has(g.e.controllerId)) return true;
      rejected.push({
        index: g.index,
        violations: invalidOf.get(g.e) ?? [{ field: 'controllerId', ...fill('ingest.notKnownController', 'is not a known controller of this client', {}) }],
      });
      return false;
    });
    if (!edgeOf.size) return { good, rejected, duplicates: 0, resync: false, ahead: 0, queued: () => {}, done: async () => ({}) };

    // what a decided swipe names is this client's, or is not: a person or door deleted since the edge decided (its
    // snapshot held them), another client's, or one that never was, told apart by nothing this client's key may learn
    // (another tenant's id is as one that does not exist: refusing it and storing the others told a key which ids other
    // clients have). Each is stored as the door saw it (the door did open), attributed to no one and moving nobody; its
    // door id is kept as the edge sent it, its word as its sourceId is: the client reads it back ("Why?" answers it), so
    // keeping only some would tell them apart again, and every reader takes it with the client's condition ("Why?"
    // decides it against the client's own doors and names none of another's; the floor plan and reports join the client's
    // doors). Only the client's are read here: nothing of another client is looked at, moved or held (docs/EDGE.md)
    const ids = good.flatMap((g) => (g.e.edge?.decided ? [g.e.edge.decided] : []));
    const personIds = [...new Set(ids.flatMap((d) => (d.identityId === null ? [] : [d.identityId])))];
    const doorIds = [...new Set(ids.map((d) => d.doorId))];
    const [people, doors] = await Promise.all([ownIdentityIds(db, clientId, personIds), doorZones(db, clientId, doorIds)]);
    const knownPeople = new Set(people);
    const knownDoors = new Map(doors.map((r) => [r.id, r]));
    /** When the batch came: what its events move (who is where, a door's status) is never later than this (an edge's
     *  clock far ahead set a door or person past every later event, and past what the database takes: a transaction of
     *  every controller's batches failed on it, again at each resend) */
    const receivedAt = Date.now();

    // one batch per controller at a time, in arrival order; a batch that came before the one ahead of it (an edge
    // has two in flight) gives its turn back and waits for it, ORDER_WAIT_MS at most, instead of being refused a gap
    const controllers = [...edgeOf].sort((a, b) => a - b);
    const first = new Map<number, number>();
    for (const g of good) if (g.e.edge && !first.has(g.e.controllerId)) first.set(g.e.controllerId, g.e.edge.seq);
    // the live lane: events an edge sends at once beside its backlog are stored ahead of its last number, waiting for nothing
    const live = good.every((g) => !g.e.edge || g.e.edge.live === true);
    const since = Date.now();
    let releases: (() => void)[];
    let next: Map<number, number>;
    for (;;) {
      releases = await takeTurns(controllers);
      try {
        next = new Map<number, number>();
        for (const c of controllers) next.set(c, Math.max(await seqOf(c, clientId), queuedUpTo.get(c) ?? 0) + 1);
      } catch (e) {
        for (const r of releases) r();
        throw e;
      }
      const left = ORDER_WAIT_MS - (Date.now() - since);
      if (live || left <= 0 || !controllers.some((c) => (first.get(c) ?? 0) > next.get(c)!)) break;
      const moved = seqMoved(left);
      for (const r of releases) r();
      await moved;
    }
    const from = new Map(next);
    // this batch is done (stored or failed) after the batches admitted before it: a number it notes by itself (its events
    // refused, duplicates or stored ahead) is noted after theirs are stored, never over them
    const prior = controllers.map((c) => settledOf.get(c));
    let settle!: () => void;
    const settled = new Promise<void>((r) => (settle = r));
    for (const c of controllers) settledOf.set(c, settled);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const r of releases) r();
      for (const w of [...movedWaiters]) w();
    };
    const done = () => {
      settle();
      for (const c of controllers) if (settledOf.get(c) === settled) settledOf.delete(c);
    };
    try {
      const kept: typeof good = [];
      /** the live lane's events this batch stores ahead of their controller's last number */
      const ahead = new Set<DeviceEvent>();
      let duplicates = 0;
      for (const g of good) {
        const edge = g.e.edge;
        if (!edge) {
          kept.push(g);
          continue;
        }
        const expected = next.get(g.e.controllerId)!;
        const storedAhead = aheadOf.get(g.e.controllerId)!;
        const invalid = invalidOf.get(g.e);
        if (invalid) {
          // refused naming its field, as any message that fails its checks, sent again or not; its number is used when it
          // is the next (the edge sends it no more, and the next follows it)
          if (edge.seq === expected) next.set(g.e.controllerId, expected + 1);
          rejected.push({ index: g.index, violations: invalid });
          continue;
        }
        if (edge.seq < expected || storedAhead.has(edge.seq)) {
          duplicates++;
          // the backlog's copy of an event stored ahead: the numbers go on past it
          if (edge.seq === expected) next.set(g.e.controllerId, expected + 1);
          continue;
        }
        if (edge.seq > expected && edge.live === true) {
          storedAhead.add(edge.seq); // on its way: a resend meanwhile is a duplicate
          ahead.add(g.e);
          storedAheadOf.add(g.e);
          kept.push(g);
          continue;
        }
        // an Edge events lost while offline stands for the numbers the edge dropped before it (issue 47): taken in their place
        if (edge.seq > expected && g.e.eventCode !== EVENT_CODES.edgeEventsLost) {
          rejected.push({
            index: g.index,
            violations: [{ field: 'edge.seq', ...fill('ingest.seqExpected', 'must be {expected}: events are stored once and in order', { expected }) }],
          });
          continue;
        }
        next.set(g.e.controllerId, edge.seq + 1);
        kept.push(g);
      }
      rejected.sort((a, b) => a.index - b.index);
      // who is where (anti-passback) as the edge let them: the server's other doors and "Why?" decide from it too
      for (const { e } of kept) {
        const d = e.edge?.decided;
        if (d && d.identityId !== null && !knownPeople.has(d.identityId)) unattributed.add(e);
        if (!d || d.decision !== 'granted' || d.identityId === null || !knownPeople.has(d.identityId)) continue;
        const door = knownDoors.get(d.doorId);
        if (!door) continue; // a door deleted since: into no zone anyone knows
        presenceOf.set(e, {
          identityId: d.identityId,
          zoneId: d.side === 'exit' ? door.exit_zone_id : door.entry_zone_id,
          at: Math.min(e.edge!.occurredAt, receivedAt),
        });
      }
      // the numbers each controller's events used, on its first and last event stored (the pipeline stores them only
      // right after the last one stored: a batch queued behind one that failed is not stored past the gap)
      const firstKept = new Map<number, DeviceEvent>();
      const lastKept = new Map<number, DeviceEvent>();
      for (const { e } of kept)
        if (e.edge && !ahead.has(e)) {
          if (!firstKept.has(e.controllerId)) firstKept.set(e.controllerId, e);
          lastKept.set(e.controllerId, e);
        }
      for (const [c, e] of firstKept) ranges.set(e, { from: from.get(c)! });
      for (const [c, e] of lastKept) ranges.set(e, { ...ranges.get(e), upTo: next.get(c)! - 1 });
      const journaled = kept.filter((g) => g.e.edge && !ahead.has(g.e));
      return {
        good: kept,
        rejected,
        duplicates,
        resync: journaled.length > LIVE_BATCH_MAX || journaled.some((g) => g.e.edge!.offline),
        ahead: ahead.size,
        queued() {
          // every controller's events are in the pipeline's queue, in order: the next batch may be admitted behind them
          // (one whose numbers are used by no event stored holds its turn until they are noted; one that used none, its
          // events stored ahead, gives it back now)
          if (controllers.some((c) => !firstKept.has(c) && next.get(c) !== from.get(c))) return;
          for (const c of controllers) if (firstKept.has(c)) queuedUpTo.set(c, next.get(c)! - 1);
          release();
        },
        async done(stored) {
          try {
            if (!stored) {
              // what was queued behind it will fail too (its numbers follow no stored one): start again from the database
              for (const c of controllers) {
                queuedUpTo.delete(c);
                forget(c);
              }
              return {};
            }
            // first the numbers, so nothing after them can leave this server's memory behind the database (a write
            // that failed after the store left lastSeq stale, and every resend was answered "duplicates" with the old
            // number: the edge sent the same batch for ever). The numbers of the events stored were noted in their own
            // transaction (the pipeline, EventInput.edgeSeq); only numbers used by events refused for what they said,
            // after the last one stored, are noted here
            const storedUpTo = new Map<number, number>();
            for (const g of kept)
              if (g.e.edge && !ahead.has(g.e)) storedUpTo.set(g.e.controllerId, Math.max(storedUpTo.get(g.e.controllerId) ?? 0, g.e.edge.seq));
            // (a number used by no event stored: noted once the batches before it are stored, never over them)
            if ([...next].some(([c, n]) => n !== from.get(c) && n - 1 > (storedUpTo.get(c) ?? 0))) await Promise.all(prior);
            for (const [c, n] of next) {
              if (n === from.get(c)) continue; // it used no number of its own (its events stored ahead, or duplicates)
              if (n - 1 > (storedUpTo.get(c) ?? 0)) await noteEdgeLastSeq(db, c, n - 1);
              lastSeq.set(c, Math.max(lastSeq.get(c) ?? 0, n - 1));
              // the numbers stored ahead that the mark passed (their rows went in the transaction that passed them)
              const storedAhead = aheadOf.get(c);
              if (storedAhead) for (const seq of storedAhead) if (seq <= lastSeq.get(c)!) storedAhead.delete(seq);
            }
            // who is where and the doors' status went in the events' own transaction (EventInput.presence, doorStatus);
            // a door command waiting for its event hears it now
            for (const x of stored) {
              if (!x.input.edgeSeq) continue;
              const k = `${x.input.edgeSeq.controllerId}:${x.input.edgeSeq.seq}`;
              if (x.input.sourceId.startsWith('door-')) {
                recent.set(k, x.event);
                if (recent.size > 500) recent.delete(recent.keys().next().value!);
              }
              waiting.get(k)?.(x.event);
            }
            return { edgeLastSeq: bound !== null ? (lastSeq.get(bound) ?? 0) : undefined };
          } catch (e) {
            // a number not noted (the database went away): read again from the database by the next batch
            for (const c of controllers) forget(c);
            throw e;
          } finally {
            release();
            done();
          }
        },
      };
    } catch (e) {
      release();
      done();
      throw e;
    }
  }

  // when as ISO text, the last one kept (a resync's swipes share their snapshot's build time)
  const isoOf = isoCache();
  const builtIsoOf = isoCache();

  /** The stored event of an edge message: its decided swipe, and when and how it happened (a resync's 100,000: one
   *  object made a message, no copies of copies). */
  function input(e: DeviceEvent, base: EventInput): EventInput {
    const edge = e.edge;
    if (!edge) return base;
    const out: EventInput = Object.assign({}, base);
    const range = ranges.get(e);
    out.edgeSeq = storedAheadOf.has(e)
      ? { controllerId: e.controllerId, seq: edge.seq, ahead: true }
      : range
        ? { controllerId: e.controllerId, seq: edge.seq, ...range }
        : { controllerId: e.controllerId, seq: edge.seq };
    if (edge.offline) {
      const when = isoOf(edge.occurredAt);
      out.message = `${base.message} (offline at ${when})`.slice(0, 500);
      // said by its key with when beside it (src/i18n/index.ts saySentence says `offlineAt` after the sentence)
      if (base.messageCode) out.messageValues = { ...base.messageValues, offlineAt: when };
      // raised and returned to normal while offline: recorded, not raised as new
      if (edge.clearedAt !== undefined && edge.clearedAt >= edge.occurredAt) out.clearedOffline = { at: new Date(edge.clearedAt).toISOString() };
    } else if (base.message.length > 500) out.message = base.message.slice(0, 500);
    // what it moves, in its own transaction: who is where, and its door's status (the newest the door has heard), of the
    // client's own door only (moveDoorStatuses: a `door-N` of another client's door or nobody's moves nothing)
    const moved = presenceOf.get(e);
    if (moved) out.presence = moved;
    const status = DOOR_STATUS_OF[e.eventCode];
    const door = status ? /^door-(\d{1,9})$/.exec(e.sourceId) : null;
    // (when it happened, but never after the server's clock: see admit's receivedAt)
    if (status && door) out.doorStatus = { doorId: Number(door[1]), status, at: Math.min(edge.occurredAt, Date.now()) };
    const d = edge.decided;
    if (d) {
      // what "Why?" reads (server/simulator/swipes.ts explain): when it happened is the swipe's `at`, when it reached the
      // server the stored row's own time; the chain as the edge's engine ran it, over that snapshot (built then)
      const seen: StoredEdgeSwipe = { seq: edge.seq, offline: edge.offline, snapshotVersion: edge.snapshotVersion };
      if (edge.live === true) seen.live = true;
      if (d.steps) seen.steps = d.steps;
      if (d.snapshotBuiltAt !== undefined) seen.snapshotBuiltAt = builtIsoOf(d.snapshotBuiltAt);
      out.decided = {
        identityId: unattributed.has(e) ? null : d.identityId,
        decision: d.decision,
        reason: d.reason,
        swipe: { card: d.card, at: edge.occurredAt, side: d.side, doorId: d.doorId, edge: seen },
      };
    }
    return out;
  }
  return { admit, input, stored };
}
