// Authentication and authorisation, before every API route that is not open (§7), as one preValidation hook the
// server adds at its root (server/app.ts), so every route group's plugin inherits it. What it reads is cached per
// session and dropped as soon as grants, roles, divisions or sessions change (server/auth/requestCache.ts). It runs
// before Fastify validates the body and query (server/openapi): a caller without a session or privilege is told only that.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API, API_KEY_HEADER, GRANTS_HEADER, JWT_INVALID, TENANT_HEADER, grantsTag, hasPrivilege, heldPrivilegeIds, isNoTokenPath } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, fill } from '../http/kit';
import { authenticateApiKey, isApiKey } from './apiKeys';
import type { createRequestCache } from './requestCache';
import type { TokenClaims } from './tokens';

/** The path prefixes of the API: anything else (the console's files) is not guarded here. */
export const API_PREFIXES = ['/idp/', '/event/', '/central/', '/api/', '/MyKad/', '/report/', '/visitor/', '/batch/', '/video/', '/ws/'];

export interface GuardDeps {
  db: Db;
  cache: ReturnType<typeof createRequestCache>;
  /** The one session check (server/app.ts): a token signed here whose session is open, else null. */
  openSession: (token: string) => Promise<TokenClaims | null>;
}

export function authGuard({ db, cache, openSession }: GuardDeps) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = req.routeOptions.config;
    const path = req.url.split('?')[0];
    if (
      !req.routeOptions.url ||
      req.routeOptions.url === '/*' ||
      cfg.open ||
      isNoTokenPath(path) ||
      path === API.health ||
      !API_PREFIXES.some((p) => path.startsWith(p))
    )
      return;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
    const keyHeader = req.headers[API_KEY_HEADER];
    const apiKey = typeof keyHeader === 'string' ? keyHeader : isApiKey(token) ? token : null;
    if (apiKey !== null) {
      // issue 11: a service account's API key works in its own client only, with its role's privileges
      const k = await authenticateApiKey(db, cache, apiKey, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
      if (!k)
        throw new HttpError(401, fill('apiKey.required', 'A valid API key is required (it may be revoked, its account disabled or its session ended)', {}));
      const entries = await cache.entries(k.userId, k.clientId);
      req.principal = {
        userId: k.userId,
        username: k.username,
        clientId: k.clientId,
        jti: k.jti,
        entries,
        held: heldPrivilegeIds(entries),
        divisionIds: cache.divisionIds,
      };
      if (cfg.privileges && !hasPrivilege(req.principal.held, cfg.privileges, cfg.mode ?? 'ONLY_ONE')) {
        throw new HttpError(403, fill('privilege.missing', 'You do not have the privilege for this action', {}));
      }
      return;
    }
    const claims = token ? await openSession(token) : null;
    if (!claims) throw new HttpError(401, JWT_INVALID);
    const userId = Number(claims.sub);
    let clientId = claims.clientId;
    const tenant = req.headers[TENANT_HEADER];
    if (typeof tenant === 'string' && tenant !== '') {
      // IAM mode: the header selects the client, and it must be one the user holds grants in
      const wanted = Number(tenant);
      if (!Number.isInteger(wanted) || !(await cache.clientIds(userId)).includes(wanted))
        throw new HttpError(403, fill('client.noAccess', 'No access to that client', {}));
      clientId = wanted;
    }
    const entries = await cache.entries(userId, clientId);
    req.principal = { userId, username: claims.username, clientId, jti: claims.jti, entries, held: heldPrivilegeIds(entries), divisionIds: cache.divisionIds };
    reply.header(GRANTS_HEADER, grantsTag(entries)); // the console re-reads its grants when this moves (issue 11)
    if (cfg.privileges && !hasPrivilege(req.principal.held, cfg.privileges, cfg.mode ?? 'ONLY_ONE')) {
      throw new HttpError(403, fill('privilege.missing', 'You do not have the privilege for this action', {}));
    }
  };
}
