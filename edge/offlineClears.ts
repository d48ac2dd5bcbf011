// Which alarms raised while the edge was offline returned to normal while it was still offline (issue 47: "an alarm
// that was raised and cleared while offline is recorded, not raised as new"). The upload tells the server with each
// such event's `clearedAt`; the server stores it processed, with a note, instead of raising it.
//
// Read once over the whole journal, in order, and on from where it stopped as events are appended: the return to
// normal of an alarm is found however many events later it came (until 2026-12-03 only within the 2,000 events after
// the batch being sent). Which codes raise an alarm is the client's (its alarm types, default and its own, in the
// snapshot the server sends: `alarmCodes`), not only the defaults.
import { DEFAULT_ALARM_TYPES } from '../contract';
import type { JournalEntry } from './journal';

/** The default alarm types' codes: what raises an alarm for a snapshot that does not name its client's (an older one). */
export const DEFAULT_ALARM_CODES: readonly number[] = DEFAULT_ALARM_TYPES.map((t) => t.eventCode);

export function createOfflineClears() {
  let next = 0; // the first sequence number not read yet
  const open = new Map<string, number[]>(); // point → seqs of alarms raised offline and not back to normal yet
  const cleared = new Map<number, number>(); // seq of such an alarm → when its point returned to normal
  let pruned = 0; // what is older than this was forgotten
  return {
    /**
     * Reads the events not read yet (`events`: the journal's, oldest first; those already read are skipped), with
     * the codes that raise an alarm now, and answers, of the events of `batch` (being sent), the alarms that returned
     * to normal offline: seq → when. A batch sent again gets the same answer; what is older than the journal's oldest
     * undelivered event is forgotten now and then (sent, and stored by the server).
     */
    read(events: readonly JournalEntry[], alarmCodes: ReadonlySet<number>, batch: readonly JournalEntry[], undeliveredFrom: number): Map<number, number> {
      for (const e of events) {
        if (e.seq < next) continue;
        next = e.seq + 1;
        const point = e.pointId ?? e.sourceId;
        if (!e.offline) {
          // back online: the server hears what happens now live. A return to normal now clears the alarms its point
          // raised offline all the same: it may reach the server before them (the live lane sends it beside the
          // backlog), and they would stay raised after it
          // (an alarm again online is heard live; those raised offline stay raised until the point's return)
          if (alarmCodes.has(e.eventCode)) continue;
          for (const seq of open.get(point) ?? []) cleared.set(seq, e.at);
          open.delete(point);
          continue;
        }
        if (alarmCodes.has(e.eventCode)) {
          const seqs = open.get(point);
          if (seqs)
            seqs.push(e.seq); // in place: a point raised again and again offline stays linear
          else open.set(point, [e.seq]);
        } else {
          for (const seq of open.get(point) ?? []) cleared.set(seq, e.at);
          open.delete(point);
        }
      }
      const out = new Map<number, number>();
      for (const e of batch) {
        const at = cleared.get(e.seq);
        if (at !== undefined) out.set(e.seq, at);
      }
      // once in a while, not per batch (the journal may hold 1,000,000 events)
      if (undeliveredFrom - pruned > 10_000) {
        for (const seq of cleared.keys()) if (seq < undeliveredFrom) cleared.delete(seq);
        for (const [point, seqs] of open) {
          const kept = seqs.filter((seq) => seq >= undeliveredFrom);
          if (kept.length) open.set(point, kept);
          else open.delete(point);
        }
        pruned = undeliveredFrom;
      }
      return out;
    },
  };
}
