// Identity batch upload [0.3.1.9] (issue 11):
//   POST {batchUpload}?templateId=N   body: the file (CSV UTF-8 or XLSX, ≤ 10 MB) → the dry-run preview
//        {id, fileName, total, valid, creates, updates, errors: [{row, field, message}]}; nothing is imported.
//   GET  {batchUpload}/:id/import     text/event-stream (the console's streaming GET helper, src/api/stream.ts):
//        `start` {total}, `progress` {done, total, created, updated, failed} after every committed batch, `end`
//        with the result. Idempotent: rows match on employee number, so a re-run (or the helper's retry after a
//        lost connection) updates instead of creating. Each row is written through the catalogue's write of an
//        identity (server/crud/write.ts rowWriter: its checks, the identity with its card, the audit row) in one
//        savepoint: a failing row leaves nothing of itself, the rest of its batch commits. One change notice (the
//        catalogue's: consoles reload, the access decisions learn the new cards) after the import.
//   GET  {batchUpload}/:id/errors      the per-row error report (preview errors, then the import's), as data;
//   GET  {batchUpload}/:id/errors.csv  the same as a CSV file (English: the console writes its own in the reader's language).
// Scope: the template is the tenant's (another tenant's is 404); the uploader needs 0.3.1.9 and the add privilege
// in the template's division; a row matching an identity updates it only where the uploader holds edit there.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  PRIV,
  actionCodes,
  checkAllRules,
  checkUserFieldValues,
  identitiesResource,
  inputSchema,
  type BatchErrorReport,
  type BatchRowError,
  type UserFieldDef,
  type Violation,
} from '../../contract';
import { validate } from '../../contract/schemas';
import type { Db } from '../db/db';
import { HttpError, fill, clientOf, divisionsFor, idParam, principal, INVALID_REQUEST } from '../http/kit';
import { audit } from '../audit/trail';
import { TABULAR_TYPES, csvHead, csvText } from '../http/tabular';
import { crudResource, type CrudResource } from '../crud/context';
import type { Row } from '../crud/hooks';
import type { Scope } from '../crud/scope';
import { rowWriter, type RowWriter } from '../crud/write';
import * as q from '../db/queries/batch';
import { identityHooks } from '../resources/identities';
import { assertSeats } from '../resources/licenses';
import { userFieldDefs } from '../resources/userFields';
import { MAX_UPLOAD_BYTES, readSheet, type Sheet } from './parse';

type Publish = (clientId: number, destination: string, body: unknown) => void;
export const BATCH_PRIVILEGE = '0.3.1.9';
export const IMPORT_BATCH = 250;
const PREVIEW_ERRORS_MAX = 5000;

/** A bad row's problem: its field and what is wrong, its sentence's key and values beside the English (contract). */
export type RowError = BatchRowError;
/** A row ready to import: the identity input as the catalogue's schema made it, its card number, its line. */
export interface ReadyRow {
  row: number;
  input: Record<string, unknown>;
  card: string | null;
}
interface Template {
  id: number;
  name: string;
  divisionId: number;
  credentialType: string;
  columns: { header: string; target: string; udfKey: string | null }[];
}

const IdentityInput = inputSchema(identitiesResource);
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

async function loadTemplate(db: Db, clientId: number, id: number): Promise<Template> {
  const row = await q.batchTemplate(db, clientId, id);
  if (!row) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Batch template' }));
  return { ...row, columns: await q.batchTemplateColumns(db, id) };
}

/**
 * The dry run: every row mapped by the template and checked as the identity form would be (the catalogue's input
 * schema, its shared rules, the tenant's user-defined fields), plus what only the file and the database know:
 * an employee number or card twice in the file, a card issued to somebody else, a match the uploader may not edit.
 */
