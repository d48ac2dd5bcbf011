// SAML 2.0 single logout (issue 49), Gatehouse as the service provider through @node-saml/node-saml.
//
// Gatehouse's sign-out (SP-initiated): the session ends at Gatehouse first; where its provider has a single logout
// address, the sign-out answers where the browser goes to end the provider's session too: a LogoutRequest for the
// person the sign-in named (NameID and SessionIndex, kept with the session), by HTTP-Redirect, signed where the provider
// asks for signed requests. The provider answers a LogoutResponse to `POST /idp/1.0/saml/slo?provider=idp-<id>`
// (the metadata's SingleLogoutService, HTTP-POST): node-saml checks its signature (the provider's certificate, the whole
// message) and that it answers a LogoutRequest Gatehouse sent (InResponseTo, once, ten minutes); Gatehouse checks its
// issuer, then sends the browser to the sign-in page.
//
// The provider's sign-out (IdP-initiated): a LogoutRequest posted to the same address, signed by the provider's
// certificate (an unsigned one is refused), of its issuer, not expired (NotOnOrAfter), never taken before (its ID), for
// us (Destination, where given). Every Gatehouse session that provider signed that person in ends (audited in the
// provider's client, `provider-sign-out`), and Gatehouse answers a LogoutResponse (HTTP-Redirect, signed where asked) to
// the provider's single logout address. Every refusal is a 4xx in words that ends nothing.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { API, type Sentence } from '../../../contract';
import { audit } from '../../audit/trail';
import { endSamlSessions, keepLogoutRequest, takeLogoutRequest, takeMessageOnce, takeSamlSession } from '../../db/queries/saml';
import { HttpError, fill } from '../../http/kit';
import type { SamlProviderConfig } from './config';
import { FLOW_TTL_MS, originOf } from './flow';
import { oneRequest, samlOf, spSloUrl, xmlAttribute, type SamlRouteOptions } from './samlCore';
import { spKeys } from './spKeys';

/** The sign-out message refused: `why` is Gatehouse's own sentence, or the reason node-saml gave (its English, as it came). */
const refusedWith = (field: string, why: string | Sentence) =>
  new HttpError(400, fill('iam.signOutRefused', "The identity provider's sign-out message was refused: it failed Gatehouse's checks", {}), [
    { field, ...(typeof why === 'string' ? fill('iam.failedCheck', '{why}', { why: why.slice(0, 200) }) : why) },
  ]);

/** The issuer of a SAML message (its first Issuer element). */
const issuerOf = (xml: string) => /<(?:[\w.-]+:)?Issuer\b[^>]*>\s*([^<]*?)\s*<\//.exec(xml)?.[1]?.replace(/&amp;/g, '&') ?? null;

