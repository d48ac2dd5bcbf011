// Issue 49: what every change of an account's second factors writes besides the factor itself, in the transaction
// that changes it: the recovery codes that stand in for the factors, and the row in the account's audit chain. One
// place for the authenticator app (./routes.ts) and the passkeys (./passkeys.ts).
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import type { UserRow } from '../../db/queries/users';
import { audit } from '../../audit/trail';
import * as store from './store';

export type FactorChange = { factor: 'totp' } | { factor: 'passkey'; name: string } | { factor: 'passkey'; id: string };

/** The row of the account's own audit chain: its home client's, or the one it works in (every account change and
 *  sign-in of ./routes.ts, ./passkeys.ts and ./passwordless.ts writes it). */
export const row = (u: UserRow) => ({ clientId: u.home_client_id ?? u.selected_client_id, actor: u.username, entity: 'user', entityId: u.id });

/**
 * A factor is being added (call it before the factor is stored): an authenticator app, or the account's first second
 * factor, brings ten new recovery codes (answered once, kept hashed); audited `enrol-mfa` with how many, never the codes.
 */
export async function enrolled(tx: Db, req: FastifyRequest, u: UserRow, change: FactorChange): Promise<string[]> {
  const first = !store.hasSecondFactor(await store.factorsOf(tx, u.id));
  const codes = change.factor === 'totp' || first ? await store.newRecoveryCodes(tx, u.id) : [];
  await audit(tx, req, { ...row(u), action: 'enrol-mfa', before: null, after: { ...change, recoveryCodes: codes.length } });
  return codes;
}

/** A factor was removed: with none left, the recovery codes go too; audited `remove-mfa`. */
export async function removed(tx: Db, req: FastifyRequest, u: UserRow, change: FactorChange, left: store.Factors): Promise<void> {
  if (!store.hasSecondFactor(left)) await store.removeRecoveryCodes(tx, u.id);
  await audit(tx, req, { ...row(u), action: 'remove-mfa', before: change, after: null });
}
