// Identities and their credentials. Every statement is scoped by client_id, and reads/deletes also by the
// divisions the caller may use: another tenant's row simply is not there.
import type { Db } from '../db';
import { like, window, type ListWindow } from './list';

export interface IdentityRow {
  id: number; client_id: number; first_name: string; last_name: string; employee_no: string; email: string | null; phone: string | null;
  division_id: number; division_name: string | null; status: string; valid_from: string | null; valid_to: string | null;
  id_number: string | null; photo: string | null; created_at: Date | string; updated_at: Date | string;
}
export interface CredentialRow {
  id: number; identity_id: number; type: string; number: string; facility_code: number | null; valid_from: string | null; valid_to: string | null; status: string;
}
export interface IdentityFields {
  firstName: string; lastName: string; employeeNo: string; email?: string | null; phone?: string | null; divisionId: number; status: string;
  validFrom?: string | null; validTo?: string | null; idNumber?: string | null; photo?: string | null;
}
export interface CredentialFields { type: string; number: string; facilityCode?: number | null; validFrom?: string | null; validTo?: string | null; status: string }
export interface IdentityFilter { q: string | null; status?: string; divisionId?: number }

/** The text the list's q searches, exactly the expression migration 023 indexes. */
const IDENTITY_SEARCH_TEXT = `(s.first_name || ' ' || s.last_name || ' ' || s.employee_no || ' ' || coalesce(s.email, ''))`;

export const IDENTITY_SORT = {
  firstName: 'i.first_name', lastName: 'i.last_name', employeeNo: 'i.employee_no', email: 'i.email', status: 'i.status',
  divisionName: 'd.name', createdAt: 'i.created_at', updatedAt: 'i.updated_at', id: 'i.id',
};
const COLS = `i.id, i.client_id, i.first_name, i.last_name, i.employee_no, i.email, i.phone, i.division_id, d.name as division_name, i.status,
  i.valid_from::text as valid_from, i.valid_to::text as valid_to, i.id_number, i.photo, i.created_at, i.updated_at`;

export async function listIdentities(db: Db, clientId: number, divisions: number[], f: IdentityFilter, l: ListWindow): Promise<{ rows: IdentityRow[]; total: number }> {
  const params: unknown[] = [clientId, divisions];
  let where = 'i.client_id = $1 and i.division_id = any($2::int[])';
  if (f.q) {
    params.push(like(f.q));
    const n = `$${params.length}`;
    // name, employee number, e-mail or a credential number: two trigram index scans (migration 023), not a table scan
    where += ` and i.id in (select s.id from identities s where s.client_id = $1 and ${IDENTITY_SEARCH_TEXT} ilike ${n}
      union select c.identity_id from credentials c where c.client_id = $1 and c.number ilike ${n})`;
  }
  if (f.status) { params.push(f.status); where += ` and i.status = $${params.length}`; }
  if (f.divisionId) { params.push(f.divisionId); where += ` and i.division_id = $${params.length}`; }
  const total = await db.query<{ n: string }>(`select count(*)::text n from identities i where ${where}`, params);
  const { rows } = await db.query<IdentityRow>(`select ${COLS} from identities i join divisions d on d.id = i.division_id where ${where} ${window(l)}`, params);
  return { rows, total: Number(total.rows[0].n) };
}
export async function identityById(db: Db, clientId: number, divisions: number[], id: number): Promise<IdentityRow | null> {
  const { rows } = await db.query<IdentityRow>(`select ${COLS} from identities i join divisions d on d.id = i.division_id
    where i.id = $1 and i.client_id = $2 and i.division_id = any($3::int[])`, [id, clientId, divisions]);
  return rows[0] ?? null;
}
export async function credentialsOf(db: Db, clientId: number, identityIds: number[]): Promise<CredentialRow[]> {
  if (!identityIds.length) return [];
  return (await db.query<CredentialRow>(`select id, identity_id, type, number, facility_code, valid_from::text as valid_from, valid_to::text as valid_to, status
    from credentials where client_id = $1 and identity_id = any($2::int[]) order by id`, [clientId, identityIds])).rows;
}
export async function employeeNoTaken(db: Db, clientId: number, employeeNo: string, exceptId: number | null): Promise<boolean> {
  return (await db.query('select 1 from identities where client_id = $1 and employee_no = $2 and id <> $3', [clientId, employeeNo, exceptId ?? 0])).rows.length > 0;
}
export async function credentialNumberTaken(db: Db, clientId: number, number: string, exceptIdentityId: number | null): Promise<boolean> {
  return (await db.query('select 1 from credentials where client_id = $1 and number = $2 and identity_id <> $3', [clientId, number, exceptIdentityId ?? 0])).rows.length > 0;
}
const values = (f: IdentityFields) => [f.firstName, f.lastName, f.employeeNo, f.email ?? null, f.phone ?? null, f.divisionId, f.status, f.validFrom ?? null, f.validTo ?? null, f.idNumber ?? null, f.photo ?? null];
export async function insertIdentity(db: Db, clientId: number, f: IdentityFields): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`insert into identities (client_id, first_name, last_name, employee_no, email, phone, division_id, status, valid_from, valid_to, id_number, photo)
    values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) returning id`, [clientId, ...values(f)]);
  return rows[0].id;
}
export async function updateIdentity(db: Db, clientId: number, id: number, f: IdentityFields): Promise<boolean> {
  const { rows } = await db.query(`update identities set first_name=$3, last_name=$4, employee_no=$5, email=$6, phone=$7, division_id=$8, status=$9,
    valid_from=$10, valid_to=$11, id_number=$12, photo=$13, updated_at=now() where id=$1 and client_id=$2 returning id`, [id, clientId, ...values(f)]);
  return rows.length > 0;
}
/** Replaces the identity's credentials with the given rows (the form sends them all). */
export async function replaceCredentials(db: Db, clientId: number, identityId: number, creds: CredentialFields[]): Promise<void> {
  await db.query('delete from credentials where identity_id = $1 and client_id = $2', [identityId, clientId]);
  for (const c of creds) {
    await db.query('insert into credentials (client_id, identity_id, type, number, facility_code, valid_from, valid_to, status) values ($1,$2,$3,$4,$5,$6,$7,$8)',
      [clientId, identityId, c.type, c.number, c.facilityCode ?? null, c.validFrom ?? null, c.validTo ?? null, c.status]);
  }
}
export async function visibleIdentityIds(db: Db, clientId: number, divisions: number[], ids: number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('select id from identities where id = any($1::int[]) and client_id = $2 and division_id = any($3::int[]) order by id', [ids, clientId, divisions]);
  return rows.map((r) => r.id);
}
export async function deleteIdentity(db: Db, clientId: number, id: number): Promise<void> {
  await db.query('delete from identities where id = $1 and client_id = $2', [id, clientId]);
}
