// A SAML 2.0 identity provider on a loopback port for the tests (issue 49): it takes Gatehouse's AuthnRequest by
// HTTP-Redirect at /sso (deflated, as the binding says), signs the person named by `login` in, and answers the page
// a browser posts back to the assertion consumer service (HTTP-POST binding) with a Response whose Assertion is signed
// with xml-crypto (RSA-SHA256, exclusive C14N, enveloped). Each check of the service provider can be met by an
// answer that differs in one way: `tamper` changes the assertion's fields before signing, `foreignKey` signs with a
// stranger's key, `afterSigning` rewrites the signed XML (a wrapped or altered assertion).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

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
  close(): Promise<void>;
}

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
    `<saml:Assertion ID="${esc(a.assertionId)}" Version="2.0" IssueInstant="${now}">` +
    `<saml:Issuer>${esc(a.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(p.subject)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(a.inResponseTo)}" NotOnOrAfter="${iso(a.notOnOrAfter)}" Recipient="${esc(a.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(a.notBefore)}" NotOnOrAfter="${iso(a.notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${esc(a.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
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

export async function startTestSamlIdp(opts: { people?: Record<string, SamlPerson>; groupsAttribute?: string } = {}): Promise<TestSamlIdp> {
  const own = pemPair();
  const stranger = pemPair();
  const people = opts.people ?? {};
  let tamper: ((a: AssertionFields) => AssertionFields) | null = null;
  let foreign = false;
  let after: ((xml: string) => string) | null = null;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== '/sso') return void res.writeHead(404).end();
    try {
      // the AuthnRequest, as the HTTP-Redirect binding carries it: deflated, base64, in the query
      const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
      const id = /\sID="([^"]+)"/.exec(request)?.[1];
      const acs = /\sAssertionConsumerServiceURL="([^"]+)"/.exec(request)?.[1];
      const audience = /<(?:saml2?:)?Issuer[^>]*>([^<]+)</.exec(request)?.[1];
      const person = people[url.searchParams.get('login') ?? ''];
      if (!id || !acs || !audience) return void res.writeHead(400).end('not an AuthnRequest');
      // no login named: the IdP's sign-in form, which sends the same request back with the login
      if (!person) {
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<form method="get" action="/sso"><input name="login"><input type="hidden" name="SAMLRequest" value="${esc(url.searchParams.get('SAMLRequest') ?? '')}"><input type="hidden" name="RelayState" value="${esc(url.searchParams.get('RelayState') ?? '')}"><button>Sign in</button></form>`,
          );
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
        person,
        groupsAttribute: opts.groupsAttribute ?? 'groups',
      };
      if (tamper) fields = tamper(fields);
      let xml = signAssertion(responseXml(fields), foreign ? stranger.key : own.key);
      if (after) xml = after(xml);
      const SAMLResponse = Buffer.from(xml, 'utf8').toString('base64');
      const RelayState = url.searchParams.get('RelayState') ?? '';
      idp.lastResponse = { SAMLResponse, RelayState };
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<html><body onload="document.forms[0].submit()"><form method="post" action="${esc(fields.destination)}">` +
            `<input type="hidden" name="SAMLResponse" value="${SAMLResponse}"><input type="hidden" name="RelayState" value="${esc(RelayState)}">` +
            `<noscript><button>Continue</button></noscript></form></body></html>`,
        );
    } catch (e) {
      res.writeHead(400).end(String(e));
    }
  });
  return idp;
}
