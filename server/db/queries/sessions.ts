// Sessions, one row per issued token (jti): operators' console sessions and service accounts' integration
// sessions. The Monitor screens list and end them; a token whose session has ended no longer works.
import type { Db } from '../db';
import { DiskFullError } from '../diskGuard';
import { like, window, type ListWindow } from './list';
import { tenant, tenantOf } from '../tenant';
import { memberOf } from './grants';

export type UserKind = 'operator' | 'service';

/** How a session was signed in (migration 134): shown on Manage → Sessions. */
export type SignInMethod = 'password' | 'password+totp' | 'password+recovery' | 'password+passkey' | 'passkey' | 'oidc' | 'saml';

export async function startSession(
  db: Db,
  s: { jti: string; userId: number; ip: string; userAgent: string; method?: SignInMethod; provider?: string | null },
): Promise<void> {
  // the token is signed for the user's selected client at this moment (sessionBody), so the session belongs to it
  await db.query(
    `insert into sessions (jti, user_id, ip, user_agent, client_id, sign_in_method, sign_in_provider)
    values ($1, $2, $3, $4, (select selected_client_id from users where id = $2), $5, $6)`,
    [s.jti, s.userId, s.ip, s.userAgent.slice(0, 300), s.method ?? 'password', s.provider ?? null],
  );
}
/**
 * Marks the session seen now; false when it does not exist, has ended, or is not the session of `userId` (issue 45:
 * a token's subject must be its session's user).
 */
export async function touchSession(db: Db, jti: string, userId: number): Promise<boolean> {
  try {
    const { rows } = await db.query('update sessions set last_seen_at = now() where jti = $1 and user_id = $2 and ended_at is null returning jti', [
      jti,
      userId,
    ]);
    return rows.length > 0;
  } catch (e) {
    // issue 27: a full disk refuses this bookkeeping write, not the request: reads go on with the session as it was
    if (e instanceof DiskFullError) return isSessionOpen(db, jti, userId);
    throw e;
  }
}
export async function isSessionOpen(db: Db, jti: string, userId: number): Promise<boolean> {
  const { rows } = await db.query('select 1 from sessions where jti = $1 and user_id = $2 and ended_at is null', [jti, userId]);
  return rows.length > 0;
}
export async function endSession(db: Db, jti: string): Promise<void> {
  await db.query('update sessions set ended_at = now() where jti = $1 and ended_at is null', [jti]);
}

export interface SessionRow {
  id: number | string;
  jti: string;
  user_id: number;
  username: string;
  name: string;
  kind: UserKind;
  ip: string | null;
  user_agent: string | null;
  started_at: Date | string;
  last_seen_at: Date | string;
  ended_at: Date | string | null;
  ended_by: string | null;
  open: boolean;
  sign_in_method?: string;
  sign_in_provider?: string | null;
}

export const SESSION_SORT = { startedAt: 's.started_at', lastSeenAt: 's.last_seen_at', username: 'u.username', id: 's.id' };

/**
 * Which sessions a client's operators may see: of users of `kind` who belong to the client (memberOf: created there,
 * a role there, or a member of one of its groups), issued for
 * that client or before any client was selected (never one working in another tenant).
 * `lifetimeS`: console tokens expire after it, so an unended session older than that is over (null: never).
 */
interface Scope {
  kind: UserKind;
  clientId: number;
  lifetimeS: number | null;
}

function scoped(scope: Scope, params: unknown[]): { where: string; open: string } {
  params.push(scope.kind, scope.clientId);
  const k = params.length - 1;
  const c = params.length;
  let open = 's.ended_at is null';
  if (scope.lifetimeS !== null) {
    params.push(scope.lifetimeS);
    open += ` and s.started_at > now() - $${params.length}::int * interval '1 second'`;
  }
  const where = `u.kind = $${k} and (s.client_id is null or s.client_id = $${c})
    and ${memberOf('u.id', `$${c}`)}`;
  return { where, open: `(${open})` };
}

