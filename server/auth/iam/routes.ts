// IAM mode's routes (issue 49): the providers offered on the sign-in page, the start of a provider's sign-in, its
// return to /idp/1.0/oidc/callback, and the exchange of the one-time ticket for a Gatehouse session.
//
// The round trip: the console sends the browser to `start`, which remembers the flow (state hashed, nonce, PKCE
// verifier, this browser's binding cookie, one use, ten minutes) and sends it on to the provider. The provider sends
// it back to the callback, which takes the flow once, has openid-client check the answer and the ID token, makes or
// updates the operator account from the groups, and sends the browser to `/login#iam=<ticket>` (a fixed path of ours: the
// return path chosen at the start is handed over with the session, never followed by the server). The console
// exchanges the ticket (one use, a minute, the same browser) for its session, which says it was signed in by the provider.
// Every refusal is a 4xx in words (a page for a browser, the error body otherwise) and writes nothing.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API, IAM_TICKET_PARAM, IamExchangeRequest, TENANT_HEADER, type IamProvider } from '../../../contract';
import type { Db } from '../../db/db';
import { activeClientByCode } from '../../db/queries/clients';
import * as iam from '../../db/queries/iam';
import { takeIamTicket } from '../../db/queries/iamTickets';
import { keepSamlSession, type SamlSubject } from '../../db/queries/saml';
import { startSession } from '../../db/queries/sessions';
import * as users from '../../db/queries/users';
import { HttpError, body, errorBody, saidOf, fill } from '../../http/kit';
import type { UserRow } from '../../db/queries/users';
import { privilegeEntries, rolesOf } from '../access';
import { userSettings } from '../policy';
import type { Tokens } from '../tokens';
import { signInPerson } from './accounts';
import type { OidcProviderConfig, ProviderConfig } from './config';
import { authorizationUrl, endSessionUrl, finishFlow } from './oidc';
import { bindBrowser, bindingOf, hash, issueTicket, originOf, safeReturnPath, sameHash, whyRefused, FLOW_TTL_MS } from './flow';
import { refusalPage } from './page';
import { offeredProviders, providerByKey as lookUpProvider } from './providers';
import { samlRoutes } from './saml';

export interface IamOptions {
  db: Db;
  tokens: Tokens;
  /** Sign-in's per-address limit (server/http/auth.ts), applied to the start, the callback and the exchange. */
  limited: Record<string, unknown>;
  lockout: { attempts: number; minutes: number };
  tokenLifetimeS: number;
  /** The user and settings of a sign-in's answer, as the password sign-in gives them (server/http/auth.ts). */
  userBody: (u: UserRow, roles: string[]) => unknown;
  storedSettings: (stored: unknown) => unknown;
}

/**
 * The client whose providers the sign-in page asks for: `?client=<code>` (a link an administrator hands out:
 * /login?client=NORTHWIND) or the console's x-tenant-id in IAM mode (SPEC §7); null: the environment's provider alone.
 */
async function askedClient(db: Db, req: FastifyRequest): Promise<number | null> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  if (typeof q.client === 'string' && q.client.length <= 100) {
    return activeClientByCode(db, q.client.trim());
  }
  const header = req.headers[TENANT_HEADER];
  if (typeof header === 'string' && /^\d{1,9}$/.test(header)) return Number(header);
  return null;
}

