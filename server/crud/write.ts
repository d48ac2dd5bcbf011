// Writing a catalogue resource: create (POST on the list path) and update (PUT …/:id, a singleton's PUT on the list
// path), each in one transaction with its checks (checks.ts), the row and its owned rows written in a savepoint (a
// constraint failure is still a violation), the hooks around it, the before/after audit row, and a change notice
// after the commit. An update is optimistic: a stale updatedAt is 409, nothing written.
// `rowWriter` is that write of one row inside a caller's transaction, without the notice: the routes below and the
// identity batch upload (server/batch) write through it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FIXED_SAID, actionCodes, columnOf, inputSchema, type UserFieldDef } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, fill, body, idParam, INVALID_REQUEST } from '../http/kit';
import { audit } from '../audit/trail';
import { writeChecks } from './checks';
import type { CrudContext, Row } from './hooks';
import type { CrudResource } from './context';
import type { Scope } from './sql';
import { checkOwnPerson } from './scopes';
import { inLockOrder } from '../db/queries/lockOrder';

/** How a caller other than the create and update routes writes a row (the batch upload). */
export interface WriteOptions {
  /** The audit row's action and values (default: create / update with the before and after views). */
  audit?: (id: number, before: Row | null) => { action: string; before: unknown; after: unknown };
  /** The tenant's user-defined fields, read once by a caller writing many rows. */
  userFields?: UserFieldDef[];
  /** false: the caller made the resource's validate hook's checks for all its rows at once (the batch's seats). */
  validateHook?: false;
  /** false: the caller holds a savepoint around the row and rolls back to it on any error (a unique violation is still
   *  answered as a violation on its field). */
  savepoint?: false;
  /** false: the caller needs no row read back after the write (the batch's audit row is the spreadsheet's row). */
  readBack?: false;
}
export interface Written<R = Row> {
  id: number;
  clientId: number | null;
  after: R;
}

export type RowWriter = ReturnType<typeof rowWriter>;