export async function prepareRows(
  db: Db,
  clientId: number,
  tpl: Template,
  sheet: Sheet,
  editDivisions: number[],
): Promise<{ ready: ReadyRow[]; errors: RowError[]; creates: number; updates: number }> {
  const index = new Map(sheet.headers.map((h, i) => [h.toLowerCase(), i]));
  const missing = tpl.columns.filter((c) => !index.has(c.header.trim().toLowerCase()));
  if (missing.length)
    throw new HttpError(
      400,
      INVALID_REQUEST,
      missing.map((c) => ({
        field: 'file',
        ...fill('batch.columnMissing', 'has no column "{header}" (template {template} maps it)', { header: c.header, template: tpl.name }),
      })),
    );
  const defs: UserFieldDef[] = await userFieldDefs(db, clientId);
  const errors: RowError[] = [];
  const candidates: ReadyRow[] = [];
  const seenEmp = new Map<string, number>();
  const seenCard = new Map<string, number>();
  sheet.rows.forEach((cells, i) => {
    const row = i + 2; // the spreadsheet's own line number (1 is the header)
    const input: Record<string, unknown> = { divisionId: tpl.divisionId, status: 'active' };
    const udf: Record<string, unknown> = {};
    let card: string | null = null;
    for (const c of tpl.columns) {
      const raw = (cells[index.get(c.header.trim().toLowerCase())!] ?? '').trim();
      if (c.target === 'udf') {
        if (raw !== '') udf[c.udfKey!] = raw;
        continue;
      }
      if (c.target === 'credentialNumber') {
        card = raw === '' ? null : raw.toUpperCase();
        continue;
      }
      if (raw === '') continue;
      input[c.target] = c.target === 'employeeNo' ? raw.toUpperCase() : c.target === 'status' ? raw.toLowerCase() : raw;
    }
    if (card) input.credentials = [{ type: tpl.credentialType, number: card, status: 'active' }];
    const checked = validate(input, IdentityInput);
    const violations: Violation[] = checked.ok ? checkAllRules(identitiesResource, input) : checked.violations;
    const u = checkUserFieldValues(defs, udf);
    violations.push(...u.violations);
    const emp = typeof input.employeeNo === 'string' ? input.employeeNo : undefined;
    if (emp && seenEmp.has(emp))
      violations.push({ field: 'employeeNo', ...fill('batch.repeatedInFile', 'is repeated in this file (row {row})', { row: seenEmp.get(emp)! }) });
    if (card && seenCard.has(card))
      violations.push({ field: 'credentials.0.number', ...fill('batch.repeatedInFile', 'is repeated in this file (row {row})', { row: seenCard.get(card)! }) });
    if (emp && !seenEmp.has(emp)) seenEmp.set(emp, row);
    if (card && !seenCard.has(card)) seenCard.set(card, row);
    if (violations.length || !checked.ok) {
      for (const v of violations) errors.push({ row, employeeNo: emp, ...v });
      return;
    }
    const value = checked.value as Record<string, unknown>;
    delete value.updatedAt;
    value.udf = u.value;
    if (!card) delete value.credentials; // a row without a card keeps the identity's credentials as they are
    candidates.push({ row, input: value, card });
  });
  // what the database knows: identities these employee numbers match, cards issued to someone else
  const emps = candidates.map((c) => c.input.employeeNo as string);
  const existing = new Map((await q.identitiesByEmployeeNo(db, clientId, emps)).map((x) => [x.employeeNo, x]));
  const cards = candidates.map((c) => c.card).filter((x): x is string => !!x);
  const holders = new Map((await q.cardHolders(db, clientId, cards)).map((x) => [x.number, x.employeeNo]));
  const ready: ReadyRow[] = [];
  let creates = 0;
  let updates = 0;
  for (const c of candidates) {
    const emp = c.input.employeeNo as string;
    const match = existing.get(emp);
    if (match && !editDivisions.includes(match.divisionId)) {
      errors.push({
        row: c.row,
        employeeNo: emp,
        field: 'employeeNo',
        ...fill('batch.divisionNotYours', 'matches an identity in a division you may not edit', {}),
      });
      continue;
    }
    const holder = c.card ? holders.get(c.card) : undefined;
    if (holder !== undefined && holder !== emp) {
      errors.push({
        row: c.row,
        employeeNo: emp,
        field: 'credentials.0.number',
        ...fill('batch.cardIssuedTo', 'is already issued to identity {holder}', { holder }),
      });
      continue;
    }
    if (match) updates++;
    else creates++;
    ready.push(c);
  }
  errors.sort((a, b) => a.row - b.row);
  return { ready, errors, creates, updates };
}

