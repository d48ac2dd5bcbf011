// Issue 49: the person at the keyboard confirms a change of their own factors again: a current code of their
// authenticator app (never one accepted before; a wrong one counts towards the lockout, as at sign-in) or their
// password. One check for every route that asks it (server/auth/mfa/routes.ts, ./passkeys.ts).
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import * as users from '../../db/queries/users';
import type { UserRow } from '../../db/queries/users';
import { audit } from '../../audit/trail';
import { HttpError, fill, INVALID_REQUEST } from '../../http/kit';
import { verifyPassword } from '../passwords';
import { passwordExpired, userSettings, type PolicyDefaults } from '../policy';
import * as store from './store';
import { verifyTotp } from './totp';

export const LOCKED = fill('account.locked', 'Account locked after too many failed sign-ins, try again later', {});
export type ConfirmedWith = 'totp' | 'password';

/**
 * A failed sign-in step counts towards the lockout: a wrong password (server/http/auth.ts) and a wrong second factor the
 * same counter and lock of the account's client. The lock is audited in the user's home client (its activity report
 * shows who was locked out, and when); `by` says by what when it is not the password.
 */
export async function countFailure(
  db: Db,
  req: FastifyRequest,
  u: UserRow,
  defaults: PolicyDefaults,
  now: () => number,
  by: 'password' | 'second factor' | 'passkey' = 'second factor',
): Promise<void> {
  const policy = await userSettings(db, u.id, defaults);
  const failed = u.failed_attempts + 1;
  const lock = failed >= policy.lockoutAttempts;
  await db.transaction(async (tx) => {
    await users.recordFailedSignIn(tx, u.id, lock ? 0 : failed, lock ? new Date(now() + policy.lockoutMinutes * 60_000) : null);
    if (lock)
      await audit(tx, req, {
        clientId: u.home_client_id ?? null,
        actor: u.username,
        action: 'lock',
        entity: 'user',
        entityId: u.id,
        before: null,
        after: { username: u.username, minutes: policy.lockoutMinutes, ...(by === 'password' ? {} : { by }) },
      });
  });
}

export const isLocked = (u: UserRow, now: () => number) => u.locked_until !== null && new Date(u.locked_until).getTime() > now();

/**
 * `{code}` (a current TOTP code, used up) or `{password}`; 400 on the field that is wrong, 423 while locked. The code
 * is only asked of an account with an authenticator app.
 */
export async function confirmPerson(
  db: Db,
  req: FastifyRequest,
  u: UserRow,
  input: { code?: string; password?: string },
  defaults: PolicyDefaults,
  now: () => number,
): Promise<ConfirmedWith> {
  if (isLocked(u, now)) throw new HttpError(423, LOCKED);
  if (input.code !== undefined) {
    const totp = await store.totpOf(db, u.id);
    const step = totp ? await verifyTotp(totp.secret, input.code.trim(), totp.lastStep, now()) : null;
    if (step === null || !(await store.useTotpStep(db, u.id, step))) {
      await countFailure(db, req, u, defaults, now);
      throw new HttpError(400, fill('mfa.codeRefused', 'The code is wrong, or was already used', {}), [
        { field: 'code', ...fill('mfa.codeIsWrongOrUsed', 'is wrong or was already used', {}) },
      ]);
    }
    return 'totp';
  }
  if (input.password !== undefined) {
    if (!u.password_hash || !(await verifyPassword(input.password, u.password_hash)))
      throw new HttpError(400, INVALID_REQUEST, [{ field: 'password', ...fill('password.isNotCurrent', 'is not the current password', {}) }]);
    // docs/MFA.md: an expired password is not taken wherever it is used, also in a session a passkey alone opened
    if (await passwordExpired(db, u.id, await userSettings(db, u.id, defaults)))
      throw new HttpError(403, fill('password.expiredChangeFirst', 'Your password has expired: change it first (Profile → Change password)', {}), [
        { field: 'password', ...fill('password.hasExpired', 'has expired', {}) },
      ]);
    return 'password';
  }
  throw new HttpError(400, INVALID_REQUEST, [
    { field: 'password', ...fill('mfa.passwordOrCodeRequired', 'or a code of the authenticator app is required', {}) },
  ]);
}

/** Refuses a removal that would leave an account its client requires MFA of without a second factor. */
export async function keepsOneFactor(db: Db, userId: number, left: store.Factors, what: string): Promise<void> {
  if (store.hasSecondFactor(left) || !(await store.mustUseMfa(db, userId))) return;
  throw new HttpError(409, fill('mfa.clientRequiresFactor', 'Your client requires MFA: add another second factor before removing this one', {}), [
    { field: what, ...fill('mfa.isOnlyFactor', 'is the only second factor, and the client requires one', {}) },
  ]);
}
