// Issue 49: TOTP secrets are sealed at rest (migration 166) with the identity providers' sealing (../iam/sealed.ts:
// AES-256-GCM under a key derived from the installation secret), each bound to its account: a copy of the table gives
// no secret, and a sealed value moved to another account's row does not open. Rows kept before migration 166 hold the
// plain secret; the server seals them all when it is ready, and any one read before then (a restored backup's) at once.
import type { Db } from '../../db/db';
import { plainTotpSecrets, replacePlainTotp } from '../../db/queries/mfa';
import { open, seal } from '../iam/sealed';

export const totpPurpose = (userId: number) => `mfa_totp.secret:${userId}`;
export const pendingPurpose = (userId: number) => `mfa_totp_pending.secret:${userId}`;

export const sealTotp = (db: Db, userId: number, secret: string) => seal(db, secret, totpPurpose(userId));
export const sealPending = (db: Db, userId: number, secret: string) => seal(db, secret, pendingPurpose(userId));
/** The secret, or null when it does not open (the installation secret changed: the account must enrol again). */
export const openTotp = (db: Db, userId: number, sealed: string) => open(db, sealed, totpPurpose(userId));
export const openPending = (db: Db, userId: number, sealed: string) => open(db, sealed, pendingPurpose(userId));

/** Seals one account's plain secret in place (the trigger of migration 166 keeps its sessions: the factor is the same). */
export async function sealPlainTotp(db: Db, userId: number, plain: string): Promise<void> {
  await replacePlainTotp(db, userId, await sealTotp(db, userId, plain), plain);
}

/** Seals every secret still kept plain; how many it sealed. */
export async function sealPlainTotpSecrets(db: Db): Promise<number> {
  const rows = await plainTotpSecrets(db);
  for (const r of rows) await sealPlainTotp(db, Number(r.user_id), r.secret);
  return rows.length;
}
