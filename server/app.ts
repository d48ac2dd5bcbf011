// The Gatehouse server: one Fastify instance that serves the REST API, the built console (history-mode
// fallback) and, attached in main.ts, the real-time endpoints. Every route is authenticated unless it is
// one of the spec's no-token paths, and declares the privileges it needs (§6).
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API, JWT_INVALID, TENANT_HEADER, hasPrivilege, heldPrivilegeIds, isNoTokenPath } from '../contract';
import { clientIdsOf, privilegeEntries } from './auth/access';
import { jwtSecret } from './auth/secret';
import { createTokens } from './auth/tokens';
import type { Db } from './db/db';
import { touchSession } from './db/queries/sessions';
import { startMaintenance } from './db/maintenance';
import { HttpError, errorBody } from './http/common';
import { authRoutes, type ResetNotice } from './http/auth';
import { crudRoutes } from './crud/plugin';
import { resourceHooks } from './resources';
import { auditRoutes } from './http/audit';
import { dashboardRoutes } from './http/dashboard';
import { divisionRoutes } from './http/divisions';
import { uiErrorRoutes } from './http/uiErrors';
import { alarmRoutes } from './http/alarms';
import { eventRoutes } from './http/events';
import { exportRoutes } from './http/export';
import { journalRoutes } from './http/journals';
import { sessionRoutes } from './http/sessions';
import { createPipeline, ensureAlarmTypes } from './monitor/pipeline';
import { attachRealtime } from './realtime';
import { createHardwareSimulator } from './simulator/hardware';
import { registerMyKadRoutes, type CardReaderSource } from './simulator/mykadRoutes';

export interface ServerOptions {
  db: Db;
  /** Signing key of session tokens; by default generated once and kept in the database. */
  jwtSecret?: string;
  jwtLifetimeS?: number;
  lockout?: { attempts: number; minutes: number };
  staticDir?: string | null;
  logger?: boolean;
  /** Keep reset tokens in memory (app.resetTokens) instead of printing them (tests read them; there is no mail). */
  keepResetTokens?: boolean;
  /** Where password-reset links go (there is no mail): by default the server log, or stdout without a logger. */
  onPasswordReset?: (n: ResetNotice) => void;
  /** The card-reader service behind /MyKad/* (§7): given when a card-connector simulator runs in-process. */
  cardReader?: CardReaderSource | null;
  /** The hardware simulator's random events and heart-beats (off when absent; door commands always work). */
  simulator?: { rate: number; heartbeatMs?: number } | false;
  /** Register the test-only hooks (POST /api/test/simulate): tests and E2E=1 only. */
  testHooks?: boolean;
  /** STOMP heart-beat offered by the real-time endpoints (default 10 s). */
  realtimeHeartbeatMs?: number;
}

const API_PREFIXES = ['/idp/', '/event/', '/central/', '/api/', '/MyKad/', '/report/', '/visitor/', '/batch/', '/video/', '/ws/'];

