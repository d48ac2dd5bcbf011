// The one CRUD plugin every catalogue resource is served by: list (page, size, sort, q, filters), get, create,
// update, delete, bulk delete, an options endpoint for pickers, a streamed CSV / NDJSON export and named actions.
// Applied here once, never per handler: the privilege of each action, tenant scope (another tenant's id is 404),
// division scope (the user's grants for that action's code), references visible in the same scope, unique values
// (a pre-check, and the constraint as the truth: 23505 becomes a violation on the field), a delete of a row still
// referenced refused with 409 naming what uses it, optimistic concurrency (a stale updatedAt is 409), the
// before/after audit row in the same transaction, and a change notice per tenant after the commit.
import { Readable } from 'node:stream';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '../auth/accountScope'; // FastifyContextConfig's touches and accounts
import {
  BulkDeleteRequest, CATALOGUE, LIST_COUNT_CAP, PAGE_SIZE, SEARCH_COUNT_CAP, apiPaths, checkAllRules, columnOf, inputSchema, labelOf, intQueryFields, listQuerySchema, parseSort,
  checkUserFieldValues, recordActionBody, resourceByName, rowSchema, sortableFields, type AnyField, type Fields, type ResourceDeclaration, type Violation,
  actionCodes, isFilled, PLATFORM_PRIVILEGES,
} from '../../contract';
import { clientIdsOf } from '../auth/access';
import type { Db } from '../db/db';
import { HttpError, fill, audit, body, clientOf, divisionsFor, idParam, iso, principal, query } from '../http/common';
import type { Change, CrudContext, ResourceHooks, Row } from './hooks';
import { ResourceSql, type Scope } from './sql';
import { clientZone, sendTable, stamp, type Table } from '../http/tabular';

type Publish = (clientId: number, destination: string, body: unknown) => void;
export interface CrudOptions {
  db: Db; publish?: Publish; hooks?: Record<string, ResourceHooks>;
  /** A list counts at most this many matching rows; beyond, its total is a lower bound (LIST_COUNT_CAP). */
  countCap?: number;
  /** A q search counts at most this many matches first (SEARCH_COUNT_CAP, never above countCap). */
  searchCountCap?: number;
  /** Rows a broad search walks in the asked order per row of its page before it reads its matches (SEARCH_WINDOW_PER_ROW). */
  searchWindowPerRow?: number;
}

export const EXPORT_PAGE = 2000;
const OPTIONS_LIMIT = 50;
/** Child field kinds whose column reads the same through JSON as through the driver (text, integers, dates as text). */
const JSON_SAFE_CHILD = new Set<string>(['text', 'email', 'number', 'choice', 'switch', 'date', 'ref', 'timezone']);
/** At most this many ids found through another table go into a search as a list (more: a subquery). */
const SEARCH_VIA_MAX = 1000;
/** Rows a broad search walks in the asked order per row of the page it asks for, before it reads its matches instead
 *  (a search whose matches are 1 % of the rows or more finds its page in the window). */
export const SEARCH_WINDOW_PER_ROW = 100;
/** The most rows a broad search walks in the asked order before it reads its matches. */
const SEARCH_WINDOW_MAX = 20_000;

/** What a table that still points at a row holds, in words (a 409 names it, never the table). */
const TABLE_WORDS: Record<string, string> = {
  user_grants: 'operator grants', operator_group_grants: 'operator-group grants', role_privileges: 'role privileges',
  operator_group_members: 'operator-group members', events: 'events in the history', alarms: 'alarms', credentials: 'credentials',
  visitors: 'visitors', access_group_doors: 'access groups', access_group_members: 'access groups',
};

interface PgError { code?: string; detail?: string; constraint?: string; table?: string }
const pgError = (e: unknown): PgError => (e && typeof e === 'object' ? (e as PgError) : {});

/** Whoever may read a resource, or pick it in another resource's form, may read its options. */
export function optionCodesOf(r: ResourceDeclaration<any>): string[] {
  return [...new Set([...actionCodes(r, 'view'), ...(r.privileges.read ?? []), ...CATALOGUE.flatMap((o) => Object.values(o.fields as Fields)
    .some((f) => (f.kind === 'ref' || f.kind === 'refs') && f.target === r.name) ? [o.privileges.add, o.privileges.edit].filter((c): c is string => !!c) : [])])];
}

