// Issue 49: the routes of multi-factor sign-in (docs/MFA.md). The second step of a sign-in (a TOTP or a recovery
// code after the password, counted towards the lockout like a wrong password), and the enrolment and removal of TOTP,
// each a credential change (route config `credential`: every other session of the account ends in the transaction
// that changes the factor; server/auth/sessionsFollowCredentials.test.ts drives each). Enrolment works with the
// signed-in session, or with the ticket of a sign-in whose client requires MFA (enrol before anything else).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  MFA_API,
  MfaConfirmRequest,
  NewRecoveryCodesRequest,
  RecoveryCodes,
  SecondFactorRequest,
  TicketRequest,
  TotpConfirmRequest,
  type MfaChallenge,
  type MfaMethod,
} from '../../../contract';
import type { SignInMethod } from '../../db/queries/sessions';
import * as users from '../../db/queries/users';
import type { UserRow } from '../../db/queries/users';
import { audit } from '../../audit/trail';
import { HttpError, body, fill } from '../../http/kit';
import { sha256 } from '../passwords';
import { userSettings } from '../policy';
import { confirmPerson, countFailure as countFailureOf, isLocked as lockedAt, keepsOneFactor, LOCKED } from './confirm';
import type { Asker, MfaOptions } from './options';
import { enrolled, removed, row as accountRow } from './changes';
import { passkeyRoutes } from './passkeys';
import { passwordlessRoutes } from './passwordless';
import { sealPlainTotpSecrets } from './sealing';
import * as store from './store';
import type { RouteDoc } from '../../openapi/declared';
import { newTotpSecret, qrSvg, totpUri, verifyTotp } from './totp';

/** What the routes declared here validate and answer, for the API description (server/openapi). */
const DOCS = {
  recoveryCodes: {
    body: NewRecoveryCodesRequest,
    response: RecoveryCodes,
    summary: 'New recovery codes (the old ones stop working), confirmed with a current TOTP code or the password',
  },
} satisfies Record<string, RouteDoc>;

export const ticketGone = () =>
  new HttpError(400, fill('signIn.ticketGone', 'This sign-in has expired or was already used: sign in again', {}), [
    { field: 'ticket', ...fill('ticket.hasExpiredOrUsed', 'has expired or was already used', {}) },
  ]);

