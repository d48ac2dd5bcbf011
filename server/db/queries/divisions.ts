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
