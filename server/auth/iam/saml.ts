// SAML 2.0 sign-in for a client's identity provider (issue 49), Gatehouse as the service provider through
// @node-saml/node-saml. The round trip: `GET /idp/1.0/saml/start?provider=idp-<id>` keeps a flow (the RelayState
// hashed, the AuthnRequest's ID, this browser's binding, ten minutes, one use) and sends the browser to the provider
// with an AuthnRequest (HTTP-Redirect). The provider posts its Response to `/idp/1.0/saml/acs` (HTTP-POST); Gatehouse
// takes the flow once and node-saml checks it: the Assertion signed by the provider's certificate (one assertion and
// no other, so a wrapped one is refused), the issuer, InResponseTo our request, NotBefore / NotOnOrAfter (one minute
// of clock skew), the audience (our entity ID). Gatehouse then checks what node-saml leaves to it: the issuer, the recipient and
// the Response's destination are our assertion consumer service, and the assertion's ID was never taken before (a
// replay). The groups attribute maps to roles through the same mapping as OpenID Connect (./accounts.ts); the ticket
// goes to the console as for OIDC (./flow.ts). Every refusal is a 4xx in words that writes nothing but the used flow.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Profile } from '@node-saml/node-saml';
import { API, IAM_TICKET_PARAM } from '../../../contract';
import { HttpError, fill } from '../../http/kit';
import { signInPerson } from './accounts';
import type { SamlProviderConfig } from './config';
import { FLOW_TTL_MS, bindBrowser, hash, issueTicket, originOf, safeReturnPath } from './flow';
import { providerByKey } from './providers';
import { CLOCK_SKEW_MS, SAML_BODY_MAX, oneRequest, samlOf, xmlAttribute, type SamlRouteOptions } from './samlCore';
import { samlLogoutRoutes } from './samlLogout';
import { spKeys } from './spKeys';
import { keepAssertionOnce, keepSamlFlow, takeSamlFlow } from '../../db/queries/saml';

export { SAML_BODY_MAX, spEntityId } from './samlCore';

/** The first value of a SAML attribute (node-saml gives one value as a string, several as a list). */
const first = (v: unknown): string | null => {
  const x = Array.isArray(v) ? v[0] : v;
  return typeof x === 'string' && x.trim() ? x.trim().slice(0, 200) : null;
};