export function rowWriter(crud: CrudResource) {
  const { r, hooks, sql, fields, entity, ctxOf, load, auditView, auditClient } = crud;
  const { checks, uniqueViolation } = writeChecks(crud);
  /** The owned rows of row `id` as the input gives them (`fresh`: the row was just inserted and owns none yet). */
  async function writeOwned(dbx: Db, clientId: number | null, id: number, input: Record<string, unknown>, fresh = false) {
    for (const [k, f] of Object.entries(fields)) {
      if (f.kind === 'children' && Array.isArray(input[k])) {
        // upserted by id: a kept row is updated in place (its id stays), a new one inserted, a dropped one deleted
        const c = f.children!;
        const rows = input[k] as Record<string, unknown>[];
        const cols = Object.entries(c.fields).filter(([, cf]) => !cf.readOnly && !cf.virtual);
        const tenant = r.scope.tenant === true && clientId !== null;
        const existing = fresh ? [] : (await dbx.query<{ id: number }>(`select id from ${c.table} where ${c.parent} = $1`, [id])).rows.map((x) => x.id);
        const kept = new Set(rows.map((x) => x.id).filter((x): x is number => typeof x === 'number' && existing.includes(x)));
        const gone = existing.filter((x) => !kept.has(x));
        if (gone.length) await dbx.query(`delete from ${c.table} where ${c.parent} = $1 and id = any($2::int[])`, [id, gone]);
        for (const row of rows) {
          const values = cols.map(([ck]) => row[ck] ?? null);
          if (typeof row.id === 'number' && kept.has(row.id)) {
            await dbx.query(
              `update ${c.table} set ${cols.map(([ck, cf], i) => `${columnOf(ck, cf)} = $${i + 3}`).join(', ')} where id = $1 and ${c.parent} = $2`,
              [row.id, id, ...values],
            );
          } else {
            const names = [c.parent, ...(tenant ? ['client_id'] : []), ...cols.map(([ck, cf]) => columnOf(ck, cf))];
            const vals = [id, ...(tenant ? [clientId] : []), ...values];
            await dbx.query(`insert into ${c.table} (${names.join(', ')}) values (${vals.map((_, i) => `$${i + 1}`).join(', ')})`, vals);
          }
        }
      } else if (f.kind === 'refs' && Array.isArray(input[k])) {
        const t = f.through!;
        const want = [...new Set(input[k] as number[])];
        if (!fresh) await dbx.query(`delete from ${t.table} where ${t.from} = $1 and not (${t.to} = any($2::int[]))`, [id, want]);
        // in the order of the rows they link to: the foreign key check of each takes a key-share lock on that row, which
        // a bulk delete of them locks in the same order (delete.ts)
        for (const to of inLockOrder(want, (x) => x))
          await dbx.query(`insert into ${t.table} (${t.from}, ${t.to}) values ($1, $2) on conflict do nothing`, [id, to]);
      }
    }
  }

  /** Runs a write in a savepoint so a constraint failure can still be answered as a violation (`own`: false when
   *  the caller's savepoint is rolled back instead). */
  async function guarded<T>(dbx: Db, input: Record<string, unknown>, fn: () => Promise<T>, own = true): Promise<T> {
    if (own) await dbx.query('savepoint crud_write');
    try {
      const out = await fn();
      if (own) await dbx.query('release savepoint crud_write');
      return out;
    } catch (e) {
      const v = uniqueViolation(e, input);
      if (!v) throw e;
      if (own) await dbx.query('rollback to savepoint crud_write');
      throw new HttpError(400, INVALID_REQUEST, [v]);
    }
  }

  async function insert(ctx: CrudContext, input: Record<string, unknown>): Promise<number> {
    const extra = (await hooks.beforeInsert?.(ctx, input)) ?? {};
    const cols: string[] = [];
    const vals: unknown[] = [];
    if (r.scope.tenant === true) {
      cols.push('client_id');
      vals.push(ctx.clientId);
    }
    for (const [k, f] of sql.writableFields())
      if (input[k] !== undefined) {
        cols.push(columnOf(k, f));
        vals.push(input[k]);
      }
    for (const [c, v] of Object.entries(extra)) {
      cols.push(c);
      vals.push(v);
    }
    if (r.extensible && input.udf !== undefined) {
      cols.push('udf');
      vals.push(JSON.stringify(input.udf));
    }
    const { rows } = await ctx.tx.query<{ id: number }>(
      `insert into ${r.table} (${cols.join(', ')}) values (${vals.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
      vals,
    );
    return rows[0].id;
  }
  async function update(ctx: CrudContext, id: number, input: Record<string, unknown>, before: Row) {
    const extra = (await hooks.beforeUpdate?.(ctx, input, before)) ?? {};
    const sets: string[] = [];
    const vals: unknown[] = [id];
    for (const [c, v] of Object.entries(extra)) {
      vals.push(v);
      sets.push(`${c} = $${vals.length}`);
    }
    for (const [k, f] of sql.writableFields()) {
      if (f.writeOnly && (input[k] === undefined || input[k] === null)) continue; // a secret left out is kept
      vals.push(input[k] ?? null);
      sets.push(`${columnOf(k, f)} = $${vals.length}`);
    }
    if (r.extensible && input.udf !== undefined) {
      vals.push(JSON.stringify(input.udf));
      sets.push(`udf = $${vals.length}::jsonb`);
    }
    if (r.timestamps) sets.push('updated_at = now()');
    if (sets.length) await ctx.tx.query(`update ${r.table} set ${sets.join(', ')} where id = $1`, vals);
  }

  /**
   * Writes one row (before: null creates it, else updates the row as loaded) inside the caller's transaction: the
   * checks, the row and its owned rows in a savepoint, the hooks, the audit row. Answers its id, its tenant and the
   * row as read after it (unless opts.readBack is false); the caller sends the change notice after its commit.
   */
  async function writeRow(
    req: FastifyRequest,
    tx: Db,
    scope: Scope,
    input: Record<string, unknown>,
    before: Row | null,
    opts: WriteOptions & { readBack: false },
  ): Promise<Written<null>>;
  async function writeRow(req: FastifyRequest, tx: Db, scope: Scope, input: Record<string, unknown>, before: Row | null, opts?: WriteOptions): Promise<Written>;
  async function writeRow(
    req: FastifyRequest,
    tx: Db,
    scope: Scope,
    input: Record<string, unknown>,
    before: Row | null,
    opts: WriteOptions = {},
  ): Promise<Written<Row | null>> {
    const readBack = opts.readBack !== false;
    if (before) {
      const id = before.id;
      const clientId = auditClient(scope, id);
      const ctx = ctxOf(req, tx, clientId);
      await checks(ctx, req, scope, input, before, opts);
      await guarded(
        tx,
        input,
        async () => {
          await update(ctx, id, input, before);
          await writeOwned(tx, scope.clientId, id, input);
        },
        opts.savepoint !== false,
      );
      const after = readBack || !opts.audit ? await load(tx, scope, id) : null;
      const a = opts.audit?.(id, before) ?? { action: 'update', before: auditView(before), after: auditView(after) };
      await audit(tx, req, { clientId, entity, entityId: id, ...a });
      return { id, clientId, after: readBack ? after : null };
    }
    const ctx = ctxOf(req, tx, scope.clientId);
    await checks(ctx, req, scope, input, null, opts);
    const id = await guarded(
      tx,
      input,
      async () => {
        const newId = await insert(ctx, input);
        await writeOwned(tx, scope.clientId, newId, input, true);
        return newId;
      },
      opts.savepoint !== false,
    );
    const clientId = auditClient(scope, id);
    // the new row is visible to its creator: a new tenant (clients), a new division (divisions) inside one they add in
    const own =
      r.scope.tenant === 'self'
        ? { ...scope, tenants: [...(scope.tenants ?? []), id] }
        : r.scope.division === 'id'
          ? { ...scope, divisions: [...(scope.divisions ?? []), id] }
          : scope;
    let after: Row | null = null;
    if (hooks.afterInsert) {
      await hooks.afterInsert({ ...ctx, clientId }, await load(tx, own, id));
    }
    if (readBack || !opts.audit) after = await load(tx, own, id);
    const a = opts.audit?.(id, null) ?? { action: 'create', before: null, after: auditView(after) };
    await audit(tx, req, { clientId, entity, entityId: id, ...a });
    return { id, clientId, after: readBack ? after : null };
  }
  return { writeRow };
}

export function writeRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, fields, one, entity, paths, touching, scopeOf, familyCheck, load, notify, singletonId } = crud;
  const { writeRow } = rowWriter(crud);
  const Input = inputSchema(r);

  if (r.privileges.add) {
    const addCodes = actionCodes(r, 'add');
    app.post(paths.list, { config: { privileges: addCodes, ...touching(addCodes, false), body: Input, summary: `Add a ${entity}` } }, async (req, reply) => {
      const input = body(req.body, Input) as Record<string, unknown>;
      delete input.updatedAt;
      const secretsMissing = Object.entries(fields).filter(([k, f]) => f.writeOnly && f.required && (input[k] === undefined || input[k] === null));
      if (secretsMissing.length)
        throw new HttpError(
          400,
          INVALID_REQUEST,
          secretsMissing.map(([k]) => ({ field: k, ...FIXED_SAID.required })),
        );
      const scope = await scopeOf(db, req, addCodes);
      familyCheck(scope, input);
      await checkOwnPerson(db, r, scope, input);
      const created = await db.transaction((tx) => writeRow(req, tx, scope, input, null));
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
          throw new HttpError(
            409,
            fill(
              'record.changedMeanwhile',
              'Someone else changed this {what} since you opened it. Reload it to see their changes; your typed values are kept.',
              { what: entity },
            ),
          );
        }
        return writeRow(req, tx, scope, input, before);
      });
      notify(done.clientId, { resource: r.name, id, action: 'update' }, done.after);
      return done.after;
    };
    app.put(paths.one, { config: { privileges: editCodes, ...touching(editCodes, true), body: Input, summary: `Change a ${entity}` } }, async (req) =>
      put(req, idParam(req, one)),
    );
    if (r.singleton)
      app.put(paths.list, { config: { privileges: editCodes, ...touching(editCodes, false), body: Input } }, async (req) => put(req, await singletonId(req)));
  }
}
