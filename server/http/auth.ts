// Identity provider routes (§7): sign-in with lockout, the signed-in user, settings, profile, client
// selection, sign-out, password reset, registration requests and change password.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  API,
  ChangePasswordRequest,
  LoginRequest,
  LoginResponse,
  MeResponse,
  ProfileUpdate,
  RegistrationRequest,
  ResetFinishRequest,
  ResetInitRequest,
  SelectClientRequest,
  Settings,
  SignInAnswer,
  User,
  validate,
  MessageKeyed,
  saidAsMessage,
} from '../../contract';
import { hashPassword, sha256, verifyPassword } from '../auth/passwords';
import { isDisabled, newPasswordViolations, passwordExpired, setPasswordKeepingHistory, userSettings } from '../auth/policy';
import { clientIdsOf, privilegeEntries, rolesOf } from '../auth/access';
import type { Tokens } from '../auth/tokens';
import type { Db } from '../db/db';
import { insertRegistration, insertResetToken, resetTokenByHash, useResetToken } from '../db/queries/accounts';
import { endSession, startSession, type SignInMethod } from '../db/queries/sessions';
import { mfaRoutes } from '../auth/mfa/routes';
import { countFailure, isLocked as lockedAt, LOCKED } from '../auth/mfa/confirm';
import { iamRoutes } from '../auth/iam/routes';
import { recordUnknownFailure, unknownLockedUntil } from '../db/queries/signInFailures';
import * as users from '../db/queries/users';
import type { UserRow } from '../db/queries/users';
import { HttpError, body, principal, fill, INVALID_REQUEST } from './kit';
import { audit } from '../audit/trail';
import { boolean, integer, optional, string, type } from 'superstruct';
import type { RouteDoc } from '../openapi/declared';

/** The answer of a call that only says it was done (sign-out adds where the identity provider's session ends). */
const Done = type({ ok: boolean(), message: optional(string()), ...MessageKeyed });
/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  login: { body: LoginRequest, response: SignInAnswer, summary: 'Signs in: a session, or the second step it needs' },
  me: { response: MeResponse, summary: 'The signed-in operator and their privileges' },
  settings: { body: Settings, response: Settings },
  profile: { body: ProfileUpdate, response: User },
  client: { body: SelectClientRequest, response: LoginResponse, summary: 'Selects the client to work in' },
  logout: { response: Done, summary: 'Ends the session' },
  resetInit: { body: ResetInitRequest, response: Done },
  resetFinish: { body: ResetFinishRequest, response: Done },
  registration: { body: RegistrationRequest, status: 201, response: type({ id: integer(), status: string() }) },
  changePassword: { body: ChangePasswordRequest, response: Done },
} satisfies Record<string, RouteDoc>;

/** A password-reset link to deliver; there is no mail, so the server log (and tests) receive it. */
export interface ResetNotice {
  username: string;
  token: string;
  link: string;
}

export interface AuthOptions {
  db: Db;
  tokens: Tokens;
  lockout: { attempts: number; minutes: number };
  onPasswordReset: (n: ResetNotice) => void;
  resetLifetimeMinutes?: number;
  /** Requests per address per window on sign-in, reset, registration and change-password; false: none. */
  rateLimit?: RateLimit | false;
  /** The default session lifetime (JWT_LIFETIME_S); a client's operator settings may say otherwise. */
  tokenLifetimeS?: number;
  /** The server's one session check (server/app.ts): a token's claims when its session is open, else null. */
  openSession: (token: string) => Promise<{ sub: string; jti: string } | null>;
}

export interface RateLimit {
  max: number;
  windowMs: number;
}
/** What a server allows when not told otherwise (RATE_LIMIT_MAX / RATE_LIMIT_WINDOW_S). */
export const DEFAULT_RATE_LIMIT: RateLimit = { max: 20, windowMs: 60_000 };

/**
 * Stored settings as the contract reads them; a value stored before a rule existed (a 1 MB theme) falls back to
 * its default instead of failing every sign-in.
 */
export function storedSettings(stored: unknown): Settings {
  const given = stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as Record<string, unknown>) } : {};
  for (let tries = 0; tries < 3; tries++) {
    const r = validate(given, Settings);
    if (r.ok) return r.value;
    for (const v of r.violations) delete given[v.field.split('.')[0]];
  }
  return Settings.create({});
}