export function iamRoutes(app: FastifyInstance, opts: IamOptions) {
  const { db, tokens } = opts;
  const providerByKey = (key: unknown): Promise<ProviderConfig | null> => lookUpProvider(db, key);
  /** An OpenID Connect provider by its key (the OIDC routes' own), or null. */
  const oidcByKey = async (key: unknown): Promise<OidcProviderConfig | null> => {
    const p = await providerByKey(key);
    return p?.kind === 'oidc' ? p : null;
  };

  /** A refusal: a page in words for a browser, the error body (with violations) for anything else. */
  const refuse = (req: FastifyRequest, reply: FastifyReply, e: HttpError) => {
    const html = String(req.headers.accept ?? '').includes('text/html');
    reply.code(e.status).header('cache-control', 'no-store');
    if (html) return reply.type('text/html; charset=utf-8').send(refusalPage(saidOf(e), String(req.headers['accept-language'] ?? '')));
    return reply.send(errorBody(e.status, saidOf(e), e.violations));
  };

  app.get(API.iamProviders, { config: { open: true } }, async (req): Promise<IamProvider[]> =>
    (await offeredProviders(db, await askedClient(db, req))).map((p) => ({
      key: p.key,
      kind: p.kind,
      name: p.name,
      start: `${p.kind === 'saml' ? API.samlStart : API.oidcStart}?provider=${encodeURIComponent(p.key)}`,
    })),
  );

  app.get(API.oidcStart, { config: opts.limited }, async (req, reply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    try {
      const provider = await oidcByKey(q.provider);
      if (!provider)
        throw new HttpError(404, fill('iam.noSuchProvider', 'No such identity provider is configured', {}), [
          { field: 'provider', ...fill('iam.isNotConfiguredProvider', 'is not a configured provider', {}) },
        ]);
      const returnPath = safeReturnPath(q.return);
      if (returnPath === 'invalid')
        throw new HttpError(400, fill('iam.returnNotConsole', 'The return address must be a page of this console', {}), [
          { field: 'return', ...fill('iam.isNotConsolePath', 'is not a path of this console', {}) },
        ]);
      const redirectUri = `${originOf(req)}${API.oidcCallback}`;
      let started;
      try {
        started = await authorizationUrl(provider, redirectUri);
      } catch (e) {
        req.log.warn({ err: e, provider: provider.key }, 'identity provider discovery failed');
        throw new HttpError(503, fill('iam.noAnswer', 'The identity provider did not answer: try again later, or sign in with a password', {}));
      }
      const binding = bindBrowser(req, reply);
      await iam.keepIamFlow(db, {
        stateHash: hash(started.state),
        provider: provider.key,
        nonce: started.nonce,
        codeVerifier: started.codeVerifier,
        bindingHash: hash(binding),
        redirectUri,
        returnPath,
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
      });
      return reply.header('cache-control', 'no-store').redirect(started.url.href, 302);
    } catch (e) {
      if (e instanceof HttpError) return refuse(req, reply, e);
      throw e;
    }
  });

  app.get(API.oidcCallback, { config: opts.limited }, async (req, reply) => {
    try {
      const ticket = await callback(req);
      return reply.header('cache-control', 'no-store').redirect(`/login#${IAM_TICKET_PARAM}=${ticket}`, 302);
    } catch (e) {
      if (e instanceof HttpError) return refuse(req, reply, e);
      throw e;
    }
  });

  async function callback(req: FastifyRequest): Promise<string> {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const state = typeof q.state === 'string' ? q.state : '';
    if (!state || state.length > 200)
      throw new HttpError(400, fill('iam.noState', 'The sign-in came back without its state: start it again from the sign-in page', {}), [
        { field: 'state', ...fill('iam.isMissing', 'is missing', {}) },
      ]);
    const binding = bindingOf(req);
    // the flow is taken once: a replayed, forged or stale state finds nothing
    const flow = await iam.takeIamFlow(db, hash(state));
    if (!flow)
      throw new HttpError(
        400,
        fill('iam.signInUnknown', 'This sign-in is unknown, was already used or has expired: start it again from the sign-in page', {}),
        [{ field: 'state', ...fill('iam.isUnknownUsedOrExpired', 'is unknown, used or expired', {}) }],
      );
    if (!binding || !sameHash(hash(binding), flow.binding_hash))
      throw new HttpError(400, fill('iam.otherBrowser', 'This sign-in was started in another browser: start it again from the sign-in page', {}), [
        { field: 'state', ...fill('iam.isOfOtherBrowser', 'belongs to another browser', {}) },
      ]);
    const provider = await oidcByKey(flow.provider);
    if (!provider)
      throw new HttpError(400, fill('iam.providerGone', 'The identity provider of this sign-in is no longer configured', {}), [
        { field: 'provider', ...fill('iam.isNotConfigured', 'is not configured', {}) },
      ]);
    if (typeof q.error === 'string')
      throw new HttpError(400, fill('iam.notSignedIn', 'The identity provider did not sign you in: start again from the sign-in page', {}), [
        { field: 'error', ...fill('iam.providerSaid', '{error}', { error: q.error.slice(0, 100) }) },
      ]);
    // the callback as the provider was told it (never as the Host header says now)
    const url = new URL(flow.redirect_uri);
    for (const [k, v] of Object.entries(q)) if (typeof v === 'string') url.searchParams.set(k, v);
    let checked;
    try {
      checked = await finishFlow(provider, url, { state, nonce: flow.nonce, codeVerifier: flow.code_verifier });
    } catch (e) {
      const why = whyRefused(e);
      req.log.warn({ provider: provider.key, why }, 'identity provider answer refused');
      const unreachable = /fetch failed|ECONNREFUSED|timeout|aborted/i.test(why);
      if (unreachable) throw new HttpError(503, fill('iam.noAnswer', 'The identity provider did not answer: try again later, or sign in with a password', {}));
      throw new HttpError(400, fill('iam.answerRefused', "The identity provider's answer was refused: it failed Gatehouse's checks", {}), [
        { field: 'id_token', ...fill('iam.failedCheck', '{why}', { why: why.slice(0, 200) }) },
      ]);
    }
    const c = checked.claims as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);
    const userId = await signInPerson(db, req, provider, {
      subject: String(c.sub),
      username: text(c.preferred_username),
      name: text(c.name),
      email: text(c.email),
      groups: c[provider.groupsAttribute],
    });
    return issueTicket(db, {
      userId,
      provider: provider.key,
      bindingHash: flow.binding_hash,
      idToken: checked.idToken,
      returnPath: flow.return_path,
      method: 'oidc',
    });
  }

  // a client's SAML 2.0 providers (./saml.ts): their start, assertion consumer service and metadata
  const saml = samlRoutes(app, { db, limited: opts.limited, refuse });

  app.post(API.iamExchange, { config: opts.limited }, async (req, reply) => {
    const { ticket } = body(req.body, IamExchangeRequest);
    const binding = bindingOf(req);
    const t = await takeIamTicket(db, hash(ticket));
    if (!t || !binding || !sameHash(hash(binding), t.binding_hash))
      throw new HttpError(
        400,
        fill('iam.signInUnknown', 'This sign-in is unknown, was already used or has expired: start it again from the sign-in page', {}),
        [{ field: 'ticket', ...fill('iam.isUnknownUsedOrExpired', 'is unknown, used or expired', {}) }],
      );
    const u = await users.userById(db, Number(t.user_id));
    if (!u || (await iam.isDisabled(db, u.id)))
      throw new HttpError(403, fill('account.disabled', 'This account is disabled in Gatehouse: ask your administrator.', {}));
    const policy = await userSettings(db, u.id, { lockout: opts.lockout, sessionLifetimeS: opts.tokenLifetimeS });
    const clientId = u.selected_client_id;
    const roles = await rolesOf(db, u.id, clientId);
    const { token, jti } = await tokens.sign({ sub: String(u.id), username: u.username, clientId, roles, lifetimeS: policy.sessionLifetimeMinutes * 60 });
    await db.transaction(async (tx) => {
      await startSession(tx, { jti, userId: u.id, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? ''), method: t.method, provider: t.provider });
      if (t.id_token) await iam.keepSessionIdToken(tx, jti, t.provider, t.id_token);
      if (t.saml_subject) await keepSamlSession(tx, jti, t.provider, JSON.parse(t.saml_subject) as SamlSubject); // for single logout
    });
    return reply.send({
      token,
      user: opts.userBody(u, roles),
      privileges: { priviledges: await privilegeEntries(db, u.id, clientId) },
      settings: opts.storedSettings(u.settings),
      serverTime: Date.now(),
      returnTo: t.return_path,
    });
  });

  /** RP-initiated logout (issue 49): where the browser goes to end the provider's session too, for a session it signed in. */
  return {
    async providerLogout(req: FastifyRequest, jti: string): Promise<{ providerLogoutUrl?: string }> {
      const bySaml = await saml.providerLogout(req, jti); // SAML single logout (./samlLogout.ts)
      if (bySaml) return bySaml;
      const kept = await iam.takeSessionIdToken(db, jti);
      const provider = kept ? await oidcByKey(kept.provider) : null;
      if (!kept || !provider) return {};
      try {
        const url = await endSessionUrl(provider, kept.id_token, `${originOf(req)}/login`);
        return url ? { providerLogoutUrl: url } : {};
      } catch {
        return {}; // the provider did not answer: the Gatehouse session is ended all the same
      }
    },
  };
}