export function mfaRoutes(app: FastifyInstance, o: MfaOptions) {
  const { db } = o;
  const now = o.now ?? Date.now;

  async function asker(req: FastifyRequest, ticket: string | undefined): Promise<Asker> {
    if (ticket) {
      const userId = await store.ticketUser(db, ticket, 'enrol');
      if (userId === null) throw ticketGone();
      return { userId, jti: null, ticket, binding: `ticket:${sha256(ticket)}` };
    }
    const h = req.headers.authorization;
    const claims = h?.startsWith('Bearer ') ? await o.openSession(h.slice(7)) : null;
    if (!claims) throw new HttpError(401, 'JWT-Invalid');
    return { userId: Number(claims.sub), jti: claims.jti, ticket: null, binding: `session:${claims.jti}` };
  }
  const userOf = async (id: number) => {
    const u = await users.userById(db, id);
    if (!u) throw new HttpError(401, 'JWT-Invalid');
    return u;
  };
  const lifetimeS = async (u: UserRow) => (await userSettings(db, u.id, o.defaults)).sessionLifetimeMinutes * 60;
  const isLocked = (u: UserRow) => lockedAt(u, now);
  const countFailure = (req: FastifyRequest, u: UserRow) => countFailureOf(db, req, u, o.defaults, now);
  const confirm = (req: FastifyRequest, u: UserRow, input: { code?: string; password?: string }) => confirmPerson(db, req, u, input, o.defaults, now);

  /** After a sign-in's password (server/http/auth.ts): the second step it needs, or null when the password is enough. */
  async function afterPassword(u: UserRow): Promise<MfaChallenge | null> {
    const f = await store.factorsOf(db, u.id);
    if (store.hasSecondFactor(f)) {
      const methods: MfaMethod[] = [];
      if (f.totp) methods.push('totp');
      if (f.passkeys) methods.push('passkey');
      if (f.recoveryCodesLeft) methods.push('recovery');
      return { mfa: 'secondFactor', ticket: await store.newTicket(db, u.id, 'verify'), methods };
    }
    if (await store.mustUseMfa(db, u.id)) return { mfa: 'enrol', ticket: await store.newTicket(db, u.id, 'enrol'), methods: ['totp', 'passkey'] };
    return null;
  }

  // migration 166: the secrets kept plain before it are sealed before the first request is served
  app.addHook('onReady', async () => {
    await sealPlainTotpSecrets(db);
  });

  app.post(MFA_API.secondFactor, { config: { ...o.limited, open: true } }, async (req, reply) => {
    const input = body(req.body, SecondFactorRequest);
    const userId = await store.ticketUser(db, input.ticket, 'verify');
    if (userId === null) throw ticketGone();
    const u = await userOf(userId);
    if (isLocked(u)) throw new HttpError(423, LOCKED);
    let method: SignInMethod | null = null;
    const code = input.code.trim();
    if (/^[0-9]{6}$/.test(code)) {
      const totp = await store.totpOf(db, u.id);
      const step = totp ? await verifyTotp(totp.secret, code, totp.lastStep, now()) : null;
      if (step !== null && (await store.useTotpStep(db, u.id, step))) method = 'password+totp';
    } else if (await store.useRecoveryCode(db, u.id, code)) method = 'password+recovery';
    if (!method) {
      await countFailure(req, u);
      throw new HttpError(401, fill('mfa.codeRefused', 'The code is wrong, or was already used', {}), [
        { field: 'code', ...fill('mfa.codeIsWrongOrUsed', 'is wrong or was already used', {}) },
      ]);
    }
    if (!(await store.useTicket(db, input.ticket))) throw ticketGone();
    if (u.failed_attempts > 0 || u.locked_until) await users.clearFailedSignIns(db, u.id);
    if (method === 'password+recovery')
      await audit(db, req, {
        ...accountRow(u),
        action: 'use-recovery-code',
        before: null,
        after: { left: (await store.factorsOf(db, u.id)).recoveryCodesLeft },
      });
    return reply.send(await o.sessionBody({ ...u, failed_attempts: 0, locked_until: null }, req, await lifetimeS(u), method));
  });

  app.get(MFA_API.status, async (req) => {
    const a = await asker(req, undefined);
    const f = await store.factorsOf(db, a.userId);
    return {
      totp: f.totp,
      recoveryCodesLeft: f.recoveryCodesLeft,
      passkeys: await store.passkeysOf(db, a.userId),
      required: await store.mustUseMfa(db, a.userId),
    };
  });

  app.post(MFA_API.totpInit, { config: { open: true, touches: 'self' } }, async (req) => {
    const input = body(req.body ?? {}, TicketRequest);
    const a = await asker(req, input.ticket);
    const u = await userOf(a.userId);
    if (await store.hasTotp(db, u.id))
      throw new HttpError(409, fill('totp.alreadySetUp', 'An authenticator app is already set up: remove it first', {}), [
        { field: 'totp', ...fill('totp.isSetUp', 'is already set up', {}) },
      ]);
    // from the Profile: the person confirms it again (a sign-in's ticket came with the password just now)
    if (!a.ticket) await confirm(req, u, input);
    const secret = newTotpSecret();
    await store.beginTotp(db, u.id, secret, a.binding);
    const uri = totpUri(secret, u.username);
    return { secret, uri, qr: await qrSvg(uri) };
  });

  app.post(MFA_API.totp, { config: { open: true, touches: 'self', credential: true } }, async (req, reply) => {
    const input = body(req.body, TotpConfirmRequest);
    const a = await asker(req, input.ticket);
    const u = await userOf(a.userId);
    const secret = await store.pendingTotp(db, u.id, a.binding);
    if (!secret)
      throw new HttpError(400, fill('mfa.noEnrolment', 'No enrolment was begun in this session, or it expired: start again', {}), [
        { field: 'code', ...fill('mfa.belongsToNoEnrolment', 'belongs to no enrolment begun in this session', {}) },
      ]);
    const step = await verifyTotp(secret, input.code.trim(), 0, now());
    if (step === null)
      throw new HttpError(400, fill('totp.codeWrongCheckClock', 'The code is wrong: check the clock of the device', {}), [
        { field: 'code', ...fill('mfa.codeIsWrong', 'is wrong', {}) },
      ]);
    if (a.ticket && !(await store.useTicket(db, a.ticket))) throw ticketGone();
    const recoveryCodes = await db.transaction(async (tx) => {
      await store.keepSession(tx, a.jti);
      if (await store.hasTotp(tx, u.id))
        throw new HttpError(409, fill('totp.alreadySetUp', 'An authenticator app is already set up: remove it first', {}), [
          { field: 'totp', ...fill('totp.isSetUp', 'is already set up', {}) },
        ]);
      const codes = await enrolled(tx, req, u, { factor: 'totp' });
      await store.confirmTotp(tx, u.id, secret, step);
      return codes;
    });
    const session = a.ticket ? await o.sessionBody(u, req, await lifetimeS(u), 'password+totp') : undefined;
    return reply.send({ recoveryCodes, ...(session ? { session } : {}) });
  });

  app.post(MFA_API.totpRemove, { config: { touches: 'self', credential: true } }, async (req) => {
    const input = body(req.body ?? {}, MfaConfirmRequest);
    const a = await asker(req, undefined);
    const u = await userOf(a.userId);
    const f = await store.factorsOf(db, u.id);
    if (!f.totp) throw new HttpError(404, fill('totp.noneSetUp', 'No authenticator app is set up', {}));
    await confirm(req, u, input);
    await keepsOneFactor(db, u.id, { ...f, totp: false }, 'totp');
    await db.transaction(async (tx) => {
      await store.keepSession(tx, a.jti);
      await store.removeTotp(tx, u.id);
      await removed(tx, req, u, { factor: 'totp' }, { ...f, totp: false });
    });
    return { ok: true };
  });

  // New recovery codes (the old ones stop working), shown once: the person confirms it again with a current code of
  // the authenticator app (never one accepted before; a wrong one counts towards the lockout) or the password. A
  // credential change: the account's other sessions end (the trigger of migration 167).
  app.post(
    MFA_API.recoveryCodes,
    { config: { touches: 'self', credential: true, ...(o.limited.rateLimit ? { rateLimit: o.limited.rateLimit } : {}), ...DOCS.recoveryCodes } },
    async (req) => {
      const input = body(req.body ?? {}, NewRecoveryCodesRequest);
      const a = await asker(req, undefined);
      const u = await userOf(a.userId);
      const f = await store.factorsOf(db, u.id);
      if (!store.hasSecondFactor(f))
        throw new HttpError(409, fill('mfa.setUpFirst', 'Set up two-step verification first: recovery codes stand in for its second step', {}), [
          { field: 'mfa', ...fill('mfa.hasNoFactorToStandIn', 'has no second factor to stand in for', {}) },
        ]);
      const confirmedWith = await confirm(req, u, input);
      const recoveryCodes = await db.transaction(async (tx) => {
        await store.keepSession(tx, a.jti);
        const codes = await store.newRecoveryCodes(tx, u.id);
        await audit(tx, req, {
          ...accountRow(u),
          action: 'new-recovery-codes',
          before: { left: f.recoveryCodesLeft },
          after: { recoveryCodes: codes.length, confirmedWith },
        });
        return codes;
      });
      return { recoveryCodes };
    },
  );

  passkeyRoutes({ ...o, app }, { asker, userOf, lifetimeS, ticketUser: (ticket) => store.ticketUser(db, ticket, 'verify') });
  passwordlessRoutes(app, o, lifetimeS);

  return { afterPassword, hasSecondFactor: async (userId: number) => store.hasSecondFactor(await store.factorsOf(db, userId)) };
}