export function samlRoutes(app: FastifyInstance, opts: SamlRouteOptions) {
  const { db } = opts;
  const samlByKey = async (key: unknown): Promise<SamlProviderConfig | null> => {
    const p = await providerByKey(db, key);
    return p?.kind === 'saml' ? p : null;
  };
  const logout = samlLogoutRoutes({ ...opts, samlByKey });
  const unknownProvider = () =>
    new HttpError(404, fill('iam.noSuchProvider', 'No such identity provider is configured', {}), [
      { field: 'provider', ...fill('iam.isNotConfiguredProvider', 'is not a configured provider', {}) },
    ]);

  // Gatehouse's service provider metadata for one provider: its entity ID and assertion consumer service
  app.get(API.samlMetadata, { config: { open: true } }, async (req, reply) => {
    const p = await samlByKey(((req.query ?? {}) as Record<string, unknown>).provider);
    if (!p) throw unknownProvider();
    const origin = originOf(req);
    const keys = await spKeys(db);
    // the encryption key always (an assertion encrypted for it is opened), the signing one where requests are signed
    const xml = samlOf(p, origin, oneRequest(null), keys).generateServiceProviderMetadata(keys.certificate, p.signRequests ? keys.certificate : null);
    return reply.type('application/samlmetadata+xml').send(xml);
  });

  app.get(API.samlStart, { config: opts.limited }, async (req, reply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    try {
      const p = await samlByKey(q.provider);
      if (!p) throw unknownProvider();
      const returnPath = safeReturnPath(q.return);
      if (returnPath === 'invalid')
        throw new HttpError(400, fill('iam.returnNotConsole', 'The return address must be a page of this console', {}), [
          { field: 'return', ...fill('iam.isNotConsolePath', 'is not a path of this console', {}) },
        ]);
      const relay = randomBytes(32).toString('base64url');
      let requestId: string | null = null;
      const url = await samlOf(
        p,
        originOf(req),
        oneRequest(null, (id) => (requestId = id)),
        await spKeys(db),
      ).getAuthorizeUrlAsync(relay, undefined, {});
      if (!requestId) throw new Error('node-saml made no request ID');
      const binding = bindBrowser(req, reply);
      await keepSamlFlow(db, {
        relayHash: hash(relay),
        provider: p.key,
        requestId,
        bindingHash: hash(binding),
        returnPath,
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
      });
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    } catch (e) {
      if (e instanceof HttpError) return opts.refuse(req, reply, e);
      throw e;
    }
  });

  app.register(async (scoped) => {
    // the provider's HTTP-POST: a form, bounded (a larger one is 413 before it is read)
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: SAML_BODY_MAX }, (_req, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(text as string)));
    });
    scoped.post(API.samlAcs, { config: opts.limited }, async (req, reply) => {
      try {
        const ticket = await acs(req);
        return reply.header('cache-control', 'no-store').redirect(`/login#${IAM_TICKET_PARAM}=${ticket}`, 302);
      } catch (e) {
        if (e instanceof HttpError) return opts.refuse(req, reply, e);
        throw e;
      }
    });
    // single logout (./samlLogout.ts): the provider's LogoutRequest, and its LogoutResponse to Gatehouse's
    logout.routes(scoped);
  });

  async function acs(req: FastifyRequest): Promise<string> {
    const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const relay = typeof b.RelayState === 'string' ? b.RelayState : '';
    const response = typeof b.SAMLResponse === 'string' ? b.SAMLResponse : '';
    if (!relay || relay.length > 200)
      throw new HttpError(400, fill('iam.noState', 'The sign-in came back without its state: start it again from the sign-in page', {}), [
        { field: 'RelayState', ...fill('iam.isMissing', 'is missing', {}) },
      ]);
    if (!response)
      throw new HttpError(400, fill('iam.answerRefused', "The identity provider's answer was refused: it failed Gatehouse's checks", {}), [
        { field: 'SAMLResponse', ...fill('iam.isMissing', 'is missing', {}) },
      ]);
    // the flow is taken once: a replayed, forged or stale RelayState finds nothing
    const flow = await takeSamlFlow(db, hash(relay));
    if (!flow)
      throw new HttpError(
        400,
        fill('iam.signInUnknown', 'This sign-in is unknown, was already used or has expired: start it again from the sign-in page', {}),
        [{ field: 'RelayState', ...fill('iam.isUnknownUsedOrExpired', 'is unknown, used or expired', {}) }],
      );
    const p = await samlByKey(flow.provider);
    if (!p)
      throw new HttpError(400, fill('iam.providerGone', 'The identity provider of this sign-in is no longer configured', {}), [
        { field: 'provider', ...fill('iam.isNotConfigured', 'is not configured', {}) },
      ]);
    const origin = originOf(req);
    const acsUrl = `${origin}${API.samlAcs}`;
    const refused = (why: string) => {
      req.log.warn({ provider: p.key, why }, 'SAML answer refused');
      return new HttpError(400, fill('iam.answerRefused', "The identity provider's answer was refused: it failed Gatehouse's checks", {}), [
        { field: 'SAMLResponse', ...fill('iam.failedCheck', '{why}', { why: why.slice(0, 200) }) },
      ]);
    };
    let profile: Profile | null;
    try {
      ({ profile } = await samlOf(p, origin, oneRequest(flow.request_id), await spKeys(db)).validatePostResponseAsync({ SAMLResponse: response }));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      // xml-encryption's own words name an RSA padding: say what it means
      if (/EncryptedAssertion/.test(Buffer.from(response, 'base64').toString('utf8')) && /decrypt|oaep|padding|rsa/i.test(why))
        throw refused(`the encrypted assertion does not open with Gatehouse's key (encrypted for another key?): ${why}`);
      throw refused(why);
    }
    if (!profile) throw refused('the answer holds no assertion');
    if (p.encryptAssertions && !/<(?:[\w.-]+:)?EncryptedAssertion\b/.test(profile.getSamlResponseXml?.() ?? ''))
      throw refused("the assertion was not encrypted, and this provider's assertions must be encrypted for Gatehouse's key");
    // node-saml checks the issuer of logout messages only: the assertion's (as signed) must be this provider's
    if (profile.issuer !== p.issuer) throw refused(`the assertion's issuer is ${String(profile.issuer ?? 'missing').slice(0, 100)}, not ${p.issuer}`);
    const assertion = profile.getAssertionXml?.() ?? '';
    // what node-saml leaves to us: the assertion (as signed) is for our assertion consumer service, and so is the Response
    const recipient = xmlAttribute(assertion, 'SubjectConfirmationData', 'Recipient');
    if (recipient !== acsUrl) throw refused(`the assertion's recipient is ${recipient ?? 'missing'}, not ${acsUrl}`);
    const destination = xmlAttribute(profile.getSamlResponseXml?.() ?? '', 'Response', 'Destination');
    if (destination !== null && destination !== acsUrl) throw refused(`the response's destination is ${destination}, not ${acsUrl}`);
    const assertionId = xmlAttribute(assertion, 'Assertion', 'ID');
    if (!assertionId || assertionId.length > 200) throw refused('the assertion has no ID');
    const notOnOrAfter = Date.parse(xmlAttribute(assertion, 'Conditions', 'NotOnOrAfter') ?? '');
    const keepUntil = new Date(Math.max(Date.now() + FLOW_TTL_MS, Number.isFinite(notOnOrAfter) ? notOnOrAfter + CLOCK_SKEW_MS : 0));
    if (!(await keepAssertionOnce(db, p.key, assertionId, keepUntil))) throw refused('this assertion was already used (a replay)');

    const userId = await signInPerson(db, req, p, {
      subject: profile.nameID,
      username: first(profile.uid) ?? first(profile.email) ?? first(profile.mail),
      name: first(profile.displayName) ?? first(profile.cn),
      email: first(profile.email) ?? first(profile.mail),
      groups: profile[p.groupsAttribute],
    });
    const samlSubject = JSON.stringify({
      nameId: profile.nameID,
      nameIdFormat: profile.nameIDFormat ?? null,
      sessionIndex: typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null,
    });
    return issueTicket(db, {
      userId,
      provider: p.key,
      bindingHash: flow.binding_hash,
      idToken: null,
      returnPath: flow.return_path,
      method: 'saml',
      samlSubject,
    });
  }

  return { providerLogout: logout.providerLogout };
}
