// MFA's SQL (issue 48: in the queries room): its store (server/auth/mfa/store.ts), passkeys (passkeys.ts) and the
// TOTP secrets still kept plain (before migration 166), sealed in place (sealing.ts).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** Replaces account `userId`'s plain TOTP secret `plain` with its sealed form. */
export async function replacePlainTotp(db: Db, userId: number, sealed: string, plain: string): Promise<void> {
  await db.query('update mfa_totp set sealed = $2, secret = null where user_id = $1 and secret = $3', [userId, sealed, plain]);
}

/** The TOTP secrets still kept plain. */
export async function plainTotpSecrets(db: Db): Promise<{ user_id: number; secret: string }[]> {
  const { rows } = await db.query<{ user_id: number; secret: string }>('select user_id, secret from mfa_totp where secret is not null');
  return rows;
}

// ---------- the MFA store (server/auth/mfa/store.ts; issue 48) ----------

/** The account's factors, counted: a TOTP secret, its passkeys, its unused recovery codes. */
export async function factorCounts(db: Db, userId: number): Promise<{ totp: boolean; passkeys: string; codes: string }> {
  const { rows } = await db.query<{ totp: boolean; passkeys: string; codes: string }>(
    `select exists (select 1 from mfa_totp where user_id = $1) totp,
      (select count(*)::text from webauthn_credentials where user_id = $1) passkeys,
      (select count(*)::text from mfa_recovery_codes where user_id = $1 and used_at is null) codes`,
    [userId],
  );
  return rows[0];
}

/** The client's MFA rule (operator settings), undefined when it has no settings row. */
export async function mfaRuleOf(db: Db, clientId: number): Promise<number | undefined> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ r: number }>(`select mfa_required r from operator_settings where ${tenant(params, clientId)}`, params);
  return rows[0]?.r;
}

