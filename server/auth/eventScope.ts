// The divisions whose events a user may see (issue 10): those where the user holds one of the screen's privilege
// codes. null when that is every division of the client (no filter needed: the common case costs nothing); events of
// no division (a logical block's alarm) are seen by everyone holding the code anywhere.
import { privilegesForDestination, type PrivilegeEntry } from '../../contract';
import type { Db } from '../db/db';
import { divisionIdsOf } from '../db/queries/divisions';

/** The divisions where `entries` hold one of `codes`; null when that is all of `all`. */
function covered(entries: readonly PrivilegeEntry[], codes: readonly string[], all: readonly number[]): Set<number> | null {
  const mine = new Set<number>();
  for (const e of entries) if (e.privilegeIds.some((c) => codes.includes(c))) e.divisionIds.forEach((d) => mine.add(d));
  return all.every((d) => mine.has(d)) ? null : mine;
}
/** A client's division ids, read from the database (the request cache keeps them: server/auth/requestCache.ts). */
export const clientDivisionIds = async (db: Db, clientId: number) => (await divisionIdsOf(db, clientId)).map((r) => Number(r.id));

/** Where a request's client and grants come from; the division ids through the request cache. */
export interface DivisionScopeSource {
  clientId: number | null;
  entries: readonly PrivilegeEntry[];
  divisionIds(clientId: number): Promise<number[]>;
}

export async function eventDivisions(p: DivisionScopeSource, codes: readonly string[]): Promise<number[] | null> {
  if (p.clientId === null) return null;
  const mine = covered(p.entries, codes, await p.divisionIds(p.clientId));
  return mine ? [...mine].sort((a, b) => a - b) : null;
}

/** The SQL condition for `e` (an events alias) within those divisions, with its parameter at `$n`. */
export const divisionCondition = (n: number) => `(e.division_id is null or e.division_id = any($${n}::int[]))`;

/** A real-time session's divisions per destination (its base destination's codes), worked out once per destination. */
export async function sessionDivisions(
  divisionIds: (clientId: number) => Promise<number[]>,
  clientId: number | null,
  entries: readonly PrivilegeEntry[],
): Promise<(destination: string) => ReadonlySet<number> | null> {
  if (clientId === null) return () => null;
  const all = await divisionIds(clientId);
  const known = new Map<string, ReadonlySet<number> | null>();
  return (destination) => {
    let set = known.get(destination);
    if (set === undefined) known.set(destination, (set = covered(entries, privilegesForDestination(destination) ?? [], all)));
    return set;
  };
}
