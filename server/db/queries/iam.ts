// IAM mode's SQL (issue 49; issue 48: in the queries room): the providers' sign-in flows and session tokens
// (server/auth/iam/routes.ts), a client's identity providers (providers.ts) and the just-in-time accounts (accounts.ts).
import type { Db } from '../db';
import { tenant } from '../tenant';

// ---------- the sign-in's round trip (routes.ts) ----------

export interface IamFlow {
  stateHash: string;
  provider: string;
  nonce: string;
  codeVerifier: string;
  bindingHash: string;
  redirectUri: string;
  returnPath: string | null;
  expiresAt: Date;
}

/** Forgets the expired flows and keeps this one. */
export async function keepIamFlow(db: Db, f: IamFlow): Promise<void> {
  await db.query('delete from iam_flows where expires_at < now()');
  await db.query(
    `insert into iam_flows (state_hash, provider, nonce, code_verifier, binding_hash, redirect_uri, return_path, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [f.stateHash, f.provider, f.nonce, f.codeVerifier, f.bindingHash, f.redirectUri, f.returnPath, f.expiresAt],
  );
}

export interface IamFlowRow {
  provider: string;
  nonce: string;
  code_verifier: string;
  binding_hash: string;
  redirect_uri: string;
  return_path: string | null;
}

/** Takes the live, unused flow of that state hash once; undefined when it is unknown, used or expired. */
export async function takeIamFlow(db: Db, stateHash: string): Promise<IamFlowRow | undefined> {
  const { rows } = await db.query<IamFlowRow>(
    `update iam_flows set used_at = now() where state_hash = $1 and used_at is null and expires_at > now()
        returning provider, nonce, code_verifier, binding_hash, redirect_uri, return_path`,
    [stateHash],
  );
  return rows[0];
}

/** Whether the account is disabled (false for an account that is not there). */
export async function isDisabled(db: Db, userId: number): Promise<boolean> {
  return (await db.query('select 1 from users where id = $1 and disabled', [userId])).rows.length > 0;
}

/** Keeps the provider's ID token of the session `jti`, for the provider's logout. */
export async function keepSessionIdToken(db: Db, jti: string, provider: string, idToken: string): Promise<void> {
  await db.query('insert into iam_session_tokens (jti, provider, id_token) values ($1, $2, $3)', [jti, provider, idToken]);
}

/** Takes the ID token kept for session `jti`, and its provider; undefined when none was kept. */
export async function takeSessionIdToken(db: Db, jti: string): Promise<{ provider: string; id_token: string } | undefined> {
  const { rows } = await db.query<{ provider: string; id_token: string }>('delete from iam_session_tokens where jti = $1 returning provider, id_token', [jti]);
  return rows[0];
}

// ---------- a client's identity providers (providers.ts) ----------

export interface ProviderRow {
  id: number;
  client_id: number;
  client_code: string;
  name: string;
  kind: 'oidc' | 'saml';
  issuer: string;
  oidc_client_id: string | null;
  client_secret: string | null;
  sso_url: string | null;
  certificate: string | null;
  slo_url: string | null;
  sign_requests: boolean;
  encrypt_assertions: boolean;
  groups_attribute: string | null;
  role_map: string;
}

const SELECT_PROVIDER = `select p.id, p.client_id, c.code as client_code, p.name, p.kind, p.issuer, p.oidc_client_id, p.client_secret, p.sso_url,
    p.certificate, p.slo_url, p.sign_requests, p.encrypt_assertions, p.groups_attribute, p.role_map
  from identity_providers p join clients c on c.id = p.client_id where p.active and c.active`;

/** The client's active providers (of an active client), by name. */
export async function activeProvidersOf(db: Db, clientId: number): Promise<ProviderRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<ProviderRow>(`${SELECT_PROVIDER} and ${tenant(params, clientId, 'p')} order by p.name`, params);
  return rows;
}

/** The active provider of that id (of an active client); undefined otherwise. */
export async function activeProviderById(db: Db, id: number): Promise<ProviderRow | undefined> {
  const { rows } = await db.query<ProviderRow>(`${SELECT_PROVIDER} and p.id = $1`, [id]);
  return rows[0];
}

/** Which of these role codes the client has. */
export async function knownRoleCodes(db: Db, clientId: number | null, codes: string[]): Promise<string[]> {
  const params: unknown[] = [codes];
  const { rows } = await db.query<{ code: string }>(`select code from roles where code = any($1::text[]) and ${tenant(params, clientId)}`, params);
  return rows.map((r) => r.code);
}

// ---------- just-in-time accounts (accounts.ts) ----------

/** The role of code `roleCode` in the active client of code `clientCode` (within client `scope` when one is given). */
export async function mappedRoles(db: Db, clientCode: string, roleCode: string, scope: number | null): Promise<{ client_id: number; role_id: number }[]> {
  const { rows } = await db.query<{ client_id: number; role_id: number }>(
    `select c.id as client_id, r.id as role_id from clients c join roles r on r.client_id = c.id and r.code = $2
        where c.code = $1 and c.active and ($3::int is null or c.id = $3::int)`,
    [clientCode, roleCode, scope],
  );
  return rows;
}

/** Whether an account of that username (any case) exists. */
export async function usernameTaken(db: Db, name: string): Promise<boolean> {
  return (await db.query('select 1 from users where lower(username) = lower($1)', [name])).rows.length > 0;
}

/** The roles the provider gave the account, by client and role code. */
export async function providerGrants(db: Db, userId: number, provider: string): Promise<{ client_id: number; role_code: string }[]> {
  const { rows } = await db.query<{ client_id: number; role_code: string }>(
    'select client_id, role_code from user_grants where user_id = $1 and iam_provider = $2 order by client_id, role_code',
    [userId, provider],
  );
  return rows;
}

/** The account linked to the provider's subject; null when there is none. */
export async function linkedAccount(db: Db, provider: string, subject: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>('select user_id from iam_accounts where provider = $1 and subject = $2', [provider, subject]);
  return rows[0] ? Number(rows[0].user_id) : null;
}

export async function deleteProviderGrants(db: Db, userId: number, provider: string): Promise<void> {
  await db.query('delete from user_grants where user_id = $1 and iam_provider = $2', [userId, provider]);
}

/** Ends the account's open sessions, as the identity provider's doing. */
export async function endSessionsByProvider(db: Db, userId: number): Promise<void> {
  await db.query("update sessions set ended_at = now(), ended_by = 'identity provider' where user_id = $1 and ended_at is null", [userId]);
}

/** A new account made for a provider's person (no password of its own); its id. */
export async function insertIamUser(
  db: Db,
  u: { username: string; name: string; email: string | null; multiTenancy: boolean; homeClientId: number; selectedClientId: number | null },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into users (username, password_hash, name, email, multi_tenancy, home_client_id, selected_client_id)
         values ($1, '!iam', $2, $3, $4, $5, $6) returning id`,
    [u.username, u.name, u.email, u.multiTenancy, u.homeClientId, u.selectedClientId],
  );
  return Number(rows[0].id);
}