export function registerResource(app: FastifyInstance, r: ResourceDeclaration<any>, opts: CrudOptions) {
  const { db } = opts;
  const countCap = opts.countCap ?? LIST_COUNT_CAP;
  const searchCap = Math.min(opts.searchCountCap ?? SEARCH_COUNT_CAP, countCap);
  const windowPerRow = opts.searchWindowPerRow ?? SEARCH_WINDOW_PER_ROW;
  const hooks = opts.hooks?.[r.name] ?? {};
  /**
   * What a mutating route of this resource touches beyond the client's rows (issue 27, server/auth/accountScope.ts):
   * the whole installation when the resource is one set for it or the route's codes are platform privileges (creating
   * a client); an account when its rows carry one (hooks.accounts: a service account's users row); else the client.
   */
  const touching = (codes: readonly string[], record: boolean): Pick<FastifyContextConfig, 'touches' | 'accounts'> =>
    r.scope.tenant === 'platform' || codes.every((c) => PLATFORM_PRIVILEGES.includes(c)) ? { touches: 'platform' }
      : record && hooks.accounts ? { touches: 'account', accounts: hooks.accounts }
        : { touches: 'client' };
  const sql = new ResourceSql(r, hooks);
  const paths = apiPaths(r);
  const Input = inputSchema(r);
  const ListQuery = listQuerySchema(r);
  const RowStruct = rowSchema(r);
  const one = r.label.one;
  const entity = one.toLowerCase();
  const sortable = sortableFields(r);
  const intFields = intQueryFields(r);
  const fields = r.fields as Fields;
  const readCodes = [...actionCodes(r, 'view'), ...(r.privileges.read ?? [])];
  const optionCodes = optionCodesOf(r);

  async function scopeOf(dbx: Db, req: FastifyRequest, codes: string[]): Promise<Scope> {
    const p = principal(req);
    if (r.scope.tenant === 'self') return { clientId: null, tenants: await clientIdsOf(dbx, p.userId) };
    if (r.scope.tenant === 'platform') return { clientId: null };
    return { clientId: clientOf(req), divisions: r.scope.division ? divisionsFor(p, codes) : undefined, ...familyScope(p, codes) };
  }
  /** privileges.families: the rows of the families whose code for this action (among `codes`) the user holds. */
  function familyScope(p: ReturnType<typeof principal>, codes: string[]): Pick<Scope, 'rowValues'> {
    const fam = r.privileges.families;
    if (!fam) return {};
    const held = new Set(p.entries.flatMap((e) => e.privilegeIds).filter((c) => codes.includes(c)));
    const values = fam.of.filter((f) => [f.view, f.add, f.edit].some((c) => c && held.has(c))).flatMap((f) => [...f.values]);
    return { rowValues: { column: columnOf(fam.field, fields[fam.field]), values } };
  }
  /** A row about to be written must be of a family the user may write (403 naming the field otherwise). */
  function familyCheck(scope: Scope, input: Record<string, unknown>) {
    const fam = r.privileges.families;
    if (!fam || !scope.rowValues) return;
    const v = input[fam.field];
    if (typeof v === 'string' && !scope.rowValues.values.includes(v)) {
      const family = fam.of.find((f) => f.values.includes(v));
      throw new HttpError(403, fill('You may not save a {what} of this kind', { what: entity }),
        [{ field: fam.field, message: `needs privilege ${family?.add ?? family?.edit ?? family?.view ?? '?'}` }]);
    }
  }
  const ctxOf = (req: FastifyRequest, tx: Db, clientId: number | null): CrudContext => {
    const p = principal(req);
    return { req, tx, userId: p.userId, username: p.username, clientId };
  };

  // ---------- reading ----------
  function toRow(raw: Record<string, unknown>): Row {
    const out: Record<string, unknown> = { ...raw };
    for (const [k, f] of Object.entries(fields)) if (f.kind === 'timestamp' || f.kind === 'datetime') out[k] = iso(raw[k]);
    if (r.timestamps) { out.createdAt = iso(raw.createdAt); out.updatedAt = iso(raw.updatedAt); }
    return out as Row;
  }
  // The children and refs fields of a page (or a record), all in one query (issue 13: one query per field cost an
  // identity page one more round trip): each field one JSON array, a child as an object with its parent, id and fields
  // (dates as text, as the driver reads them at the top level), a link as [from, to]; ordered as one query per field was.
  const ownedParts = Object.entries(fields).flatMap(([k, f]): Array<{ key: string; kind: 'children' | 'refs'; sql: string }> => {
    if (f.kind === 'children') {
      const c = f.children!;
      const pairs = [`'_parent', c.${c.parent}`, `'id', c.id`, ...Object.entries(c.fields).map(([ck, cf]) => {
        if (!JSON_SAFE_CHILD.has(cf.kind)) throw new Error(`${r.name}.${k}.${ck}: a ${cf.kind} child field has no JSON reading`);
        return `'${ck}', c.${columnOf(ck, cf)}${cf.kind === 'date' ? '::text' : ''}`;
      })];
      const tenant = r.scope.tenant === true ? ' and c.client_id = $2' : '';
      return [{ key: k, kind: 'children', sql: `(select coalesce(json_agg(json_build_object(${pairs.join(', ')}) order by c.id), '[]'::json) from ${c.table} c where c.${c.parent} = any($1::int[])${tenant})` }];
    }
    if (f.kind === 'refs') {
      const t = f.through!;
      return [{ key: k, kind: 'refs', sql: `(select coalesce(json_agg(json_build_array(l.${t.from}, l.${t.to}) order by l.${t.to}), '[]'::json) from ${t.table} l where l.${t.from} = any($1::int[]))` }];
    }
    return [];
  });
  const ownedTenant = ownedParts.some((p) => p.kind === 'children') && r.scope.tenant === true;
  async function withOwned(dbx: Db, rows: Row[], clientId: number | null): Promise<Row[]> {
    if (!rows.length || !ownedParts.length) return rows;
    const ids = rows.map((x) => x.id);
    const { rows: [got] } = await dbx.query<Record<string, unknown>>(`select ${ownedParts.map((p, i) => `${p.sql} as o${i}`).join(', ')}`, ownedTenant ? [ids, clientId] : [ids]);
    ownedParts.forEach((p, i) => {
      const all = got[`o${i}`] as unknown[]; // json: both drivers hand it over parsed
      for (const row of rows) {
        (row as Record<string, unknown>)[p.key] = p.kind === 'children'
          ? (all as Array<Record<string, unknown>>).filter((x) => x._parent === row.id).map(({ _parent, ...rest }) => rest)
          : (all as Array<[number, number]>).filter((x) => x[0] === row.id).map((x) => x[1]);
      }
    });
    return rows;
  }
  async function load(dbx: Db, scope: Scope, id: number, lock = false): Promise<Row> {
    const params: unknown[] = [id];
    const where = `t.id = $1 and ${sql.scopeWhere(scope, params)}`;
    const locked = lock ? ` for update of t` : '';
    const { rows } = await dbx.query<Record<string, unknown>>(`select ${sql.select(false)} from ${sql.from()} where ${where}${locked}`, params);
    if (!rows[0]) throw new HttpError(404, fill('{what} not found', { what: one }));
    return (await withOwned(dbx, [toRow(rows[0])], scope.clientId))[0];
  }

  /** The ids a hook's q search finds through another table, looked up first (a list the planner can index and
   *  hash), or null when there are more than SEARCH_VIA_MAX (then the search reads them as a subquery). */
  async function searchVia(dbx: Db, scope: Scope, text: string): Promise<number[] | null> {
    if (!hooks.searchIds) return null;
    const tenant = r.scope.tenant === true && scope.clientId !== null;
    const { rows } = await dbx.query<{ id: number }>(`select distinct x.id from (${hooks.searchIds('$1', tenant ? '$2' : undefined)}) x(id) limit ${SEARCH_VIA_MAX + 1}`,
      tenant ? [ResourceSql.pattern(text), scope.clientId] : [ResourceSql.pattern(text)]);
    return rows.length > SEARCH_VIA_MAX ? null : rows.map((x) => Number(x.id));
  }
  /** WHERE of a list or export: scope, q over the searchable fields, the filters (filterConditions). */
  async function listWhere(dbx: Db, scope: Scope, f: Record<string, unknown>, params: unknown[]): Promise<string> {
    const { base, match } = await listParts(dbx, scope, f, params);
    return match ? `${base} and ${match}` : base;
  }
  /** The WHERE in two parts: `base` (scope and filters) and `match` (the q search, null without one). */
  async function listParts(dbx: Db, scope: Scope, f: Record<string, unknown>, params: unknown[]): Promise<{ base: string; match: string | null }> {
    let base = sql.scopeWhere(scope, params);
    const text = typeof f.q === 'string' ? f.q.trim() : '';
    const match = text ? sql.searchWhere(text, params, await searchVia(dbx, scope, text)) : null;
    for (const c of filterConditions(f)) base += ` and ${sql.filterWhere(c.field, c.value, params, c.op)}`;
    return { base, match };
  }
  /** The list query's filters in force: an equality per filterable field, and a date's `From` / `To` bounds. */
  function filterConditions(f: Record<string, unknown>): { field: string; value: unknown; op: '=' | '>=' | '<=' }[] {
    const given = (v: unknown) => v !== undefined && v !== null && v !== '';
    const out: { field: string; value: unknown; op: '=' | '>=' | '<=' }[] = [];
    for (const [k, fd] of Object.entries(fields)) {
      if (!fd.filter) continue;
      if (given(f[k])) out.push({ field: k, value: f[k], op: '=' });
      if (fd.kind === 'date' && given(f[`${k}From`])) out.push({ field: k, value: f[`${k}From`], op: '>=' });
      if (fd.kind === 'date' && given(f[`${k}To`])) out.push({ field: k, value: f[`${k}To`], op: '<=' });
    }
    return out;
  }
  const parseList = (raw: unknown) => query(raw, ListQuery, intFields) as Record<string, unknown> & { page?: number; size?: number; sort?: string };

  const auditView = (row: Row | null) => {
    if (!row) return null;
    const out: Record<string, unknown> = { ...row };
    for (const k of r.audit?.omit ?? []) if (out[k] !== null && out[k] !== undefined) out[k] = `(${k})`;
    return out;
  };
  const auditClient = (scope: Scope, id: number) => (r.scope.tenant === 'self' ? id : scope.clientId);
  function notify(clientId: number | null, change: Change, after: Row | null) {
    if (clientId === null) return;
    opts.publish?.(clientId, `/changes/${r.name}`, change);
    hooks.afterCommit?.(clientId, change, after);
  }

  // ---------- checks a schema cannot make ----------
  async function references(dbx: Db, req: FastifyRequest, scope: Scope, input: Record<string, unknown>): Promise<Violation[]> {
    const out: Violation[] = [];
    const p = principal(req);
    for (const [k, f] of Object.entries(fields)) {
      if ((f.kind !== 'ref' && f.kind !== 'refs') || f.readOnly) continue;
      const ids = (f.kind === 'ref' ? [input[k]] : (input[k] as unknown[] | undefined) ?? []).filter((v): v is number => typeof v === 'number');
      if (!ids.length) continue;
      const target = resourceByName(f.target!)!;
      const what = target.label.one.toLowerCase();
      const params: unknown[] = [ids];
      let where = 'x.id = any($1::int[])';
      if (target.scope.tenant === true) { params.push(scope.clientId); where += ` and x.client_id = $${params.length}`; }
      if (r.scope.division === k) {
        // the row's own division: one the user's grants for this action cover
        if (ids.some((id) => !(scope.divisions ?? []).includes(id))) { out.push({ field: k, message: `is not a ${what} you may use` }); continue; }
      } else if (target.scope.division) {
        params.push(divisionsFor(p, optionCodesOf(target)));
        const col = target.scope.division === 'id' ? 'id' : columnOf(target.scope.division, (target.fields as Fields)[target.scope.division]);
        where += ` and x.${col} = any($${params.length}::int[])`;
      }
      const { rows } = await dbx.query<{ id: number }>(`select x.id from ${target.table} x where ${where}`, params);
      if (rows.length !== new Set(ids).size) out.push({ field: k, message: `is not a ${what} you may use` });
    }
    // references of owned rows (an access group's doors and schedules): each row's field named when it is not visible
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind !== 'children' || !Array.isArray(input[k])) continue;
      for (const [ck, cf] of Object.entries(f.children!.fields)) {
        if (cf.kind !== 'ref' || cf.readOnly) continue;
        const rows = input[k] as Record<string, unknown>[];
        const ids = [...new Set(rows.map((x) => x?.[ck]).filter((v): v is number => typeof v === 'number'))];
        if (!ids.length) continue;
        const target = resourceByName(cf.target!)!;
        const params: unknown[] = [ids];
        let where = 'x.id = any($1::int[])';
        if (target.scope.tenant === true) { params.push(scope.clientId); where += ` and x.client_id = $${params.length}`; }
        if (target.scope.division) {
          params.push(divisionsFor(p, optionCodesOf(target)));
          const col = target.scope.division === 'id' ? 'id' : columnOf(target.scope.division, (target.fields as Fields)[target.scope.division]);
          where += ` and x.${col} = any($${params.length}::int[])`;
        }
        const seen = new Set((await dbx.query<{ id: number }>(`select x.id from ${target.table} x where ${where}`, params)).rows.map((x) => Number(x.id)));
        rows.forEach((x, i) => { if (typeof x?.[ck] === 'number' && !seen.has(x[ck] as number)) out.push({ field: `${k}.${i}.${ck}`, message: `is not a ${target.label.one.toLowerCase()} you may use` }); });
      }
    }
    return out;
  }

  async function uniques(dbx: Db, scope: Scope, clientId: number | null, input: Record<string, unknown>, id: number | null): Promise<Violation[]> {
    const out: Violation[] = [];
    for (const [k, f] of sql.writableFields()) {
      if (!f.unique || input[k] === undefined || input[k] === null) continue;
      const params: unknown[] = [input[k], id ?? 0];
      let where = `${columnOf(k, f)} = $1 and id <> $2`;
      if (f.unique === 'tenant' && r.scope.tenant === true) { params.push(scope.clientId); where += ` and client_id = $3`; }
      if ((await dbx.query(`select 1 from ${r.table} where ${where} limit 1`, params)).rows.length) out.push({ field: k, message: f.uniqueMessage ?? `is already used by another ${entity}` });
    }
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind !== 'children' || !Array.isArray(input[k])) continue;
      const c = f.children!;
      for (const [ck, cf] of Object.entries(c.fields)) {
        if (!cf.unique) continue;
        for (const [i, row] of (input[k] as Record<string, unknown>[]).entries()) {
          if (row[ck] === undefined || row[ck] === null) continue;
          const params: unknown[] = [row[ck], id ?? 0];
          let where = `${columnOf(ck, cf)} = $1 and ${c.parent} <> $2`;
          if (cf.unique === 'tenant' && clientId !== null) { params.push(clientId); where += ' and client_id = $3'; }
          if ((await dbx.query(`select 1 from ${c.table} where ${where} limit 1`, params)).rows.length) out.push({ field: `${k}.${i}.${ck}`, message: cf.uniqueMessage ?? `is already used by another ${entity}` });
        }
      }
    }
    return out;
  }

  /** The constraint is the truth: a unique violation the pre-check missed (a race) becomes a violation too. */
  function uniqueViolation(e: unknown, input: Record<string, unknown>): Violation | null {
    const err = pgError(e);
    if (err.code !== '23505') return null;
    const cols = /Key \(([^)]+)\)/.exec(err.detail ?? '')?.[1].split(',').map((s) => s.trim()) ?? [];
    const hit = (name: string, f: AnyField) => cols.includes(columnOf(name, f)) || (err.constraint ?? '').includes(columnOf(name, f));
    for (const [k, f] of sql.writableFields()) if (f.unique && hit(k, f)) return { field: k, message: f.uniqueMessage ?? `is already used by another ${entity}` };
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind !== 'children') continue;
      for (const [ck, cf] of Object.entries(f.children!.fields)) {
        if (!cf.unique || !hit(ck, cf)) continue;
        const value = /=\((?:[^,]*, )?([^)]*)\)/.exec(err.detail ?? '')?.[1];
        const i = Math.max(0, ((input[k] as Record<string, unknown>[]) ?? []).findIndex((x) => String(x[ck]) === value));
        return { field: `${k}.${i}.${ck}`, message: cf.uniqueMessage ?? `is already used by another ${entity}` };
      }
    }
    return { field: '(body)', message: 'is already there' };
  }

  /** An extensible resource's `udf` against the tenant's user-defined fields: cleaned in place, violations named udf.<key>. */
  async function userFieldViolations(ctx: CrudContext, input: Record<string, unknown>, before: Row | null): Promise<Violation[]> {
    if (!r.extensible || !hooks.userFields || ctx.clientId === null) return [];
    const defs = await hooks.userFields(ctx.tx, ctx.clientId);
    const given = input.udf === undefined ? ((before?.udf as Record<string, unknown> | undefined) ?? {}) : (input.udf as Record<string, unknown> | null);
    const { violations, value } = checkUserFieldValues(defs, given);
    input.udf = value;
    return violations;
  }

  async function checks(ctx: CrudContext, req: FastifyRequest, scope: Scope, input: Record<string, unknown>, before: Row | null) {
    const v: Violation[] = [
      ...(await userFieldViolations(ctx, input, before)),
      ...checkAllRules(r, input),
      ...(await references(ctx.tx, req, scope, input)),
      ...(await uniques(ctx.tx, scope, ctx.clientId, input, before?.id ?? null)),
      ...((await hooks.validate?.(ctx, input, before)) ?? []),
    ];
    // a field the generic checks and a hook both refuse is named once (the first reason)
    const once = v.filter((x, i) => v.findIndex((y) => y.field === x.field) === i);
    if (once.length) throw new HttpError(400, 'Validation failed', once);
  }

  // ---------- writing ----------
  async function writeOwned(dbx: Db, clientId: number | null, id: number, input: Record<string, unknown>) {
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind === 'children' && Array.isArray(input[k])) {
        // upserted by id: a kept row is updated in place (its id stays), a new one inserted, a dropped one deleted
        const c = f.children!;
        const rows = input[k] as Record<string, unknown>[];
        const cols = Object.entries(c.fields).filter(([, cf]) => !cf.readOnly && !cf.virtual);
        const tenant = r.scope.tenant === true && clientId !== null;
        const existing = (await dbx.query<{ id: number }>(`select id from ${c.table} where ${c.parent} = $1`, [id])).rows.map((x) => x.id);
        const kept = new Set(rows.map((x) => x.id).filter((x): x is number => typeof x === 'number' && existing.includes(x)));
        const gone = existing.filter((x) => !kept.has(x));
        if (gone.length) await dbx.query(`delete from ${c.table} where ${c.parent} = $1 and id = any($2::int[])`, [id, gone]);
        for (const row of rows) {
          const values = cols.map(([ck]) => row[ck] ?? null);
          if (typeof row.id === 'number' && kept.has(row.id)) {
            await dbx.query(`update ${c.table} set ${cols.map(([ck, cf], i) => `${columnOf(ck, cf)} = $${i + 3}`).join(', ')} where id = $1 and ${c.parent} = $2`, [row.id, id, ...values]);
          } else {
            const names = [c.parent, ...(tenant ? ['client_id'] : []), ...cols.map(([ck, cf]) => columnOf(ck, cf))];
            const vals = [id, ...(tenant ? [clientId] : []), ...values];
            await dbx.query(`insert into ${c.table} (${names.join(', ')}) values (${vals.map((_, i) => `$${i + 1}`).join(', ')})`, vals);
          }
        }
      } else if (f.kind === 'refs' && Array.isArray(input[k])) {
        const t = f.through!;
        const want = [...new Set(input[k] as number[])];
        await dbx.query(`delete from ${t.table} where ${t.from} = $1 and not (${t.to} = any($2::int[]))`, [id, want]);
        for (const to of want) await dbx.query(`insert into ${t.table} (${t.from}, ${t.to}) values ($1, $2) on conflict do nothing`, [id, to]);
      }
    }
  }

  /** Runs a write in a savepoint so a constraint failure can still be answered as a violation. */
  async function guarded<T>(dbx: Db, input: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
    await dbx.query('savepoint crud_write');
    try {
      const out = await fn();
      await dbx.query('release savepoint crud_write');
      return out;
    } catch (e) {
      const v = uniqueViolation(e, input);
      if (!v) throw e;
      await dbx.query('rollback to savepoint crud_write');
      throw new HttpError(400, 'Validation failed', [v]);
    }
  }

  async function insert(ctx: CrudContext, input: Record<string, unknown>): Promise<number> {
    const extra = (await hooks.beforeInsert?.(ctx, input)) ?? {};
    const cols: string[] = [];
    const vals: unknown[] = [];
    if (r.scope.tenant === true) { cols.push('client_id'); vals.push(ctx.clientId); }
    for (const [k, f] of sql.writableFields()) if (input[k] !== undefined) { cols.push(columnOf(k, f)); vals.push(input[k]); }
    for (const [c, v] of Object.entries(extra)) { cols.push(c); vals.push(v); }
    if (r.extensible && input.udf !== undefined) { cols.push('udf'); vals.push(JSON.stringify(input.udf)); }
    const { rows } = await ctx.tx.query<{ id: number }>(`insert into ${r.table} (${cols.join(', ')}) values (${vals.map((_, i) => `$${i + 1}`).join(', ')}) returning id`, vals);
    return rows[0].id;
  }
  async function update(ctx: CrudContext, id: number, input: Record<string, unknown>, before: Row) {
    const extra = (await hooks.beforeUpdate?.(ctx, input, before)) ?? {};
    const sets: string[] = [];
    const vals: unknown[] = [id];
    for (const [c, v] of Object.entries(extra)) { vals.push(v); sets.push(`${c} = $${vals.length}`); }
    for (const [k, f] of sql.writableFields()) {
      if (f.writeOnly && (input[k] === undefined || input[k] === null)) continue; // a secret left out is kept
      vals.push(input[k] ?? null); sets.push(`${columnOf(k, f)} = $${vals.length}`);
    }
    if (r.extensible && input.udf !== undefined) { vals.push(JSON.stringify(input.udf)); sets.push(`udf = $${vals.length}::jsonb`); }
    if (r.timestamps) sets.push('updated_at = now()');
    if (sets.length) await ctx.tx.query(`update ${r.table} set ${sets.join(', ')} where id = $1`, vals);
  }

  /** What still uses these rows (another resource's reference or join table): 409 naming it. */
  async function stillUsed(dbx: Db, ids: number[]) {
    for (const other of CATALOGUE) {
      for (const [k, f] of Object.entries(other.fields as Fields)) {
        if (f.target !== r.name) continue;
        let n = 0;
        // a reference declared onDelete 'cascade' goes with its target, 'set-null' is emptied (its foreign key says
        // so): neither holds the target back
        if (f.kind === 'ref' && !f.virtual && f.onDelete !== 'cascade' && f.onDelete !== 'set-null') {
          n = Number((await dbx.query<{ n: string }>(`select count(*)::text n from ${other.table} where ${columnOf(k, f)} = any($1::int[])${other === r ? ' and not (id = any($1::int[]))' : ''}`, [ids])).rows[0].n);
        } else if (f.kind === 'refs' && f.onDelete !== 'cascade') {
          n = Number((await dbx.query<{ n: string }>(`select count(*)::text n from ${f.through!.table} where ${f.through!.to} = any($1::int[])`, [ids])).rows[0].n);
        }
        if (n > 0) throw new HttpError(409, n === 1 ? fill('Still used by 1 {what}: change or delete it first', { what: other.label.one.toLowerCase() })
          : fill('Still used by {n} {what}: change or delete them first', { n, what: other.label.many.toLowerCase() }));
      }
    }
  }
  async function remove(req: FastifyRequest, ids: number[]) {
    const scope = await scopeOf(db, req, [r.privileges.delete!]);
    const changes = await db.transaction(async (tx) => {
      const unique = [...new Set(ids)];
      const befores: Row[] = [];
      // all or nothing: one id that is not visible (another tenant's, another division's, gone) deletes none
      for (const id of unique) {
        try { befores.push(await load(tx, scope, id, true)); } catch { throw new HttpError(404, unique.length > 1 ? fill('Some {what} were not found; nothing was deleted', { what: r.label.many.toLowerCase() }) : fill('{what} not found', { what: one })); }
      }
      await stillUsed(tx, unique);
      const used = await hooks.inUse?.(tx, unique);
      if (used) throw new HttpError(409, used);
      await tx.query('savepoint crud_delete');
      try {
        await tx.query(`delete from ${r.table} where id = any($1::int[])`, [unique]);
        await tx.query('release savepoint crud_delete');
      } catch (e) {
        if (pgError(e).code !== '23503') throw e;
        await tx.query('rollback to savepoint crud_delete');
        throw new HttpError(409, fill('Still used by {what}: change or delete them first', { what: TABLE_WORDS[pgError(e).table ?? ''] ?? 'other records' }));
      }
      for (const before of befores) {
        await audit(tx, req, { clientId: auditClient(scope, before.id), action: 'delete', entity, entityId: before.id, before: auditView(before), after: null });
      }
      return befores.map((b) => ({ clientId: auditClient(scope, b.id), id: b.id }));
    });
    for (const c of changes) notify(c.clientId, { resource: r.name, id: c.id, action: 'delete' }, null);
    return { deleted: changes.length };
  }

  // ---------- routes ----------
  const listCodes = [...actionCodes(r, 'view'), ...(r.privileges.list ?? [])];
  if (!r.singleton && (typeof r.routes !== 'object' || r.routes.list !== false)) app.get(paths.list, { config: { privileges: listCodes } }, async (req) => {
    const f = parseList(req.query);
    const scope = await scopeOf(db, req, listCodes);
    const params: unknown[] = [];
    const { base, match } = await listParts(db, scope, f, params);
    const where = match ? `${base} and ${match}` : base;
    let order = parseSort(r.list.sort.join(','), sortable);
    if (f.sort) order = parseSort(f.sort, sortable);
    const orderBy = [...order.map((s) => `${sql.expr(s.field)} ${s.dir}`), 't.id asc'].join(', ');
    const page = f.page ?? 0;
    const size = f.size ?? PAGE_SIZE;
    const offset = page * size;
    // issue 11: an exact count of every matching row was most of a page's time at 200,000 rows. At most countCap + 1
    // rows are counted; beyond, the total is a lower bound (`totalIsAtLeast`, "1–20 of 10,000+").
    const searching = typeof f.q === 'string' && f.q.trim() !== '';
    const filtered = filterConditions(f).length > 0;
    // issue 13: the whole scope's count, where the resource keeps one (identities per division), is read, not counted
    const countUpTo = async () => (!searching && !filtered && hooks.countScope ? Math.min(await hooks.countScope(db, scope), countCap + 1)
      : Number((await db.query<{ n: string }>(`select count(*)::text n from (select 1 from ${sql.from(where)} where ${where} limit ${countCap + 1}) x`, params)).rows[0].n));
    // issue 13: a search first reads at most searchCap + 1 of its matches from the trigram bitmap, with only their
    // ids and sort keys, counted by a window and sorted, and the page's rows then by id. (The subquery's LIMIT keeps
    // the planner from walking the sort order's index instead: it guesses the matches are spread evenly, and
    // "Last77" lies behind 190,000 others in name order.)
    /** The answer for a page whose row ids are known. */
    const pageOf = async (ids: number[], total: number, totalIsAtLeast: boolean) => {
      const rows = ids.length ? (await db.query<Record<string, unknown>>(`select ${sql.select(true)} from ${sql.from()} where t.id = any($1::int[]) order by ${orderBy}`, [ids])).rows : [];
      return { items: await withOwned(db, rows.map(toRow), scope.clientId), total, totalIsAtLeast, page, size };
    };
    const matches = async (cap: number) => {
      const keys = order.map((s, i) => `${sql.expr(s.field)} as k${i}`);
      const fenced = [...order.map((s, i) => `x.k${i} ${s.dir}`), 'x.id asc'].join(', ');
      const { rows: hits } = await db.query<{ id: number; n: string }>(`select x.id, count(*) over ()::text n from (select ${['t.id', ...keys].join(', ')}
        from ${sql.from(where + keys.join())} where ${where} limit ${cap + 1}) x order by ${fenced} limit ${size} offset ${offset}`, params);
      return { ids: hits.map((x) => Number(x.id)), n: hits.length ? Number(hits[0].n) : null };
    };
    let n: number | null = null;
    if (searching && match) {
      const first = await matches(searchCap);
      n = first.n ?? await countUpTo();
      if (n <= searchCap) return pageOf(first.ids, n, false);
      // More than searchCap match: a broad search ("CC-1", 55,000 of 200,000). Its page lies early in the asked
      // order, so that order's index is walked for a bounded window, each row tested, until the page and one more
      // row are found (the outer LIMIT stops the walk there). Where the window is too short (the matches lie
      // further on in that order), the matches are read and sorted as below, up to the list's count cap.
      const walk = Math.min(SEARCH_WINDOW_MAX, windowPerRow * (offset + size + 1));
      const { rows: walked } = await db.query<{ id: number }>(`select x.id from (select t.id, (${match}) m from ${sql.from(match + base + orderBy)} where ${base}
        order by ${orderBy} limit ${walk}) x where x.m limit ${size + 1} offset ${offset}`, params);
      if (walked.length > size) return pageOf(walked.slice(0, size).map((x) => Number(x.id)), Math.max(searchCap, offset + size + 1), true);
      if (searchCap < countCap) {
        const again = await matches(countCap);
        n = again.n ?? await countUpTo();
        if (n <= countCap) return pageOf(again.ids, n, false);
      }
    }
    // one row more than the page: whether there are more rows is known without counting them
    const { rows } = await db.query<Record<string, unknown>>(`select ${sql.select(true)} from ${sql.from()} where ${where} order by ${orderBy} limit ${size + 1} offset ${offset}`, params);
    const more = rows.length > size;
    if (more) rows.pop();
    // the last page (or a short first one) tells the total exactly; past the cap the rows seen so far are the bound
    let total = offset + rows.length;
    let totalIsAtLeast = false;
    if (n !== null) {
      // a search that found more than the cap: a lower bound until its last page
      if (more || !rows.length) {
        totalIsAtLeast = true;
        total = Math.max(countCap, offset + rows.length + (more ? 1 : 0));
      }
    } else if (more && offset + size + 1 > countCap) {
      totalIsAtLeast = true;
      total = offset + size + 1;
    } else if (more || (!rows.length && page > 0)) {
      const counted = await countUpTo();
      totalIsAtLeast = counted > countCap;
      total = Math.min(counted, countCap);
    }
    return { items: await withOwned(db, rows.map(toRow), scope.clientId), total, totalIsAtLeast, page, size };
  });

  if (!r.singleton) app.get(paths.options, { config: { privileges: optionCodes } }, async (req) => {
    const raw = (req.query ?? {}) as Record<string, unknown>;
    const text = typeof raw.q === 'string' ? raw.q.slice(0, 200).trim() : '';
    const ids = typeof raw.ids === 'string' && raw.ids !== '' ? raw.ids.split(',').map(Number) : [];
    if (ids.some((n) => !Number.isInteger(n) || n < 1 || n > 2_147_483_647) || ids.length > 1000) throw new HttpError(400, 'Validation failed', [{ field: 'ids', message: 'must be whole numbers separated by commas' }]);
    const scope = await scopeOf(db, req, optionCodes);
    const params: unknown[] = [];
    let where = sql.scopeWhere(scope, params);
    if (ids.length) { params.push(ids); where += ` and t.id = any($${params.length}::int[])`; }
    if (text) where += ` and ${sql.searchWhere(text, params, await searchVia(db, scope, text))}`;
    const title = r.list.title.map((k) => `coalesce(${sql.expr(k)}::text, '')`).join(` || ', ' || `);
    const { rows } = await db.query<{ id: number; label: string }>(`select t.id, ${title} as label from ${sql.from()} where ${where} order by label, t.id limit ${ids.length || OPTIONS_LIMIT}`, params);
    return { items: rows };
  });

  if (r.export?.length) {
    // a list that exports CSV exports XLSX too: both through the shared writer (server/http/tabular.ts)
    const formats: string[] = [...r.export, ...(r.export.includes('csv') ? ['xlsx'] : [])];
    const columns = ['id', ...Object.entries(fields).filter(([k, f]) => f.kind !== 'children' && f.kind !== 'refs' && f.kind !== 'image' && f.kind !== 'file' && !f.writeOnly && !(r.audit?.omit ?? []).includes(k)).map(([k]) => k),
      ...(r.timestamps ? ['createdAt', 'updatedAt'] : [])];
    const isTime = (c: string) => c === 'createdAt' || c === 'updatedAt' || fields[c]?.kind === 'timestamp' || fields[c]?.kind === 'datetime';
    // titles as the screens name columns; a reference whose label another column shares (divisionId and divisionName
    // are both "Division") is named for what it holds: "Division id"
    const labelled = (c: string) => (c === 'id' ? 'Id' : c === 'createdAt' ? 'Created' : c === 'updatedAt' ? 'Updated' : fields[c] ? labelOf(c, fields[c]) : c);
    const titleOf = (c: string) => {
      const label = labelled(c);
      return fields[c]?.kind === 'ref' && columns.some((o) => o !== c && labelled(o).toLowerCase() === label.toLowerCase()) ? `${label} id` : label;
    };
    app.get(paths.export, { config: { privileges: actionCodes(r, 'view') } }, async (req, reply) => {
      const raw = { ...((req.query ?? {}) as Record<string, unknown>) };
      const format = (raw.format ?? 'csv') as string;
      // `titles=1`: the header names the columns as the screens do ("Employee no."), for a person's download
      const titled = raw.titles === '1' || raw.titles === 'true';
      if (raw.titles !== undefined && !titled && raw.titles !== '0' && raw.titles !== 'false') throw new HttpError(400, 'Validation failed', [{ field: 'titles', message: 'must be 1 or 0' }]);
      delete raw.format;
      delete raw.titles;
      if (!formats.includes(format)) throw new HttpError(400, 'Validation failed', [{ field: 'format', message: `must be one of ${formats.join(', ')}` }]);
      const f = parseList(raw);
      const scope = await scopeOf(db, req, actionCodes(r, 'view'));
      const params: unknown[] = [];
      const where = await listWhere(db, scope, f, params);
      await audit(db, req, { clientId: scope.clientId, action: 'export', entity: r.name, entityId: null, before: null, after: { format, query: req.query } });
      const n = params.length;
      // an extensible resource: one more column per user-defined field, `udf.<key>`
      const udfKeys = r.extensible && hooks.userFields && scope.clientId !== null ? (await hooks.userFields(db, scope.clientId)).map((d) => d.key) : [];
      const header = [...columns, ...udfKeys.map((k) => `udf.${k}`)];
      const cellsOf = (row: Row) => [...columns.map((c) => row[c]), ...udfKeys.map((k) => (row.udf as Record<string, unknown> | null)?.[k] ?? null)];
      // keyset pages by id, each read when the socket took the last: memory stays flat whatever the size
      async function* rowsOf(): AsyncGenerator<unknown[]> {
        let cursor = 0;
        for (;;) {
          const { rows } = await db.query<Record<string, unknown>>(
            `select ${sql.select(true)} from ${sql.from()} where ${where} and t.id > $${n + 1} order by t.id limit ${EXPORT_PAGE}`, [...params, cursor]);
          for (const raw of rows) yield cellsOf(toRow(raw));
          if (rows.length < EXPORT_PAGE) return;
          cursor = Number(rows[rows.length - 1].id);
        }
      }
      const stem = `${r.name}-${stamp()}`;
      if (format === 'csv' || format === 'xlsx') {
        const table: Table = {
          columns: [...columns.map((c) => ({ title: titled ? titleOf(c) : c, time: isTime(c) })), ...udfKeys.map((k) => ({ title: `udf.${k}` }))],
          zone: await clientZone(db, scope.clientId), rows: rowsOf(),
        };
        return sendTable(reply, format, stem, table, { sheet: r.label.many });
      }
      async function* ndjson() {
        let text = '', lines = 0;
        for await (const cells of rowsOf()) {
          text += JSON.stringify(Object.fromEntries(header.map((c, i) => [c, cells[i] ?? null]))) + '\n';
          if (++lines % 500 === 0) { yield text; text = ''; }
        }
        if (text) yield text;
      }
      reply.header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${stem}.${format}"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(ndjson(), { objectMode: true, highWaterMark: 1 }));
    });
  }

  app.get(paths.one, { config: { privileges: readCodes } }, async (req) => {
    const scope = await scopeOf(db, req, readCodes);
    return load(db, scope, idParam(req, one));
  });

  /** A singleton's row of the tenant (made with its columns' defaults the first time). */
  async function singletonId(req: FastifyRequest): Promise<number> {
    if (r.scope.tenant === 'platform') {
      await db.query(`insert into ${r.table} (id) values (1) on conflict (id) do nothing`);
      return 1;
    }
    const clientId = clientOf(req);
    await db.query(`insert into ${r.table} (client_id) values ($1) on conflict (client_id) do nothing`, [clientId]);
    return Number((await db.query<{ id: number }>(`select id from ${r.table} where client_id = $1`, [clientId])).rows[0].id);
  }
  if (r.singleton) {
    app.get(paths.list, { config: { privileges: readCodes } }, async (req) => {
      const scope = await scopeOf(db, req, readCodes);
      return load(db, scope, await singletonId(req));
    });
  }

  if (r.privileges.add) {
    const addCodes = actionCodes(r, 'add');
    app.post(paths.list, { config: { privileges: addCodes, ...touching(addCodes, false) } }, async (req, reply) => {
      const input = body(req.body, Input) as Record<string, unknown>;
      delete input.updatedAt;
      const secretsMissing = Object.entries(fields).filter(([k, f]) => f.writeOnly && f.required && (input[k] === undefined || input[k] === null));
      if (secretsMissing.length) throw new HttpError(400, 'Validation failed', secretsMissing.map(([k]) => ({ field: k, message: 'is required' })));
      const scope = await scopeOf(db, req, addCodes);
      familyCheck(scope, input);
      const created = await db.transaction(async (tx) => {
        const ctx = ctxOf(req, tx, scope.clientId);
        await checks(ctx, req, scope, input, null);
        const id = await guarded(tx, input, async () => {
          const newId = await insert(ctx, input);
          await writeOwned(tx, scope.clientId, newId, input);
          return newId;
        });
        const clientId = auditClient(scope, id);
        // the new row is visible to its creator: a new tenant (clients), a new division (divisions) inside one they add in
        const own = r.scope.tenant === 'self' ? { ...scope, tenants: [...(scope.tenants ?? []), id] }
          : r.scope.division === 'id' ? { ...scope, divisions: [...(scope.divisions ?? []), id] } : scope;
        const row0 = await load(tx, own, id);
        await hooks.afterInsert?.({ ...ctx, clientId }, row0);
        const after = await load(tx, own, id);
        await audit(tx, req, { clientId, action: 'create', entity, entityId: id, before: null, after: auditView(after) });
        return { after, clientId };
      });
      notify(created.clientId, { resource: r.name, id: created.after.id, action: 'create' }, created.after);
      return reply.code(201).send(req.oneTime ? { ...created.after, ...req.oneTime } : created.after);
    });
  }

  if (r.privileges.edit) {
    const editCodes = actionCodes(r, 'edit');
    const put = async (req: FastifyRequest, id: number) => {
      const input = body(req.body, Input) as Record<string, unknown>;
      const loadedAt = input.updatedAt;
      delete input.updatedAt;
      const scope = await scopeOf(db, req, editCodes);
      familyCheck(scope, input);
      const done = await db.transaction(async (tx) => {
        const before = await load(tx, scope, id, true);
        // optimistic concurrency: the form sends the updatedAt it loaded; someone saved since → 409, nothing written
        if (typeof loadedAt === 'string' && r.timestamps && Date.parse(loadedAt) !== Date.parse(String(before.updatedAt))) {
          throw new HttpError(409, fill('Someone else changed this {what} since you opened it. Reload it to see their changes; your typed values are kept.', { what: entity }));
        }
        const clientId = auditClient(scope, id);
        const ctx = ctxOf(req, tx, clientId);
        await checks(ctx, req, scope, input, before);
        await guarded(tx, input, async () => {
          await update(ctx, id, input, before);
          await writeOwned(tx, scope.clientId, id, input);
        });
        const after = await load(tx, scope, id);
        await audit(tx, req, { clientId, action: 'update', entity, entityId: id, before: auditView(before), after: auditView(after) });
        return { after, clientId };
      });
      notify(done.clientId, { resource: r.name, id, action: 'update' }, done.after);
      return done.after;
    };
    app.put(paths.one, { config: { privileges: editCodes, ...touching(editCodes, true) } }, async (req) => put(req, idParam(req, one)));
    if (r.singleton) app.put(paths.list, { config: { privileges: editCodes, ...touching(editCodes, false) } }, async (req) => put(req, await singletonId(req)));
  }

  if (r.privileges.delete) {
    const code = r.privileges.delete;
    app.delete(paths.one, { config: { privileges: [code], ...touching([code], true) } }, async (req) => remove(req, [idParam(req, one)]));
    app.post(paths.bulkDelete, { config: { privileges: [code], ...touching([code], true) } }, async (req) => remove(req, body(req.body, BulkDeleteRequest).ids));
  }

  for (const [name, action] of Object.entries(hooks.actions ?? {})) {
    // a record action the declaration names (screens.recordActions): its body (a reason) and when it is possible
    const declared = r.screens?.recordActions?.find((a) => a.action === name);
    const ActionBody = declared ? recordActionBody(declared) : null;
    // (privilege families: an action of the edit code is every family's edit code, each on its own family's rows)
    const actionCodesOf = r.privileges.families && actionCodes(r, 'edit').includes(action.privilege) ? actionCodes(r, 'edit') : [action.privilege];
    app.post(paths.action(name), { config: { privileges: actionCodesOf, ...touching(actionCodesOf, true) } }, async (req) => {
      const id = idParam(req, one);
      const input = ActionBody ? body(req.body ?? {}, ActionBody) as Record<string, unknown> : {};
      const scope = await scopeOf(db, req, actionCodesOf);
      const done = await db.transaction(async (tx) => {
        const before = await load(tx, scope, id, true);
        const when = declared?.when;
        if (when && !when.values.includes(String(before[when.field]))) {
          const fd = fields[when.field];
          const now = fd?.choices?.find((c) => c.value === before[when.field])?.label ?? String(before[when.field]);
          throw new HttpError(409, fill('{action} is no longer possible: this {what} is now “{state}”.', { what: entity, state: now, action: declared!.label }));
        }
        const needs = declared?.needs;
        if (needs && !isFilled(before[needs.field])) throw new HttpError(409, needs.hint, [{ field: needs.field, message: needs.hint }]);
        const clientId = auditClient(scope, id);
        await action.run(ctxOf(req, tx, clientId), before, input);
        const after = await load(tx, scope, id);
        const a = action.audit ? action.audit(before, after) : { before: auditView(before), after: auditView(after) };
        await audit(tx, req, { clientId, action: name, entity, entityId: id, ...a });
        return { after, clientId };
      });
      notify(done.clientId, { resource: r.name, id, action: name }, done.after);
      if (done.clientId !== null) action.afterCommit?.(done.clientId, done.after, { username: principal(req).username });
      return req.oneTime ? { ...done.after, ...req.oneTime } : done.after;
    });
  }
  return { sql, Input, Row: RowStruct, ListQuery };
}

/** Registers every catalogue resource that is served by the plugin. */
export function crudRoutes(app: FastifyInstance, opts: CrudOptions) {
  for (const r of CATALOGUE) if (r.routes !== false) registerResource(app, r, opts);
}
