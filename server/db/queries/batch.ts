// Identity batch upload's SQL (server/batch/routes.ts; issue 11; issue 48: in the queries room): the tenant's
// templates and uploads, and what the database knows of a file's employee numbers and cards.
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface BatchTemplateRow {
  id: number;
  name: string;
  divisionId: number;
  credentialType: string;
}
export interface BatchTemplateColumn {
  header: string;
  target: string;
  udfKey: string | null;
}

/** The client's batch template `id`; undefined when it has none of that id. */
export async function batchTemplate(db: Db, clientId: number, id: number): Promise<BatchTemplateRow | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<BatchTemplateRow>(
    `select id, name, division_id as "divisionId", credential_type as "credentialType" from batch_templates where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

/** Template `templateId`'s columns, in their order (the template read first, by batchTemplate, is the tenant's). */
export async function batchTemplateColumns(db: Db, templateId: number): Promise<BatchTemplateColumn[]> {
  const { rows } = await db.query<BatchTemplateColumn>(
    `select header, target, udf_key as "udfKey" from batch_template_columns where template_id = $1 order by id`,
    [templateId],
  );
  return rows;
}

/** The client's identities of these employee numbers, with their divisions. */
export async function identitiesByEmployeeNo(db: Db, clientId: number, employeeNos: string[]): Promise<{ employeeNo: string; divisionId: number }[]> {
  const params: unknown[] = [employeeNos];
  const { rows } = await db.query<{ employeeNo: string; divisionId: number }>(
    `select employee_no as "employeeNo", division_id as "divisionId" from identities where employee_no = any($1::text[]) and ${tenant(params, clientId)}`,
    params,
  );
  return rows;
}

/** Who holds these card numbers in the client: each card's identity's employee number. */
export async function cardHolders(db: Db, clientId: number, numbers: string[]): Promise<{ number: string; employeeNo: string }[]> {
  const params: unknown[] = [numbers];
  const { rows } = await db.query<{ number: string; employeeNo: string }>(
    `select c.number, i.employee_no as "employeeNo" from credentials c join identities i on i.id = c.identity_id where c.number = any($1::text[]) and ${tenant(params, clientId, 'c')}`,
    params,
  );
  return rows;
}

/** The client's identities of these employee numbers, locked for the transaction (an import batch writes them): in id
 *  order, and for no key update, which leaves a group's edit adding one of them free to check its link's foreign key
 *  (docs/ARCHITECTURE.md, lock order). */
export async function lockIdentitiesByEmployeeNo(db: Db, clientId: number, employeeNos: string[]): Promise<{ id: number; employeeNo: string }[]> {
  const params: unknown[] = [employeeNos];
  const { rows } = await db.query<{ id: number; employeeNo: string }>(
    `select id, employee_no as "employeeNo" from identities where employee_no = any($1::text[]) and ${tenant(params, clientId)} order by id for no key update`,
    params,
  );
  return rows;
}

/** How many of the client's identities have one of these employee numbers. */
export async function countIdentitiesByEmployeeNo(db: Db, clientId: number, employeeNos: string[]): Promise<number> {
  const params: unknown[] = [employeeNos];
  const { rows } = await db.query<{ n: string }>(
    `select count(*)::text n from identities where employee_no = any($1::text[]) and ${tenant(params, clientId)}`,
    params,
  );
  return Number(rows[0].n);
}

/** One row's savepoint in an import batch: set, released after the row, rolled back to when it fails. */
export async function rowSavepoint(db: Db): Promise<void> {
  await db.query('savepoint batch_row');
}
export async function releaseRowSavepoint(db: Db): Promise<void> {
  await db.query('release savepoint batch_row');
}
export async function rollbackToRowSavepoint(db: Db): Promise<void> {
  await db.query('rollback to savepoint batch_row');
}

export interface BatchUploadRow<R, E> {
  id: number;
  templateId: number;
  userId: number;
  rows: R[];
  errors: E[];
  total: number;
  fileName: string;
}

/** The client's batch upload `id` (its ready rows and errors as kept at the preview); undefined when it has none of that id. */
export async function batchUpload<R, E>(db: Db, clientId: number, id: number): Promise<BatchUploadRow<R, E> | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<BatchUploadRow<R, E>>(
    `select id, template_id as "templateId", user_id as "userId", rows, errors, total, file_name as "fileName" from batch_uploads where id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

/** Keeps a previewed upload (ready rows and errors as JSON text); its id. */
export async function insertBatchUpload(
  db: Db,
  u: { clientId: number; userId: number; templateId: number; fileName: string; total: number; rows: string; errors: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into batch_uploads (client_id, user_id, template_id, file_name, total, rows, errors) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [u.clientId, u.userId, u.templateId, u.fileName, u.total, u.rows, u.errors],
  );
  return rows[0].id;
}

/** Records an upload's import: its result and errors (JSON text). */
export async function recordBatchImport(db: Db, id: number, result: string, errors: string): Promise<void> {
  await db.query('update batch_uploads set result = $2, errors = $3, imported_at = now() where id = $1', [id, result, errors]);
}
