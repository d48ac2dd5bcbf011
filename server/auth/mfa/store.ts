// What the MFA module keeps (migration 145): TOTP secrets (sealed, migration 166: ./sealing.ts) and their last accepted step, enrolments begun, recovery
// codes (scrypt hashes), sign-in tickets (sha256 of the ticket) and passkeys. Plain parameterised SQL.
import { randomBytes, randomInt } from 'node:crypto';
import { MFA_REQUIRED, MFA_TICKET_MINUTES, RECOVERY_CODE_COUNT } from '../../../contract';
import type { Db } from '../../db/db';
import { hashPassword, sha256, verifyPassword } from '../passwords';
import { PLATFORM_ROLE } from '../accountScope';
import { policyClientOf } from '../policy';
import { tenant } from '../../db/tenant';
import { openPending, openTotp, sealPending, sealPlainTotp, sealTotp } from './sealing';

export interface Factors {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function factorsOf(db: Db, userId: number): Promise<Factors> {
  const { rows } = await db.query<{ totp: boolean; passkeys: string; codes: string }>(
    `select exists (select 1 from mfa_totp where user_id = $1) totp,
      (select count(*)::text from webauthn_credentials where user_id = $1) passkeys,
      (select count(*)::text from mfa_recovery_codes where user_id = $1 and used_at is null) codes`,
    [userId],
  );
  return { totp: rows[0].totp, passkeys: Number(rows[0].passkeys), recoveryCodesLeft: Number(rows[0].codes) };
}
export const hasSecondFactor = (f: Factors) => f.totp || f.passkeys > 0;

/**
 * Whether the client's rule (operator settings of the account's policy client) says this account must use MFA:
 * everyone, or administrators (the administrator role in any client, or the platform role).
 */
export async function mustUseMfa(db: Db, userId: number): Promise<boolean> {
  const clientId = await policyClientOf(db, userId);
  if (clientId === null) return false;
  const params: unknown[] = [];
  const { rows } = await db.query<{ r: number }>(`select mfa_required r from operator_settings where ${tenant(params, clientId)}`, params);
  const rule = rows[0]?.r ?? MFA_REQUIRED.nobody;
  if (rule === MFA_REQUIRED.everyone) return true;
  if (rule !== MFA_REQUIRED.administrators) return false;
  const admin = await db.query(
    `select 1 from user_grants where user_id = $1 and role_code = 'administrator'
     union all select 1 from platform_grants where user_id = $1 and role_code = $2 limit 1`,
    [userId, PLATFORM_ROLE],
  );
  return admin.rows.length > 0;
}

// ---------- tickets: the step between a password and its second factor (or the enrolment it must make) ----------

export type TicketPurpose = 'verify' | 'enrol';

export async function newTicket(db: Db, userId: number, purpose: TicketPurpose): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await db.query(`delete from mfa_tickets where expires_at < now() - interval '1 day'`);
  await db.query(`insert into mfa_tickets (hash, user_id, purpose, expires_at) values ($1, $2, $3, now() + $4::int * interval '1 minute')`, [
    sha256(ticket),
    userId,
    purpose,
    MFA_TICKET_MINUTES,
  ]);
  return ticket;
}
/** The user of a live, unused ticket of that purpose; null otherwise. */
export async function ticketUser(db: Db, ticket: string, purpose: TicketPurpose): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `select user_id from mfa_tickets where hash = $1 and purpose = $2 and used_at is null and expires_at > now()`,
    [sha256(ticket), purpose],
  );
  return rows[0]?.user_id ?? null;
}
/** Marks the ticket used; false when it was used (or expired) meanwhile. */
export async function useTicket(db: Db, ticket: string): Promise<boolean> {
  const { rows } = await db.query(`update mfa_tickets set used_at = now() where hash = $1 and used_at is null and expires_at > now() returning hash`, [
    sha256(ticket),
  ]);
  return rows.length > 0;
}

// ---------- TOTP ----------