export async function listSessions(
  db: Db,
  scope: Scope,
  f: { q: string | null; state: 'open' | 'ended' | 'all' },
  l: ListWindow,
): Promise<{ rows: SessionRow[]; total: number }> {
  const params: unknown[] = [];
  const { where, open } = scoped(scope, params);
  const conds = [where];
  if (f.state === 'open') conds.push(open);
  if (f.state === 'ended') conds.push(`not ${open}`);
  if (f.q) {
    params.push(like(f.q));
    conds.push(
      `(u.username ilike $${params.length} or u.name ilike $${params.length} or coalesce(s.ip, '') ilike $${params.length} or coalesce(s.user_agent, '') ilike $${params.length})`,
    );
  }
  const from = `from sessions s join users u on u.id = s.user_id where ${conds.join(' and ')}`;
  const { rows } = await db.query<SessionRow>(
    `select s.id, s.jti, s.user_id, u.username, u.name, u.kind, s.ip, s.user_agent, s.started_at,
      s.last_seen_at, s.ended_at, s.ended_by, s.sign_in_method, s.sign_in_provider, ${open} as open ${from} ${window(l)}`,
    params,
  );
  // the open expression is selected so the count binds the same parameters as the page
  const total = await db.query<{ n: string }>(`select count(*)::text n from (select ${open} as open ${from}) t`, params);
  return { rows, total: Number(total.rows[0].n) };
}

/** The visible sessions among `ids`, locked until the transaction ends. */
export async function visibleSessions(db: Db, scope: Scope, ids: number[]): Promise<SessionRow[]> {
  const params: unknown[] = [];
  const { where, open } = scoped(scope, params);
  params.push(ids);
  const { rows } = await db.query<SessionRow>(
    `select s.id, s.jti, s.user_id, u.username, u.name, u.kind, s.ip, s.user_agent, s.started_at,
      s.last_seen_at, s.ended_at, s.ended_by, s.sign_in_method, s.sign_in_provider, ${open} as open
      from sessions s join users u on u.id = s.user_id where ${where} and s.id = any($${params.length}::bigint[]) order by s.id for update of s`,
    params,
  );
  return rows;
}

/** Ends the sessions not ended yet; returns the ids it ended. */
export async function endSessionsById(db: Db, ids: number[], endedBy: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number | string }>(
    'update sessions set ended_at = now(), ended_by = $2 where id = any($1::bigint[]) and ended_at is null returning id',
    [ids, endedBy],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * A demo service account (seed): a user of kind 'service' with the integration role in one client and one open
 * session, as an integration would hold. It has no password (the hash never verifies) and the sign-in lookups skip
 * service accounts, so it cannot sign in to the console. Idempotent: run again, it adds nothing.
 */
export async function seedServiceAccount(
  db: Db,
  s: { username: string; name: string; clientId: number; timezone: string; role: string; ip: string; userAgent: string; startedMinutesAgo: number },
): Promise<void> {
  await db.query(
    `insert into users (username, password_hash, name, kind, timezone, home_client_id, selected_client_id)
    values ($1, 'none$service-account', $2, 'service', $3, $4, $4) on conflict (username) do nothing`,
    [s.username, s.name, s.timezone, s.clientId],
  );
  const id = (await db.query<{ id: number }>("select id from users where username = $1 and kind = 'service'", [s.username])).rows[0]?.id;
  if (id === undefined) return;
  const params: unknown[] = [id, s.role];
  const own = tenantOf(params, s.clientId); // $3
  await db.query(
    `insert into user_grants (user_id, role_code, client_id)
    select $1, $2, $3 where not exists (select 1 from user_grants where user_id = $1 and ${own()})`,
    params,
  );
  // listed on the service-accounts screen too (issue 11); a demo account has no key until one is issued there
  await db.query(
    `insert into service_accounts (client_id, user_id, name, role) select $1, $2, $3, $4
    where not exists (select 1 from service_accounts where user_id = $2)`,
    [s.clientId, id, s.name, s.role],
  );
  await db.query(
    `insert into sessions (jti, user_id, ip, user_agent, client_id, started_at, last_seen_at)
    select gen_random_uuid()::text, $1, $2, $3, $4, now() - $5::int * interval '1 minute', now()
     where not exists (select 1 from sessions where user_id = $1)`,
    [id, s.ip, s.userAgent, s.clientId, s.startedMinutesAgo],
  );
}

/** Of sessions `ids` without a client, the operators who hold a grant in `clientId` (issue 48: from server/http/sessions.ts). */
export async function clientlessSessionUserIds(db: Db, clientId: number | null, ids: number[]): Promise<number[]> {
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ user_id: number }>(
    `select distinct s.user_id from sessions s where s.id = any($1::bigint[]) and s.client_id is null
    and exists (select 1 from user_grants g where g.user_id = s.user_id and ${tenant(params, clientId, 'g')})`,
    params,
  );
  return rows.map((r) => Number(r.user_id));
}
