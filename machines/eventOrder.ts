// The Events screen's rows: live events and the history read on first start merged into one list, newest first by
// the event's time whatever order they arrive in (issue 29: on first start the history was listed below the live
// rows in rising day order, because the merge trusted the arrival order instead of the time).
import type { Event } from '../contract';

export const MAX_ROWS = 200;

const timeOf = (e: Event) => {
  const t = Date.parse(e.time);
  return Number.isNaN(t) ? -Infinity : t;
};
const numericId = (e: Event) => (typeof e.id === 'number' ? e.id : /^\d+$/.test(String(e.id)) ? Number(e.id) : null);

/** Newest first (by time, then by id among stored events of the same instant); incoming first at one id. */
export function newestFirst(a: Event, b: Event): number {
  const byTime = timeOf(b) - timeOf(a);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  const [ia, ib] = [numericId(a), numericId(b)];
  return ia !== null && ib !== null ? ib - ia : 0;
}

/** `current` and `incoming` (each in any order) deduplicated by id (the incoming copy wins), newest first, at most `max`. */
export function mergeEvents(current: readonly Event[], incoming: readonly Event[], max = MAX_ROWS): Event[] {
  const byId = new Map<string, Event>();
  for (const e of current) byId.set(String(e.id), e);
  for (const e of incoming) byId.set(String(e.id), e);
  return [...byId.values()].sort(newestFirst).slice(0, max);
}
