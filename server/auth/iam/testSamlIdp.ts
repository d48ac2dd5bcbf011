// A SAML 2.0 identity provider on a loopback port for the tests (issue 49): it takes Gatehouse's AuthnRequest by
// HTTP-Redirect at /sso (deflated, as the binding says), signs the person named by `login` in, and answers the page
// a browser posts back to the assertion consumer service (HTTP-POST binding) with a Response whose Assertion is signed
// with xml-crypto (RSA-SHA256, exclusive C14N, enveloped). Each check of the service provider can be met by an
// answer that differs in one way: `tamper` changes the assertion's fields before signing, `foreignKey` signs with a
// stranger's key, `afterSigning` rewrites the signed XML (a wrapped or altered assertion).
//
// The service provider's side it learns as a real IdP does, from the SP's metadata (the AuthnRequest's Issuer is
// Gatehouse's entity ID, which is its metadata address): its signing certificate, its encryption certificate and its
// single logout service. `requireSignedRequests` makes it refuse an AuthnRequest or LogoutRequest whose HTTP-Redirect
// signature (RSA-SHA256 over the query as sent) is missing or is not by the SP's signing key; `encryptFor` encrypts the
// signed assertion (xml-encryption: AES-256-GCM, the key by RSA-OAEP) for the SP's key or a stranger's. Single logout:
// `/slo` takes the SP's LogoutRequest (ends its own session of the person, answers a signed LogoutResponse posted to
// the SP's single logout service) and the SP's LogoutResponse to a LogoutRequest of its own (`logoutRequestFor`).
import { createPublicKey, generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { encrypt as xmlEncrypt } from 'xml-encryption';

export interface SamlPerson {
  subject: string;
  email?: string;
  displayName?: string;
  uid?: string;
  groups?: string[];
}

/** What the IdP is about to sign; a test may change any of it. */
export interface AssertionFields {
  issuer: string;
  audience: string;
  recipient: string;
  destination: string;
  inResponseTo: string;
  notBefore: Date;
  notOnOrAfter: Date;
  assertionId: string;
  sessionIndex: string;
  person: SamlPerson;
  groupsAttribute: string;
}

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  /** The signing key's public half in PEM (what an administrator pastes as the signing certificate). */
  certificate: string;
  people: Record<string, SamlPerson>;
  tamper(fn: ((a: AssertionFields) => AssertionFields) | null): void;
  foreignKey(on: boolean): void;
  afterSigning(fn: ((xml: string) => string) | null): void;
  /** The last Response answered (base64), for a replay. */
  lastResponse: { SAMLResponse: string; RelayState: string } | null;
  /** Refuse requests not signed by the SP's signing key (from its metadata). */
  requireSignedRequests(on: boolean): void;
  /** Encrypt the signed assertion for the SP's encryption key, a stranger's, or not at all. */
  encryptFor(whose: 'sp' | 'stranger' | null): void;
  /** The people signed in at the IdP now: subject → SessionIndex. */
  sessions: Map<string, string>;
  /** What /slo was told: the SP's LogoutRequests (subject) and its LogoutResponses (to our request, with status). */
  logouts: { requests: { subject: string; sessionIndex: string | null; signed: boolean }[]; responses: { inResponseTo: string; status: string }[] };
  /** A LogoutRequest of the IdP for `subject`, as the form a browser would post to the SP's single logout service. */
  logoutRequestFor(
    subject: string,
    spEntityId: string,
    how?: { key?: 'own' | 'stranger' | 'none'; issuer?: string; destination?: string },
  ): Promise<{ action: string; SAMLRequest: string; RelayState: string; id: string }>;
  close(): Promise<void>;
}

