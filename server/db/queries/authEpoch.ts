// The request path cache's counter (server/auth/requestCache.ts; issue 13; issue 48: in the queries room): one row,
// bumped by triggers whenever grants, roles, divisions change or a session ends.
import type { Db } from '../db';

/** Whether the counter's trigger announces its moves (migration 102): a database not yet migrated has none. */
export async function epochAnnounced(db: Db): Promise<boolean> {
  return (await db.query(`select 1 from pg_trigger where tgname = 'auth_epoch_announce'`)).rows.length > 0;
}

/** The counter now (as text); null when its row is not there. */
export async function authEpoch(db: Db): Promise<string | null> {
  const { rows } = await db.query<{ epoch: string }>('select epoch::text as epoch from auth_epoch where id = 1');
  return rows[0]?.epoch ?? null;
}
