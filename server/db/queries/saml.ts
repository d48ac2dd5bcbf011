// SAML 2.0 single logout and the service provider's key pair (issue 49; server/auth/iam/samlLogout.ts, spKeys.ts).
import type { Db } from '../db';

export interface SamlSubject {
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

/** Who a session is at its SAML provider (from the ticket the session was exchanged for). */
export async function keepSamlSession(db: Db, jti: string, provider: string, s: SamlSubject): Promise<void> {
  await db.query('insert into saml_sessions (jti, provider, name_id, name_id_format, session_index) values ($1, $2, $3, $4, $5)', [
    jti,
    provider,
    s.nameId,
    s.nameIdFormat,
    s.sessionIndex,
  ]);
}

/** The session's SAML subject, taken once (its sign-out). */
export async function takeSamlSession(db: Db, jti: string): Promise<(SamlSubject & { provider: string }) | null> {
  const { rows } = await db.query<{ provider: string; name_id: string; name_id_format: string | null; session_index: string | null }>(
    'delete from saml_sessions where jti = $1 returning provider, name_id, name_id_format, session_index',
    [jti],
  );
  const r = rows[0];
  return r ? { provider: r.provider, nameId: r.name_id, nameIdFormat: r.name_id_format, sessionIndex: r.session_index } : null;
}

/** Ends every open session the provider signed `nameId` in (its LogoutRequest); returns each ended session's user. */
export async function endSamlSessions(db: Db, provider: string, nameId: string): Promise<{ jti: string; userId: number }[]> {
  const { rows } = await db.query<{ jti: string }>('delete from saml_sessions where provider = $1 and name_id = $2 returning jti', [provider, nameId]);
  if (!rows.length) return [];
  const ended = await db.query<{ jti: string; user_id: number }>(
    `update sessions set ended_at = now(), ended_by = 'identity provider' where jti = any($1::text[]) and ended_at is null returning jti, user_id`,
    [rows.map((r) => r.jti)],
  );
  return ended.rows.map((r) => ({ jti: r.jti, userId: Number(r.user_id) }));
}

/** A LogoutRequest Gatehouse sent, which one LogoutResponse may answer. */
export async function keepLogoutRequest(db: Db, requestId: string, provider: string, expiresAt: Date): Promise<void> {
  await db.query('delete from saml_logouts where expires_at < now()');
  await db.query('insert into saml_logouts (request_id, provider, expires_at) values ($1, $2, $3)', [requestId, provider, expiresAt]);
}

/** True once for a LogoutRequest of ours to this provider that is not answered yet nor expired. */
export async function takeLogoutRequest(db: Db, requestId: string, provider: string): Promise<boolean> {
  const { rows } = await db.query(
    'update saml_logouts set used_at = now() where request_id = $1 and provider = $2 and used_at is null and expires_at > now() returning request_id',
    [requestId, provider],
  );
  return rows.length > 0;
}

/** A message of the provider (a LogoutRequest) taken once: false when its ID was taken before (a replay). */
export async function takeMessageOnce(db: Db, provider: string, id: string, keepUntil: Date): Promise<boolean> {
  await db.query('delete from saml_assertions where expires_at < now()');
  const { rows } = await db.query(
    'insert into saml_assertions (provider, assertion_id, expires_at) values ($1, $2, $3) on conflict do nothing returning assertion_id',
    [provider, id, keepUntil],
  );
  return rows.length > 0;
}

/** Replaces a server secret that no longer opens (server/auth/iam/spKeys.ts); returns the value stored now. */
export async function replaceSecret(db: Db, name: string, was: string, value: string): Promise<string> {
  await db.query('update server_secrets set value = $3 where name = $1 and value = $2', [name, was, value]);
  const { rows } = await db.query<{ value: string }>('select value from server_secrets where name = $1', [name]);
  return rows[0]?.value ?? value;
}

// issue 48: the SAML sign-in's flows and assertions (server/auth/iam/saml.ts).

/** Keeps a SAML sign-in begun (its RelayState's hash, request ID and browser binding) until `expiresAt`; the expired ones go. */
export async function keepSamlFlow(
  db: Db,
  f: { relayHash: string; provider: string; requestId: string; bindingHash: string; returnPath: string | null; expiresAt: Date },
): Promise<void> {
  await db.query('delete from saml_flows where expires_at < now()');
  await db.query(`insert into saml_flows (relay_hash, provider, request_id, binding_hash, return_path, expires_at) values ($1, $2, $3, $4, $5, $6)`, [
    f.relayHash,
    f.provider,
    f.requestId,
    f.bindingHash,
    f.returnPath,
    f.expiresAt,
  ]);
}

/** Takes the live SAML sign-in of RelayState hash `relayHash`, once (none: unknown, used or expired). */
export async function takeSamlFlow(
  db: Db,
  relayHash: string,
): Promise<{ provider: string; request_id: string; binding_hash: string; return_path: string | null } | undefined> {
  const taken = await db.query<{ provider: string; request_id: string; binding_hash: string; return_path: string | null }>(
    `update saml_flows set used_at = now() where relay_hash = $1 and used_at is null and expires_at > now()
        returning provider, request_id, binding_hash, return_path`,
    [relayHash],
  );
  return taken.rows[0];
}

/** Keeps assertion `assertionId` of `provider` until `keepUntil` (the expired ones go): false when it was seen already (a replay). */
export async function keepAssertionOnce(db: Db, provider: string, assertionId: string, keepUntil: Date): Promise<boolean> {
  await db.query('delete from saml_assertions where expires_at < now()');
  const fresh = await db.query(
    'insert into saml_assertions (provider, assertion_id, expires_at) values ($1, $2, $3) on conflict do nothing returning assertion_id',
    [provider, assertionId, keepUntil],
  );
  return fresh.rows.length > 0;
}