interface SpMetadata {
  signing: string | null;
  encryption: string | null;
  slo: string | null;
}
const pemOf = (b64: string) => `-----BEGIN CERTIFICATE-----\n${(b64.replace(/\s+/g, '').match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----\n`;
async function readMetadata(url: string): Promise<SpMetadata> {
  const xml = await (await fetch(url)).text();
  const cert = (use: string) => {
    const m = new RegExp(`<KeyDescriptor[^>]*use="${use}"[\\s\\S]*?<ds:X509Certificate>([^<]+)</ds:X509Certificate>`).exec(xml);
    return m ? pemOf(m[1]) : null;
  };
  return {
    signing: cert('signing'),
    encryption: cert('encryption'),
    slo: /<SingleLogoutService[^>]*Location="([^"]+)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&') ?? null,
  };
}

/** Whether the HTTP-Redirect signature of this query (SAMLRequest|SAMLResponse, RelayState, SigAlg as sent) is by `cert`. */
function redirectSigned(rawQuery: string, cert: string | null): boolean {
  const parts = rawQuery.split('&');
  const raw = (k: string) => parts.find((x) => x.startsWith(`${k}=`));
  const sig = raw('Signature');
  const alg = raw('SigAlg');
  if (!cert || !sig || !alg || decodeURIComponent(alg.slice(7)) !== 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256') return false;
  const signed = [raw('SAMLRequest') ?? raw('SAMLResponse'), raw('RelayState'), alg].filter(Boolean).join('&');
  try {
    return verify('RSA-SHA256', Buffer.from(signed, 'utf8'), createPublicKey(cert), Buffer.from(decodeURIComponent(sig.slice(10)), 'base64'));
  } catch {
    return false;
  }
}

function encryptAssertion(xml: string, publicKey: string, cert: string): Promise<string> {
  const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
  return new Promise((resolve, reject) =>
    xmlEncrypt(
      assertion,
      {
        rsa_pub: publicKey,
        pem: cert,
        encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
        keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        disallowEncryptionWithInsecureAlgorithm: true,
        warnInsecureAlgorithm: false,
      },
      (err: Error | null, encrypted: string) =>
        err ? reject(err) : resolve(xml.replace(assertion, `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`)),
    ),
  );
}

/** A whole protocol message signed (enveloped, after its Issuer), as LogoutRequests and LogoutResponses are over HTTP-POST. */
function signMessage(xml: string, privateKey: string): string {
  const sig = new SignedXml({
    privateKey,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: '/*',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: "/*/*[local-name(.)='Issuer']", action: 'after' } });
  return sig.getSignedXml();
}

const autoPost = (action: string, fields: Record<string, string>) =>
  `<html><body onload="document.forms[0].submit()"><form method="post" action="${esc(action)}">` +
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
    .join('') +
  `<noscript><button>Continue</button></noscript></form></body></html>`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pemPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), pub: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
};

function responseXml(a: AssertionFields): string {
  const iso = (d: Date) => d.toISOString();
  const now = iso(new Date());
  const attr = (name: string, values: string[]) =>
    `<saml:Attribute Name="${esc(name)}">${values.map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
  const p = a.person;
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${now}" Destination="${esc(a.destination)}" InResponseTo="${esc(a.inResponseTo)}">` +
    `<saml:Issuer>${esc(a.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${esc(a.assertionId)}" Version="2.0" IssueInstant="${now}">` +
    `<saml:Issuer>${esc(a.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(p.subject)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(a.inResponseTo)}" NotOnOrAfter="${iso(a.notOnOrAfter)}" Recipient="${esc(a.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(a.notBefore)}" NotOnOrAfter="${iso(a.notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${esc(a.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now}" SessionIndex="${esc(a.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>` +
    (p.groups ? attr(a.groupsAttribute, p.groups) : '') +
    (p.email ? attr('email', [p.email]) : '') +
    (p.displayName ? attr('displayName', [p.displayName]) : '') +
    (p.uid ? attr('uid', [p.uid]) : '') +
    `</saml:AttributeStatement></saml:Assertion></samlp:Response>`
  );
}

