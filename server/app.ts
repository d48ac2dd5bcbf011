// The Gatehouse server: one Fastify instance that serves the REST API, the built console (history-mode
// fallback) and, attached in main.ts, the real-time endpoints. Every route is authenticated unless it is
// one of the spec's no-token paths, and declares the privileges it needs (§6).
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API, JWT_INVALID, TENANT_HEADER, hasPrivilege, heldPrivilegeIds } from '../contract';
import { clientIdsOf, privilegeEntries } from './auth/access';
import { createTokens } from './auth/tokens';
import type { Db } from './db/db';
import { HttpError, errorBody } from './http/common';
import { authRoutes } from './http/auth';
import { clientRoutes } from './http/clients';
import { identityRoutes } from './http/identities';
import { miscRoutes } from './http/misc';

export interface ServerOptions {
  db: Db;
  jwtSecret: string;
  jwtLifetimeS?: number;
  lockout?: { attempts: number; minutes: number };
  staticDir?: string | null;
  logger?: boolean;
  /** Keep reset tokens in memory too (tests read them; there is no mail). */
  keepResetTokens?: boolean;
}

const API_PREFIXES = ['/idp/', '/event/', '/central/', '/api/', '/MyKad/', '/report/', '/visitor/', '/batch/', '/video/', '/ws/'];

export async function buildServer(opts: ServerOptions) {
  const app = Fastify({ logger: opts.logger ? { level: 'info' } : false, bodyLimit: 2 * 1024 * 1024, trustProxy: true });
  const tokens = createTokens(opts.jwtSecret, opts.jwtLifetimeS ?? 8 * 3600);
  if (opts.keepResetTokens) app.decorate('resetTokens', []);
  const { db } = opts;

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof HttpError) return reply.code(err.status).send(errorBody(err.status, err.message, err.violations));
    const e = err as { statusCode?: number; validation?: unknown; message: string; code?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      // fastify's own: malformed JSON, body too large, wrong content type
      return reply.code(e.statusCode).send(errorBody(e.statusCode, e.message, [{ field: '(body)', message: e.message }]));
    }
    req.log.error(err);
    return reply.code(500).send(errorBody(500, 'Internal Server Error'));
  });

  // authentication and authorisation, before every API route that is not open (§7)
  app.addHook('preHandler', async (req) => {
    const cfg = req.routeOptions.config;
    if (!req.routeOptions.url || cfg.open || !API_PREFIXES.some((p) => req.url.startsWith(p)) || req.url.startsWith(API.health)) return;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
    const claims = token ? await tokens.verify(token) : null;
    if (!claims) throw new HttpError(401, JWT_INVALID);
    const session = await db.query<{ ended_at: string | null }>('select ended_at from sessions where jti = $1', [claims.jti]);
    if (!session.rows[0] || session.rows[0].ended_at) throw new HttpError(401, JWT_INVALID);
    const userId = Number(claims.sub);
    let clientId = claims.clientId;
    const tenant = req.headers[TENANT_HEADER];
    if (typeof tenant === 'string' && tenant !== '') {
      // IAM mode: the header selects the client, and it must be one the user holds grants in
      const wanted = Number(tenant);
      if (!Number.isInteger(wanted) || !(await clientIdsOf(db, userId)).includes(wanted)) throw new HttpError(403, 'No access to that client');
      clientId = wanted;
    }
    const entries = await privilegeEntries(db, userId, clientId);
    req.principal = { userId, username: claims.username, clientId, jti: claims.jti, entries, held: heldPrivilegeIds(entries) };
    if (cfg.privileges && !hasPrivilege(req.principal.held, cfg.privileges, cfg.mode ?? 'ONLY_ONE')) {
      throw new HttpError(403, 'You do not have the privilege for this action');
    }
  });

  app.get(API.health, async () => ({ status: 'ok', database: db.kind }));
  authRoutes(app, { db, tokens, lockout: opts.lockout ?? { attempts: 5, minutes: 15 } });
  clientRoutes(app, { db });
  identityRoutes(app, { db });
  miscRoutes(app, { db });

  const staticDir = opts.staticDir === null ? null : resolve(opts.staticDir ?? 'dist');
  if (staticDir && existsSync(join(staticDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: staticDir, wildcard: false, index: false });
    app.get('/*', (req, reply) => {
      const path = req.url.split('?')[0];
      if (API_PREFIXES.some((p) => path.startsWith(p))) return reply.code(404).send(errorBody(404, 'Not Found'));
      const file = join(staticDir, path);
      if (path !== '/' && file.startsWith(staticDir) && existsSync(file) && !path.endsWith('/')) return reply.sendFile(path.slice(1));
      // history-mode routes: the console decides (its own 404 page for unknown paths)
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  } else {
    app.setNotFoundHandler((req, reply) => {
      if (API_PREFIXES.some((p) => req.url.startsWith(p))) return reply.code(404).send(errorBody(404, 'Not Found'));
      return reply.code(404).type('text/plain').send('The console is not built: run `npm run build` (npm start does it).');
    });
  }
  return Object.assign(app, { tokens });
}
