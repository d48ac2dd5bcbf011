// Operator sessions, one row per issued token (jti): the operator-sessions screen reads them and a
// token whose session has ended no longer works.
import type { Db } from '../db';

export async function startSession(db: Db, s: { jti: string; userId: number; ip: string; userAgent: string }): Promise<void> {
  await db.query('insert into sessions (jti, user_id, ip, user_agent) values ($1,$2,$3,$4)', [s.jti, s.userId, s.ip, s.userAgent.slice(0, 300)]);
}
/** Marks the session seen now; false when it does not exist or has ended. */
export async function touchSession(db: Db, jti: string): Promise<boolean> {
  const { rows } = await db.query('update sessions set last_seen_at = now() where jti = $1 and ended_at is null returning jti', [jti]);
  return rows.length > 0;
}
export async function isSessionOpen(db: Db, jti: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from sessions where jti = $1 and ended_at is null', [jti]);
  return rows.length > 0;
}
export async function endSession(db: Db, jti: string): Promise<void> {
  await db.query('update sessions set ended_at = now() where jti = $1 and ended_at is null', [jti]);
}
