// Session tokens: HS256 JWTs signed with jose; exp in seconds (§3).
import { SignJWT, jwtVerify } from 'jose';
import { randomUUID } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  username: string;
  clientId: number | null;
  roles: string[];
  jti: string;
}

/** Verified tokens remembered at most (past it the memory starts over). */
/** The longest session a client's operator settings allow (contract/resources/roles.ts: 43,200 minutes). */
export const SESSION_LIFETIME_MAX_S = 43_200 * 60;

const VERIFIED_MAX = 10_000;

export function createTokens(secret: string, lifetimeS: number, now: () => number = Date.now) {
  const key = new TextEncoder().encode(secret);
  // issue 13: verifying the signature (WebCrypto's HMAC, a job of its own) was a millisecond of every request. A token
  // that verified once is the same bytes under the same key until its exp, so it is remembered until then; whether
  // its session is still open is asked on every request all the same (server/auth/requestCache.ts).
  const verified = new Map<string, { claims: TokenClaims; expMs: number }>();
  return {
    async sign(
      c: Omit<TokenClaims, 'jti'> & { jti?: string; /** the client's session lifetime (operator settings) */ lifetimeS?: number },
    ): Promise<{ token: string; jti: string }> {
      const jti = c.jti ?? randomUUID();
      const token = await new SignJWT({ username: c.username, clientId: c.clientId, roles: c.roles })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(c.sub)
        .setJti(jti)
        .setIssuedAt(Math.floor(now() / 1000))
        .setExpirationTime(Math.floor(now() / 1000) + (c.lifetimeS ?? lifetimeS))
        .sign(key);
      return { token, jti };
    },
    async verify(token: string): Promise<TokenClaims | null> {
      const known = verified.get(token);
      if (known) {
        if (now() < known.expMs) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        // issue 45: a token without exp or iat, or one whose lifetime is longer than any this server gives, is refused
        // (jose checks exp only where it is present)
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(now()), requiredClaims: ['exp', 'iat', 'sub', 'jti'] });
        if (typeof payload.sub !== 'string' || !/^[1-9][0-9]{0,9}$/.test(payload.sub) || typeof payload.jti !== 'string') return null;
        if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return null;
        if (payload.exp - payload.iat > Math.max(lifetimeS, SESSION_LIFETIME_MAX_S) || payload.iat * 1000 > now() + 60_000) return null;
        const claims: TokenClaims = Object.freeze({
          sub: payload.sub,
          jti: payload.jti,
          username: String(payload.username),
          clientId: (payload.clientId as number | null) ?? null,
          roles: Object.freeze([...((payload.roles as string[]) ?? [])]) as string[],
        });
        if (verified.size >= VERIFIED_MAX) verified.clear();
        verified.set(token, { claims, expMs: payload.exp * 1000 });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
export type Tokens = ReturnType<typeof createTokens>;
