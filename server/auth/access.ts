// What a user may do in a client: privilege entries per division (§3, §6), derived from role grants.
// A grant on a division covers that division and every division below it; a grant without one covers all.
//
// Who may create tenants (issue 11): platform operators only. Platform-level privileges (PLATFORM_PRIVILEGES:
// 9.2.1 Add clients) come from platform_grants, never from a role granted inside a client — a tenant
// administrator runs their tenant (and may view and edit it, 9.2.0 / 9.2.2) but cannot make new ones. A platform
// operator who creates a client becomes its administrator (server/resources/clients.ts). The platform entry has
// no divisions: it only ever unlocks platform actions.
import { PLATFORM_PRIVILEGES, type PrivilegeEntry } from '../../contract';
import type { Db } from '../db/db';
import { divisionsOf, type DivisionRow } from '../db/queries/divisions';
import { clientIdsOf, grantsWithPrivileges, platformPrivileges, privilegesAnywhere, rolesOf } from '../db/queries/grants';

export { clientIdsOf, rolesOf };

/** The division and every division below it (all of the client's for null). */
export function subtree(divisions: readonly DivisionRow[], root: number | null): number[] {
  if (root === null) return divisions.map((d) => d.id).sort((a, b) => a - b);
  if (!divisions.some((d) => d.id === root)) return [];
  const out = new Set<number>([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const d of divisions)
      if (d.parent_id !== null && out.has(d.parent_id) && !out.has(d.id)) {
        out.add(d.id);
        grew = true;
      }
  }
  return [...out].sort((a, b) => a - b);
}

export async function privilegeEntries(db: Db, userId: number, clientId: number | null): Promise<PrivilegeEntry[]> {
  const platform = (await platformPrivileges(db, userId)).filter((c) => PLATFORM_PRIVILEGES.includes(c));
  const platformEntry: PrivilegeEntry[] = platform.length ? [{ privilegeIds: platform, divisionIds: [], firstParentDivisionIds: [] }] : [];
  const tenantOnly = (codes: string[]) => codes.filter((c) => !PLATFORM_PRIVILEGES.includes(c));
  if (clientId === null) {
    // no client selected yet: only what lets a multi-tenant user pick one (the clients screen)
    const codes = tenantOnly(await privilegesAnywhere(db, userId, '9.2.'));
    return [...(codes.length ? [{ privilegeIds: codes, divisionIds: [], firstParentDivisionIds: [] }] : []), ...platformEntry];
  }
  const grants = await grantsWithPrivileges(db, userId, clientId);
  if (!grants.length) return [];
  const divisions = await divisionsOf(db, clientId);
  const out: PrivilegeEntry[] = [];
  for (const g of grants) {
    // a role's privileges ticked in one division reach only where that division and the grant's overlap
    const reach = subtree(divisions, g.divisionId);
    const ticked = g.privilegeDivisionId === null ? null : subtree(divisions, g.privilegeDivisionId);
    const divisionIds = ticked === null ? reach : reach.filter((d) => ticked.includes(d));
    const privilegeIds = tenantOnly(g.privileges);
    if (!divisionIds.length || !privilegeIds.length) continue;
    const top = ticked !== null && reach.includes(g.privilegeDivisionId!) ? g.privilegeDivisionId! : g.divisionId;
    out.push({
      privilegeIds,
      divisionIds,
      firstParentDivisionIds: top === null ? divisions.filter((d) => d.parent_id === null).map((d) => d.id) : [top],
    });
  }
  return [...out, ...platformEntry];
}
