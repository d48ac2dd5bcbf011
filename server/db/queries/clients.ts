// Clients (tenants). Only the ids a caller may see are ever passed in.
import type { Db } from '../db';
import { like, window, type ListWindow } from './list';

export interface ClientRow {
  id: number; name: string; code: string; timezone: string; contact_email: string | null; address: string | null; active: boolean;
  created_at: Date | string; updated_at: Date | string;
}
export interface ClientFields { name: string; code: string; timezone: string; contactEmail?: string | null; address?: string | null; active: boolean }

export const CLIENT_SORT = { name: 'name', code: 'code', timezone: 'timezone', active: 'active', createdAt: 'created_at', updatedAt: 'updated_at' };

export async function listClients(db: Db, ids: number[], l: ListWindow): Promise<{ rows: ClientRow[]; total: number }> {
  const params: unknown[] = [ids];
  let where = 'id = any($1::int[])';
  if (l.q) { params.push(like(l.q)); where += ' and (name ilike $2 or code ilike $2)'; }
  const total = await db.query<{ n: string }>(`select count(*)::text n from clients where ${where}`, params);
  const { rows } = await db.query<ClientRow>(`select * from clients where ${where} ${window(l)}`, params);
  return { rows, total: Number(total.rows[0].n) };
}
export async function clientById(db: Db, id: number): Promise<ClientRow | null> {
  return (await db.query<ClientRow>('select * from clients where id = $1', [id])).rows[0] ?? null;
}
export async function clientCodeTaken(db: Db, code: string, exceptId: number | null): Promise<boolean> {
  return (await db.query('select 1 from clients where code = $1 and id <> $2', [code, exceptId ?? 0])).rows.length > 0;
}
export async function insertClient(db: Db, c: ClientFields): Promise<ClientRow> {
  return (await db.query<ClientRow>('insert into clients (name, code, timezone, contact_email, address, active) values ($1,$2,$3,$4,$5,$6) returning *',
    [c.name, c.code, c.timezone, c.contactEmail ?? null, c.address ?? null, c.active])).rows[0];
}
export async function updateClient(db: Db, id: number, c: ClientFields): Promise<ClientRow | null> {
  return (await db.query<ClientRow>('update clients set name=$2, code=$3, timezone=$4, contact_email=$5, address=$6, active=$7, updated_at=now() where id=$1 returning *',
    [id, c.name, c.code, c.timezone, c.contactEmail ?? null, c.address ?? null, c.active])).rows[0] ?? null;
}