/** Whether the account holds the administrator role in any client, or the platform role `platformRole`. */
export async function isAdministrator(db: Db, userId: number, platformRole: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from user_grants where user_id = $1 and role_code = 'administrator'
     union all select 1 from platform_grants where user_id = $1 and role_code = $2 limit 1`,
    [userId, platformRole],
  );
  return rows.length > 0;
}

/** Forgets the tickets expired over a day ago, and keeps a new one (its sha256 `hash`) for `minutes`. */
export async function insertTicket(db: Db, hash: string, userId: number, purpose: string, minutes: number): Promise<void> {
  await db.query(`delete from mfa_tickets where expires_at < now() - interval '1 day'`);
  await db.query(`insert into mfa_tickets (hash, user_id, purpose, expires_at) values ($1, $2, $3, now() + $4::int * interval '1 minute')`, [
    hash,
    userId,
    purpose,
    minutes,
  ]);
}

/** The user of the live, unused ticket of that hash and purpose; null otherwise. */
export async function ticketUserOf(db: Db, hash: string, purpose: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `select user_id from mfa_tickets where hash = $1 and purpose = $2 and used_at is null and expires_at > now()`,
    [hash, purpose],
  );
  return rows[0]?.user_id ?? null;
}

/** Marks the live ticket of that hash used; false when it was used (or expired) meanwhile. */
export async function markTicketUsed(db: Db, hash: string): Promise<boolean> {
  const { rows } = await db.query(`update mfa_tickets set used_at = now() where hash = $1 and used_at is null and expires_at > now() returning hash`, [hash]);
  return rows.length > 0;
}

/** The account's TOTP row: its secret (plain, before migration 166) or sealed form, and its last accepted step. */
export async function totpRow(db: Db, userId: number): Promise<{ secret: string | null; sealed: string | null; last_step: string } | undefined> {
  const { rows } = await db.query<{ secret: string | null; sealed: string | null; last_step: string }>(
    'select secret, sealed, last_step::text from mfa_totp where user_id = $1',
    [userId],
  );
  return rows[0];
}

export async function totpExists(db: Db, userId: number): Promise<boolean> {
  return (await db.query('select 1 from mfa_totp where user_id = $1', [userId])).rows.length > 0;
}

/** Records the step as used; false when a code of that step (or a later one) was accepted meanwhile. */
export async function moveTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const { rows } = await db.query('update mfa_totp set last_step = $2 where user_id = $1 and last_step < $2 returning user_id', [userId, step]);
  return rows.length > 0;
}

/** Keeps (or replaces) the account's enrolment begun: its sealed secret and the session or ticket it is bound to. */
export async function upsertPendingTotp(db: Db, userId: number, sealed: string, boundTo: string): Promise<void> {
  await db.query(
    `insert into mfa_totp_pending (user_id, sealed, bound_to) values ($1, $2, $3)
     on conflict (user_id) do update set sealed = excluded.sealed, bound_to = excluded.bound_to, created_at = now()`,
    [userId, sealed, boundTo],
  );
}

/** The sealed secret of the enrolment bound to `boundTo`, begun within the last `minutes`; null otherwise. */
export async function pendingTotpSealed(db: Db, userId: number, boundTo: string, minutes: number): Promise<string | null> {
  const { rows } = await db.query<{ sealed: string }>(
    `select sealed from mfa_totp_pending where user_id = $1 and bound_to = $2 and created_at > now() - $3::int * interval '1 minute'`,
    [userId, boundTo, minutes],
  );
  return rows[0]?.sealed ?? null;
}

export async function deletePendingTotp(db: Db, userId: number): Promise<void> {
  await db.query('delete from mfa_totp_pending where user_id = $1', [userId]);
}

export async function insertTotp(db: Db, userId: number, sealed: string, step: number): Promise<void> {
  await db.query('insert into mfa_totp (user_id, sealed, last_step) values ($1, $2, $3)', [userId, sealed, step]);
}

/** Deletes the account's TOTP secret; false when it had none. */
export async function deleteTotp(db: Db, userId: number): Promise<boolean> {
  return (await db.query('delete from mfa_totp where user_id = $1 returning user_id', [userId])).rows.length > 0;
}

export interface PasskeyListRow {
  id: string;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

/** The account's passkeys, oldest first. */
export async function passkeyRows(db: Db, userId: number): Promise<PasskeyListRow[]> {
  const { rows } = await db.query<PasskeyListRow>(
    'select id, name, created_at, last_used_at from webauthn_credentials where user_id = $1 order by created_at',
    [userId],
  );
  return rows;
}

/** Replaces the account's recovery codes with these scrypt hashes. */
export async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
  await db.query('insert into mfa_recovery_codes (user_id, code_hash) select $1, unnest($2::text[])', [userId, hashes]);
}

/** The account's unused recovery codes (their hashes). */
export async function unusedRecoveryCodes(db: Db, userId: number): Promise<{ id: string; code_hash: string }[]> {
  const { rows } = await db.query<{ id: string; code_hash: string }>(
    'select id::text, code_hash from mfa_recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  return rows;
}

/** Marks recovery code `id` used; false when it was used meanwhile. */
export async function markRecoveryCodeUsed(db: Db, id: string): Promise<boolean> {
  return (await db.query('update mfa_recovery_codes set used_at = now() where id = $1 and used_at is null returning id', [id])).rows.length > 0;
}

export async function deleteRecoveryCodes(db: Db, userId: number): Promise<void> {
  await db.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
}

/** Names the session (its jti, '' for none) that makes a factor change in the transaction (the trigger of migration 145 keeps it). */
export async function setKeepSession(db: Db, jti: string): Promise<void> {
  await db.query(`select set_config('gatehouse.keep_session', $1, true)`, [jti]);
}

// ---------- passkeys (server/auth/mfa/passkeys.ts) ----------

/** Forgets the expired challenges and keeps a new one for `minutes`. */
export async function insertChallenge(db: Db, challenge: string, userId: number | null, purpose: string, boundTo: string, minutes: number): Promise<void> {
  await db.query(`delete from webauthn_challenges where expires_at < now()`);
  await db.query(
    `insert into webauthn_challenges (challenge, user_id, purpose, bound_to, expires_at) values ($1, $2, $3, $4, now() + $5::int * interval '1 minute')`,
    [challenge, userId, purpose, boundTo, minutes],
  );
}

/**
 * Takes (deletes) the live challenge given to that account (or none) and session or ticket for that purpose; false
 * when there was none.
 */
export async function takeChallenge(db: Db, challenge: string, userId: number | null, purpose: string, boundTo: string): Promise<boolean> {
  const { rows } = await db.query(
    `delete from webauthn_challenges where challenge = $1 and user_id is not distinct from $2 and purpose = $3 and bound_to = $4
       and expires_at > now() returning challenge`,
    [challenge, userId, purpose, boundTo],
  );
  return rows.length > 0;
}

export interface PasskeyRow {
  id: string;
  user_id: number;
  public_key: string;
  counter: string;
  transports: string;
}

export async function passkeyRow(db: Db, id: string): Promise<PasskeyRow | undefined> {
  const { rows } = await db.query<PasskeyRow>('select id, user_id, public_key, counter::text, transports from webauthn_credentials where id = $1', [id]);
  return rows[0];
}

/** The ids and transports (comma-separated) of the account's passkeys. */
export async function passkeyTransports(db: Db, userId: number): Promise<{ id: string; transports: string }[]> {
  const { rows } = await db.query<{ id: string; transports: string }>('select id, transports from webauthn_credentials where user_id = $1', [userId]);
  return rows;
}

/** Moves the counter on; false when another sign-in moved it as far meanwhile. */
export async function moveCounter(db: Db, id: string, counter: number): Promise<boolean> {
  const { rows } = await db.query(
    `update webauthn_credentials set counter = $2, last_used_at = now() where id = $1 and (counter < $2 or ($2 = 0 and counter = 0)) returning id`,
    [id, counter],
  );
  return rows.length > 0;
}

export async function insertPasskey(
  db: Db,
  p: { id: string; userId: number; publicKey: string; counter: number; transports: string; name: string },
): Promise<void> {
  await db.query('insert into webauthn_credentials (id, user_id, public_key, counter, transports, name) values ($1, $2, $3, $4, $5, $6)', [
    p.id,
    p.userId,
    p.publicKey,
    p.counter,
    p.transports,
    p.name,
  ]);
}

export async function deletePasskey(db: Db, id: string, userId: number): Promise<void> {
  await db.query('delete from webauthn_credentials where id = $1 and user_id = $2', [id, userId]);
}
