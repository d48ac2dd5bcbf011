// The edge's local event journal (issue 47): every event is appended to `journal.ndjson` in the data directory and
// fsync'd before the door acts on it, so it survives a kill -9 of the edge and a power cut. Each has the controller's
// next sequence number (1, 2, 3 …). What the server has stored is `delivered.json` (the last sequence number it
// acknowledged), written whole and renamed into place. A line torn by a crash mid-write is dropped on open (it was
// never acted on: the append had not returned).
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { EdgeEventPart } from '../contract';

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
  decided?: EdgeEventPart['decided'];
}

export type Journal = ReturnType<typeof openJournal>;

/** Events the journal keeps on disk at least (issue 47: 1,000,000 or 30 days offline); past it the oldest delivered go. */
export const JOURNAL_LIMIT = 1_000_000;
/** Delivered events kept in memory besides the undelivered ones (the newest). */
const MEMORY_TAIL = 1000;

export function openJournal(dir: string, opts: { limit?: number } = {}) {
  const limit = opts.limit ?? JOURNAL_LIMIT;
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
  if (existsSync(deliveredFile)) delivered = Number((JSON.parse(readFileSync(deliveredFile, 'utf8')) as { lastSeq: number }).lastSeq) || 0;
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
  const trim = () => {
    const firstPending = entries.findIndex((e) => e.seq > delivered);
    const deliveredHeld = firstPending === -1 ? entries.length : firstPending;
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
    /** The events the server has not acknowledged yet, oldest first (at most `max`). */
    pending(max = Infinity): JournalEntry[] {
      const out: JournalEntry[] = [];
      for (let i = entries.length - 1; i >= 0 && entries[i].seq > delivered; i--) out.push(entries[i]);
      out.reverse();
      return out.slice(0, max);
    },
    pendingCount: () => entries.filter((e) => e.seq > delivered).length,
    /** The server has stored every event up to `seq` (it never goes back). */
    delivered(seq: number) {
      if (seq <= delivered) return;
      delivered = seq;
      const tmp = `${deliveredFile}.tmp`;
      const f = openSync(tmp, 'w');
      writeSync(f, JSON.stringify({ lastSeq: seq }));
      fsyncSync(f);
      closeSync(f);
      renameSync(tmp, deliveredFile);
      trim();
      changed();
    },
    /** The events not yet delivered (sequence numbers run without gaps: counted, not looked through). */
    get undelivered() {
      return Math.max(0, nextSeq - 1 - delivered);
    },
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

/** Writes `text` to `file` whole (a temporary file fsync'd and renamed into place), readable by `mode`. */
export function writeWhole(file: string, text: string, mode = 0o644) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text, { mode });
  const f = openSync(tmp, 'r+');
  fsyncSync(f);
  closeSync(f);
  renameSync(tmp, file);
}
