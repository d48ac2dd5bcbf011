// The event pipeline: every event is persisted (append-only, monotonically increasing id) before it is published
// to its tenant. An alert event raises an alarm with its type's priority and instructions; a non-alert event for
// the same point processes that point's open alarms (§4, mirrored on the server so every console sees one truth).
// Acknowledge and process are the operators' commands, broadcast on /acknowledge/event and /alarmaction, with
// /alarmcount after every change of the open count.
// The parts: events.ts (an event in, stored and read back), alarms.ts (the operators' alarm commands).
import { createSourceScopes } from './scopes';
import { DEFAULT_ALARM_TYPES, DESTINATIONS, statusOfCode, type Event } from '../../contract';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/db';
import { createAlarms } from './alarms';
import { instructionsKey, type EventInput, type Publish } from './events';
import { iso } from '../db/values';
import { allAlarmTypes, ensureDefaultAlarmType } from '../db/queries/monitor';
import {
  advanceEdgeSeqs,
  insertEvents,
  noteEdgeAhead,
  passEdgeAhead,
  insertRaisedAlarms,
  noteProcessedInBatch,
  processClearedPoints,
  shelveRaisedAlarms,
} from '../db/queries/pipeline';
import { holdEdgeControllers, moveDoorStatuses, movePresence } from '../db/queries/edgeIngest';

export { AlarmError } from './alarms';
export { eventOfRow, type EventInput, type Publish, type PublishTo } from './events';

/**
 * What caused the events recorded inside `eventOrigin.run(origin, …)` (timers and promise continuations started
 * there included): the logical blocks run their actions in 'logic', and events of that origin never start a block.
 */
export const eventOrigin = new AsyncLocalStorage<string>();
/** Told of every event once it is durable and published, with its origin (null: a device or an operator). */
export type CommittedListener = (clientId: number, event: Event, origin: string | null) => void;

/** Fill the default alarm types (client_id null) from the contract; existing rows (maybe edited) are kept. */
export async function ensureAlarmTypes(db: Db): Promise<void> {
  for (const t of DEFAULT_ALARM_TYPES) await ensureDefaultAlarmType(db, t);
}

interface AlarmType {
  priority: number;
  instructions: string;
}
/** The events of one recordMany call: one promise for the lot instead of one per event (a device batch is thousands). */
interface Group {
  out: Event[];
  left: number;
  resolve: (events: Event[]) => void;
  reject: (e: unknown) => void;
  failed: boolean;
}
interface Pending {
  clientId: number;
  input: EventInput;
  origin: string | null;
  resolve?: (e: Event) => void;
  reject?: (e: unknown) => void;
  group?: Group;
  slot?: number;
}
const settle = (p: Pending, event: Event) => {
  if (!p.group) {
    p.resolve!(event);
    return;
  }
  p.group.out[p.slot!] = event;
  if (--p.group.left === 0) p.group.resolve(p.group.out);
};
const fail = (p: Pending, e: unknown) => {
  if (!p.group) {
    p.reject!(e);
    return;
  }
  if (!p.group.failed) {
    p.group.failed = true;
    p.group.reject(e);
  }
};

export { eventsInsert } from '../db/queries/pipeline';

/**
 * Most events a single transaction takes; more wait for the next one (they arrive while this one commits). A batch is
 * that large only past saturation (below it, the events that arrived while the last transaction was written: hundreds).
 * PostgreSQL: 4,000, as past saturation the writer's round trips, not the processor, were the limit (issue 30: at
 * 35,000/s offered, 32,400/s with 2,000 and 34,100/s with 4,000, fewer batches deferred). PGlite: 4,000 too (issue 30,
 * 2026-11-29: at 35,000/s offered, in five runs each, alternating, 21,900–26,000/s with 2,000 and 24,000–28,000/s with
 * 4,000, more in every pair, by 4–10 %, and fewer batches deferred). Its transaction runs on the event loop, so past
 * saturation another request may wait for one of about 100 ms (50 ms with 2,000).
 */
export const INGEST_TRANSACTION_MAX = 4000;
/**
 * How many events may wait to be written before the device interface refuses new batches with 503 and Retry-After
 * (issue 13: at twice the rate a server can write, the queue grew without bound: memory, and 5 s of latency). A
 * device keeps its batch and sends it again; the events already accepted are written in order meanwhile. A batch taken
 * just below it may pass it by its own size (at most INGEST_MAX_BATCH). About half a second of what one server writes
 * at its ceiling on a 2-core machine (20,000–27,000/s, 2026-11-29). `INGEST_BACKLOG_MAX` overrides it.
 */
