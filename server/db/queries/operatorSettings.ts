// Operator settings and the password and session rules they set (issue 11, 0.3.7.0): the client's stored settings,
// the client whose settings apply to an operator, the password history, and whether a session or a password is still
// within them. The rules themselves are server/auth/policy.ts's.
import type { OperatorSettings } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';

const COLUMNS: Record<keyof OperatorSettings, string> = {
  passwordMinLength: 'password_min_length',
  passwordClasses: 'password_classes',
  passwordHistory: 'password_history',
  passwordExpiryDays: 'password_expiry_days',
  lockoutAttempts: 'lockout_attempts',
  lockoutMinutes: 'lockout_minutes',
  sessionLifetimeMinutes: 'session_lifetime_minutes',
  idleTimeoutMinutes: 'idle_timeout_minutes',
  mfaRequired: 'mfa_required',
};
const KEYS = Object.keys(COLUMNS) as (keyof OperatorSettings)[];

/** The client's stored settings, or null when it has none (the defaults apply). */
export async function storedSettings(db: Db, clientId: number): Promise<OperatorSettings | null> {
  const params: unknown[] = [];
  const { rows } = await db.query<Record<string, number>>(
    `select ${KEYS.map((k) => `${COLUMNS[k]} as "${k}"`).join(', ')} from operator_settings where ${tenant(params, clientId)}`,
    params,
  );
  return rows[0] ? (rows[0] as OperatorSettings) : null;
}

export async function storeSettings(db: Db, clientId: number, s: OperatorSettings): Promise<void> {
  const cols = KEYS.map((k) => COLUMNS[k]);
  await db.query(
    `insert into operator_settings (client_id, ${cols.join(', ')}) values ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})
     on conflict (client_id) do update set ${cols.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = now()`,
    [clientId, ...KEYS.map((k) => s[k])],
  );
}

/** The client whose settings apply to the user: their home client, else the selected one, else the first granted. */
export async function policyClientOf(db: Db, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ c: number | null }>(
    `select coalesce(u.home_client_id, u.selected_client_id, (select min(client_id) from user_grants g where g.user_id = u.id)) c from users u where u.id = $1`,
    [userId],
  );
  return rows[0]?.c ?? null;
}

/** The current password's hash, then the newest `kept` of the history. */
export async function recentPasswordHashes(db: Db, userId: number, kept: number): Promise<string[]> {
  const { rows } = await db.query<{ h: string }>(
    // the current password first, then the newest kept ones: a union's branches come in no promised order
    `select h from ((select password_hash h, 0 k, 0 id from users where id = $1) union all
     (select password_hash h, 1 k, id from password_history where user_id = $1 order by id desc limit $2)) x order by k, id desc`,
    [userId, kept],
  );
  return rows.map((r) => r.h);
}

/**
 * Sets a password, keeping the last 24 in the history. Every other session of the account ends in the same
 * transaction (issue 45: a trigger of migration 131 does it as the hash changes, whatever path changed it); `keepJti`
 * names the session that made the change, which goes on. Call it inside a transaction: the kept session is a setting
 * of the transaction.
 */
export async function setPasswordKeepingHistory(db: Db, userId: number, hash: string, keepJti: string | null = null): Promise<void> {
  await db.query(`select set_config('gatehouse.keep_session', $1, true)`, [keepJti ?? '']);
  await db.query('insert into password_history (user_id, password_hash) select id, password_hash from users where id = $1', [userId]);
  await db.query('update users set password_hash = $2, password_changed_at = now() where id = $1', [userId, hash]);
  await db.query(
    `delete from password_history where user_id = $1 and id not in (select id from password_history where user_id = $1 order by id desc limit 24)`,
    [userId],
  );
}

/** Whether the user's password was last changed more than `days` days ago. */
export async function passwordOlderThan(db: Db, userId: number, days: number): Promise<boolean> {
  const { rows } = await db.query("select 1 from users where id = $1 and password_changed_at < now() - $2::int * interval '1 day'", [userId, days]);
  return rows.length > 0;
}

/**
 * Whether an open session is still within its client's session lifetime and idle timeout (checked on each request
 * the cache does not answer; the cache re-checks at least once a minute).
 */
export async function sessionWithinSettings(db: Db, jti: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from sessions s left join operator_settings o on o.client_id = coalesce(s.client_id, (select policy_client from (
        select coalesce(u.home_client_id, u.selected_client_id) policy_client from users u where u.id = s.user_id) x))
      where s.jti = $1 and not exists (select 1 from users d where d.id = s.user_id and d.disabled) and (o.client_id is null or (
        s.started_at > now() - o.session_lifetime_minutes * interval '1 minute'
        and (o.idle_timeout_minutes = 0 or coalesce(s.last_seen_at, s.started_at) > now() - o.idle_timeout_minutes * interval '1 minute')))`,
    [jti],
  );
  return rows.length > 0;
}

export async function isDisabled(db: Db, userId: number): Promise<boolean> {
  return (await db.query('select 1 from users where id = $1 and disabled', [userId])).rows.length > 0;
}
