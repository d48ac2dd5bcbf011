// The edge's local event journal (issue 47): every event is appended to `journal.ndjson` in the data directory and
// fsync'd before the door acts on it, so it survives a kill -9 of the edge and a power cut. Each has the controller's
// next sequence number (1, 2, 3 …). What the server has stored is `delivered.json` (the last sequence number it
// acknowledged), written whole and renamed into place. A line torn by a crash mid-write is dropped on open (it was
// never acted on: the append had not returned). Undelivered events older than its age bound (30 days unless
// configured) are dropped when `expire` is called (offline: after each event and every JOURNAL_CHECK_MS, idle or not; on
// reconnect before the upload): they are replaced by one
// Edge events lost while offline (1032), numbered as the last one dropped, which says how many and from when to when.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_CODES, eventLabel, fill, type EdgeEventPart, type Sentence, type SentenceValues } from '../contract';

/** A journaled event's message made with fill() (issue 48): its English (cut to the device interface's 500 characters),
 *  its key and values, sent up beside it (contract DeviceEvent messageCode, messageValues). */
export const said = (s: Sentence): Pick<JournalEntry, 'message' | 'messageCode' | 'messageValues'> => ({
  message: s.message.slice(0, 500),
  messageCode: s.code,
  messageValues: s.values,
});

/** One journaled event: what the device interface takes (contract DeviceEvent) without the controller id. */
export interface JournalEntry {
  seq: number;
  /** ms since the epoch, at the door */
  at: number;
  offline: boolean;
  snapshotVersion: number;
  eventCode: number;
  sourceId: string;
  sourceName: string | null;
  pointId?: string;
  pointName?: string | null;
  message: string;
  /** issue 48: the message as a sentence (fill): its key and values, which the console says in the operator's language */
  messageCode?: string;
  messageValues?: SentenceValues;
  decided?: EdgeEventPart['decided'];
  /** an Edge events lost while offline entry: the events it stands for (their number, the first's and last's time) */
  lost?: { count: number; from: number; to: number };
}

export type Journal = ReturnType<typeof openJournal>;

/** Events the journal keeps on disk at least (issue 47: 1,000,000 or 30 days offline); past it the oldest delivered go. */
export const JOURNAL_LIMIT = 1_000_000;
/** Delivered events kept in memory besides the undelivered ones (the newest). */
const MEMORY_TAIL = 1000;
/** How long an undelivered event is kept (issue 47: 30 days offline); `EDGE_JOURNAL_DAYS` or the edge's option changes it. */
export const JOURNAL_MAX_AGE_MS = (Number(process.env.EDGE_JOURNAL_DAYS) > 0 ? Number(process.env.EDGE_JOURNAL_DAYS) : 30) * 86_400_000;

/** How often an edge offline and idle looks for undelivered events past the age bound (a look costs one comparison
 *  while nothing is past it: `expire` stops at the first event young enough). */
export const JOURNAL_CHECK_MS = 60_000;