export const INGEST_BACKLOG_MAX = Number(process.env.INGEST_BACKLOG_MAX) > 0 ? Number(process.env.INGEST_BACKLOG_MAX) : 10_000;
/**
 * Most events of a resync (a controller's journal sent after an outage) one transaction takes: a live event waits for at
 * most one of them (issue 47: behind one queue for all, another controller's live swipe took p99 2.4 s to the consoles).
 */
export const RESYNC_TRANSACTION_MAX = 1000;
/** How long the alarm types (default and per tenant) are trusted before they are read again. */
const ALARM_TYPES_TTL_MS = 30_000;

export interface PipelineOptions {
  now?: () => number;
  /** Past this backlog the device interface refuses new batches (INGEST_BACKLOG_MAX). */
  backlogMax?: number;
  /** Awaited before each transaction is written: tests hold the writer with it to build a backlog. */
  beforeWrite?: () => Promise<void>;
  /** Transactions written at once (default: 2 on PostgreSQL, 1 on PGlite, whose transactions run one at a time). */
  depth?: number;
}

/** The most resync events a transaction of live events takes with them (issue 47: a resync is never starved). */
const RESYNC_IN_LIVE_MAX = 250;

/** An edge's events that do not follow what is stored (a batch before them failed; one was stored ahead by another
 *  server): nothing of the transaction is stored, and the edge sends them again from what the server has (issue 47). */
export class EdgeSeqConflict extends Error {}
/** An edge controller deleted after its batch was admitted, while the batch waited in the queue: its batch goes nowhere
 *  (its numbers' rows went with it); answered as a conflict, its resend is refused with its key gone (401). */
export class EdgeControllerGone extends EdgeSeqConflict {}

/**
 * A transaction's events to write, and those of the batches (recordMany's groups) with an edge event of a controller
 * deleted since they were admitted, which go nowhere: the controllers whose numbers it writes are held first
 * (holdEdgeControllers), so no foreign key error of one gone fails the transaction and every other controller's batch.
 */
async function withoutGoneControllers<T extends { p: Pending; input: EventInput }>(tx: Db, all: T[]): Promise<{ kept: T[]; gone: T[] }> {
  const named = [...new Set(all.flatMap((x) => (x.input.edgeSeq ? [x.input.edgeSeq.controllerId] : [])))];
  const there = named.length ? await holdEdgeControllers(tx, named) : null;
  if (!there || there.size === named.length) return { kept: all, gone: [] };
  const goneBatches = new Set(all.flatMap((x) => (x.input.edgeSeq && !there.has(x.input.edgeSeq.controllerId) ? [x.p.group ?? x.p] : [])));
  const isGone = (x: T) => goneBatches.has(x.p.group ?? x.p);
  return { kept: all.filter((x) => !isGone(x)), gone: all.filter(isGone) };
}

