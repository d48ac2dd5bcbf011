// Divisions: a tree per client (parent_id null at the top).
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface DivisionRow {
  id: number;
  client_id: number;
  name: string;
  parent_id: number | null;
}

export async function divisionsOf(db: Db, clientId: number): Promise<DivisionRow[]> {
  const params: unknown[] = [];
  return (await db.query<DivisionRow>(`select id, client_id, name, parent_id from divisions where ${tenant(params, clientId)} order by id`, params)).rows;
}
export async function divisionInClient(db: Db, clientId: number, id: number): Promise<boolean> {
  const params: unknown[] = [id];
  return (await db.query(`select 1 from divisions where id = $1 and ${tenant(params, clientId)}`, params)).rows.length > 0;
}
export async function insertDivision(db: Db, clientId: number, name: string, parentId: number | null): Promise<number> {
  return (await db.query<{ id: number }>('insert into divisions (client_id, name, parent_id) values ($1,$2,$3) returning id', [clientId, name, parentId]))
    .rows[0].id;
}
/** The ids of the client's divisions. */
export async function divisionIdsOf(db: Db, clientId: number | null): Promise<{ id: number }[]> {
  const params: unknown[] = [];
  return (await db.query<{ id: number }>(`select id from divisions where ${tenant(params, clientId)}`, params)).rows;
}
/** What still names divisions `ids` (operator grants, operator-group grants, role privileges ticked), with how many of each. */
export async function divisionUses(db: Db, ids: number[]): Promise<{ what: string; n: number }[]> {
  const { rows } = await db.query<{ what: string; n: number }>(
    `select what, n from (select 1 k, 'operator grant' as what, count(*)::int as n from user_grants where division_id = any($1::int[])
       union all select 2, 'operator-group grant', count(*)::int from operator_group_grants where division_id = any($1::int[])
       union all select 3, 'role privilege ticked', count(*)::int from role_privileges where division_id = any($1::int[])) x order by k`,
    [ids],
  );
  return rows;
}
