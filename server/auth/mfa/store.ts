// What the MFA module keeps (migration 145): TOTP secrets (sealed, migration 166: ./sealing.ts) and their last accepted step, enrolments begun, recovery
// codes (scrypt hashes), sign-in tickets (sha256 of the ticket) and passkeys. Its SQL is in server/db/queries/mfa.ts.
import { randomBytes, randomInt } from 'node:crypto';
import { MFA_REQUIRED, MFA_TICKET_MINUTES, RECOVERY_CODE_COUNT } from '../../../contract';
import type { Db } from '../../db/db';
import { hashPassword, sha256, verifyPassword } from '../passwords';
import { PLATFORM_ROLE } from '../accountScope';
import { policyClientOf } from '../policy';
import * as q from '../../db/queries/mfa';
import { openPending, openTotp, sealPending, sealPlainTotp, sealTotp } from './sealing';

export interface Factors {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function factorsOf(db: Db, userId: number): Promise<Factors> {
  const r = await q.factorCounts(db, userId);
  return { totp: r.totp, passkeys: Number(r.passkeys), recoveryCodesLeft: Number(r.codes) };
}
export const hasSecondFactor = (f: Factors) => f.totp || f.passkeys > 0;

/**
 * Whether the client's rule (operator settings of the account's policy client) says this account must use MFA:
 * everyone, or administrators (the administrator role in any client, or the platform role).
 */
export async function mustUseMfa(db: Db, userId: number): Promise<boolean> {
  const clientId = await policyClientOf(db, userId);
  if (clientId === null) return false;
  const rule = (await q.mfaRuleOf(db, clientId)) ?? MFA_REQUIRED.nobody;
  if (rule === MFA_REQUIRED.everyone) return true;
  if (rule !== MFA_REQUIRED.administrators) return false;
  return q.isAdministrator(db, userId, PLATFORM_ROLE);
}

// ---------- tickets: the step between a password and its second factor (or the enrolment it must make) ----------

export type TicketPurpose = 'verify' | 'enrol';

export async function newTicket(db: Db, userId: number, purpose: TicketPurpose): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await q.insertTicket(db, sha256(ticket), userId, purpose, MFA_TICKET_MINUTES);
  return ticket;
}
/** The user of a live, unused ticket of that purpose; null otherwise. */
export async function ticketUser(db: Db, ticket: string, purpose: TicketPurpose): Promise<number | null> {
  return q.ticketUserOf(db, sha256(ticket), purpose);
}
/** Marks the ticket used; false when it was used (or expired) meanwhile. */
export async function useTicket(db: Db, ticket: string): Promise<boolean> {
  return q.markTicketUsed(db, sha256(ticket));
}

// ---------- TOTP ----------

/** The account's TOTP secret (opened) and its last accepted step; null when it has none, or its secret does not open. */
export async function totpOf(db: Db, userId: number): Promise<{ secret: string; lastStep: number } | null> {
  const r = await q.totpRow(db, userId);
  if (!r) return null;
  const secret = r.sealed ? await openTotp(db, userId, r.sealed) : r.secret;
  if (r.secret && !r.sealed) await sealPlainTotp(db, userId, r.secret); // kept before migration 166 (a restored backup)
  if (secret === null) return null;
  return { secret, lastStep: Number(r.last_step) };
}
export async function hasTotp(db: Db, userId: number): Promise<boolean> {
  return q.totpExists(db, userId);
}
/** Records the step as used; false when a code of that step (or a later one) was accepted meanwhile. */
export async function useTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  return q.moveTotpStep(db, userId, step);
}
export async function beginTotp(db: Db, userId: number, secret: string, boundTo: string): Promise<void> {
  await q.upsertPendingTotp(db, userId, await sealPending(db, userId, secret), boundTo);
}
/** The secret of the enrolment this session (or ticket) began within the ticket's lifetime; null otherwise. */
export async function pendingTotp(db: Db, userId: number, boundTo: string): Promise<string | null> {
  const sealed = await q.pendingTotpSealed(db, userId, boundTo, MFA_TICKET_MINUTES);
  return sealed !== null ? openPending(db, userId, sealed) : null;
}
export async function confirmTotp(db: Db, userId: number, secret: string, step: number): Promise<void> {
  await q.deletePendingTotp(db, userId);
  await q.insertTotp(db, userId, await sealTotp(db, userId, secret), step);
}
export async function removeTotp(db: Db, userId: number): Promise<boolean> {
  return q.deleteTotp(db, userId);
}

// ---------- passkeys ----------

export async function passkeysOf(db: Db, userId: number): Promise<{ id: string; name: string; createdAt: string; lastUsedAt: string | null }[]> {
  const rows = await q.passkeyRows(db, userId);
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
  await q.replaceRecoveryCodes(db, userId, hashes);
  return codes;
}
export const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, '');

/** Uses the recovery code if it is one of the account's unused ones; false otherwise (or used meanwhile). */
export async function useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const given = normaliseRecoveryCode(code);
  if (!/^[a-z0-9]{5}-[a-z0-9]{5}$/.test(given)) return false;
  for (const r of await q.unusedRecoveryCodes(db, userId)) {
    if (await verifyPassword(given, r.code_hash)) return q.markRecoveryCodeUsed(db, r.id);
  }
  return false;
}
export async function removeRecoveryCodes(db: Db, userId: number): Promise<void> {
  await q.deleteRecoveryCodes(db, userId);
}

/** Names the session that makes a factor change in the transaction, so the trigger of migration 145 keeps it. */
export async function keepSession(db: Db, jti: string | null): Promise<void> {
  await q.setKeepSession(db, jti ?? '');
}
