// OpenID Connect through openid-client (issue 49): authorization code with PKCE, and the ID token checked for its
// issuer, audience, nonce, expiry and its signature against the provider's published keys (non-repudiation checks:
// openid-client otherwise trusts a token it received straight from the token endpoint). The authorization response's
// `iss` is checked too (RFC 9207) where the provider sends it.
import * as oidc from 'openid-client';
import type { OidcProviderConfig } from './config';

/** Each provider's discovered configuration, kept for ten minutes (its keys are fetched and cached by openid-client). */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** How long a call to the provider may take. */
const TIMEOUT_S = 10;

const cache = new Map<string, { at: number; config: Promise<oidc.Configuration>; fingerprint: string }>();

const fingerprintOf = (p: OidcProviderConfig) => JSON.stringify([p.issuer, p.clientId, p.clientSecret]);

export function configurationOf(p: OidcProviderConfig, now = Date.now()): Promise<oidc.Configuration> {
  const known = cache.get(p.key);
  if (known && known.fingerprint === fingerprintOf(p) && now - known.at < DISCOVERY_TTL_MS) return known.config;
  const insecure = new URL(p.issuer).protocol === 'http:';
  const config = oidc
    .discovery(
      new URL(p.issuer),
      p.clientId,
      { client_secret: p.clientSecret || undefined },
      p.clientSecret ? oidc.ClientSecretBasic(p.clientSecret) : oidc.None(),
      {
        // a provider on plain http is for a loopback test or a lab; openid-client refuses it unless told
        execute: [...(insecure ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
        timeout: TIMEOUT_S,
      },
    )
    .catch((e: unknown) => {
      cache.delete(p.key); // a provider that did not answer is asked again next time
      throw e;
    });
  cache.set(p.key, { at: now, config, fingerprint: fingerprintOf(p) });
  return config;
}

/** Forgets what was discovered of a provider (its settings changed). */
export function forgetProvider(key: string): void {
  cache.delete(key);
}

export interface StartedFlow {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function authorizationUrl(p: OidcProviderConfig, redirectUri: string): Promise<StartedFlow> {
  const config = await configurationOf(p);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email groups',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

export interface CheckedToken {
  claims: oidc.IDToken;
  idToken: string;
}

/** Exchanges the code of `callbackUrl` and checks the ID token; throws openid-client's errors on any mismatch. */
export async function finishFlow(
  p: OidcProviderConfig,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<CheckedToken> {
  const config = await configurationOf(p);
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims || !tokens.id_token) throw new Error('the provider sent no ID token');
  return { claims, idToken: tokens.id_token };
}

/** The provider's end-session address for RP-initiated logout, or null when it offers none. */
export async function endSessionUrl(p: OidcProviderConfig, idToken: string, postLogoutRedirectUri: string): Promise<string | null> {
  const config = await configurationOf(p);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirectUri }).href;
}
