// Backups' own SQL (server/backup/backups.ts, routes.ts; issue 48: their queries in the queries room): the schema
// version a backup is of, the automatic backups' settings, and what a restore does to the restored database (its
// sessions end, its backup lines are read, the sign-in epoch moves on).
import type { Db } from '../db';

/** The database's schema version (the last migration applied). */
export async function schemaVersionOf(db: Db): Promise<number> {
  return Number((await db.query<{ v: number }>('select max(id)::int as v from schema_migrations')).rows[0].v);
}

/** The automatic backups' settings (none: never set). */
export async function autoBackupSettingsRow<S>(db: Db): Promise<S | undefined> {
  const { rows } = await db.query<any>('select enabled, frequency, weekday, hour, keep from auto_backup_settings where id = 1');
  return rows[0] as S | undefined;
}

/** Ends every open console session (not API keys'), by `actor`. */
export async function endConsoleSessions(db: Db, actor: string): Promise<void> {
  await db.query(`update sessions set ended_at = now(), ended_by = $1 where ended_at is null and jti not like 'apikey:%'`, [actor]);
}

/** The backups the audit log has a line of (taken or uploaded). */
export async function auditedBackupIds(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ entity_id: string }>(
    `select distinct entity_id from audit_log where client_id is null and entity = 'backup' and action in ('create', 'upload')`,
  );
  return rows.map((r) => r.entity_id);
}

/** The sign-in epoch ('0' when none is kept). */
export async function authEpoch(db: Db): Promise<string> {
  return (await db.query<{ epoch: string }>('select epoch::text as epoch from auth_epoch where id = 1')).rows[0]?.epoch ?? '0';
}

/** Moves the sign-in epoch past `epoch` (every token signed before is refused). */
export async function advanceAuthEpoch(db: Db, epoch: string): Promise<void> {
  await db.query('update auth_epoch set epoch = greatest(epoch, $1::bigint) + 1 where id = 1', [epoch]);
}