export function createPipeline(db: Db, publish: Publish, opts: PipelineOptions = {}) {
  const scopes = createSourceScopes(db);
  const now = opts.now ?? Date.now;
  const listeners = new Set<CommittedListener>();
  const alarms = createAlarms(db, publish);
  const { announceCount } = alarms;

  // alarm types change rarely: one read every 30 s instead of one per event (a tenant row overrides the default)
  let types: { at: number; byKey: Map<string, AlarmType> } | null = null;
  async function alarmTypes(): Promise<Map<string, AlarmType>> {
    if (types && now() - types.at < ALARM_TYPES_TTL_MS) return types.byKey;
    const rows = await allAlarmTypes(db);
    const byKey = new Map<string, AlarmType>();
    for (const r of rows) byKey.set(`${r.client_id ?? '*'}:${r.event_code}`, { priority: r.priority, instructions: r.instructions });
    types = { at: now(), byKey };
    return byKey;
  }
  const typeOf = (byKey: Map<string, AlarmType>, clientId: number, code: number) => byKey.get(`${clientId}:${code}`) ?? byKey.get(`*:${code}`);

  // Group commit: events wait while a transaction is being written and go together in the next one, so a busy site
  // pays one transaction per batch instead of one per event, and a quiet one waits for nothing.
  // On PostgreSQL two transactions overlap (depth 2): the next batch's events are inserted on a second connection while
  // the previous batch updates its alarms, commits and publishes, so the server and the database stop waiting on each
  // other. Order and visibility stay those of one writer: a batch is cut and its insert started only once the previous
  // insert returned (its ids follow), and it processes its alarms, commits and publishes only after the previous batch
  // committed (or failed) and was published, so no console, no reader and no alarm rule ever sees a later batch before
  // an earlier one. PGlite has one connection (its transactions run one after another): depth 1.
  const depth = opts.depth ?? (db.kind === 'postgres' ? 2 : 1);
  // Two lanes (issue 47): live events, and the resync batches of controllers sending their journal's backlog. A
  // transaction takes the live lane's events whenever there are some, so a backlog never stands in front of a live
  // event; a controller with resync events queued has its later ones queued behind them (its events stay in order)
  const queue: Pending[] = [];
  const resync: Pending[] = [];
  const resyncOf = new Map<number, number>(); // controller → its events in the resync lane, not yet cut
  const controllerOf = (p: Pending) => p.input.edgeSeq?.controllerId ?? p.input.controllerId ?? 0;
  const counted = (c: number, by: number) => {
    const n = (resyncOf.get(c) ?? 0) + by;
    if (n > 0) resyncOf.set(c, n);
    else resyncOf.delete(c);
  };
  let inFlight = 0; // transactions started and not yet settled
  let inserting = false; // a batch's insert is under way: the next batch waits for its ids
  let inWrite = 0; // the events of the transactions being written
  let previous: Promise<void> = Promise.resolve(); // settles once the last batch started is committed (or failed) and published
  function schedule() {
    if (inserting || inFlight >= depth || queue.length + resync.length === 0) return;
    inserting = true;
    inFlight++;
    const after = previous;
    let settled!: () => void;
    previous = new Promise<void>((r) => (settled = r));
    setImmediate(async () => {
      // the live lane first; a resync goes on in every live transaction too (a quarter of its own at most), so a steady
      // stream of live events (every edge's swipes, and a resyncing edge's own sent beside its backlog) cannot starve it
      // (at load 10 on 2 cores live transactions took the writer's whole time). The live events go first in it: no
      // live event must follow a resync one (a controller's later events are queued behind its resync, recordMany)
      const live = queue.length > 0;
      const batch = live ? queue.splice(0, INGEST_TRANSACTION_MAX) : resync.splice(0, RESYNC_TRANSACTION_MAX);
      const taken = live ? resync.splice(0, Math.min(RESYNC_IN_LIVE_MAX, Math.max(0, RESYNC_TRANSACTION_MAX - batch.length))) : batch;
      for (const p of taken) counted(controllerOf(p), -1);
      if (live) for (const p of taken) batch.push(p);
      inWrite += batch.length;
      let mine = true; // this batch holds the insert turn
      const onInserted = () => {
        if (!mine) return;
        mine = false;
        inserting = false;
        schedule();
      };
      try {
        await opts.beforeWrite?.();
        await writeBatch(batch, after, onInserted);
      } catch (e) {
        for (const p of batch) fail(p, e);
      } finally {
        inFlight--;
        inWrite -= batch.length;
        settled();
        onInserted();
        schedule();
      }
    });
  }

  // The open-alarm count after a change, off the writer's path: one query per tenant at a time, and one more after it
  // when another change came meanwhile, so the last count published is read after the last change committed, and
  // counts reach the consoles in the order they were read.
  const counting = new Map<number, { again: boolean }>();
  function countLater(clientId: number) {
    const running = counting.get(clientId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    counting.set(clientId, state);
    void (async () => {
      do {
        state.again = false;
        try {
          await announceCount(clientId);
        } catch {
          /* the database went away (the server stops): the next change announces again */
        }
      } while (state.again);
      counting.delete(clientId);
    })();
  }

  /** One transaction for the batch: the events, the alarms they raise, the alarms they return to normal (§4), in order. */
  async function writeBatch(batch: Pending[], after: Promise<void>, onInserted: () => void) {
    const byKey = await alarmTypes();
    // each event's division (issue 10), from the tenant's sources read once (one await per tenant, not one per event)
    const divisionOf = await scopes.divisionsOf(batch);
    const all = batch.map((p, i) => ({
      p,
      clientId: p.clientId,
      input: p.input,
      type: typeOf(byKey, p.clientId, p.input.eventCode),
      pointId: p.input.pointId ?? p.input.sourceId,
      pointName: p.input.pointName === undefined ? p.input.sourceName : p.input.pointName,
      division: divisionOf[i],
    }));
    const { prepared, gone, events, cleared, doors } = await db.transaction(async (tx) => {
      // Gatehouse Edge: the batch of a controller deleted while it waited in the queue goes nowhere, the others go on
      const { kept: prepared, gone } = await withoutGoneControllers(tx, all);
      if (!prepared.length) {
        onInserted();
        await after; // (settled in turn, as any batch)
        return { prepared, gone, events: [] as Event[], cleared: new Map<number, number>(), doors: [] };
      }
      const inserted = await insertEvents(tx, [
        prepared.map((p) => p.clientId),
        prepared.map((p) => p.input.eventCode),
        prepared.map((p) => p.input.sourceId),
        prepared.map((p) => p.input.sourceName),
        prepared.map((p) => p.pointId),
        prepared.map((p) => p.pointName),
        prepared.map((p) => p.input.message),
        prepared.map((p) => !!p.type),
        prepared.map((p) => p.type?.priority ?? 100),
        prepared.map((p) => p.division),
        prepared.map((p) => p.input.decided?.identityId ?? null),
        prepared.map((p) => p.input.decided?.decision ?? null),
        prepared.map((p) => p.input.decided?.reason ?? null),
        prepared.some((p) => p.input.decided) ? JSON.stringify(prepared.map((p) => p.input.decided?.swipe ?? null)) : null,
        // issue 48: the message's key and values (the console says it in the operator's language)
        prepared.map((p) => p.input.messageCode ?? null),
        prepared.map((p) => (p.input.messageCode ? JSON.stringify(p.input.messageValues ?? {}) : null)),
      ]);
      // Gatehouse Edge (issue 47): each controller's last journal number stored moves on in this same transaction, so
      // a crash can never leave a batch stored and not noted (it would be stored again when the edge resends it); and
      // only from the number before its first (`from`): a batch queued behind one whose transaction failed is not
      // stored past the gap (an edge has two batches in flight)
      const edgeRange = new Map<number, [number, number]>();
      const ahead: { controllerId: number; seq: number }[] = [];
      const inOrder = new Set<string>();
      for (const { input: i } of prepared) {
        if (!i.edgeSeq) continue;
        if (i.edgeSeq.ahead) {
          ahead.push({ controllerId: i.edgeSeq.controllerId, seq: i.edgeSeq.seq });
          continue;
        }
        inOrder.add(`${i.edgeSeq.controllerId}:${i.edgeSeq.seq}`);
        const r = edgeRange.get(i.edgeSeq.controllerId);
        const [from, to] = [i.edgeSeq.from ?? i.edgeSeq.seq, i.edgeSeq.upTo ?? i.edgeSeq.seq];
        edgeRange.set(i.edgeSeq.controllerId, r ? [Math.min(r[0], from), Math.max(r[1], to)] : [from, to]);
      }
      // (noted before the marks move: one this transaction's in-order events pass goes again at once)
      if (ahead.length) await noteEdgeAhead(tx, ahead);
      if (edgeRange.size) {
        // (PostgreSQL: the rows locked first, so that an update the previous transaction made and has not committed yet
        // is waited for and read, not its committed version before it: an update skips a row whose old version fails)
        if ((await advanceEdgeSeqs(tx, db.kind === 'postgres', edgeRange)) < edgeRange.size)
          throw new EdgeSeqConflict('edge events out of order: the batch before them was not stored');
        // the live lane's numbers the marks passed go; one this batch stored again (a server that did not know it was
        // stored ahead: another server took it) refuses the batch, and the edge's resend skips it
        if ((await passEdgeAhead(tx, edgeRange)).some((k) => inOrder.has(k)))
          throw new EdgeSeqConflict('edge event stored twice: it was stored ahead (the live lane)');
      }
      // the next batch may take its ids now; this one's alarms wait for the previous batch's commit (they may be its)
      onInserted();
      await after;
      // ids follow the order of the values (sorted); the rest of each event is what was sent: each event is made once,
      // as the consoles will see it (no row object read back and turned into one: thousands a second, issue 30)
      const ids = inserted.ids.split(',').map(Number);
      const at = iso(inserted.at)!;
      const events = ids.map((id, i): Event => {
        const p = prepared[i];
        return {
          id,
          eventCode: p.input.eventCode,
          eventSourceId: p.input.sourceId,
          eventSourceName: p.input.sourceName ?? null,
          eventPointId: p.pointId,
          eventPointName: p.pointName ?? null,
          message: p.input.message,
          ...(p.input.messageCode ? { messageCode: p.input.messageCode, messageValues: p.input.messageValues ?? {} } : {}),
          alert: !!p.type,
          // a raised alarm is neither acknowledged nor processed as it is published (an event of the batch that
          // returns its point to normal processes it in the database; the consoles hear that as its own event)
          acknowledge: false,
          process: false,
          eventPoint: [{ id: p.pointId, name: p.pointName ?? null }],
          time: at,
          priority: p.type?.priority ?? 100,
          instructions: p.type?.instructions ?? null,
          ...instructionsKey(p.input.eventCode, p.type?.instructions),
        };
      });
      const firstId = ids[0];
      // walk the batch in order: an alert raises an alarm; a non-alert event of the same point processes the point's
      // open alarms, those stored before this batch and those raised earlier in it (§4)
      const raised = new Map<number, { event: Event; clientId: number; type: AlarmType; clearedBy: number | null; note: string | null }>();
      const openInBatch = new Map<string, number[]>(); // `${client}:${point}` → alarm ids raised in this batch, still open
      const firstClear = new Map<string, number>(); // `${client}:${point}` → the first clearing event of the batch
      const clearedPerClient = new Map<number, number>();
      events.forEach((event, i) => {
        const p = prepared[i];
        const id = ids[i];
        const key = `${p.clientId}:${p.pointId}`;
        if (p.type && p.input.clearedOffline) {
          // raised and returned to normal while its edge controller was offline: recorded, not raised as new
          event.process = true;
          raised.set(id, {
            event,
            clientId: p.clientId,
            type: p.type,
            clearedBy: null,
            note: `Raised and returned to normal at ${p.input.clearedOffline.at} while its controller was offline`,
          });
        } else if (p.type) {
          raised.set(id, { event, clientId: p.clientId, type: p.type, clearedBy: null, note: null });
          openInBatch.set(key, [...(openInBatch.get(key) ?? []), id]);
        } else {
          if (!firstClear.has(key)) firstClear.set(key, id);
          for (const a of openInBatch.get(key) ?? []) raised.get(a)!.clearedBy = id;
          clearedPerClient.set(p.clientId, (clearedPerClient.get(p.clientId) ?? 0) + (openInBatch.get(key)?.length ?? 0));
          openInBatch.delete(key);
        }
      });
      if (raised.size) {
        const list = [...raised.values()];
        await insertRaisedAlarms(tx, list);
        // issue 50: an alarm of a shelved source is stored as any other, kept off the consoles until the shelving ends
        const shelved = await shelveRaisedAlarms(
          tx,
          list.filter((a) => a.clearedBy === null && a.note === null).map((a) => a.event.id),
        );
        for (const id of shelved) raised.get(id)!.event.shelved = true;
        await noteProcessedInBatch(
          tx,
          list.filter((a) => a.clearedBy !== null || a.note !== null),
        );
      }
      if (firstClear.size) {
        const keys = [...firstClear.entries()].map(([k, eid]) => {
          const i = k.indexOf(':');
          return { client: Number(k.slice(0, i)), point: k.slice(i + 1), eid };
        });
        for (const r of await processClearedPoints(tx, keys, firstId)) clearedPerClient.set(r.client_id, (clearedPerClient.get(r.client_id) ?? 0) + 1);
      }
      // Gatehouse Edge (issue 47): who is where and the doors' status as the edge events say, in their own transaction
      // (one statement each a transaction, last: their rows are held the shortest): a write refused fails the batch,
      // which the edge sends again whole; never events stored without them (written after, a failure lost them for ever)
      const moves = prepared.flatMap((p) => (p.input.presence ? [{ clientId: p.clientId, ...p.input.presence }] : []));
      if (moves.length) await movePresence(tx, moves);
      const doorMoves = prepared.flatMap((p) => (p.input.doorStatus ? [{ clientId: p.clientId, ...p.input.doorStatus }] : []));
      return { prepared, gone, events, cleared: clearedPerClient, doors: doorMoves.length ? await moveDoorStatuses(tx, doorMoves) : [] };
    });
    const goneError = gone.length ? new EdgeControllerGone('the edge controller of these events was deleted: they go nowhere') : null;
    for (const x of gone) fail(x.p, goneError);
    // durable: now every console may see them, in order, then one alarm count per tenant whose count moved
    const countsFor = new Set<number>();
    events.forEach((event, i) => {
      const p = prepared[i];
      // only consoles that may see the source's division hear it (issue 10)
      publish(p.clientId, DESTINATIONS.events, event, { division: p.division });
      const code = statusOfCode(event.eventCode);
      if (code)
        publish(p.clientId, DESTINATIONS.hardware, { id: event.eventSourceId, name: event.eventSourceName, status: code.status }, { division: p.division });
      if (event.alert) countsFor.add(p.clientId);
      settle(p.p, event);
      for (const l of listeners) {
        try {
          l(p.clientId, event, p.p.origin);
        } catch {
          /* a listener's failure is its own */
        }
      }
    });
    // a door whose status an edge event moved, live after its event
    for (const d of doors)
      publish(d.client_id, DESTINATIONS.doorHeartbeat, { id: d.id, name: d.name, doorStatus: d.status }, { division: d.division_id ?? null });
    for (const [clientId, n] of cleared) if (n > 0) countsFor.add(clientId);
    for (const clientId of countsFor) countLater(clientId);
  }

  /** Persist one event (and its alarm effects) with whatever else arrives meanwhile, then publish it. */
  function record(clientId: number, input: EventInput): Promise<Event> {
    return new Promise<Event>((resolve, reject) => {
      queue.push({ clientId, input, origin: eventOrigin.getStore() ?? null, resolve, reject });
      schedule();
    });
  }

  return {
    record,
    /**
     * Many events at once (a device batch): each still persisted before it is published, in this order. `lane` 'resync':
     * a controller's journal backlog, written when no live event waits (as is any batch of a controller with one queued).
     */
    recordMany(items: { clientId: number; input: EventInput }[], lane: 'live' | 'resync' = 'live'): Promise<Event[]> {
      if (!items.length) return Promise.resolve([]);
      return new Promise<Event[]>((resolve, reject) => {
        const group: Group = { out: new Array(items.length), left: items.length, resolve, reject, failed: false };
        const origin = eventOrigin.getStore() ?? null;
        const made = items.map((it, slot): Pending => ({ clientId: it.clientId, input: it.input, origin, group, slot }));
        // (an edge's event stored ahead of its controller's number waits for none of its backlog: the live lane, issue 47)
        const behind = lane === 'resync' || made.some((p) => !p.input.edgeSeq?.ahead && resyncOf.has(controllerOf(p)));
        for (const p of made) (behind ? resync : queue).push(p);
        if (behind) for (const p of made) counted(controllerOf(p), 1);
        schedule();
      });
    },
    /** Events accepted and not yet durable: waiting, and in the transaction being written. */
    backlog: () => queue.length + resync.length + inWrite,
    /** Past this backlog the device interface refuses new batches (back-pressure). */
    backlogMax: opts.backlogMax ?? INGEST_BACKLOG_MAX,
    /** Be told of every durable event (the logical blocks); returns the unsubscribe. */
    onCommitted(listener: CommittedListener): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Doors, controllers or hardware records of a tenant changed: their divisions are read again at the next event. */
    scopesChanged(clientId: number) {
      scopes.changed(clientId);
    },
    /** Which of these controllers are the tenant's (the device interface refuses another's as unknown). */
    ownControllers: (clientId: number, ids: Iterable<number>) => scopes.ownControllers(clientId, ids),
    /** Read the alarm types again on the next event (after an operator changed one). */
    alarmTypesChanged() {
      types = null;
    },
    openCount: alarms.openCount,
    openCountIn: alarms.openCountIn,
    openAlarms: alarms.openAlarms,
    acknowledge: alarms.acknowledge,
    process: alarms.process,
    history: alarms.history,
  };
}
export type Pipeline = ReturnType<typeof createPipeline>;