function signAssertion(xml: string, privateKey: string): string {
  const sig = new SignedXml({
    privateKey,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return sig.getSignedXml();
}

/** A client's identity provider for this IdP, as its administrator saves it (the tests' provider, with `patch` over it). */
export function samlProviderBody(idp: Pick<TestSamlIdp, 'entityId' | 'ssoUrl' | 'certificate'>, patch: Record<string, unknown> = {}) {
  return {
    name: 'Harbour ADFS',
    kind: 'saml',
    active: true,
    issuer: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificate: idp.certificate,
    roleMap: 'hh-security=security-operator',
    ...patch,
  };
}

export async function startTestSamlIdp(opts: { people?: Record<string, SamlPerson>; groupsAttribute?: string } = {}): Promise<TestSamlIdp> {
  const own = pemPair();
  const stranger = pemPair();
  const people = opts.people ?? {};
  let tamper: ((a: AssertionFields) => AssertionFields) | null = null;
  let foreign = false;
  let after: ((xml: string) => string) | null = null;
  let signedRequests = false;
  let encryptFor: 'sp' | 'stranger' | null = null;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${origin}/metadata`;
  const idp: TestSamlIdp = {
    entityId,
    ssoUrl: `${origin}/sso`,
    certificate: own.pub,
    people,
    tamper: (fn) => void (tamper = fn),
    foreignKey: (on) => void (foreign = on),
    afterSigning: (fn) => void (after = fn),
    lastResponse: null,
    requireSignedRequests: (on) => void (signedRequests = on),
    encryptFor: (whose) => void (encryptFor = whose),
    sessions: new Map(),
    logouts: { requests: [], responses: [] },
    async logoutRequestFor(subject, spEntityId, how = {}) {
      const sp = await readMetadata(spEntityId);
      const id = `_l${randomUUID()}`;
      const index = idp.sessions.get(subject);
      const xml =
        `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${esc(how.destination ?? sp.slo ?? '')}" NotOnOrAfter="${new Date(Date.now() + 5 * 60_000).toISOString()}">` +
        `<saml:Issuer>${esc(how.issuer ?? entityId)}</saml:Issuer>` +
        `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(subject)}</saml:NameID>` +
        (index ? `<samlp:SessionIndex>${esc(index)}</samlp:SessionIndex>` : '') +
        `</samlp:LogoutRequest>`;
      const key = how.key ?? 'own';
      const signed = key === 'none' ? xml : signMessage(xml, key === 'own' ? own.key : stranger.key);
      return { action: sp.slo ?? '', SAMLRequest: Buffer.from(signed, 'utf8').toString('base64'), RelayState: `idp-${id}`, id };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** The SP's LogoutRequest (it ends our session of the person) or its LogoutResponse to one of ours. */
  async function slo(url: URL, rawQuery: string): Promise<{ status: number; html: string }> {
    const request = url.searchParams.get('SAMLRequest');
    const message = inflateRawSync(Buffer.from(request ?? url.searchParams.get('SAMLResponse') ?? '', 'base64')).toString('utf8');
    const spIssuer = /<(?:saml2?:)?Issuer[^>]*>([^<]+)</.exec(message)?.[1]?.replace(/&amp;/g, '&');
    if (!spIssuer) return { status: 400, html: 'not a logout message' };
    const sp = await readMetadata(spIssuer);
    const signed = redirectSigned(rawQuery, sp.signing);
    if (signedRequests && !signed) return { status: 400, html: "the logout message is not signed by the service provider's key" };
    if (!request) {
      idp.logouts.responses.push({
        inResponseTo: /\sInResponseTo="([^"]+)"/.exec(message)?.[1] ?? '',
        status: /<(?:samlp:)?StatusCode[^>]*Value="([^"]+)"/.exec(message)?.[1] ?? '',
      });
      return { status: 200, html: 'Signed out at the identity provider.' };
    }
    const id = /\sID="([^"]+)"/.exec(message)?.[1] ?? '';
    const subject = /<(?:saml2?:)?NameID[^>]*>([^<]+)</.exec(message)?.[1] ?? '';
    const sessionIndex = /<(?:saml2?p?:)?SessionIndex[^>]*>([^<]+)</.exec(message)?.[1] ?? null;
    idp.logouts.requests.push({ subject, sessionIndex, signed });
    idp.sessions.delete(subject);
    if (!sp.slo) return { status: 400, html: 'the service provider publishes no single logout service' };
    const answer = signMessage(
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_lr${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${esc(sp.slo)}" InResponseTo="${esc(id)}">` +
        `<saml:Issuer>${esc(entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`,
      foreign ? stranger.key : own.key,
    );
    return {
      status: 200,
      html: autoPost(sp.slo, { SAMLResponse: Buffer.from(answer, 'utf8').toString('base64'), RelayState: url.searchParams.get('RelayState') ?? '' }),
    };
  }

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const rawQuery = (req.url ?? '').split('?')[1] ?? '';
    void (async () => {
      if (url.pathname === '/slo') {
        const out = await slo(url, rawQuery);
        return void res.writeHead(out.status, { 'content-type': 'text/html' }).end(out.html);
      }
      if (url.pathname !== '/sso') return void res.writeHead(404).end();
      // the AuthnRequest, as the HTTP-Redirect binding carries it: deflated, base64, in the query
      const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
      const id = /\sID="([^"]+)"/.exec(request)?.[1];
      const acs = /\sAssertionConsumerServiceURL="([^"]+)"/.exec(request)?.[1];
      const audience = /<(?:saml2?:)?Issuer[^>]*>([^<]+)</.exec(request)?.[1];
      const person = people[url.searchParams.get('login') ?? ''];
      if (!id || !acs || !audience) return void res.writeHead(400).end('not an AuthnRequest');
      const sp = signedRequests || encryptFor ? await readMetadata(audience.replace(/&amp;/g, '&')) : null;
      if (signedRequests && !redirectSigned(rawQuery, sp!.signing))
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end("The AuthnRequest is not signed by the service provider's key: refused.");
      // no login named: the IdP's sign-in form, which sends the same request back with the login (and its signature)
      if (!person) {
        const keep = ['SAMLRequest', 'RelayState', 'SigAlg', 'Signature']
          .map((k) => `<input type="hidden" name="${k}" value="${esc(url.searchParams.get(k) ?? '')}">`)
          .join('');
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<form method="get" action="/sso"><input name="login">${keep}<button>Sign in</button></form>`);
      }
      const now = Date.now();
      let fields: AssertionFields = {
        issuer: entityId,
        audience: audience.replace(/&amp;/g, '&'),
        recipient: acs.replace(/&amp;/g, '&'),
        destination: acs.replace(/&amp;/g, '&'),
        inResponseTo: id,
        notBefore: new Date(now - 60_000),
        notOnOrAfter: new Date(now + 5 * 60_000),
        assertionId: `_a${randomUUID()}`,
        sessionIndex: `_s${randomUUID()}`,
        person,
        groupsAttribute: opts.groupsAttribute ?? 'groups',
      };
      if (tamper) fields = tamper(fields);
      let xml = signAssertion(responseXml(fields), foreign ? stranger.key : own.key);
      if (after) xml = after(xml);
      // a stranger's key under the SP's certificate's name: what an IdP configured with the wrong key sends
      if (encryptFor) xml = await encryptAssertion(xml, encryptFor === 'sp' ? sp!.encryption! : stranger.pub, sp!.encryption!);
      idp.sessions.set(person.subject, fields.sessionIndex);
      const SAMLResponse = Buffer.from(xml, 'utf8').toString('base64');
      const RelayState = url.searchParams.get('RelayState') ?? '';
      idp.lastResponse = { SAMLResponse, RelayState };
      res.writeHead(200, { 'content-type': 'text/html' }).end(autoPost(fields.destination, { SAMLResponse, RelayState }));
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(400).end(String(e));
    });
  });
  return idp;
}
