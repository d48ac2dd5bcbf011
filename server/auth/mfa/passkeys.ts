// Issue 49: passkeys (WebAuthn) as a second factor, through @simplewebauthn/server (docs/MFA.md). Registration and
// sign-in ceremonies: each challenge is random, lives five minutes, is bound to the session or sign-in ticket that asked
// for it and is used once (taken by an atomic delete while the response is checked, whatever the outcome); the
// authenticator's signature counter must move on; a credential is the operator's who registered it, and a sign-in with
// another account's credential is refused. Registration and removal are credential changes (route config
// `credential`: the trigger of migration 145 ends the account's other sessions in the same transaction).
import type { FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  MFA_API,
  EnrolmentDone,
  LoginResponse,
  MfaConfirmRequest,
  Ok,
  PasskeyAssertionRequest,
  PasskeyRegisterRequest,
  TicketRequest,
  WebAuthnOptions,
  type Sentence,
} from '../../../contract';
import type { Db } from '../../db/db';
import * as q from '../../db/queries/mfa';
import * as users from '../../db/queries/users';
import type { UserRow } from '../../db/queries/users';
import { HttpError, body, fill, INVALID_REQUEST } from '../../http/kit';
import type { RouteDoc } from '../../openapi/declared';
import { originOf } from '../iam/flow';
import { sha256 } from '../passwords';
import { enrolled, removed } from './changes';
import { confirmPerson, countFailure, isLocked, keepsOneFactor, LOCKED } from './confirm';
import type { Asker, MfaOptions } from './options';
import * as store from './store';

export const CHALLENGE_MINUTES = 5;
type Purpose = 'register' | 'authenticate';

const DOCS = {
  passkeyInit: {
    body: TicketRequest,
    response: WebAuthnOptions,
    summary: 'A passkey registration: the options for navigator.credentials.create (confirmed with the password or a code when signed in)',
  },
  passkeys: { body: PasskeyRegisterRequest, response: EnrolmentDone, summary: 'Registers the passkey the browser made for the options given' },
  passkeyRemove: { body: MfaConfirmRequest, response: Ok, summary: 'Removes one of your passkeys (confirmed with the password or a code)' },
  assertionInit: { body: TicketRequest, response: WebAuthnOptions, summary: 'A passkey sign-in: the options for navigator.credentials.get' },
  assertion: { body: PasskeyAssertionRequest, response: LoginResponse, summary: 'The second step of a sign-in with a passkey' },
} satisfies Record<string, RouteDoc>;

// ---------- what is kept ----------

export interface StoredPasskey {
  id: string;
  userId: number;
  publicKey: string;
  counter: number;
  transports: string;
}

export async function keepChallenge(db: Db, challenge: string, userId: number | null, purpose: Purpose, boundTo: string) {
  await q.insertChallenge(db, challenge, userId, purpose, boundTo, CHALLENGE_MINUTES);
}
export async function passkeyById(db: Db, id: string): Promise<StoredPasskey | null> {
  const r = await q.passkeyRow(db, id);
  return r ? { id: r.id, userId: Number(r.user_id), publicKey: r.public_key, counter: Number(r.counter), transports: r.transports } : null;
}
async function credentialsOf(db: Db, userId: number) {
  return (await q.passkeyTransports(db, userId)).map((r) => ({
    id: r.id,
    transports: (r.transports ? r.transports.split(',') : []) as AuthenticatorTransport[],
  }));
}
/** Moves the counter on; false when another sign-in moved it as far meanwhile (a cloned authenticator, or a replay). */
export async function useCounter(db: Db, id: string, counter: number): Promise<boolean> {
  return q.moveCounter(db, id, counter);
}

// ---------- the routes ----------

