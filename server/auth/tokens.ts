// Session tokens: HS256 JWTs signed with jose; exp in seconds (§3).
import { SignJWT, jwtVerify } from 'jose';
import { randomUUID } from 'node:crypto';

export interface TokenClaims { sub: string; username: string; clientId: number | null; roles: string[]; jti: string }

export function createTokens(secret: string, lifetimeS: number) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(c: Omit<TokenClaims, 'jti'> & { jti?: string; /** the client's session lifetime (operator settings) */ lifetimeS?: number }): Promise<{ token: string; jti: string }> {
      const jti = c.jti ?? randomUUID();
      const token = await new SignJWT({ username: c.username, clientId: c.clientId, roles: c.roles })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(c.sub)
        .setJti(jti)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + (c.lifetimeS ?? lifetimeS))
        .sign(key);
      return { token, jti };
    },
    async verify(token: string): Promise<TokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
        return { sub: payload.sub, jti: payload.jti, username: String(payload.username), clientId: (payload.clientId as number | null) ?? null, roles: (payload.roles as string[]) ?? [] };
      } catch {
        return null;
      }
    },
  };
}
export type Tokens = ReturnType<typeof createTokens>;
