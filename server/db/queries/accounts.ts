// What signed-out visitors leave behind: password-reset tokens (the outbox, since there is no mail) and
// registration requests; and the server's own secrets (the JWT key kept across restarts).
import type { Db } from '../db';

export async function insertResetToken(db: Db, tokenHash: string, userId: number, expiresAt: Date): Promise<void> {
  await db.query('insert into password_reset_outbox (token_hash, user_id, expires_at) values ($1,$2,$3)', [tokenHash, userId, expiresAt]);
}
export async function resetTokenByHash(db: Db, tokenHash: string): Promise<{ user_id: number; expires_at: Date | string; used: boolean } | null> {
  return (
    (
      await db.query<{ user_id: number; expires_at: Date | string; used: boolean }>(
        'select user_id, expires_at, used from password_reset_outbox where token_hash = $1',
        [tokenHash],
      )
    ).rows[0] ?? null
  );
}
/** Marks the token used; false when it already was (two finishes racing). */
export async function useResetToken(db: Db, tokenHash: string): Promise<boolean> {
  return (await db.query('update password_reset_outbox set used = true where token_hash = $1 and not used returning token_hash', [tokenHash])).rows.length > 0;
}

export async function insertRegistration(db: Db, r: { username: string; name: string; email: string; clientCode?: string | null }): Promise<number> {
  return (
    await db.query<{ id: number }>('insert into registration_requests (username, name, email, client_code) values ($1,$2,$3,$4) returning id', [
      r.username,
      r.name,
      r.email,
      r.clientCode ?? null,
    ])
  ).rows[0].id;
}

export async function secret(db: Db, name: string): Promise<string | null> {
  return (await db.query<{ value: string }>('select value from server_secrets where name = $1', [name])).rows[0]?.value ?? null;
}
/** Stores the value unless one is there already; returns whichever is stored (two starting servers agree). */
export async function keepSecret(db: Db, name: string, value: string): Promise<string> {
  await db.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, value]);
  return (await secret(db, name))!;
}
