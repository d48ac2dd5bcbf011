// Issue 49: a sign-in with a passkey alone (a discoverable credential, no password first; docs/MFA.md). The sign-in page
// asks for options with no credentials listed (the authenticator offers the passkeys it keeps for this site) and user
// verification required (the PIN or fingerprint stands in for the password); the answer says by its credential whose
// it is. The challenge is given to no account, bound to the client the page was opened for, and used once. Then the
// rules of a password sign-in: a locked account is refused (423), a failed check counts towards its lockout, a
// disabled operator or one of another client than the page's is refused with the same words as an unknown passkey
// (the answer never tells which accounts exist), and the session records its method (`passkey`). Audited.
import { row as accountRow } from './changes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { LoginResponse, MFA_API, PasskeySignInRequest, PasskeySignInStart, TENANT_HEADER, WebAuthnOptions } from '../../../contract';
import * as users from '../../db/queries/users';
import type { UserRow } from '../../db/queries/users';
import { audit } from '../../audit/trail';
import { HttpError, body, fill, INVALID_REQUEST } from '../../http/kit';
import type { RouteDoc } from '../../openapi/declared';
import { clientIdsOf } from '../access';
import { isDisabled } from '../policy';
import { countFailure, isLocked, LOCKED } from './confirm';
import type { MfaOptions } from './options';
import { activeClientByCode } from '../../db/queries/clients';
import { answerTo, CHALLENGE_MINUTES, COUNTER, keepChallenge, passkeyById, refused, rp, signedBy, useCounter, type StoredPasskey } from './passkeys';

const DOCS = {
  start: { body: PasskeySignInStart, response: WebAuthnOptions, summary: 'A sign-in with a passkey alone: the options for navigator.credentials.get' },
  signIn: { body: PasskeySignInRequest, response: LoginResponse, summary: 'A sign-in with a passkey alone (user verification required)' },
} satisfies Record<string, RouteDoc>;

const notHere = () =>
  new HttpError(400, fill('passkey.signsNobodyIn', 'This passkey does not sign anyone in here', {}), [
    { field: 'response', ...fill('passkey.isNotForSignIn', 'is not a passkey of an operator who may sign in here', {}) },
  ]);

/** The client the sign-in page was opened for: `client` (its code, /login?client=CODE), or x-tenant-id in IAM mode; null: the installation's. */
async function pageClient(o: MfaOptions, req: FastifyRequest, code: string | undefined): Promise<number | null> {
  if (code !== undefined) {
    const id = await activeClientByCode(o.db, code.trim());
    if (id === null)
      throw new HttpError(400, INVALID_REQUEST, [{ field: 'client', ...fill('client.isNotOfInstallation', 'is not a client of this installation', {}) }]);
    return id;
  }
  const header = req.headers[TENANT_HEADER];
  return typeof header === 'string' && /^\d{1,9}$/.test(header) ? Number(header) : null;
}
const boundTo = (clientId: number | null) => `passwordless:${clientId ?? ''}`;

/** The user handle the authenticator keeps with a discoverable credential is the account's (passkeyInit's userID). */
const handleIsOf = (response: AuthenticationResponseJSON, key: StoredPasskey) => {
  const handle = response.response.userHandle;
  if (handle === undefined) return true;
  try {
    return isoBase64URL.toUTF8String(handle) === `gatehouse:${key.userId}`;
  } catch {
    return false;
  }
};

export function passwordlessRoutes(app: FastifyInstance, o: MfaOptions, lifetimeS: (u: UserRow) => Promise<number>) {
  const { db } = o;
  const now = o.now ?? Date.now;

  app.post(MFA_API.passkeySignInInit, { config: { ...o.limited, ...DOCS.start } }, async (req) => {
    const input = body(req.body ?? {}, PasskeySignInStart);
    const clientId = await pageClient(o, req, input.client);
    const options = await generateAuthenticationOptions({ rpID: rp(req).rpID, userVerification: 'required', timeout: CHALLENGE_MINUTES * 60_000 });
    await keepChallenge(db, options.challenge, null, 'authenticate', boundTo(clientId));
    return options;
  });

  /** Whether the account may sign in on this page: not disabled, and of the page's client (its home, or a grant there), or the installation's page. */
  const mayHere = async (u: UserRow, clientId: number | null) =>
    !(await isDisabled(db, u.id)) && (clientId === null || u.home_client_id === clientId || (await clientIdsOf(db, u.id)).includes(clientId));

  app.post(MFA_API.passkeySignIn, { config: { ...o.limited, ...DOCS.signIn } }, async (req, reply) => {
    const input = body(req.body, PasskeySignInRequest);
    const clientId = await pageClient(o, req, input.client);
    const response = await answerTo<AuthenticationResponseJSON>(db, input.response, 'authenticate', { userId: null, boundTo: boundTo(clientId) });
    const key = await passkeyById(db, response.id);
    const u = key && handleIsOf(response, key) ? await users.userById(db, key.userId) : null;
    if (!key || !u) throw notHere();
    if (isLocked(u, now)) throw new HttpError(423, LOCKED);
    const newCounter = await signedBy(req, response, key, true);
    if (typeof newCounter !== 'number') {
      await countFailure(db, req, u, o.defaults, now, 'passkey');
      throw newCounter;
    }
    if (!(await mayHere(u, clientId))) throw notHere(); // as a password sign-in: checked once the person is proven
    if (!(await useCounter(db, key.id, newCounter))) {
      await countFailure(db, req, u, o.defaults, now, 'passkey');
      throw refused(req, 'counter', COUNTER);
    }
    if (u.failed_attempts > 0 || u.locked_until) await users.clearFailedSignIns(db, u.id);
    await audit(db, req, {
      ...accountRow(u),
      action: 'passkey-sign-in',
      before: null,
      after: { username: u.username, passkey: key.id },
    });
    return reply.send(await o.sessionBody({ ...u, failed_attempts: 0, locked_until: null }, req, await lifetimeS(u), 'passkey'));
  });
}