export async function buildServer(opts: ServerOptions) {
  const app = Fastify({ logger: opts.logger ? { level: 'info' } : false, bodyLimit: 2 * 1024 * 1024, trustProxy: true });
  const { db } = opts;
  const tokens = createTokens(await jwtSecret(db, opts.jwtSecret), opts.jwtLifetimeS ?? 8 * 3600);
  if (opts.keepResetTokens) app.decorate('resetTokens', []);
  const onPasswordReset = opts.onPasswordReset ?? ((n: ResetNotice) => {
    if (opts.keepResetTokens) app.resetTokens!.push({ username: n.username, token: n.token });
    else if (opts.logger) app.log.info({ outbox: 'password-reset', username: n.username, link: n.link }, 'password reset link');
    else console.log(`[outbox] password reset for ${n.username}: ${n.link}`);
  });

  // real-time endpoints on the same port (§7): a STOMP CONNECT carries the same JWT as REST, and its session must
  // still be open; messages are grouped by the token's client
  const realtime = attachRealtime(app.server, {
    heartbeatMs: opts.realtimeHeartbeatMs,
    verifyToken: async (token) => {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const { rows } = await db.query<{ ended_at: string | null }>('select ended_at from sessions where jti = $1', [claims.jti]);
      if (!rows[0] || rows[0].ended_at) return null;
      // what the user holds in the token's client decides which destinations it may subscribe to
      const privileges = heldPrivilegeIds(await privilegeEntries(db, Number(claims.sub), claims.clientId));
      return { userId: Number(claims.sub), username: claims.username, clientId: claims.clientId, privileges, sessionId: claims.jti };
    },
    log: (m) => app.log.warn(m),
  });
  const publish = (clientId: number, destination: string, body: unknown) => realtime.publish(clientId, destination, body);
  await ensureAlarmTypes(db);
  const pipeline = createPipeline(db, publish);
  const simulator = createHardwareSimulator({
    db, pipeline, publish, rate: opts.simulator ? opts.simulator.rate : 0, heartbeatMs: opts.simulator ? opts.simulator.heartbeatMs : 0,
    log: (m) => app.log.warn(m),
  });
  app.addHook('onListen', async () => { if (opts.simulator) simulator.start(); });
  // the embedded database has no autovacuum: the server does it now and then (nothing on PostgreSQL)
  const stopMaintenance = startMaintenance(db, (m) => app.log.warn(m));
  app.addHook('preClose', async () => {
    stopMaintenance();
    simulator.stop();
    await realtime.close();
  });

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
    const path = req.url.split('?')[0];
    if (!req.routeOptions.url || req.routeOptions.url === '/*' || cfg.open || isNoTokenPath(path) || path === API.health || !API_PREFIXES.some((p) => path.startsWith(p))) return;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
    const claims = token ? await tokens.verify(token) : null;
    if (!claims) throw new HttpError(401, JWT_INVALID);
    // a signed-out (or replaced) session's token is dead even before it expires
    if (!(await touchSession(db, claims.jti))) throw new HttpError(401, JWT_INVALID);
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
  authRoutes(app, { db, tokens, lockout: opts.lockout ?? { attempts: 5, minutes: 15 }, onPasswordReset });
  // every catalogue resource (contract/resources): clients, identities, visitors, …
  crudRoutes(app, { db, publish, hooks: resourceHooks(publish) });
  divisionRoutes(app, { db });
  dashboardRoutes(app, { db });
  auditRoutes(app, { db });
  uiErrorRoutes(app, { db });
  alarmRoutes(app, { db, pipeline });
  eventRoutes(app, { db, simulator, testHooks: opts.testHooks ?? false });
  exportRoutes(app, { db });
  journalRoutes(app, { db });
  // an ended session's token stops working at once, and its open real-time connections are dropped too
  sessionRoutes(app, { db, tokenLifetimeS: opts.jwtLifetimeS ?? 8 * 3600, disconnect: (jtis) => realtime.disconnectSessions(jtis) });
  if (opts.cardReader) registerMyKadRoutes(app, opts.cardReader);

  const staticDir = opts.staticDir === null ? null : resolve(opts.staticDir ?? 'dist');
  const built = staticDir !== null && existsSync(join(staticDir, 'index.html'));
  const isApi = (url: string) => API_PREFIXES.some((p) => url.startsWith(p));
  if (built) {
    await app.register(fastifyStatic, { root: staticDir, wildcard: false, index: false });
    app.get('/*', (req, reply) => {
      const path = req.url.split('?')[0];
      // console routes share prefixes with services (/report/activity): a page load gets the console
      const wantsPage = String(req.headers.accept ?? '').includes('text/html');
      if (isApi(path) && !wantsPage) return reply.code(404).send(errorBody(404, 'Not Found'));
      let rel: string;
      try { rel = decodeURIComponent(path).replace(/^\/+/, ''); } catch { rel = ''; }
      const file = join(staticDir, rel);
      if (rel && file.startsWith(staticDir + '/') && existsSync(file) && statSync(file).isFile()) return reply.sendFile(rel);
      // history-mode routes: the console decides (its own 404 page for unknown paths)
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (isApi(req.url) || built || req.method !== 'GET') return reply.code(404).send(errorBody(404, 'Not Found'));
    return reply.code(404).type('text/plain').send('The console is not built: run `npm run build` (npm start does it), then reload.');
  });
  return Object.assign(app, { tokens, realtime, pipeline, simulator });
}