/** A credential id or a challenge: base64url (WebAuthn); anything else (a NUL byte, 10 KB) is asked of no database. */
const B64URL = /^[A-Za-z0-9_-]{1,1400}$/;
const challengeOf = (clientDataJSON: string): string => {
  try {
    const c = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    return typeof c.challenge === 'string' && B64URL.test(c.challenge) ? c.challenge : '';
  } catch {
    return '';
  }
};
const wrongChallenge = () =>
  new HttpError(
    400,
    fill('passkey.wrongChallenge', 'This passkey answer is not for a challenge this session was given, or it was already used: try again', {}),
    [{ field: 'response', ...fill('passkey.answersNoChallenge', 'answers no challenge given to this session, or one already used', {}) }],
  );
export const COUNTER = fill('passkey.counterDidNotMove', 'has a signature counter that did not move on (a copied authenticator, or a replay)', {});
const NOT_ACCEPTED = fill('passkey.wasNotAccepted', 'was not accepted', {});
/** The library's reason stays in the server's log; the answer says it in words the console translates. */
export const refused = (req: FastifyRequest, why: string, violation: Sentence = NOT_ACCEPTED) => {
  req.log.info({ why }, 'passkey refused');
  return new HttpError(400, fill('passkey.refused', 'The passkey was not accepted', {}), [{ field: 'response', ...violation }]);
};
const responseOf = <T>(r: Record<string, unknown>): T & { id: string; response: { clientDataJSON: string } } => {
  const resp = r.response as { clientDataJSON?: unknown } | undefined;
  if (typeof r.id !== 'string' || !B64URL.test(r.id) || !resp || typeof resp.clientDataJSON !== 'string')
    throw new HttpError(400, INVALID_REQUEST, [{ field: 'response', ...fill('passkey.isNotWebAuthn', 'is not a WebAuthn credential', {}) }]);
  return r as T & { id: string; response: { clientDataJSON: string } };
};

/** Who a challenge was given to: an account (null before a passkey alone says whose it is) and its session or ticket. */
interface Asked {
  userId: number | null;
  boundTo: string;
}
/**
 * The authenticator's answer to a challenge of this ceremony (registration or sign-in) given to this account and
 * session or ticket, live; the challenge is taken by an atomic delete before the answer is checked, whatever the
 * outcome, so it answers once at most. 400 on `response` otherwise.
 */
export async function answerTo<T>(db: Db, given: Record<string, unknown>, ceremony: Purpose, asked: Asked) {
  const response = responseOf<T>(given);
  if (!(await q.takeChallenge(db, challengeOf(response.response.clientDataJSON), asked.userId, ceremony, asked.boundTo))) throw wrongChallenge();
  return response;
}

/** The relying party: the console's origin, and its host as the RP ID. */
export const rp = (req: FastifyRequest) => {
  const origin = originOf(req);
  return { origin, rpID: new URL(origin).hostname };
};

/**
 * Checks an assertion against the stored passkey (@simplewebauthn/server: origin, RP ID, the signature by the stored
 * key, the counter above the stored one, user verification when required): its new counter, or the refusal to throw
 * (the library's reason to the log), for the caller to count towards the lockout first.
 */
export async function signedBy(
  req: FastifyRequest,
  response: AuthenticationResponseJSON,
  key: StoredPasskey,
  requireUserVerification: boolean,
): Promise<number | HttpError> {
  const { origin, rpID } = rp(req);
  try {
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: () => true,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: key.id,
        publicKey: isoBase64URL.toBuffer(key.publicKey),
        counter: key.counter,
        transports: key.transports.split(',').filter(Boolean) as AuthenticatorTransport[],
      },
      requireUserVerification,
    });
    if (!v.verified) throw new Error('not verified');
    return v.authenticationInfo.newCounter;
  } catch (e) {
    const why = (e as Error).message;
    return /counter/i.test(why) ? refused(req, why, COUNTER) : refused(req, why);
  }
}

export interface PasskeyHelpers {
  asker: (req: FastifyRequest, ticket: string | undefined) => Promise<Asker>;
  userOf: (id: number) => Promise<UserRow>;
  lifetimeS: (u: UserRow) => Promise<number>;
  ticketUser: (ticket: string) => Promise<number | null>;
}

