// Operator settings per client (issue 11, 0.3.7.0): password policy, lockout, session lifetime and idle timeout.
// A client without stored settings uses the server's defaults (environment: LOCKOUT_ATTEMPTS, LOCKOUT_MINUTES,
// JWT_LIFETIME_S). The client whose settings apply to a user is their home client, else their selected one, else
// the first they hold a grant in; an unknown username gets the defaults.
import { fill, passwordProblems, problemSaid, type OperatorSettings, type Violation } from '../../contract';
import type { Db } from '../db/db';
import { verifyPassword } from './passwords';
import {
  isDisabled,
  passwordOlderThan,
  policyClientOf,
  recentPasswordHashes,
  sessionWithinSettings,
  setPasswordKeepingHistory,
  storeSettings,
  storedSettings,
} from '../db/queries/operatorSettings';

// the SQL is the operator settings room's (server/db/queries/operatorSettings.ts); callers keep their names here
export { isDisabled, policyClientOf, sessionWithinSettings, setPasswordKeepingHistory };

export interface PolicyDefaults {
  lockout: { attempts: number; minutes: number };
  sessionLifetimeS: number;
}

export function defaultSettings(d: PolicyDefaults): OperatorSettings {
  return {
    passwordMinLength: 8,
    passwordClasses: 3,
    passwordHistory: 0,
    passwordExpiryDays: 0,
    lockoutAttempts: d.lockout.attempts,
    lockoutMinutes: d.lockout.minutes,
    sessionLifetimeMinutes: Math.max(1, Math.round(d.sessionLifetimeS / 60)),
    idleTimeoutMinutes: 0,
    mfaRequired: 0,
  };
}

export async function settingsOf(db: Db, clientId: number | null, d: PolicyDefaults): Promise<OperatorSettings> {
  if (clientId === null) return defaultSettings(d);
  return (await storedSettings(db, clientId)) ?? defaultSettings(d);
}

export const saveSettings = storeSettings;

export async function userSettings(db: Db, userId: number, d: PolicyDefaults): Promise<OperatorSettings> {
  return settingsOf(db, await policyClientOf(db, userId), d);
}

/**
 * Violations of a new password for the user (field named `field`): the policy's length and classes, and none of
 * the last N passwords (history, the current one included).
 */
export async function newPasswordViolations(db: Db, userId: number, password: string, s: OperatorSettings, field: string): Promise<Violation[]> {
  const problems = passwordProblems(password, s);
  if (problems.length) return problems.map((p) => ({ field, ...problemSaid(p) }));
  if (s.passwordHistory > 0) {
    for (const h of (await recentPasswordHashes(db, userId, s.passwordHistory)).slice(0, s.passwordHistory)) {
      if (await verifyPassword(password, h))
        return [{ field, ...fill('password.usedBefore', 'must not be one of your last {n} passwords', { n: s.passwordHistory }) }];
    }
  }
  return [];
}

/** Whether the password has expired under the settings. */
export async function passwordExpired(db: Db, userId: number, s: OperatorSettings): Promise<boolean> {
  if (s.passwordExpiryDays <= 0) return false;
  return passwordOlderThan(db, userId, s.passwordExpiryDays);
}
