// What a user may do in a client: privilege entries per division (§3, §6), derived from role grants.
// A grant on a division covers that division and every division below it; a grant without one covers all.
import type { PrivilegeEntry } from '../../contract';
import type { Db } from '../db/db';
import { divisionsOf, type DivisionRow } from '../db/queries/divisions';
import { clientIdsOf, grantsWithPrivileges, privilegesAnywhere, rolesOf } from '../db/queries/grants';

export { clientIdsOf, rolesOf };

/** The division and every division below it (all of the client's for null). */
export function subtree(divisions: readonly DivisionRow[], root: number | null): number[] {
  if (root === null) return divisions.map((d) => d.id).sort((a, b) => a - b);
  if (!divisions.some((d) => d.id === root)) return [];
  const out = new Set<number>([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const d of divisions) if (d.parent_id !== null && out.has(d.parent_id) && !out.has(d.id)) { out.add(d.id); grew = true; }
  }
  return [...out].sort((a, b) => a - b);
}

export async function privilegeEntries(db: Db, userId: number, clientId: number | null): Promise<PrivilegeEntry[]> {
  if (clientId === null) {
    // no client selected yet: only what lets a multi-tenant user pick one (the clients screen)
    const codes = await privilegesAnywhere(db, userId, '9.2.');
    return codes.length ? [{ privilegeIds: codes, divisionIds: [], firstParentDivisionIds: [] }] : [];
  }
  const grants = await grantsWithPrivileges(db, userId, clientId);
  if (!grants.length) return [];
  const divisions = await divisionsOf(db, clientId);
  return grants.map((g) => ({
    privilegeIds: g.privileges,
    divisionIds: subtree(divisions, g.divisionId),
    firstParentDivisionIds: g.divisionId === null ? divisions.filter((d) => d.parent_id === null).map((d) => d.id) : [g.divisionId],
  }));
}
