// What the SAML 2.0 sign-in (./saml.ts) and single logout (./samlLogout.ts) share (issue 49): node-saml configured for
// one provider with Gatehouse's keys (./spKeys.ts), Gatehouse's addresses as a service provider, and reading one
// attribute of a checked message.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { API } from '../../../contract';
import type { Db } from '../../db/db';
import type { HttpError } from '../../http/kit';
import type { SamlProviderConfig } from './config';
import { FLOW_TTL_MS } from './flow';
import type { SpKeys } from './spKeys';

/** A SAMLResponse past this is refused before it is read (issue 49: an assertion of 10 MB). */
export const SAML_BODY_MAX = 256 * 1024;
export const CLOCK_SKEW_MS = 60_000;

/** Gatehouse's entity ID for one provider (its metadata address): the audience its assertions must name. */
export const spEntityId = (origin: string, key: string) => `${origin}${API.samlMetadata}?provider=${encodeURIComponent(key)}`;

/** node-saml's request-ID cache, holding the one request this flow sent (or recording the one being sent). */
export function oneRequest(id: string | null, sent?: (id: string) => void): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      sent?.(key);
      return { value, createdAt: Date.now() };
    },
    getAsync: async (key) => (id !== null && key === id ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
}

/** Gatehouse's single logout service for one provider (its metadata's SingleLogoutService, HTTP-POST). */
export const spSloUrl = (origin: string, key: string) => `${origin}${API.samlSlo}?provider=${encodeURIComponent(key)}`;

/**
 * node-saml for one provider. `keys`: Gatehouse's pair (./spKeys.ts), which opens assertions encrypted for it and, where
 * the provider asks for signed requests, signs the AuthnRequest and the logout messages (RSA-SHA256).
 */
export function samlOf(
  p: SamlProviderConfig,
  origin: string,
  cache: CacheProvider,
  keys: SpKeys,
  inResponseTo: ValidateInResponseTo = ValidateInResponseTo.always,
): SAML {
  return new SAML({
    entryPoint: p.ssoUrl,
    logoutUrl: p.sloUrl ?? p.ssoUrl,
    logoutCallbackUrl: spSloUrl(origin, p.key),
    decryptionPvk: keys.privateKey,
    ...(p.signRequests ? { privateKey: keys.privateKey, publicCert: keys.certificate, signatureAlgorithm: 'sha256' as const } : {}),
    issuer: spEntityId(origin, p.key),
    audience: spEntityId(origin, p.key),
    callbackUrl: `${origin}${API.samlAcs}`,
    idpCert: p.certificate,
    idpIssuer: p.issuer,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: FLOW_TTL_MS,
    validateInResponseTo: inResponseTo,
    requestIdExpirationPeriodMs: FLOW_TTL_MS,
    cacheProvider: cache,
    disableRequestedAuthnContext: true,
    identifierFormat: null,
  });
}

/** An attribute of the (checked) assertion's XML: the first element `local` and its attribute `name`. */
export function xmlAttribute(xml: string, local: string, name: string): string | null {
  const el = new RegExp(`<(?:[\\w.-]+:)?${local}\\b[^>]*>`).exec(xml)?.[0] ?? new RegExp(`<(?:[\\w.-]+:)?${local}\\b[^>]*/>`).exec(xml)?.[0];
  if (!el) return null;
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(el);
  return m
    ? m[1]
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
    : null;
}

export interface SamlRouteOptions {
  db: Db;
  /** Sign-in's per-address limit (server/http/auth.ts): the start, the assertion consumer and the single logout service. */
  limited: Record<string, unknown>;
  refuse: (req: FastifyRequest, reply: FastifyReply, e: HttpError) => unknown;
}