// §: the answer never says which part was wrong, nor whether the user exists
const INVALID = fill('signIn.invalid', 'Invalid username or password', {});

export function userBody(u: UserRow, roles: string[]) {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    avatar: null,
    roles,
    dashboardPages: (u.dashboard_pages as unknown[]) ?? [],
    multiTenancyEnabled: u.multi_tenancy,
    clientId: u.selected_client_id,
    timezone: u.timezone || null,
    clientTimezone: u.client_timezone ?? null,
    avatarColor: u.avatar_color || 'blue',
    identityId: u.own_identity_id === undefined || u.own_identity_id === null ? null : Number(u.own_identity_id),
  };
}

/** A new token and session for the user's selected client, in the LoginResponse shape. */
export async function sessionBody(
  db: Db,
  tokens: Tokens,
  u: UserRow,
  req: FastifyRequest,
  lifetimeS?: number,
  signIn: { method: SignInMethod; provider?: string | null } = { method: 'password' },
) {
  const clientId = u.selected_client_id;
  const roles = await rolesOf(db, u.id, clientId);
  const { token, jti } = await tokens.sign({ sub: String(u.id), username: u.username, clientId, roles, lifetimeS });
  await startSession(db, { jti, userId: u.id, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? ''), ...signIn });
  return {
    token,
    user: userBody(u, roles),
    privileges: { priviledges: await privilegeEntries(db, u.id, clientId) },
    settings: storedSettings(u.settings),
    serverTime: Date.now(),
  };
}

const isLocked = (u: UserRow) => lockedAt(u, Date.now);

