// Service accounts (server/resources/serviceAccounts.ts; issue 48: its queries in the queries room): the users row of
// kind 'service' behind each, its grant, and its key issued, rotated or revoked.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** A new user of kind 'service' (no password) named `username`, at home in the client and in its time zone: its id. */
export async function insertServiceUser(db: Db, username: string, name: unknown, clientId: number | null): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into users (username, password_hash, name, kind, timezone, home_client_id, selected_client_id)
      select $1, 'none$service-account', $2, 'service', c.timezone, c.id, c.id from clients c where c.id = $3 returning id`,
    [username, name, clientId],
  );
  return rows[0].id;
}

/** Grants service account `id`'s user its role in its client. */
export async function grantServiceAccountRole(db: Db, id: number): Promise<void> {
  await db.query(`insert into user_grants (user_id, role_code, client_id) select user_id, role, client_id from service_accounts where id = $1`, [id]);
}

/** The key id service account `id` of the client has now (none: no key, or not the client's). */
export async function serviceAccountKeyId(db: Db, clientId: number | null, id: number): Promise<string | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ key_id: string | null }>(`select key_id from service_accounts where id = $1 and ${tenant(params, clientId)}`, params);
  return rows[0]?.key_id ?? null;
}

/** Gives service account `id` of the client a new key (its id, hash and shown prefix), issued now. */
export async function issueServiceAccountKey(db: Db, clientId: number | null, id: number, key: { keyId: string; hash: string; prefix: string }): Promise<void> {
  const issue: unknown[] = [id, key.keyId, key.hash, key.prefix];
  await db.query(
    `update service_accounts set key_id = $2, key_hash = $3, key_prefix = $4, key_issued_at = now(), key_revoked_at = null, updated_at = now()
          where id = $1 and ${tenant(issue, clientId)}`,
    issue,
  );
}

/** Revokes service account `id`'s key, now. */
export async function revokeServiceAccountKey(db: Db, clientId: number | null, id: number): Promise<void> {
  const revoke: unknown[] = [id];
  await db.query(`update service_accounts set key_revoked_at = now(), updated_at = now() where id = $1 and ${tenant(revoke, clientId)}`, revoke);
}
