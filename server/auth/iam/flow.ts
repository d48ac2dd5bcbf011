// What every provider's sign-in shares (issue 49): the browser binding cookie, the one-time ticket the console
// exchanges for its session, the return path the console asked for, and hashing. OpenID Connect (./routes.ts) and
// SAML 2.0 (./saml.ts) both use these.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/db';
import { keepIamTicket } from '../../db/queries/iamTickets';

export const FLOW_TTL_MS = 10 * 60_000;
const TICKET_TTL_MS = 60_000;
const BINDING_COOKIE = 'gh_iam';
const RETURN_MAX = 300;

export const hash = (s: string) => createHash('sha256').update(s).digest('hex');
export const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * This browser's binding cookie (made when it has none): a sign-in's flow and ticket keep its hash, and the ticket is
 * exchanged only by the browser that sends it. Lax: the provider's redirect back is a top-level navigation from its
 * site, which carries it (a SAML POST from the provider's site does not: the exchange, a same-site call, asks for it).
 */
export function bindBrowser(req: FastifyRequest, reply: FastifyReply): string {
  const binding = bindingOf(req) ?? randomBytes(32).toString('base64url');
  const secure = req.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${BINDING_COOKIE}=${binding}; Path=/idp/1.0/; HttpOnly; SameSite=Lax; Max-Age=${FLOW_TTL_MS / 1000}${secure}`);
  return binding;
}

/** The one-time ticket a provider's sign-in hands the console (`/login#iam=<ticket>`): one use, a minute, this browser. */
export async function issueTicket(
  db: Db,
  t: {
    userId: number;
    provider: string;
    bindingHash: string;
    idToken: string | null;
    returnPath: string | null;
    method: 'oidc' | 'saml';
    /** A SAML sign-in's NameID, its format and SessionIndex (JSON), kept with the session for single logout. */
    samlSubject?: string | null;
  },
): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await keepIamTicket(db, {
    ticketHash: hash(ticket),
    userId: t.userId,
    provider: t.provider,
    bindingHash: t.bindingHash,
    idToken: t.idToken,
    returnPath: t.returnPath,
    expiresAt: new Date(Date.now() + TICKET_TTL_MS),
    method: t.method,
    samlSubject: t.samlSubject ?? null,
  });
  return ticket;
}

/** The binding cookie of this browser, if it sent one. */
export function bindingOf(req: FastifyRequest): string | null {
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === BINDING_COOKIE) {
      const value = v.join('=');
      return /^[A-Za-z0-9_-]{32,64}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** A console path to return to after the sign-in: one of ours (a single leading slash), never another site. */
export function safeReturnPath(value: unknown): string | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > RETURN_MAX) return 'invalid';
  // a path of ours: one leading slash, no backslash, no white space or control character (\s and \p{Cc})
  if (!/^\/(?![/\\])[^\s\\\p{Cc}]*$/u.test(value) || value.startsWith('/login')) return 'invalid';
  return value;
}

/** openid-client's reason, with the claim or the cause it names (its messages alone are generic). */
export function whyRefused(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const err = e as Error & { code?: string; cause?: unknown };
  return [err.message, err.cause instanceof Error ? err.cause.message : null, err.code ?? null].filter(Boolean).join('; ');
}

/** The origin the browser used (the callback is on the console's origin, issue 49). */
export const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