export function openJournal(dir: string, opts: { limit?: number; maxAgeMs?: number; now?: () => number } = {}) {
  const limit = opts.limit ?? JOURNAL_LIMIT;
  const maxAgeMs = opts.maxAgeMs ?? JOURNAL_MAX_AGE_MS;
  const now = opts.now ?? Date.now;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'journal.ndjson');
  const deliveredFile = join(dir, 'delivered.json');
  const entries: JournalEntry[] = [];
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    let good = 0;
    for (const line of text.split('\n')) {
      if (!line) {
        good += 1;
        continue;
      }
      try {
        entries.push(JSON.parse(line) as JournalEntry);
        good += Buffer.byteLength(line) + 1;
      } catch {
        break; // a torn last line
      }
    }
    if (good < Buffer.byteLength(text)) truncateSync(file, Math.max(0, Math.min(good, Buffer.byteLength(text))));
  }
  let delivered = 0;
  if (existsSync(deliveredFile)) {
    try {
      delivered = Number((JSON.parse(readFileSync(deliveredFile, 'utf8')) as { lastSeq: number }).lastSeq) || 0;
    } catch {
      delivered = 0; // torn by a power cut (it is not fsync'd): everything is sent again, and stored once by the server
    }
  }
  let nextSeq = (entries.at(-1)?.seq ?? delivered) + 1;
  let onDisk = entries.length;
  let fd = openSync(file, 'a');
  let closed = false;
  /** told after each append and each delivery (the journal's fill changed) */
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const w of watchers) w();
  };

  /** Only the undelivered and the newest delivered stay in memory. */
  /** Where the first undelivered event is in `entries` (their numbers run without gaps: worked out, not looked for). */
  const firstPending = () => (entries.length ? Math.min(entries.length, Math.max(0, delivered + 1 - entries[0].seq)) : 0);
  const trim = () => {
    const deliveredHeld = firstPending();
    if (deliveredHeld > MEMORY_TAIL) entries.splice(0, deliveredHeld - MEMORY_TAIL);
  };
  /** The file rewritten with its newest `limit` events (never dropping an undelivered one), in place of the old. */
  const compact = () => {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const undelivered = lines.filter((l) => (JSON.parse(l) as JournalEntry).seq > delivered).length;
    const kept = lines.slice(-Math.max(limit, undelivered));
    closeSync(fd);
    writeWhole(file, kept.length ? `${kept.join('\n')}\n` : '');
    fd = openSync(file, 'a');
    onDisk = kept.length;
  };
  trim();
  if (onDisk > limit) compact();

  /** The undelivered events older than the age bound, replaced by one Edge events lost entry (file and memory). */
  function expire(source: { id: number; name: string }): JournalEntry | null {
    if (closed) return null;
    const cutoff = now() - maxAgeMs;
    const first = firstPending();
    let end = first;
    const lost = { count: 0, from: Infinity, to: 0 };
    // (an earlier lost entry is as old as the newest event it stands for)
    for (; end < entries.length && (entries[end].lost?.to ?? entries[end].at) < cutoff; end++) {
      const e = entries[end];
      const was = e.lost ?? { count: 1, from: e.at, to: e.at }; // an older lost entry counts what it stood for
      lost.count += was.count;
      lost.from = Math.min(lost.from, was.from);
      lost.to = Math.max(lost.to, was.to);
    }
    if (end === first || (end === first + 1 && entries[first].lost)) return null; // nothing past it but the lost entry itself
    const last = entries[end - 1];
    const gap = lostEntry(last.seq, now(), last.snapshotVersion, source, lost);
    // the file keeps what follows the last dropped (the delivered before them are older still), after the gap's line
    const kept = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && (JSON.parse(l) as JournalEntry).seq > last.seq);
    closeSync(fd);
    writeWhole(file, [JSON.stringify(gap), ...kept].join('\n') + '\n');
    fd = openSync(file, 'a');
    onDisk = kept.length + 1;
    entries.splice(0, end, gap); // numbers run on without a gap from it
    changed();
    return gap;
  }

  /** The delivered mark, written whole and renamed into place, not fsync'd: a mark lost in a power cut is an older one
   *  (or none), and what it marked is only sent again, which the server stores nothing of (a resend is not a
   *  duplicate). The journal's events are fsync'd; this is a hint (an fsync per batch held the edge's one thread ~10 %
   *  of a resync). */
  function writeMark(seq: number) {
    const tmp = `${deliveredFile}.tmp`;
    writeFileSync(tmp, JSON.stringify({ lastSeq: seq }));
    renameSync(tmp, deliveredFile);
  }

  return {
    /** Appends and fsyncs one event with the next sequence number; returns it once it is on disk. */
    append(e: Omit<JournalEntry, 'seq'>): JournalEntry {
      if (closed) throw new Error('the journal is closed');
      const entry: JournalEntry = { seq: nextSeq, ...e };
      writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
      nextSeq++;
      onDisk++;
      entries.push(entry);
      // a tenth over the bound, the oldest delivered go (one rewrite per tenth, not one per event)
      if (onDisk > limit + Math.max(1, Math.floor(limit / 10))) compact();
      changed();
      return entry;
    },
    /** The events the server has not acknowledged yet, oldest first (at most `max`; only those after `after`). */
    pending(max = Infinity, after = delivered): JournalEntry[] {
      const from = entries.length ? Math.max(firstPending(), Math.min(entries.length, after + 1 - entries[0].seq)) : 0;
      return entries.slice(from, max === Infinity ? undefined : from + max);
    },
    pendingCount: () => entries.length - firstPending(),
    /** The server has stored every event up to `seq` (it never goes back). */
    delivered(seq: number) {
      // a closed journal notes nothing more: an upload answered after the edge stopped (its data directory may be gone
      // already) must not write the mark there; it is a hint, and what it marked is sent again on the next start
      if (closed || seq <= delivered) return;
      delivered = seq;
      writeMark(seq);
      trim();
      changed();
    },
    /**
     * The server has this controller's events only up to `seq`, fewer than it acknowledged (its database was restored
     * from a backup): what it lacks is undelivered again, read back from the file where memory no longer holds it, and
     * sent again in order. Numbers the file no longer has either (compacted past its bound) are sent as one Edge
     * events lost, numbered as the last of them, which the server takes in their place. Answers how many are sent again
     * and how many are lost; null when there is nothing to go back for.
     */
    rewind(seq: number, source: { id: number; name: string }): { again: number; lost: number } | null {
      if (closed || seq >= delivered) return null;
      const held = entries[0]?.seq;
      if (held === undefined || held > seq + 1) {
        const older: JournalEntry[] = [];
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          if (!line) continue;
          const e = JSON.parse(line) as JournalEntry;
          if (e.seq > seq && (held === undefined || e.seq < held)) older.push(e);
        }
        const merged = older.concat(entries); // (not spread into a call: a million arguments overflow the stack)
        entries.length = 0;
        for (const e of merged) entries.push(e);
      }
      let lost = 0;
      const first = entries[0];
      if (first && first.seq > seq + 1) {
        lost = first.seq - 1 - seq;
        // (when the lost ones happened is not known: the first one held says until when)
        entries.unshift(lostEntry(first.seq - 1, now(), first.snapshotVersion, source, { count: lost, from: first.at, to: first.at }));
      }
      const again = delivered - seq - lost;
      delivered = seq;
      // the Edge events lost lives in memory only (the file is in number order and cannot take it): the mark is moved
      // back on disk only when nothing was lost. Stopped before the server stores it (kill -9, power), the edge starts
      // with the old mark, the server's welcome asks for the same rewind, and the lost numbers are said again
      if (!lost) writeMark(seq);
      changed();
      return { again, lost };
    },
    /** The events not yet delivered (each is in memory, their numbers without gaps: counted, not looked through). */
    get undelivered() {
      return entries.length - firstPending();
    },
    expire,
    /** The journal's clock (events are journaled at its time; tests move it). */
    now,
    /** The events the journal keeps at least (its bound). */
    limit,
    /** `fn` is called after each append and each delivery; returns how to stop. */
    watch(fn: () => void) {
      watchers.add(fn);
      return () => watchers.delete(fn);
    },
    /** The server stored up to `seq` of this controller before this journal began (a new data directory): number on after it. */
    startAfter(seq: number) {
      if (seq >= nextSeq) {
        nextSeq = seq + 1;
        entries.length = 0; // all delivered, and the numbers jump: those in memory must run on without a gap
        this.delivered(seq);
      }
    },
    get lastDelivered() {
      return delivered;
    },
    get lastSeq() {
      return nextSeq - 1;
    },
    /** The events in memory: every undelivered one and the newest delivered. */
    all: (): readonly JournalEntry[] => entries,
    /** Events in the file now. */
    get onDisk() {
      return onDisk;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}

/** An Edge events lost while offline entry numbered `seq`: the events it stands for (their number, first and last time). */
function lostEntry(
  seq: number,
  at: number,
  snapshotVersion: number,
  source: { id: number; name: string },
  lost: NonNullable<JournalEntry['lost']>,
): JournalEntry {
  const when = (t: number) => new Date(t).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  return {
    seq,
    at,
    offline: true,
    snapshotVersion,
    eventCode: EVENT_CODES.edgeEventsLost,
    sourceId: `ctrl-${source.id}`,
    sourceName: source.name,
    pointId: `journal-lost-${source.id}`,
    pointName: `${source.name} journal`,
    ...said(
      fill('event.edgeEventsLost', '{event}: {count}, from {from} to {to}', {
        event: eventLabel(EVENT_CODES.edgeEventsLost),
        count: lost.count,
        from: when(lost.from),
        to: when(lost.to),
      }),
    ),
    lost,
  };
}

/** Writes `text` to `file` whole (a temporary file fsync'd and renamed into place), readable by `mode`. */
export function writeWhole(file: string, text: string, mode = 0o644) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text, { mode });
  const f = openSync(tmp, 'r+');
  fsyncSync(f);
  closeSync(f);
  renameSync(tmp, file);
}