export function samlLogoutRoutes(opts: SamlRouteOptions & { samlByKey: (key: unknown) => Promise<SamlProviderConfig | null> }) {
  const { db, samlByKey } = opts;

  /** Records the LogoutRequest node-saml is about to send, for the LogoutResponse that answers it. */
  const sending = (provider: string): CacheProvider => ({
    saveAsync: async (key, value) => {
      await keepLogoutRequest(db, key, provider, new Date(Date.now() + FLOW_TTL_MS));
      return { value, createdAt: Date.now() };
    },
    getAsync: async () => null,
    removeAsync: async (key) => key,
  });

  async function logoutResponse(req: FastifyRequest, reply: FastifyReply, p: SamlProviderConfig, message: string) {
    const origin = originOf(req);
    // node-saml checks the signature of the whole message (the provider's certificate); it reads InResponseTo of a
    // Response only, so the LogoutResponse's is checked here, with its issuer, destination and status
    try {
      const { loggedOut } = await samlOf(p, origin, oneRequest(null), await spKeys(db), ValidateInResponseTo.never).validatePostResponseAsync({
        SAMLResponse: message,
      });
      if (!loggedOut) throw new Error('the message is not a LogoutResponse');
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      req.log.warn({ provider: p.key, why }, 'SAML LogoutResponse refused');
      throw refusedWith('SAMLResponse', why);
    }
    const xml = Buffer.from(message, 'base64').toString('utf8');
    const issuer = issuerOf(xml);
    if (issuer !== p.issuer)
      throw refusedWith(
        'SAMLResponse',
        fill('iam.otherIssuer', "the answer's issuer is {issuer}, not {expected}", { issuer: String(issuer).slice(0, 100), expected: p.issuer }),
      );
    const destination = xmlAttribute(xml, 'LogoutResponse', 'Destination');
    if (destination !== null && destination !== spSloUrl(origin, p.key))
      throw refusedWith(
        'SAMLResponse',
        fill('iam.otherDestination', "the answer's destination is {destination}, not {expected}", {
          destination: destination.slice(0, 100),
          expected: spSloUrl(origin, p.key),
        }),
      );
    const inResponseTo = xmlAttribute(xml, 'LogoutResponse', 'InResponseTo');
    if (!inResponseTo || inResponseTo.length > 200 || !(await takeLogoutRequest(db, inResponseTo, p.key)))
      throw refusedWith(
        'SAMLResponse',
        fill('iam.answersNoRequest', 'its InResponseTo answers no LogoutRequest of ours, or one already answered or expired', {}),
      );
    const status = xmlAttribute(xml, 'StatusCode', 'Value') ?? 'missing';
    if (!status.endsWith(':Success'))
      throw new HttpError(400, fill('iam.providerSessionKept', 'You are signed out of Gatehouse, but the identity provider did not end its own session', {}), [
        { field: 'SAMLResponse', ...fill('iam.statusIs', 'its status is {status}', { status: status.slice(0, 150) }) },
      ]);
    return reply.header('cache-control', 'no-store').redirect('/login', 302);
  }

  async function logoutRequest(req: FastifyRequest, reply: FastifyReply, p: SamlProviderConfig, message: string, relay: string) {
    const origin = originOf(req);
    const keys = await spKeys(db);
    let profile: Profile | null;
    try {
      ({ profile } = await samlOf(p, origin, oneRequest(null), keys).validatePostRequestAsync({ SAMLRequest: message }));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      req.log.warn({ provider: p.key, why }, 'SAML LogoutRequest refused');
      throw refusedWith('SAMLRequest', why);
    }
    if (!profile?.nameID || !profile.ID) throw refusedWith('SAMLRequest', fill('iam.namesNobody', 'the request names nobody', {}));
    const xml = Buffer.from(message, 'base64').toString('utf8');
    const destination = xmlAttribute(xml, 'LogoutRequest', 'Destination');
    if (destination !== null && destination !== spSloUrl(origin, p.key))
      throw refusedWith(
        'SAMLRequest',
        fill('iam.requestOtherDestination', "the request's destination is {destination}, not {expected}", {
          destination: destination.slice(0, 100),
          expected: spSloUrl(origin, p.key),
        }),
      );
    const notOnOrAfter = Date.parse(xmlAttribute(xml, 'LogoutRequest', 'NotOnOrAfter') ?? '');
    const keepUntil = new Date(Math.max(Date.now() + FLOW_TTL_MS, Number.isFinite(notOnOrAfter) ? notOnOrAfter : 0));
    if (!(await takeMessageOnce(db, p.key, `logout:${String(profile.ID).slice(0, 200)}`, keepUntil)))
      throw refusedWith('SAMLRequest', fill('iam.requestReplayed', 'this LogoutRequest was already taken (a replay)', {}));
    const ended = await db.transaction(async (tx) => {
      const out = await endSamlSessions(tx, p.key, profile.nameID);
      for (const userId of new Set(out.map((s) => s.userId)))
        await audit(tx, req, {
          actor: p.name,
          clientId: p.clientScope,
          action: 'provider-sign-out',
          entity: 'user',
          entityId: userId,
          before: null,
          after: { provider: p.key, sessions: out.filter((s) => s.userId === userId).length },
        });
      return out;
    });
    req.log.info({ provider: p.key, sessions: ended.length }, 'SAML LogoutRequest: sessions ended');
    if (!p.sloUrl)
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`Signed out of Gatehouse: ${ended.length} session(s) ended.`);
    const answer = await samlOf(p, origin, oneRequest(null), keys).getLogoutResponseUrlAsync(profile, relay, {}, true);
    return reply.header('cache-control', 'no-store').redirect(answer, 302);
  }

  return {
    /** Registered where the bounded form parser is (./saml.ts). */
    routes(scoped: FastifyInstance) {
      scoped.post(API.samlSlo, { config: opts.limited }, async (req, reply) => {
        const q = (req.query ?? {}) as Record<string, unknown>;
        const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
        try {
          const p = await samlByKey(q.provider);
          if (!p)
            throw new HttpError(404, fill('iam.noSuchProvider', 'No such identity provider is configured', {}), [
              { field: 'provider', ...fill('iam.isNotConfiguredProvider', 'is not a configured provider', {}) },
            ]);
          const relay = typeof b.RelayState === 'string' ? b.RelayState.slice(0, 200) : '';
          if (typeof b.SAMLResponse === 'string' && b.SAMLResponse) return await logoutResponse(req, reply, p, b.SAMLResponse);
          if (typeof b.SAMLRequest === 'string' && b.SAMLRequest) return await logoutRequest(req, reply, p, b.SAMLRequest, relay);
          throw new HttpError(400, fill('iam.signOutExpected', 'A sign-out message of the identity provider was expected', {}), [
            { field: 'SAMLRequest', ...fill('iam.signOutMissing', 'is missing (a LogoutRequest, or SAMLResponse: a LogoutResponse)', {}) },
          ]);
        } catch (e) {
          if (e instanceof HttpError) return opts.refuse(req, reply, e);
          throw e;
        }
      });
    },

    /**
     * Gatehouse's sign-out of a session a SAML provider signed in (the session is ended already): where the browser
     * goes to end the provider's session too; `{}` where the provider has no single logout address; null: not a SAML session.
     */
    async providerLogout(req: FastifyRequest, jti: string): Promise<{ providerLogoutUrl?: string } | null> {
      const s = await takeSamlSession(db, jti);
      if (!s) return null;
      const p = await samlByKey(s.provider);
      if (!p?.sloUrl) return {};
      try {
        const url = await samlOf(p, originOf(req), sending(p.key), await spKeys(db)).getLogoutUrlAsync(
          {
            issuer: p.issuer,
            nameID: s.nameId,
            nameIDFormat: s.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
            sessionIndex: s.sessionIndex ?? undefined,
          } as Profile,
          '',
          {},
        );
        return { providerLogoutUrl: url };
      } catch (e) {
        req.log.warn({ err: e, provider: p.key }, 'SAML LogoutRequest not made'); // the Gatehouse session is ended all the same
        return {};
      }
    },
  };
}
