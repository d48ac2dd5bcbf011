// Deleting catalogue rows: one (DELETE …/:id) or many (POST …/bulk-delete), all or nothing: a row not visible in the
// scope deletes none (404), a row still referenced is refused with 409 naming what uses it, a before audit row each,
// and a change notice each after the commit.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BulkDeleteRequest, CATALOGUE, columnOf, type Fields } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, fill, body, idParam } from '../http/kit';
import { audit } from '../audit/trail';
import type { CrudResource } from './context';
import { SQLSTATE, pgError } from '../db/pgError';
import type { Row } from './hooks';
import { inLockOrder } from '../db/queries/lockOrder';

/** What a table that still points at a row holds, in words (a 409 names it, never the table). */
const TABLE_WORDS: Record<string, string> = {
  user_grants: 'operator grants',
  operator_group_grants: 'operator-group grants',
  role_privileges: 'role privileges',
  operator_group_members: 'operator-group members',
  events: 'events in the history',
  alarms: 'alarms',
  credentials: 'credentials',
  visitors: 'visitors',
  access_group_doors: 'access groups',
  access_group_members: 'access groups',
};

export function deleteRoutes(app: FastifyInstance, crud: CrudResource) {
  const { r, db, hooks, one, entity, paths, touching, scopeOf, load, auditView, auditClient, notify } = crud;
  /** What still uses these rows (another resource's reference or join table): 409 naming it. */
  async function stillUsed(dbx: Db, ids: number[]) {
    for (const other of CATALOGUE) {
      for (const [k, f] of Object.entries(other.fields as Fields)) {
        if (f.target !== r.name) continue;
        let n = 0;
        // a reference declared onDelete 'cascade' goes with its target, 'set-null' is emptied (its foreign key says
        // so): neither holds the target back
        if (f.kind === 'ref' && !f.virtual && f.onDelete !== 'cascade' && f.onDelete !== 'set-null') {
          n = Number(
            (
              await dbx.query<{ n: string }>(
                `select count(*)::text n from ${other.table} where ${columnOf(k, f)} = any($1::int[])${other === r ? ' and not (id = any($1::int[]))' : ''}`,
                [ids],
              )
            ).rows[0].n,
          );
        } else if (f.kind === 'refs' && f.onDelete !== 'cascade') {
          n = Number(
            (await dbx.query<{ n: string }>(`select count(*)::text n from ${f.through!.table} where ${f.through!.to} = any($1::int[])`, [ids])).rows[0].n,
          );
        }
        if (n > 0)
          throw new HttpError(
            409,
            n === 1
              ? fill('record.stillUsedByOne', 'Still used by 1 {what}: change or delete it first', { what: other.label.one.toLowerCase() })
              : fill('record.stillUsedBy', 'Still used by {n} {what}: change or delete them first', { n, what: other.label.many.toLowerCase() }),
          );
      }
    }
  }
  async function remove(req: FastifyRequest, ids: number[]) {
    const scope = await scopeOf(db, req, [r.privileges.delete!]);
    const changes = await db.transaction(async (tx) => {
      // locked in the order of their ids, not of the request (docs/ARCHITECTURE.md lock order): two bulk deletes naming
      // the same rows in other orders, or one beside a group's edit adding them, each held a row the other waited for
      const unique = inLockOrder(new Set(ids), (id) => id);
      const befores: Row[] = [];
      // all or nothing: one id that is not visible (another tenant's, another division's, gone) deletes none
      for (const id of unique) {
        try {
          befores.push(await load(tx, scope, id, 'delete'));
        } catch (e) {
          // a row not found; anything else (a deadlock, 503) is said as itself, not as "not found"
          if (!(e instanceof HttpError && e.status === 404)) throw e;
          throw new HttpError(
            404,
            unique.length > 1
              ? fill('record.someNotFound', 'Some {what} were not found; nothing was deleted', { what: r.label.many.toLowerCase() })
              : fill('record.notFound', '{what} not found', { what: one }),
          );
        }
      }
      await stillUsed(tx, unique);
      const used = await hooks.inUse?.(tx, unique);
      if (used) throw new HttpError(409, used);
      await tx.query('savepoint crud_delete');
      try {
        await tx.query(`delete from ${r.table} where id = any($1::int[])`, [unique]);
        await tx.query('release savepoint crud_delete');
      } catch (e) {
        if (pgError(e).code !== SQLSTATE.foreignKeyViolation) throw e;
        await tx.query('rollback to savepoint crud_delete');
        throw new HttpError(
          409,
          fill('record.stillUsedByOthers', 'Still used by {what}: change or delete them first', {
            what: TABLE_WORDS[pgError(e).table ?? ''] ?? 'other records',
          }),
        );
      }
      for (const before of befores) {
        await audit(tx, req, {
          clientId: auditClient(scope, before.id),
          action: 'delete',
          entity,
          entityId: before.id,
          before: auditView(before),
          after: null,
        });
      }
      return befores.map((b) => ({ clientId: auditClient(scope, b.id), id: b.id }));
    });
    for (const c of changes) notify(c.clientId, { resource: r.name, id: c.id, action: 'delete' }, null);
    return { deleted: changes.length };
  }

  if (r.privileges.delete) {
    const code = r.privileges.delete;
    app.delete(paths.one, { config: { privileges: [code], ...touching([code], true) } }, async (req) => remove(req, [idParam(req, one)]));
    app.post(paths.bulkDelete, { config: { privileges: [code], ...touching([code], true), body: BulkDeleteRequest } }, async (req) =>
      remove(req, body(req.body, BulkDeleteRequest).ids),
    );
  }
}