export interface ImportProgress {
  done: number;
  total: number;
  created: number;
  updated: number;
  failed: number;
}

/** The identities the batch writes, and how: the catalogue's resource and its write of one row (server/crud/write.ts). */
export interface IdentityWriter {
  crud: CrudResource;
  writeRow: RowWriter['writeRow'];
}
export const identityWriter = (db: Db, publish?: Publish): IdentityWriter => {
  const crud = crudResource(identitiesResource, { db, publish, hooks: { identities: identityHooks } });
  return { crud, writeRow: rowWriter(crud).writeRow };
};

/**
 * A matched identity as the batch row changes it: the row's values where it has them, the identity's own where
 * the row's cell was blank, user-defined fields merged, the row's card added to the identity's others (first, so a
 * refusal names credentials.0), or left as it is when the identity holds it already.
 */
function merged(crud: CrudResource, before: Row, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k] of crud.sql.writableFields()) out[k] = before[k] ?? null;
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null && k !== 'credentials' && k !== 'udf') out[k] = v;
  out.udf = { ...((before.udf as Record<string, unknown> | null) ?? {}), ...((input.udf as Record<string, unknown> | undefined) ?? {}) };
  const card = (input.credentials as Record<string, unknown>[] | undefined)?.[0];
  const held = (before.credentials as Record<string, unknown>[] | undefined) ?? [];
  if (card && !held.some((c) => c.number === card.number)) out.credentials = [card, ...held];
  return out;
}

/**
 * Imports ready rows in batches of IMPORT_BATCH per transaction, each row in a savepoint written through the
 * catalogue's write of an identity (its checks, the identity and its card, the audit row: batch-create or
 * batch-update with the spreadsheet's row); yields the progress after every committed batch. Matching is on
 * employee number (idempotent). A new row goes into `scopes.create` (the divisions the uploader adds in), a match
 * is read in `scopes.edit` and written in it or the template's division.
 */
export async function* importRows(
  req: FastifyRequest,
  w: IdentityWriter,
  scopes: { create: Scope; edit: Scope; divisionId: number },
  rows: ReadyRow[],
  errors: RowError[],
): AsyncGenerator<ImportProgress> {
  const { crud, writeRow } = w;
  const clientId = scopes.create.clientId!;
  const into: Scope = { ...scopes.edit, divisions: [...new Set([...(scopes.edit.divisions ?? []), scopes.divisionId])] };
  const p: ImportProgress = { done: 0, total: rows.length, created: 0, updated: 0, failed: 0 };
  for (let at = 0; at < rows.length; at += IMPORT_BATCH) {
    const batch = rows.slice(at, at + IMPORT_BATCH);
    const counts = await crud.db.transaction(async (tx) => {
      const emps = batch.map((r) => r.input.employeeNo as string);
      const existing = new Map((await q.lockIdentitiesByEmployeeNo(tx, clientId, emps)).map((x) => [x.employeeNo, x.id]));
      // the seats of the batch's new identities at once (so the catalogue's per-row seat check, its validate hook, is not run)
      await assertSeats(tx, clientId, 'identities', batch.filter((r) => !existing.has(r.input.employeeNo as string)).length);
      const userFields = await userFieldDefs(tx, clientId);
      let created = 0;
      let updated = 0;
      let failed = 0;
      for (const r of batch) {
        const x = r.input;
        await q.rowSavepoint(tx);
        try {
          const id0 = existing.get(x.employeeNo as string);
          const before = id0 ? await crud.load(tx, scopes.edit, id0, true) : null;
          const { credentials, ...kept } = x;
          const credential = (credentials as Record<string, unknown>[] | undefined)?.[0]?.number ?? null;
          const { id } = await writeRow(req, tx, before ? into : scopes.create, before ? merged(crud, before, x) : { ...x }, before, {
            userFields,
            validateHook: false,
            readBack: false,
            savepoint: false,
            audit: (id) => ({ action: before ? 'batch-update' : 'batch-create', before: null, after: { ...kept, id, credential, row: r.row } }),
          });
          await q.releaseRowSavepoint(tx);
          if (id0) updated++;
          else {
            created++;
            existing.set(x.employeeNo as string, id);
          }
        } catch (e) {
          await q.rollbackToRowSavepoint(tx);
          failed++;
          errors.push({ row: r.row, employeeNo: x.employeeNo as string, ...rowFailure(e) });
        }
      }
      return { created, updated, failed };
    });
    p.done += batch.length;
    p.created += counts.created;
    p.updated += counts.updated;
    p.failed += counts.failed;
    // let the event loop breathe between batches (PGlite runs in this thread): other requests are answered and
    // the progress event leaves the socket before the next batch starts
    await new Promise((resolve) => setImmediate(resolve));
    yield { ...p };
  }
}
/** What the report says of a row the catalogue refused: its first violation (the row's one card is credentials.0). */
function rowFailure(e: unknown): Omit<RowError, 'row' | 'employeeNo'> {
  const v = e instanceof HttpError ? e.violations?.[0] : undefined;
  if (v) return { ...v, field: v.field.replace(/^credentials\.\d+\./, 'credentials.0.') };
  return { field: '(row)', ...fill('batch.rowNotImported', 'could not be imported', {}) };
}

