// What a user may do in a client: privilege entries per division (§3, §6), derived from role grants.
// A grant on a division covers that division and every division below it.
import type { PrivilegeEntry } from '../../contract';
import type { Db } from '../db/db';

export async function descendants(db: Db, clientId: number, divisionId: number | null): Promise<number[]> {
  const { rows } = await db.query<{ id: number; parent_id: number | null }>('select id, parent_id from divisions where client_id = $1', [clientId]);
  if (divisionId === null) return rows.map((r) => r.id).sort((a, b) => a - b);
  const out = new Set<number>([divisionId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows) if (r.parent_id !== null && out.has(r.parent_id) && !out.has(r.id)) { out.add(r.id); grew = true; }
  }
  return [...out].filter((id) => rows.some((r) => r.id === id)).sort((a, b) => a - b);
}

export async function privilegeEntries(db: Db, userId: number, clientId: number | null): Promise<PrivilegeEntry[]> {
  if (clientId === null) {
    // no client selected yet: only what lets a multi-tenant user pick one (clients screen)
    const { rows } = await db.query<{ privilege: string }>(
      `select distinct rp.privilege from user_grants g join role_privileges rp on rp.role_code = g.role_code
        where g.user_id = $1 and rp.privilege like '9.2.%'`, [userId]);
    return rows.length ? [{ privilegeIds: rows.map((r) => r.privilege).sort(), divisionIds: [], firstParentDivisionIds: [] }] : [];
  }
  const grants = await db.query<{ role_code: string; division_id: number | null }>('select role_code, division_id from user_grants where user_id = $1 and client_id = $2', [userId, clientId]);
  const entries: PrivilegeEntry[] = [];
  for (const g of grants.rows) {
    const privs = await db.query<{ privilege: string }>('select privilege from role_privileges where role_code = $1 order by privilege', [g.role_code]);
    entries.push({
      privilegeIds: privs.rows.map((r) => r.privilege),
      divisionIds: await descendants(db, clientId, g.division_id),
      firstParentDivisionIds: g.division_id === null ? [] : [g.division_id],
    });
  }
  return entries;
}

export async function clientIdsOf(db: Db, userId: number): Promise<number[]> {
  const { rows } = await db.query<{ client_id: number }>('select distinct client_id from user_grants where user_id = $1 order by client_id', [userId]);
  return rows.map((r) => r.client_id);
}

export async function rolesOf(db: Db, userId: number, clientId: number | null): Promise<string[]> {
  const { rows } = await db.query<{ role_code: string }>(
    clientId === null ? 'select distinct role_code from user_grants where user_id = $1' : 'select distinct role_code from user_grants where user_id = $1 and client_id = $2',
    clientId === null ? [userId] : [userId, clientId]);
  return rows.map((r) => r.role_code).sort();
}