export function authRoutes(
  app: FastifyInstance,
  { db, tokens, lockout, onPasswordReset, resetLifetimeMinutes = 60, rateLimit = false, tokenLifetimeS = 8 * 3600, openSession }: AuthOptions,
) {
  // issue 13: guessing across many usernames (or reset and registration spam) from one address is slowed too
  const limited = { open: true, ...(rateLimit ? { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.windowMs } } : {}) };
  // issue 49: the second step of a sign-in and the enrolment of second factors (server/auth/mfa)
  const mfa = mfaRoutes(app, {
    db,
    defaults: { lockout, sessionLifetimeS: tokenLifetimeS },
    openSession,
    limited,
    sessionBody: (u, req, lifetimeS, method) => sessionBody(db, tokens, u, req, lifetimeS, { method }),
  });
  // issue 49: sign-in through the company's identity provider (server/auth/iam)
  const iam = iamRoutes(app, { db, tokens, limited, lockout, tokenLifetimeS, userBody, storedSettings });
  const me = async (id: number) => {
    const u = await users.userById(db, id);
    if (!u) throw new HttpError(401, 'JWT-Invalid');
    return u;
  };

  /**
   * Checks a password, counting failures towards the lock; the same rule for sign-in and change-password. An
   * unknown username is counted and locked the same way, and every path costs one scrypt (issue 13: a locked
   * real user answered 423 in 1 ms, an unknown name 401 in 33 ms, which told which names exist).
   */
  async function checkPassword(req: FastifyRequest, username: string, password: string): Promise<UserRow | 'locked' | null> {
    const u = await users.userByUsername(db, username);
    if (!u) {
      const lockedUntil = await unknownLockedUntil(db, username);
      await verifyPassword(password, DUMMY_HASH);
      if (lockedUntil && lockedUntil.getTime() > Date.now()) return 'locked';
      await recordUnknownFailure(db, username, lockout.attempts, lockout.minutes);
      return null;
    }
    if (isLocked(u)) {
      await verifyPassword(password, u.password_hash); // the same work as any other answer
      return 'locked';
    }
    if (await verifyPassword(password, u.password_hash)) {
      if (await isDisabled(db, u.id)) return null; // a disabled operator: the same answer as a wrong password
      // issue 49: an account with a second factor clears its failed sign-ins only when that step passes too (a wrong
      // code counts towards the same lock, and the password alone must not start the count again)
      if ((u.failed_attempts > 0 || u.locked_until) && !(await mfa.hasSecondFactor(u.id))) await users.clearFailedSignIns(db, u.id);
      return u;
    }
    // the lockout of the user's client (operator settings, issue 11), counted as a wrong second factor is; the attempt
    // that locks still only says "invalid", the next one says locked
    await countFailure(db, req, u, { lockout, sessionLifetimeS: tokenLifetimeS }, Date.now, 'password');
    return null;
  }

  app.post(API.login, { config: { ...limited, ...DOCS.login } }, async (req, reply) => {
    const input = body(req.body, LoginRequest);
    const u = await checkPassword(req, input.username, input.password);
    if (u === 'locked') throw new HttpError(423, LOCKED);
    if (!u) throw new HttpError(401, INVALID);
    const policy = await userSettings(db, u.id, { lockout, sessionLifetimeS: tokenLifetimeS });
    if (await passwordExpired(db, u.id, policy))
      throw new HttpError(403, fill('password.expiredChangeToSignIn', 'Your password has expired: change it to sign in', {}), [
        { field: 'password', ...fill('password.hasExpired', 'has expired', {}) },
      ]);
    const second = await mfa.afterPassword(u);
    if (second) return reply.send(second);
    return reply.send(await sessionBody(db, tokens, { ...u, failed_attempts: 0, locked_until: null }, req, policy.sessionLifetimeMinutes * 60));
  });

  app.get(API.me, { config: { ...DOCS.me } }, async (req) => {
    const p = principal(req);
    const u = await me(p.userId);
    return {
      user: { ...userBody(u, await rolesOf(db, u.id, p.clientId)), clientId: p.clientId },
      privileges: { priviledges: p.entries },
      settings: storedSettings(u.settings),
      serverTime: Date.now(),
    };
  });

  app.put(API.meSettings, { config: { touches: 'self', ...DOCS.settings } }, async (req) => {
    const p = principal(req);
    body(req.body, Settings); // validate the patch as given; defaults fill only what neither side has
    const given = (req.body ?? {}) as Record<string, unknown>;
    const known = Object.keys(Settings.schema);
    const patch = Object.fromEntries(Object.entries(given).filter(([k]) => known.includes(k)));
    return db.transaction(async (tx) => {
      const u = await users.userById(tx, p.userId);
      if (!u) throw new HttpError(401, 'JWT-Invalid');
      const before = storedSettings(u.settings);
      const merged = Settings.create({ ...before, ...patch });
      await users.setSettings(tx, u.id, merged);
      await audit(tx, req, { clientId: p.clientId, action: 'update', entity: 'settings', entityId: u.id, before, after: merged });
      return merged;
    });
  });

  app.put(API.meProfile, { config: { touches: 'self', ...DOCS.profile } }, async (req) => {
    const p = principal(req);
    const input = body(req.body, ProfileUpdate);
    return db.transaction(async (tx) => {
      const before = await users.userById(tx, p.userId);
      if (!before) throw new HttpError(401, 'JWT-Invalid');
      // null: no zone of the profile's own, kept as '' (the column's "none")
      await users.updateProfile(tx, p.userId, { ...input, timezone: input.timezone === null ? '' : input.timezone });
      const after = (await users.userById(tx, p.userId))!;
      const view = (u: UserRow) => ({ name: u.name, avatarColor: u.avatar_color, timezone: u.timezone || null });
      await audit(tx, req, { clientId: p.clientId, action: 'update', entity: 'profile', entityId: p.userId, before: view(before), after: view(after) });
      return userBody(after, await rolesOf(tx, p.userId, p.clientId));
    });
  });

  app.put(API.meClient, { config: { touches: 'self', ...DOCS.client } }, async (req, reply) => {
    const p = principal(req);
    const { clientId } = body(req.body, SelectClientRequest);
    if (clientId !== null && !(await clientIdsOf(db, p.userId)).includes(clientId))
      throw new HttpError(403, fill('client.youHaveNoAccess', 'You have no access to that client', {}));
    await users.selectClient(db, p.userId, clientId);
    await endSession(db, p.jti); // the old token carried the old client: it ends here
    return reply.send(await sessionBody(db, tokens, await me(p.userId), req));
  });

  app.post(API.logout, { config: { touches: 'self', ...DOCS.logout } }, async (req) => {
    await endSession(db, principal(req).jti);
    return { ok: true, ...(await iam.providerLogout(req, principal(req).jti)) }; // and the provider's session, where it offers it
  });

  app.post(API.resetInit, { config: { ...limited, ...DOCS.resetInit } }, async (req) => {
    const { username } = body(req.body, ResetInitRequest);
    const id = await users.userIdByUsername(db, username);
    if (id !== null) {
      const token = randomBytes(24).toString('base64url');
      await insertResetToken(db, sha256(token), id, new Date(Date.now() + resetLifetimeMinutes * 60_000));
      onPasswordReset({ username, token, link: `/reset-password?token=${token}` });
    }
    // the same answer whether or not the user exists
    return { ok: true, ...saidAsMessage(fill('password.resetLinkSent', 'If the account exists, a reset link has been sent.', {})) };
  });

  app.post(API.resetFinish, { config: { ...limited, credential: true, ...DOCS.resetFinish } }, async (req) => {
    const input = body(req.body, ResetFinishRequest);
    const hash = sha256(input.token);
    const expired = new HttpError(400, fill('password.resetLinkInvalid', 'This reset link is invalid or has expired', {}), [
      { field: 'token', ...fill('password.resetTokenIsInvalid', 'is invalid or has expired', {}) },
    ]);
    await db.transaction(async (tx) => {
      const r = await resetTokenByHash(tx, hash);
      if (!r || r.used || new Date(r.expires_at).getTime() < Date.now()) throw expired;
      if (!(await useResetToken(tx, hash))) throw expired;
      const policy = await userSettings(tx, r.user_id, { lockout, sessionLifetimeS: tokenLifetimeS });
      const v = await newPasswordViolations(tx, r.user_id, input.newPassword, policy, 'newPassword');
      if (v.length) throw new HttpError(400, INVALID_REQUEST, v);
      await setPasswordKeepingHistory(tx, r.user_id, await hashPassword(input.newPassword));
      const home = await users.homeClientOf(tx, r.user_id);
      await audit(tx, req, {
        actor: 'password-reset link',
        clientId: home,
        action: 'reset-password',
        entity: 'user',
        entityId: r.user_id,
        before: null,
        after: null,
      });
    });
    return { ok: true };
  });

  app.post(API.registration, { config: { ...limited, ...DOCS.registration } }, async (req, reply) => {
    const input = body(req.body, RegistrationRequest);
    const id = await insertRegistration(db, input);
    return reply.code(201).send({ id, status: 'pending' });
  });

  app.post(API.changePassword, { config: { ...limited, touches: 'self', credential: true, ...DOCS.changePassword } }, async (req) => {
    const input = body(req.body, ChangePasswordRequest);
    const u = await checkPassword(req, input.username, input.oldPassword);
    if (u === 'locked') throw new HttpError(423, LOCKED);
    if (!u) throw new HttpError(400, INVALID_REQUEST, [{ field: 'oldPassword', ...fill('password.isNotCurrent', 'is not the current password', {}) }]);
    const policy = await userSettings(db, u.id, { lockout, sessionLifetimeS: tokenLifetimeS });
    const v = await newPasswordViolations(db, u.id, input.newPassword, policy, 'newPassword');
    if (v.length) throw new HttpError(400, INVALID_REQUEST, v);
    // issue 45: every other session of the account ends with the change; the one that asked (a signed-in console
    // changing its own password: this route is open, the sign-in page uses it for an expired password) goes on
    const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null;
    const asking = bearer ? await openSession(bearer) : null;
    const keep = asking && Number(asking.sub) === u.id ? asking.jti : null;
    await db.transaction(async (tx) => {
      await setPasswordKeepingHistory(tx, u.id, await hashPassword(input.newPassword), keep);
      await audit(tx, req, {
        actor: u.username,
        clientId: u.selected_client_id,
        action: 'change-password',
        entity: 'user',
        entityId: u.id,
        before: null,
        after: null,
      });
    });
    return { ok: true };
  });
}

// a valid hash of a random password, so an unknown username costs one scrypt like a known one
const DUMMY_HASH = 'scrypt$16384$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(32).toString('base64');

declare module 'fastify' {
  interface FastifyInstance {
    resetTokens?: { username: string; token: string }[];
  }
}