/** The per-row error report, by the shared writer (server/http/tabular.ts): a byte-order mark, then the rows. */
export const errorReportCsv = (errors: RowError[]) =>
  csvHead(['row', 'employeeNo', 'field', 'message']) + csvText(errors.map((e) => [e.row, e.employeeNo ?? '', e.field, e.message]));

export function batchRoutes(app: FastifyInstance, opts: { db: Db; publish?: Publish }) {
  const { db } = opts;
  const writer = identityWriter(db, opts.publish);
  const base = API.batchUpload;
  const config = { privileges: [BATCH_PRIVILEGE] };

  function scopeOf(req: FastifyRequest, tpl: Template) {
    const p = principal(req);
    if (!divisionsFor(p, [PRIV.identities.add]).includes(tpl.divisionId)) {
      throw new HttpError(
        403,
        fill('batch.templateDivision', 'Template {name} puts identities in a division you may not add identities to', { name: tpl.name }),
      );
    }
    return { editDivisions: divisionsFor(p, [PRIV.identities.edit]) };
  }
  async function loadUpload(req: FastifyRequest) {
    const clientId = clientOf(req);
    const id = idParam(req, 'Batch upload');
    const upload = await q.batchUpload<ReadyRow, RowError>(db, clientId, id);
    if (!upload) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Batch upload' }));
    return { clientId, upload };
  }

  app.register(async (scoped) => {
    // the file arrives as the body itself (no multipart): CSV, XLSX or any bytes, bounded
    for (const type of [
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/octet-stream',
      'text/plain',
      'application/vnd.ms-excel',
    ]) {
      scoped.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, b, done) => done(null, b));
    }
    scoped.post(base, { config: { ...config, touches: 'client' }, bodyLimit: MAX_UPLOAD_BYTES }, async (req, reply) => {
      const clientId = clientOf(req);
      const asked = (req.query ?? {}) as Record<string, unknown>;
      const tid = /^\d{1,9}$/.test(String(asked.templateId ?? '')) ? Number(asked.templateId) : NaN;
      if (!Number.isInteger(tid) || tid < 1)
        throw new HttpError(400, INVALID_REQUEST, [{ field: 'templateId', ...fill('batch.templateRequired', 'is required: pick a batch template', {}) }]);
      if (!Buffer.isBuffer(req.body))
        throw new HttpError(415, INVALID_REQUEST, [{ field: 'file', ...fill('batch.fileAsBody', 'must be sent as the body (text/csv or an .xlsx)', {}) }]);
      const tpl = await loadTemplate(db, clientId, tid);
      const { editDivisions } = scopeOf(req, tpl);
      const sheet = await readSheet(req.body);
      const prep = await prepareRows(db, clientId, tpl, sheet, editDivisions);
      const fileName = String(req.headers['x-file-name'] ?? 'upload')
        .replace(/[^\w. -]/g, '_')
        .slice(0, 200);
      const uploadId = await q.insertBatchUpload(db, {
        clientId,
        userId: principal(req).userId,
        templateId: tpl.id,
        fileName,
        total: sheet.rows.length,
        rows: JSON.stringify(prep.ready),
        errors: JSON.stringify(prep.errors),
      });
      await audit(db, req, {
        clientId,
        action: 'batch-preview',
        entity: 'identities',
        entityId: uploadId,
        before: null,
        after: { template: tpl.name, fileName, total: sheet.rows.length, valid: prep.ready.length, errors: prep.errors.length },
      });
      return reply.code(201).send({
        id: uploadId,
        fileName,
        template: tpl.name,
        total: sheet.rows.length,
        valid: prep.ready.length,
        creates: prep.creates,
        updates: prep.updates,
        invalidRows: new Set(prep.errors.map((e) => e.row)).size,
        errors: prep.errors.slice(0, PREVIEW_ERRORS_MAX),
      });
    });
  });

  app.get(`${base}/:id/import`, { config }, async (req, reply) => {
    const { clientId, upload } = await loadUpload(req);
    const tpl = await loadTemplate(db, clientId, upload.templateId);
    scopeOf(req, tpl);
    const errors: RowError[] = [...upload.errors];
    const rows = upload.rows;
    // the seats the whole file needs, before anything is written (409 naming the limit, nothing imported)
    await db.transaction(async (tx) => {
      const known = await q.countIdentitiesByEmployeeNo(
        tx,
        clientId,
        rows.map((r) => r.input.employeeNo as string),
      );
      await assertSeats(tx, clientId, 'identities', rows.length - known);
    });
    const create = await writer.crud.scopeOf(db, req, actionCodes(identitiesResource, 'add'));
    const edit = await writer.crud.scopeOf(db, req, actionCodes(identitiesResource, 'edit'));
    async function* events() {
      yield sse('start', { total: rows.length, invalid: upload.errors.length });
      let last: ImportProgress = { done: 0, total: rows.length, created: 0, updated: 0, failed: 0 };
      for await (const p of importRows(req, writer, { create, edit, divisionId: tpl.divisionId }, rows, errors)) {
        last = p;
        yield sse('progress', p);
      }
      const result = { ...last, errors: errors.length };
      await q.recordBatchImport(db, upload.id, JSON.stringify(result), JSON.stringify(errors));
      await audit(db, req, {
        clientId,
        action: 'batch-import',
        entity: 'identities',
        entityId: upload.id,
        before: null,
        after: { template: tpl.name, fileName: upload.fileName, ...result },
      });
      // one change notice for the whole import (the catalogue's, which also refreshes what reads identities)
      writer.crud.notify(clientId, { resource: 'identities', id: 0, action: 'import' }, null);
      yield sse('end', result);
    }
    reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
    return reply.send(Readable.from(events(), { objectMode: true, highWaterMark: 1 }));
  });

  // the same report as data: the console writes it as a file in the reader's language (each problem by its key)
  app.get(`${base}/:id/errors`, { config }, async (req): Promise<BatchErrorReport> => ({ items: (await loadUpload(req)).upload.errors }));

  // the report as a file for the API's readers, in its language (English)
  app.get(`${base}/:id/errors.csv`, { config }, async (req, reply) => {
    const { upload } = await loadUpload(req);
    reply
      .header('content-type', TABULAR_TYPES.csv)
      .header('content-disposition', `attachment; filename="batch-${upload.id}-errors.csv"`)
      .header('cache-control', 'no-store');
    return errorReportCsv(upload.errors);
  });
}
