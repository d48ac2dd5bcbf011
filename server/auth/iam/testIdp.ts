// A real OpenID Connect provider on a loopback port for the tests (issue 49): `oidc-provider` (OpenID-certified),
// with its development sign-in form (any password), PKCE required, RP-initiated logout, and a `groups` claim in the
// ID token. `tamper` rewrites the ID token of the next token answers, re-signed with the provider's own key (or a
// stranger's), so each check of the ID token can be met by a token that differs in that one way.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import Provider, { type KoaContext } from 'oidc-provider';

export interface TestPerson {
  name?: string;
  email?: string;
  preferred_username?: string;
  groups?: string[];
  /** Groups under another claim's name (a provider's groups claim named on the Manage screen). */
  memberOf?: string[];
}

export type IdTokenTamper = (claims: Record<string, unknown>) => Record<string, unknown>;

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The environment that names this provider to Gatehouse (IAM_OIDC_*). */
  env(roleMap: string, name?: string): Record<string, string>;
  /** Rewrites the claims of the ID tokens answered from now on (re-signed with the provider's key, or `foreignKey`). */
  tamper(fn: IdTokenTamper | null, opts?: { foreignKey?: boolean }): void;
  /** The people who may sign in (login name → claims); changed at will between sign-ins. */
  people: Record<string, TestPerson>;
  close(): Promise<void>;
}

export async function startTestIdp(opts: {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  people?: Record<string, TestPerson>;
  /** Loopback redirect URIs match on any port (a native client, RFC 8252): for a Gatehouse started after the provider. */
  anyLoopbackPort?: boolean;
}): Promise<TestIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-idp-1', alg: 'RS256', use: 'sig' };
  const stranger = (await generateKeyPair('RS256', { extractable: true })).privateKey;
  const people: Record<string, TestPerson> = opts.people ?? {};
  let tamper: { fn: IdTokenTamper; foreignKey: boolean } | null = null;

  // the port first: the issuer names it
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'gatehouse';
  const clientSecret = 'gatehouse-test-secret-0123456789abcdef';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        post_logout_redirect_uris: opts.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(opts.anyLoopbackPort ? { application_type: 'native' } : {}),
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-idp-cookie-key-0123456789'] },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'], groups: ['groups', 'memberOf'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    conformIdTokenClaims: false, // the profile and the groups in the ID token itself
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    // no consent screen: the test provider's people consent to Gatehouse
    async loadExistingGrant(ctx: KoaContext) {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId });
      grant.addOIDCScope('openid profile email groups');
      await grant.save();
      return grant;
    },
    async findAccount(_ctx: KoaContext, sub: string) {
      const person = people[sub];
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
  });
  provider.proxy = false;
  // the token answer, rewritten when a test asks (the access token is left alone)
  provider.use(async (ctx, next) => {
    await next();
    if (!tamper || ctx.path !== '/token' || ctx.status !== 200 || !ctx.body || typeof ctx.body !== 'object') return;
    const answer = ctx.body as Record<string, unknown>;
    if (typeof answer.id_token !== 'string') return;
    const header = decodeProtectedHeader(answer.id_token);
    const claims = tamper.fn({ ...decodeJwt(answer.id_token) });
    const key = tamper.foreignKey ? stranger : await importJWK(jwk, 'RS256');
    answer.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid ?? jwk.kid }).sign(key);
    ctx.body = answer;
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    env: (roleMap, name = 'Test IdP') => ({
      IAM_OIDC_ISSUER: issuer,
      IAM_OIDC_CLIENT_ID: clientId,
      IAM_OIDC_CLIENT_SECRET: clientSecret,
      IAM_OIDC_ROLE_MAP: roleMap,
      IAM_OIDC_NAME: name,
    }),
    tamper(fn, o) {
      tamper = fn ? { fn, foreignKey: !!o?.foreignKey } : null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