/** The account's TOTP secret (opened) and its last accepted step; null when it has none, or its secret does not open. */
export async function totpOf(db: Db, userId: number): Promise<{ secret: string; lastStep: number } | null> {
  const { rows } = await db.query<{ secret: string | null; sealed: string | null; last_step: string }>(
    'select secret, sealed, last_step::text from mfa_totp where user_id = $1',
    [userId],
  );
  const r = rows[0];
  if (!r) return null;
  const secret = r.sealed ? await openTotp(db, userId, r.sealed) : r.secret;
  if (r.secret && !r.sealed) await sealPlainTotp(db, userId, r.secret); // kept before migration 166 (a restored backup)
  if (secret === null) return null;
  return { secret, lastStep: Number(r.last_step) };
}
export async function hasTotp(db: Db, userId: number): Promise<boolean> {
  return (await db.query('select 1 from mfa_totp where user_id = $1', [userId])).rows.length > 0;
}
/** Records the step as used; false when a code of that step (or a later one) was accepted meanwhile. */
export async function useTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const { rows } = await db.query('update mfa_totp set last_step = $2 where user_id = $1 and last_step < $2 returning user_id', [userId, step]);
  return rows.length > 0;
}
export async function beginTotp(db: Db, userId: number, secret: string, boundTo: string): Promise<void> {
  await db.query(
    `insert into mfa_totp_pending (user_id, sealed, bound_to) values ($1, $2, $3)
     on conflict (user_id) do update set sealed = excluded.sealed, bound_to = excluded.bound_to, created_at = now()`,
    [userId, await sealPending(db, userId, secret), boundTo],
  );
}
/** The secret of the enrolment this session (or ticket) began within the ticket's lifetime; null otherwise. */
export async function pendingTotp(db: Db, userId: number, boundTo: string): Promise<string | null> {
  const { rows } = await db.query<{ sealed: string }>(
    `select sealed from mfa_totp_pending where user_id = $1 and bound_to = $2 and created_at > now() - $3::int * interval '1 minute'`,
    [userId, boundTo, MFA_TICKET_MINUTES],
  );
  return rows[0] ? openPending(db, userId, rows[0].sealed) : null;
}
export async function confirmTotp(db: Db, userId: number, secret: string, step: number): Promise<void> {
  await db.query('delete from mfa_totp_pending where user_id = $1', [userId]);
  await db.query('insert into mfa_totp (user_id, sealed, last_step) values ($1, $2, $3)', [userId, await sealTotp(db, userId, secret), step]);
}
export async function removeTotp(db: Db, userId: number): Promise<boolean> {
  return (await db.query('delete from mfa_totp where user_id = $1 returning user_id', [userId])).rows.length > 0;
}

// ---------- passkeys ----------

export async function passkeysOf(db: Db, userId: number): Promise<{ id: string; name: string; createdAt: string; lastUsedAt: string | null }[]> {
  const { rows } = await db.query<{ id: string; name: string; created_at: Date | string; last_used_at: Date | string | null }>(
    'select id, name, created_at, last_used_at from webauthn_credentials where user_id = $1 order by created_at',
    [userId],
  );
  const iso = (d: Date | string) => new Date(d).toISOString();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: iso(r.created_at), lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null }));
}

// ---------- recovery codes ----------

/** Ten new codes (xxxxx-xxxxx, lower-case letters and digits that cannot be mistaken for each other), stored as scrypt hashes; the old ones go. */
export async function newRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const s = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
  const hashes = await Promise.all(codes.map((c) => hashPassword(c)));
  await db.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
  await db.query('insert into mfa_recovery_codes (user_id, code_hash) select $1, unnest($2::text[])', [userId, hashes]);
  return codes;
}
export const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, '');

/** Uses the recovery code if it is one of the account's unused ones; false otherwise (or used meanwhile). */
export async function useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const given = normaliseRecoveryCode(code);
  if (!/^[a-z0-9]{5}-[a-z0-9]{5}$/.test(given)) return false;
  const { rows } = await db.query<{ id: string; code_hash: string }>(
    'select id::text, code_hash from mfa_recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  for (const r of rows) {
    if (await verifyPassword(given, r.code_hash)) {
      const used = await db.query('update mfa_recovery_codes set used_at = now() where id = $1 and used_at is null returning id', [r.id]);
      return used.rows.length > 0;
    }
  }
  return false;
}
export async function removeRecoveryCodes(db: Db, userId: number): Promise<void> {
  await db.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
}

/** Names the session that makes a factor change in the transaction, so the trigger of migration 145 keeps it. */
export async function keepSession(db: Db, jti: string | null): Promise<void> {
  await db.query(`select set_config('gatehouse.keep_session', $1, true)`, [jti ?? '']);
}
