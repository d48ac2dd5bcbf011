// A service account's API key (issue 11): the account a key id names, and the key's one session (its jti is made
// from the key id), opened on first use, touched on each use, ended when the key is rotated or revoked.
import type { Db } from '../db';

export interface KeyAccountRow {
  user_id: number;
  client_id: number;
  active: boolean;
  key_hash: string | null;
  key_revoked_at: unknown;
  username: string;
}

export async function keyAccount(db: Db, keyId: string): Promise<KeyAccountRow | undefined> {
  const { rows } = await db.query<KeyAccountRow>(
    `select sa.user_id, sa.client_id, sa.active, sa.key_hash, sa.key_revoked_at, u.username
       from service_accounts sa join users u on u.id = sa.user_id where sa.key_id = $1`,
    [keyId],
  );
  return rows[0];
}

/** Marks the session seen; false when it is not open (none yet, or ended). */
export async function touchOpenSession(db: Db, jti: string): Promise<boolean> {
  return (await db.query('update sessions set last_seen_at = now() where jti = $1 and ended_at is null returning 1', [jti])).rows.length > 0;
}

/** Opens the key's session; false when one with that jti is there already (ended, or opened meanwhile). */
export async function openKeySession(db: Db, s: { jti: string; userId: number; ip: string; userAgent: string; clientId: number }): Promise<boolean> {
  const { rows } = await db.query(
    `insert into sessions (jti, user_id, ip, user_agent, client_id, sign_in_method) values ($1, $2, $3, $4, $5, 'api-key')
    on conflict (jti) do nothing returning 1`,
    [s.jti, s.userId, s.ip, s.userAgent, s.clientId],
  );
  return rows.length > 0;
}

export async function endOpenSession(db: Db, jti: string, by: string): Promise<void> {
  await db.query('update sessions set ended_at = now(), ended_by = $2 where jti = $1 and ended_at is null', [jti, by]);
}
