// The event journal's recorder (ARCHITECTURE.md "The journal"): an `inspect` observer that keeps, in a bounded ring,
// every event an actor of the system received, who sent it, and the state it resulted in.
import type { AnyEventObject, InspectionEvent } from 'xstate';
import { JOURNAL_CAPACITY, ROOT_ACTOR, journalHeader, redact, type JournalEntry, type JournalHeader } from '../contract';

export interface JournalOptions {
  /** Events kept (a batch counts its items, weightOf); the oldest entries are dropped beyond it. */
  capacity?: number;
  /** Epoch ms. Injected so tests and replay are deterministic (the browser passes Date.now). */
  now?: () => number;
  /** Called with each entry as soon as its resulting state is known (per actor, in processing order). */
  onEntry?: (entry: JournalEntry) => void;
}

export interface Journal {
  /** The observer to give `createActor(…, { inspect })` (or `system.inspect`). */
  inspect: (event: InspectionEvent) => void;
  /** Processed entries, oldest first. */
  entries(): JournalEntry[];
  /** Processed entries with seq > after (and ≤ upTo), oldest first, each redacted only when it is reached: an
   *  upload of thousands of entries reads (and redacts) one chunk's worth at a time, between its requests. */
  entriesAfter(after: number, upTo?: number | null): Generator<JournalEntry>;
  /** The seq of the last processed entry (0 when none), without reading any entry. */
  lastSeq(): number;
  /** Header line + one line per entry, each ending with a newline. */
  toNdjson(): string;
  /** Forgets every entry; seq keeps counting, so a journal cleared mid-session is never mistaken for a whole one. */
  clear(): void;
  header(): JournalHeader;
  /** How many entries the ring has dropped since the last clear. */
  dropped(): number;
}

/** An actor as the inspection events show it. */
export type Ref = { sessionId: string; id?: string; systemId?: string; logic?: unknown; getSnapshot?: () => unknown };

/**
 * An entry being filled in: `state` arrives with the actor's next `@xstate.snapshot` for this very event. The event is
 * redacted when the entry is first read (`entries()`, `onEntry`), not when it is recorded: the live events screen
 * sends thousands of socket messages a second through the system, and copying each body for a journal that is
 * mostly never read cost the page a fifth of its time. Events are not changed after they are sent, so the copy
 * made later is the same; the ring held the raw event already (it pairs the snapshot with it).
 */
interface Slot {
  entry: Omit<JournalEntry, 'state' | 'event'> & { state?: unknown; event?: JournalEntry['event'] };
  raw: AnyEventObject;
  weight: number;
}

/**
 * What an event holds, in the ring's units: a batch (the socket's `socket.messages`, a machine's `facts.received`, the live events list's `events.received`)
 * counts its items. The ring then keeps about as many of a busy site's events whether they came one by one or in
 * batches (counted by entries, batching kept 40 times as many and the events screen's page heap grew from 20 to 33 MB,
 * all of it for the garbage collector to mark).
 */
export function weightOf(event: AnyEventObject): number {
  const batch = event as { messages?: unknown; facts?: unknown; events?: unknown };
  const items = batch.messages ?? batch.facts ?? batch.events;
  return Array.isArray(items) ? Math.max(1, items.length) : 1;
}

/** The slot's entry with its event redacted (once). */
function entryOf(slot: Slot): JournalEntry {
  if (slot.entry.event === undefined) slot.entry.event = redact(slot.raw) as JournalEntry['event'];
  return slot.entry as JournalEntry;
}

function labelOf(ref: Ref, rootId: string): string {
  return ref.systemId ?? (ref.sessionId === rootId ? ROOT_ACTOR : (ref.id ?? ref.sessionId));
}

/** A state machine (as opposed to a promise/callback/observable implementation an embedding provides). */
function isMachine(ref: Ref): boolean {
  const logic = ref.logic as { __xstatenode?: unknown } | undefined;
  return !!logic && logic.__xstatenode === true;
}

/** A machine's state value; for any other actor its status ('active', 'done', 'error'). */
function stateOf(snapshot: unknown): unknown {
  const s = snapshot as { value?: unknown; status?: unknown; machine?: unknown };
  return redact('machine' in s ? s.value : s.status) ?? null;
}

export function createJournal({ capacity = JOURNAL_CAPACITY, now = () => 0, onEntry }: JournalOptions = {}): Journal {
  let ring: Slot[] = [];
  let pending = new WeakMap<object, Slot[]>();
  let seq = 0;
  let dropped = 0;
  let weight = 0; // of the slots in the ring
  let startedAt = now();

  function inspect(ie: InspectionEvent): void {
    const ref = ie.actorRef as unknown as Ref;
    if (ie.type === '@xstate.event') {
      const source = ie.sourceRef as unknown as Ref | undefined;
      const slot: Slot = {
        raw: ie.event,
        weight: weightOf(ie.event),
        entry: {
          seq: ++seq,
          at: now(),
          actor: labelOf(ref, ie.rootId),
          event: undefined, // redacted when first read (entryOf); the key keeps its place in the line
          ...(source ? { source: { actor: labelOf(source, ie.rootId), machine: isMachine(source) } } : {}),
        },
      };
      ring.push(slot);
      weight += slot.weight;
      // the newest entry always stays, even a batch above the capacity on its own
      while (weight > capacity && ring.length > 1) {
        weight -= ring.shift()!.weight;
        dropped++;
      }
      const queue = pending.get(ref) ?? [];
      queue.push(slot);
      pending.set(ref, queue);
      return;
    }
    if (ie.type === '@xstate.snapshot') {
      const queue = pending.get(ref);
      if (!queue) return;
      // mailboxes are FIFO: the snapshot belongs to the oldest pending event with this identity. Snapshots of
      // events that were never relayed (xstate.stop) match nothing; earlier pending events were never processed.
      const at = queue.findIndex((s) => s.raw === ie.event);
      if (at < 0) return;
      const [slot] = queue.splice(0, at + 1).slice(-1);
      slot.entry.state = stateOf(ie.snapshot);
      if (onEntry) onEntry(entryOf(slot));
    }
  }

  const entries = () => ring.filter((s) => s.entry.state !== undefined).map(entryOf);
  function* entriesAfter(after: number, upTo: number | null = null): Generator<JournalEntry> {
    // over the ring as it is now: entries recorded (or dropped) while the upload goes on are the next upload's
    for (const slot of ring.slice()) {
      if (slot.entry.seq <= after || slot.entry.state === undefined) continue;
      if (upTo !== null && slot.entry.seq > upTo) break;
      yield entryOf(slot);
    }
  }
  const lastSeq = () => {
    for (let i = ring.length - 1; i >= 0; i--) if (ring[i].entry.state !== undefined) return ring[i].entry.seq;
    return 0;
  };
  const header = () => journalHeader(startedAt);
  return {
    inspect,
    entries,
    entriesAfter,
    lastSeq,
    header,
    dropped: () => dropped,
    toNdjson: () => [header(), ...entries()].map((l) => JSON.stringify(l) + '\n').join(''),
    clear: () => {
      ring = [];
      weight = 0;
      pending = new WeakMap();
      dropped = 0;
      startedAt = now();
    },
  };
}