export async function linkAccount(db: Db, provider: string, subject: string, userId: number): Promise<void> {
  await db.query('insert into iam_accounts (provider, subject, user_id) values ($1, $2, $3)', [provider, subject, userId]);
}

/**
 * What the provider says of a known account at a sign-in: its name and e-mail (when said), multi-tenancy once it has
 * several clients, the selected client (the one client, or kept while it is one of `clients`).
 */
export async function updateIamUser(
  db: Db,
  userId: number,
  u: { name: string | null; email: string | null; multiTenancy: boolean; onlyClient: number | null; clients: number[] },
): Promise<void> {
  await db.query(
    `update users set name = coalesce($2, name), email = coalesce($3, email), multi_tenancy = multi_tenancy or $4,
            selected_client_id = case when $5::int is not null then $5::int
              when selected_client_id = any($6::int[]) then selected_client_id else null end
          where id = $1`,
    [userId, u.name, u.email, u.multiTenancy, u.onlyClient, u.clients],
  );
}

export async function touchLinkedAccount(db: Db, provider: string, subject: string): Promise<void> {
  await db.query('update iam_accounts set signed_in_at = now() where provider = $1 and subject = $2', [provider, subject]);
}

export async function insertProviderGrant(db: Db, userId: number, roleId: number, clientId: number, provider: string): Promise<void> {
  await db.query('insert into user_grants (user_id, role_id, client_id, division_id, iam_provider) values ($1, $2, $3, null, $4)', [
    userId,
    roleId,
    clientId,
    provider,
  ]);
}
