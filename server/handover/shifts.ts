// The client's shifts (issue 31, part 3): a shift is [previous boundary, boundary), the boundaries of the shift settings
// [0.2.6.2] taken in the client's zone by the database (its zone rules handle daylight saving).
import { shiftBoundaries } from '../../contract/handover';
import type { Db } from '../db/db';
import { boundaryInstants, databaseNow, shiftSettingsOf } from '../db/queries/handover';

export interface Shift {
  zone: string;
  start: Date;
  end: Date;
}

/** The client's zone and its boundaries as instants around `ref`: local days ref−2 … ref+1, oldest first. */
async function boundariesAround(db: Db, clientId: number, ref: Date): Promise<{ zone: string; at: Date[] }> {
  const kept = await shiftSettingsOf(db, clientId);
  return { zone: kept.zone, at: await boundaryInstants(db, ref, kept.zone, shiftBoundaries(kept.boundaries)) };
}

/** The shift that ended last before now (`end` given: the one ending then; null when `end` is not a past boundary). */
export async function shiftOf(db: Db, clientId: number, end: Date | null = null): Promise<Shift | null> {
  const now = await databaseNow(db);
  const ref = end ?? now;
  if (ref.getTime() > now.getTime()) return null;
  const { zone, at } = await boundariesAround(db, clientId, ref);
  const ended = at.filter((t) => t.getTime() <= ref.getTime());
  const last = ended[ended.length - 1];
  if (!last || (end && last.getTime() !== end.getTime())) return null;
  const before = at.filter((t) => t.getTime() < last.getTime());
  return { zone, start: before[before.length - 1] ?? new Date(last.getTime() - 86_400_000), end: last };
}

/** The shifts that ended in [from, to) (a scheduled report's period), oldest first (at most 40 days' worth). */
export async function shiftsEndingIn(db: Db, clientId: number, from: Date, to: Date): Promise<Shift[]> {
  const out: Shift[] = [];
  let cursor = to;
  for (let i = 0; i < 12 * 40; i++) {
    const s = await shiftBefore(db, clientId, cursor);
    if (!s || s.end.getTime() < from.getTime()) break;
    out.unshift(s);
    cursor = s.end;
  }
  return out;
}
/** The shift that ended last strictly before `t`. */
async function shiftBefore(db: Db, clientId: number, t: Date): Promise<Shift | null> {
  const { zone, at } = await boundariesAround(db, clientId, t);
  const ended = at.filter((x) => x.getTime() < t.getTime());
  const last = ended[ended.length - 1];
  if (!last) return null;
  return { zone, start: ended[ended.length - 2] ?? new Date(last.getTime() - 86_400_000), end: last };
}