export function passkeyRoutes(o: MfaOptions & { app: import('fastify').FastifyInstance }, h: PasskeyHelpers) {
  const { app, db } = o;
  const now = o.now ?? Date.now;

  app.post(MFA_API.passkeyInit, { config: { open: true, touches: 'self', ...DOCS.passkeyInit } }, async (req) => {
    const input = body(req.body ?? {}, TicketRequest);
    const a = await h.asker(req, input.ticket);
    const u = await h.userOf(a.userId);
    if (!a.ticket) await confirmPerson(db, req, u, input, o.defaults, now);
    const { rpID } = rp(req);
    const options = await generateRegistrationOptions({
      rpName: 'Gatehouse',
      rpID,
      userName: u.username,
      userDisplayName: u.name ?? u.username,
      userID: new TextEncoder().encode(`gatehouse:${u.id}`),
      attestationType: 'none',
      excludeCredentials: await credentialsOf(db, u.id),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      timeout: CHALLENGE_MINUTES * 60_000,
    });
    await keepChallenge(db, options.challenge, u.id, 'register', a.binding);
    return options;
  });

  app.post(MFA_API.passkeys, { config: { open: true, touches: 'self', credential: true, ...DOCS.passkeys } }, async (req, reply) => {
    const input = body(req.body, PasskeyRegisterRequest);
    const a = await h.asker(req, input.ticket);
    const u = await h.userOf(a.userId);
    const response = await answerTo<RegistrationResponseJSON>(db, input.response, 'register', { userId: u.id, boundTo: a.binding });
    const { origin, rpID } = rp(req);
    let info;
    try {
      const v = await verifyRegistrationResponse({
        response,
        expectedChallenge: () => true,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      });
      if (!v.verified || !v.registrationInfo) throw new Error('not verified');
      info = v.registrationInfo.credential;
    } catch (e) {
      throw refused(req, (e as Error).message);
    }
    if (await passkeyById(db, info.id))
      throw new HttpError(409, fill('passkey.alreadyRegistered', 'This passkey is already registered', {}), [
        { field: 'response', ...fill('passkey.isRegistered', 'is already registered', {}) },
      ]);
    if (a.ticket && !(await store.useTicket(db, a.ticket)))
      throw new HttpError(400, fill('signIn.ticketGone', 'This sign-in has expired or was already used: sign in again', {}), [
        { field: 'ticket', ...fill('ticket.hasExpiredOrUsed', 'has expired or was already used', {}) },
      ]);
    const name = input.name?.trim() || `Passkey ${new Date(now()).toISOString().slice(0, 10)}`;
    const recoveryCodes = await db.transaction(async (tx) => {
      await store.keepSession(tx, a.jti);
      const codes = await enrolled(tx, req, u, { factor: 'passkey', name });
      await q.insertPasskey(tx, {
        id: info.id,
        userId: u.id,
        publicKey: isoBase64URL.fromBuffer(info.publicKey),
        counter: info.counter,
        transports: (info.transports ?? []).join(','),
        name,
      });
      return codes;
    });
    const session = a.ticket ? await o.sessionBody(u, req, await h.lifetimeS(u), 'password+passkey') : undefined;
    return reply.send({ recoveryCodes, ...(session ? { session } : {}) });
  });

  app.post(MFA_API.passkeyRemove, { config: { touches: 'self', credential: true, ...DOCS.passkeyRemove } }, async (req) => {
    const input = body(req.body ?? {}, MfaConfirmRequest);
    const a = await h.asker(req, undefined);
    const u = await h.userOf(a.userId);
    const id = (req.params as { id: string }).id;
    // a credential id is base64url (WebAuthn): anything else (a NUL byte, 10 KB) is no passkey, asked of no database
    const key = B64URL.test(id) ? await passkeyById(db, id) : null;
    if (!key || key.userId !== u.id) throw new HttpError(404, fill('passkey.notYours', 'No such passkey of yours', {}));
    await confirmPerson(db, req, u, input, o.defaults, now);
    const f = await store.factorsOf(db, u.id);
    const left = { ...f, passkeys: f.passkeys - 1 };
    await keepsOneFactor(db, u.id, left, 'passkey');
    await db.transaction(async (tx) => {
      await store.keepSession(tx, a.jti);
      await q.deletePasskey(tx, id, u.id);
      await removed(tx, req, u, { factor: 'passkey', id }, left);
    });
    return { ok: true };
  });

  // the second step of a sign-in: the ticket's account's passkeys
  app.post(MFA_API.assertionInit, { config: { ...o.limited, ...DOCS.assertionInit } }, async (req) => {
    const input = body(req.body ?? {}, TicketRequest);
    const userId = input.ticket ? await h.ticketUser(input.ticket) : null;
    if (userId === null || !input.ticket)
      throw new HttpError(400, fill('signIn.ticketGone', 'This sign-in has expired or was already used: sign in again', {}), [
        { field: 'ticket', ...fill('ticket.hasExpiredOrUsed', 'has expired or was already used', {}) },
      ]);
    const allowCredentials = await credentialsOf(db, userId);
    if (allowCredentials.length === 0)
      throw new HttpError(409, fill('passkey.noneOnAccount', 'This account has no passkey', {}), [
        { field: 'ticket', ...fill('passkey.isOfAccountWithNone', 'is of an account with no passkey', {}) },
      ]);
    const options = await generateAuthenticationOptions({
      rpID: rp(req).rpID,
      allowCredentials,
      userVerification: 'preferred',
      timeout: CHALLENGE_MINUTES * 60_000,
    });
    await keepChallenge(db, options.challenge, userId, 'authenticate', `ticket:${sha256(input.ticket)}`);
    return options;
  });

  app.post(MFA_API.assertion, { config: { ...o.limited, ...DOCS.assertion } }, async (req, reply) => {
    const input = body(req.body, PasskeyAssertionRequest);
    const userId = input.ticket ? await h.ticketUser(input.ticket) : null;
    if (userId === null || !input.ticket)
      throw new HttpError(400, fill('signIn.ticketGone', 'This sign-in has expired or was already used: sign in again', {}), [
        { field: 'ticket', ...fill('ticket.hasExpiredOrUsed', 'has expired or was already used', {}) },
      ]);
    const u = await h.userOf(userId);
    if (isLocked(u, now)) throw new HttpError(423, LOCKED);
    const response = await answerTo<AuthenticationResponseJSON>(db, input.response, 'authenticate', {
      userId: u.id,
      boundTo: `ticket:${sha256(input.ticket)}`,
    });
    const key = await passkeyById(db, response.id);
    if (!key || key.userId !== u.id) {
      await countFailure(db, req, u, o.defaults, now);
      throw new HttpError(400, fill('passkey.notOfAccount', 'This passkey is not one of this account', {}), [
        { field: 'response', ...fill('passkey.isNotOfAccount', 'is not a passkey of this account', {}) },
      ]);
    }
    const newCounter = await signedBy(req, response, key, false);
    if (typeof newCounter !== 'number') {
      await countFailure(db, req, u, o.defaults, now);
      throw newCounter;
    }
    if (!(await useCounter(db, key.id, newCounter))) {
      await countFailure(db, req, u, o.defaults, now);
      throw refused(req, 'counter', COUNTER);
    }
    if (!(await store.useTicket(db, input.ticket)))
      throw new HttpError(400, fill('signIn.ticketGone', 'This sign-in has expired or was already used: sign in again', {}), [
        { field: 'ticket', ...fill('ticket.hasExpiredOrUsed', 'has expired or was already used', {}) },
      ]);
    if (u.failed_attempts > 0 || u.locked_until) await users.clearFailedSignIns(db, u.id);
    return reply.send(await o.sessionBody({ ...u, failed_attempts: 0, locked_until: null }, req, await h.lifetimeS(u), 'password+passkey'));
  });
}
