// Operators (users): sign-in state, profile, settings, the selected client, passwords.
import type { Db } from '../db';

export interface UserRow {
  id: number;
  username: string;
  name: string;
  email: string | null;
  password_hash: string;
  avatar_color: string;
  timezone: string;
  multi_tenancy: boolean;
  home_client_id: number | null;
  selected_client_id: number | null;
  settings: unknown;
  dashboard_pages: unknown;
  failed_attempts: number;
  locked_until: Date | string | null;
  /** the selected client's time zone (issue 10: times follow it when the profile has none) */
  client_timezone?: string | null;
  /** issue 50: the member of staff this operator is in the selected client (the identity with their e-mail), or null */
  own_identity_id?: number | null;
}
const WITH_CLIENT_ZONE = `select u.*, (select c.timezone from clients c where c.id = u.selected_client_id) client_timezone,
    (select i.id from identities i where i.client_id = u.selected_client_id and i.email is not null and lower(i.email) = lower(u.email)
      order by i.id limit 1) own_identity_id
  from users u`;

// sign-in, change-password and reset-password find operators only: a service account (users.kind, migration 005)
// never signs in to the console, nor gets a password by a reset link
export async function userByUsername(db: Db, username: string): Promise<UserRow | null> {
  return (await db.query<UserRow>(`${WITH_CLIENT_ZONE} where u.username = $1 and u.kind = 'operator'`, [username])).rows[0] ?? null;
}
export async function userById(db: Db, id: number): Promise<UserRow | null> {
  return (await db.query<UserRow>(`${WITH_CLIENT_ZONE} where u.id = $1`, [id])).rows[0] ?? null;
}
export async function userIdByUsername(db: Db, username: string): Promise<number | null> {
  return (await db.query<{ id: number }>("select id from users where username = $1 and kind = 'operator'", [username])).rows[0]?.id ?? null;
}

/** One more failed sign-in; `lockedUntil` set means the account locks now (and the counter restarts). */
export async function recordFailedSignIn(db: Db, id: number, failedAttempts: number, lockedUntil: Date | null): Promise<void> {
  await db.query('update users set failed_attempts = $2, locked_until = $3 where id = $1', [id, failedAttempts, lockedUntil]);
}
export async function clearFailedSignIns(db: Db, id: number): Promise<void> {
  await db.query('update users set failed_attempts = 0, locked_until = null where id = $1', [id]);
}

export async function setSettings(db: Db, id: number, settings: unknown): Promise<void> {
  await db.query('update users set settings = $2 where id = $1', [id, JSON.stringify(settings)]);
}
export async function updateProfile(db: Db, id: number, p: { name?: string; avatarColor?: string; timezone?: string }): Promise<void> {
  await db.query('update users set name = coalesce($2, name), avatar_color = coalesce($3, avatar_color), timezone = coalesce($4, timezone) where id = $1', [
    id,
    p.name ?? null,
    p.avatarColor ?? null,
    p.timezone ?? null,
  ]);
}
export async function selectClient(db: Db, id: number, clientId: number | null): Promise<void> {
  await db.query('update users set selected_client_id = $2 where id = $1', [id, clientId]);
}
/** A new password also lifts a lock and clears the failed-attempt counter. */
export async function setPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.query('update users set password_hash = $2, failed_attempts = 0, locked_until = null where id = $1', [id, passwordHash]);
}
export async function enableMultiTenancy(db: Db, id: number): Promise<void> {
  await db.query('update users set multi_tenancy = true where id = $1', [id]);
}

/** Account `id`'s home client (null: none, or no such account). */
export async function homeClientOf(db: Db, id: number): Promise<number | null> {
  return (await db.query<{ home_client_id: number | null }>('select home_client_id from users where id = $1', [id])).rows[0]?.home_client_id ?? null;
}
