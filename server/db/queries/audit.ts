// The audit trail: who changed what in which client, with the row before and after.
import { auditEntityName, type AuditEntry } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';
import { like, window, type ListWindow } from './list';

export interface AuditRow {
  id: number | string;
  client_id: number | null;
  actor: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  at: Date | string;
}
export interface AuditFields {
  clientId: number | null;
  actor: string;
  action: string;
  entity: string;
  entityId: string | number | null;
  before: unknown;
  after: unknown;
}

/** A stored audit row as the contract's AuditEntry (the activity report and the backups' history); `names`: the
 *  people's names by username (actorNames), where they were read. */
export const auditEntryOf = (r: AuditRow, names?: ReadonlyMap<string, string>): AuditEntry => ({
  id: Number(r.id),
  clientId: r.client_id,
  actor: r.actor,
  action: r.action,
  entity: r.entity,
  entityId: r.entity_id,
  before: r.before,
  after: r.after,
  at: r.at instanceof Date ? r.at.toISOString() : String(r.at),
  actorName: names?.get(r.actor) ?? null,
  entityName: auditEntityName(r),
});

/** The names of the people behind these usernames (one query for a page of rows); a username no user has is left out. */
export async function actorNames(db: Db, usernames: Iterable<string>): Promise<Map<string, string>> {
  const list = [...new Set(usernames)];
  if (!list.length) return new Map();
  const { rows } = await db.query<{ username: string; name: string }>('select username, name from users where username = any($1::text[])', [list]);
  return new Map(rows.map((r) => [r.username, r.name]));
}

/** The newest records of no client about `entities` (the backups' history), newest first; a partial index (112). */
export async function platformAudit(db: Db, entities: readonly string[], limit: number): Promise<AuditRow[]> {
  return (await db.query<AuditRow>('select * from audit_log where client_id is null and entity = any($2::text[]) order by id desc limit $1', [limit, entities]))
    .rows;
}

export const AUDIT_SORT = { at: 'at', actor: 'actor', action: 'action', entity: 'entity', id: 'id' };

export async function insertAudit(db: Db, a: AuditFields): Promise<void> {
  await db.query('insert into audit_log (client_id, actor, action, entity, entity_id, before, after) values ($1,$2,$3,$4,$5,$6,$7)', [
    a.clientId,
    a.actor,
    a.action,
    a.entity,
    a.entityId === null ? null : String(a.entityId),
    a.before == null ? null : JSON.stringify(a.before),
    a.after == null ? null : JSON.stringify(a.after),
  ]);
}
export async function listAudit(db: Db, clientId: number, l: ListWindow): Promise<{ rows: AuditRow[]; total: number }> {
  const params: unknown[] = [];
  let where = tenant(params, clientId);
  if (l.q) {
    params.push(like(l.q));
    where += ' and (actor ilike $2 or action ilike $2 or entity ilike $2 or entity_id ilike $2)';
  }
  const total = await db.query<{ n: string }>(`select count(*)::text n from audit_log where ${where}`, params);
  const { rows } = await db.query<AuditRow>(`select * from audit_log where ${where} ${window(l)}`, params);
  return { rows, total: Number(total.rows[0].n) };
}
export async function recentChanges(db: Db, clientId: number, limit: number): Promise<AuditRow[]> {
  const params: unknown[] = [limit];
  return (await db.query<AuditRow>(`select * from audit_log where ${tenant(params, clientId)} order by id desc limit $1`, params)).rows;
}
