// MFA's SQL outside its store (server/auth/mfa/sealing.ts; issue 48: in the queries room): TOTP secrets still kept
// plain (before migration 166), sealed in place.
import type { Db } from '../db';

/** Replaces account `userId`'s plain TOTP secret `plain` with its sealed form. */
export async function replacePlainTotp(db: Db, userId: number, sealed: string, plain: string): Promise<void> {
  await db.query('update mfa_totp set sealed = $2, secret = null where user_id = $1 and secret = $3', [userId, sealed, plain]);
}

/** The TOTP secrets still kept plain. */
export async function plainTotpSecrets(db: Db): Promise<{ user_id: number; secret: string }[]> {
  const { rows } = await db.query<{ user_id: number; secret: string }>('select user_id, secret from mfa_totp where secret is not null');
  return rows;
}
