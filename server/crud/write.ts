// Writing a catalogue resource: create (POST on the list path) and update (PUT …/:id, a singleton's PUT on the list
// path), each in one transaction with its checks (checks.ts), the row and its owned rows written in a savepoint (a
// constraint failure is still a violation), the hooks around it, the before/after audit row, and a change notice
// after the commit. An update is optimistic: a stale updatedAt is 409, nothing written.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actionCodes, columnOf, inputSchema } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, fill, audit, body, idParam } from '../http/common';
import { writeChecks } from './checks';
import type { CrudResource } from './context';
import type { CrudContext, Row } from './hooks';

export function writeRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, hooks, sql, fields, one, entity, paths, touching, scopeOf, familyCheck, ctxOf, load, auditView, auditClient, notify, singletonId } = crud;
  const { checks, uniqueViolation } = writeChecks(crud);
  const Input = inputSchema(r);

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
}
