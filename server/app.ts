// The Gatehouse server: one Fastify instance that serves the REST API, the built console (history-mode
// fallback) and, attached in main.ts, the real-time endpoints. Every route is authenticated unless it is
// one of the spec's no-token paths, and declares the privileges it needs (§6).
import { closeDeadline } from './http/closeDeadline';
import { refuseOtherUpgrades } from './http/upgrades';
import Fastify, { LogController, type FastifyContextConfig, type FastifyInstance } from 'fastify';
import rateLimitPlugin from '@fastify/rate-limit';
import { heldPrivilegeIds } from '../contract';
import { jwtSecret } from './auth/secret';
import { createTokens } from './auth/tokens';
import { authenticateApiKey, isApiKey } from './auth/apiKeys';
import { accountScopeHook } from './auth/accountScope';
import { API_PREFIXES, authGuard } from './auth/guard';
import { badQuery, errorHandler, frameworkErrors } from './http/errors';
import { healthRoutes } from './http/health';
import { auditHeadSigning } from './audit/routes';
import { refusedWrites, type Db } from './db/db';
import { createRequestCache } from './auth/requestCache';
import { startMaintenance } from './db/maintenance';
import { startRetention } from './resources/settings';
import { reportJobRoutes, startReportJobs } from './reports';
import { startAutoBackups } from './backup/backups';
import { backupRoutes, type BackupOptions } from './backup/routes';
import { fill, noteBodyRoute, parseJsonBody } from './http/kit';
import { DEFAULT_RATE_LIMIT, authRoutes, type RateLimit, type ResetNotice } from './http/auth';
import { crudRoutes } from './crud/plugin';
import { resourceHooks } from './resources';
import { licenseRoutes } from './resources/licenses';
import { visitorCredentialBatchRoutes } from './resources/visitorCredentials';
import { batchRoutes } from './batch/routes';
import { accessAdminRoutes } from './resources/accessAdmin';
import { auditRoutes } from './http/audit';
import { attendanceRoutes } from './http/attendance';
import { dashboardRoutes } from './http/dashboard';
import { divisionRoutes } from './http/divisions';
import { diagnosticRoutes } from './http/diagnostics';
import { interfaceDiscoveryRoutes } from './resources/interfaces';
import { uiErrorRoutes } from './http/uiErrors';
import { attachAlarms } from './alarms';
import { alarmHandlingRoutes } from './http/alarmHandling';
import { handoverRoutes } from './http/handover';
import { eventRoutes } from './http/events';
import { exportRoutes } from './http/export';
import { journalRoutes } from './http/journals';
import { sessionRoutes } from './http/sessions';
import { ingestRoutes } from './http/ingest';
import { createWebhookWorker, type WebhookWorkerOptions } from './webhooks/worker';
import { webHookRoutes } from './webhooks/routes';
import { SUBRESOURCE_HEADERS, webDelivery } from './http/static';
import { createPipeline, ensureAlarmTypes, type Publish } from './monitor/pipeline';
import { attachRealtime } from './realtime';
import { createHardwareSimulator } from './simulator/hardware';
import { createOverrideClock } from './access/overrides';
import { ACCESS_RESOURCES, QR_PERIOD_S } from './access/index';
import { createQrPublisher } from './access/qrPublisher';
import { sessionDivisions } from './auth/eventScope';
import { threatRoutes } from './access/threat';
import { createAlarmNotices } from './monitor/alarmNotices';
import { createLogicBlocks } from './logic/blocks';
import { createUnlockScheduleClock } from './access/unlockSchedules';
import { changeNotices } from './changes';
import { openApi } from './openapi';
import { accessRoutes } from './access/routes';
import { floorPlanHistoryRoutes } from './http/floorPlanHistory';
import { registerMyKadRoutes, type CardReaderSource } from './simulator/mykadRoutes';
import { attachEdge } from './edge';

export interface ServerOptions {
  db: Db;
  /** Signing key of session tokens; by default generated once and kept in the database. */
  jwtSecret?: string;
  jwtLifetimeS?: number;
  lockout?: { attempts: number; minutes: number };
  /** false: Fastify does not validate with the routes' declared structs, only the handlers do (server/openapi's test). */
  schemaValidation?: boolean;
  /** Per-address limit of sign-in, password reset, registration and change-password (default 20 a minute); false: none. */
  rateLimit?: RateLimit | false;
  staticDir?: string | null;
  /** Fastify's logger (info): server errors, start-up and faults. Off only when false; a stream captures it (tests). */
  logger?: boolean | { stream: { write(line: string): void } };
  /** Log every request too (LOG=1). */
  logRequests?: boolean;
  /** The embedded database's directory: /api/health reports whether it can still be written and has room. */
  dataDir?: string | null;
  /** AUDIT_WITNESS_DIR: where each signed audit head is also written, apart from the database (server/audit/witness.ts) */
  auditWitnessDir?: string | null;
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
  /** The web hook worker (server/webhooks): on by default; false: deliveries wait in the outbox. */
  webhooks?: WebhookWorkerOptions | false;
  /** Web hooks may call this machine and the site network (WEBHOOK_PRIVATE_TARGETS=allow; off by default). */
  allowPrivateWebhookTargets?: boolean;
  /** STOMP heart-beat offered by the real-time endpoints (default 10 s). */
  realtimeHeartbeatMs?: number;
  /** Events waiting to be written before the device interface answers 503 (INGEST_BACKLOG_MAX by default). */
  ingestBacklogMax?: number;
  /** Awaited before each event transaction (tests hold the writer with it). */
  beforeIngestWrite?: () => Promise<void>;
  /**
   * Which proxies' X-Forwarded-For to believe (TRUST_PROXY): none by default, so a client cannot pick its own
   * address for the per-address limits; true, a hop count, or the proxies' addresses/CIDRs (Fastify's trustProxy).
   */
  trustProxy?: boolean | number | string;
  /** How many matching rows a catalogue list counts before its total becomes a lower bound (LIST_COUNT_CAP; tests lower it). */
  listCountCap?: number;
  /** How many matches a q search counts first (SEARCH_COUNT_CAP) and the rows it walks per row asked (SEARCH_WINDOW_PER_ROW); tests lower them. */
  searchCountCap?: number;
  searchWindowPerRow?: number;
  /** Backup and restore (server/backup): where backups are kept and how the process restarts with one; none: 409. */
  backups?: BackupOptions | null;
  /** How long /api/health waits for its write before it answers 503 anyway (default 5 s; tests lower it). */
  healthTimeoutMs?: number;
  /** How long a stopping server waits for requests and connections still open before it closes them (server/http/closeDeadline.ts). */
  closeGraceMs?: number;
}

/** A hop count believes that many proxies nearest the server (Fastify's types take it as a function). */
const trustProxyOption = (t: boolean | number | string | undefined) => (typeof t === 'number' ? (_address: string, hop: number) => hop < t : (t ?? false));

/** TRUST_PROXY as Fastify's trustProxy: '' or 'false' → false, 'true' → true, '2' → 2 hops, else a list of addresses. */
export function trustProxyOf(value: string | undefined): boolean | number | string {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  return v;
}

export async function buildServer(opts: ServerOptions) {
  const logger =
    opts.logger === false || opts.logger === undefined ? false : opts.logger === true ? { level: 'info' } : { level: 'info', stream: opts.logger.stream };
  const app = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: !opts.logRequests }),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: trustProxyOption(opts.trustProxy),
    // an address that does not decode, or a path part too long: said as every refusal (server/http/errors.ts)
    frameworkErrors,
  });
  app.addHook('onRequest', badQuery); // a query parameter that does not decode: 400 naming it (server/http/errors.ts)
  closeDeadline(app, opts.closeGraceMs ?? 10_000, (m) => (logger ? app.log.warn(m) : console.warn(m)));
  // issue 13: depth bounded before parsing, prototype keys named, and a message that says what is wrong
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    try {
      const value = parseJsonBody(text as string);
      noteBodyRoute(value, `${req.method} ${req.routeOptions.url}`);
      done(null, value);
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  // every route, as registered: the hostile-input test walks them all
  // (with the route group, the plugin that declared it: server/app.plugins.test.ts)
  const routes: Array<{ method: string; url: string; config?: FastifyContextConfig; group: string }> = [];
  app.addHook('onRoute', function (r) {
    for (const m of [r.method].flat()) routes.push({ method: String(m), url: r.url, config: r.config as FastifyContextConfig, group: this.pluginName });
  });
  // the API description (/api/openapi.json): every route registered after this gets its schema, and Fastify validates with it
  await openApi(app, { validation: opts.schemaValidation !== false });
  await webDelivery(app, { staticDir: opts.staticDir === null ? null : (opts.staticDir ?? 'dist'), apiPrefixes: API_PREFIXES }); // before any other route
  const { db } = opts;
  const tokens = createTokens(await jwtSecret(db, opts.jwtSecret), opts.jwtLifetimeS ?? 8 * 3600);
  if (opts.keepResetTokens) app.decorate('resetTokens', []);
  const onPasswordReset =
    opts.onPasswordReset ??
    ((n: ResetNotice) => {
      if (opts.keepResetTokens) app.resetTokens!.push({ username: n.username, token: n.token });
      else if (opts.logger) app.log.info({ outbox: 'password-reset', username: n.username, link: n.link }, 'password reset link');
      else console.log(`[outbox] password reset for ${n.username}: ${n.link}`);
    });

  // real-time endpoints on the same port (§7): a STOMP CONNECT carries the same JWT as REST, and its session must
  // still be open; messages are grouped by the token's client
  // what the request path and STOMP CONNECT read of sessions and grants, cached (server/auth/requestCache.ts)
  const cache = createRequestCache(db);
  /**
   * The one session check of REST, downloads and STOMP CONNECT (issue 45): a token signed by this server, with exp,
   * within the longest lifetime, whose session is open and belongs to its subject. A signed-out, replaced or ended
   * session's token (a credential change ends the others: migration 131) is dead even before it expires.
   */
  const openSession = async (token: string) => {
    const claims = await tokens.verify(token);
    return claims && (await cache.sessionOpen(claims.jti, Number(claims.sub))) ? claims : null;
  };
  const realtime = attachRealtime(app.server, {
    heartbeatMs: opts.realtimeHeartbeatMs,
    securityHeaders: SUBRESOURCE_HEADERS,
    verifyToken: async (token) => {
      if (isApiKey(token)) {
        // issue 11: a service account's key, with its role in its client, in the key's session
        const k = await authenticateApiKey(db, null, token, { ip: '', userAgent: 'STOMP connection' });
        if (!k) return null;
        return {
          userId: k.userId,
          username: k.username,
          clientId: k.clientId,
          privileges: heldPrivilegeIds(await cache.entries(k.userId, k.clientId)),
          sessionId: k.jti,
        };
      }
      // a reconnecting console (50 of them after a restart) reads its session and grants from the cache (issue 13)
      const claims = await openSession(token);
      if (!claims) return null;
      // what the user holds in the token's client decides which destinations it may subscribe to
      const entries = await cache.entries(Number(claims.sub), claims.clientId);
      const privileges = heldPrivilegeIds(entries);
      // per destination, the divisions whose messages the user may hear (issue 10): where they hold its codes
      const divisionsOf = await sessionDivisions(cache.divisionIds, claims.clientId, entries);
      return { userId: Number(claims.sub), username: claims.username, clientId: claims.clientId, privileges, sessionId: claims.jti, divisionsOf };
    },
    log: (m) => app.log.warn(m),
  });
  const publish: Publish = (clientId, destination, body, to) => realtime.publish(clientId, destination, body, to);
  await ensureAlarmTypes(db);
  const pipeline = createPipeline(db, publish, { backlogMax: opts.ingestBacklogMax, beforeWrite: opts.beforeIngestWrite });
  const simulator = createHardwareSimulator({
    db,
    pipeline,
    publish,
    rate: opts.simulator ? opts.simulator.rate : 0,
    heartbeatMs: opts.simulator ? opts.simulator.heartbeatMs : 0,
    log: (m) => app.log.warn(m),
  });
  const edge = attachEdge(app, { db, hardware: simulator, pipeline, publish }); // Gatehouse Edge (issue 47): controllers connect out to this port
  // after both: an upgrade neither takes is answered 404 at once
  refuseOtherUpgrades(app.server);
  // logical blocks: "when this happens then do that", on every durable event
  const logic = createLogicBlocks(db, pipeline, simulator, { log: (m) => app.log.warn(m) });
  // doors unlocked on a schedule (and first-person-in)
  const unlockSchedules = createUnlockScheduleClock(db, pipeline, simulator, { log: (m) => app.log.warn(m) });
  // overrides move the locks at their start and end (the engine decides swipes by them on its own)
  const overrides = createOverrideClock(db, simulator, { log: (m) => app.log.warn(m) });
  // alarm notifications told to operator groups' consoles
  const alarmNotices = createAlarmNotices(db, pipeline, (clientId, destination, body, users) => realtime.publish(clientId, destination, body, { users }), {
    log: (m) => app.log.warn(m),
  });
  // `/dynamic-qr`: every QR door announced at the start of each QR period
  const qr = createQrPublisher(db, publish, { periodS: QR_PERIOD_S, log: (m) => app.log.warn(m) });
  const webhooks =
    opts.webhooks === false
      ? null
      : createWebhookWorker(db, { ...opts.webhooks, allowPrivateTargets: !!opts.allowPrivateWebhookTargets, log: (m) => app.log.warn(m) });
  app.addHook('onListen', async () => {
    // every tenant's access index is built once at start; after that only on change
    await simulator.access.loadAll().catch((e) => app.log.warn(`access index: ${e}`));
    if (opts.simulator) simulator.start();
    overrides.start();
    unlockSchedules.start();
    qr.start();
    webhooks?.start();
  });
  // the embedded database has no autovacuum: the server does it now and then (nothing on PostgreSQL)
  const stopMaintenance = startMaintenance(db, (m) => app.log.warn(m));
  // records past their client's retention (central properties) are deleted each hour
  const stopRetention = startRetention(db, (m) => app.log.info(m));
  // scheduled report jobs: the due ones are made each minute
  const stopReportJobs = startReportJobs(db, (m) => app.log.warn(m));
  // automatic backups of the embedded database, when the auto-backup settings say so
  const stopAutoBackups = opts.backups?.dir ? startAutoBackups(db, opts.backups.dir, (m) => app.log.info(m)) : () => {};
  app.addHook('preClose', async () => {
    stopMaintenance();
    stopRetention();
    stopReportJobs();
    stopAutoBackups();
    overrides.stop();
    unlockSchedules.stop();
    qr.stop();
    logic.stop();
    alarmNotices.stop();
    simulator.stop();
    await webhooks?.stop();
    await realtime.close();
  });

  app.setErrorHandler(errorHandler(db)); // server/http/errors.ts

  // authentication and authorisation (server/auth/guard.ts), before Fastify validates the body and query
  app.addHook('preValidation', authGuard({ db, cache, openSession }));

  // issue 27: a route that touches an account or the whole installation checks who may, after authentication
  app.addHook('preValidation', accountScopeHook(db));

  // issue 27: the embedded database's disk filling and freeing again, said once each in the log
  const unwatchStorage = db.storage?.onChange((s) => {
    if (s.full)
      app.log.error({ freeBytes: s.freeBytes, dataDir: opts.dataDir ?? undefined }, `${refusedWrites(s)}: ${s.problem}; writes answer 503, reads go on`);
    else app.log.info({ freeBytes: s.freeBytes }, "The server's disk has room again: changes are saved again");
  });
  app.addHook('onClose', async () => {
    unwatchStorage?.();
  });

  const rateLimit = opts.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (rateLimit)
    await app.register(rateLimitPlugin, {
      global: false,
      keyGenerator: (req) => req.ip,
      // in words a person at the sign-in form reads (the plugin's own: "Rate limit exceeded, retry in 9 seconds")
      // issue 48: with its key (server/http/errors.ts answers `said`), the wait in seconds
      errorResponseBuilder: (_req, ctx) => {
        const said = fill('signIn.tooManyAttempts', 'Too many attempts from this computer: try again in {seconds} seconds', {
          seconds: Math.max(1, Math.ceil(ctx.ttl / 1000)),
        });
        return Object.assign(new Error(said.message), { statusCode: 429, said });
      },
    });
  // Every route group is a Fastify plugin of its own (issue 48): registered here, loaded in its own encapsulated context
  // when the server gets ready, with the root's hooks above (authentication, account scope, schemas, error answers);
  // what a group adds (its hooks, decorations) stays in it.
  const register = <O extends object>(routes: (app: FastifyInstance, opts: O) => unknown, routeOpts: O) => {
    void app.register(routes as (app: FastifyInstance, opts: O) => void, routeOpts);
  };
  // the audit heads are signed by the server (server/audit/routes.ts), its routes are a group of their own below
  const auditHeads = auditHeadSigning(app, { db, witnessDir: opts.auditWitnessDir ?? null });
  register(healthRoutes, { db, dataDir: opts.dataDir, timeoutMs: opts.healthTimeoutMs ?? 5000 });
  register(authRoutes, {
    db,
    tokens,
    lockout: opts.lockout ?? { attempts: 5, minutes: 15 },
    onPasswordReset,
    rateLimit,
    tokenLifetimeS: opts.jwtLifetimeS ?? 8 * 3600,
    openSession,
  });
  // every catalogue resource (contract/resources): clients, identities, visitors, …; who hears their changes (server/changes.ts)
  const publishChange = edge.hearing(
    changeNotices(publish, [
      { resources: ACCESS_RESOURCES, hear: (c, change) => simulator.access.changed(c, change) }, // the tenant's access index is rebuilt (issue 12)
      { resources: ['logicalBlocks'], hear: (c) => logic.changed(c) },
      { resources: ['doors', 'controllers', 'inputs', 'outputs', 'cardReaders'], hear: (c) => pipeline.scopesChanged(c) },
      { resources: ['alarmNotifications', 'operatorGroups', 'operators'], hear: (c) => alarmNotices.changed(c) },
      { resources: ['doors'], hear: () => unlockSchedules.doorsChanged() },
    ]),
  );
  register(crudRoutes, {
    db,
    publish: publishChange,
    countCap: opts.listCountCap,
    searchCountCap: opts.searchCountCap,
    searchWindowPerRow: opts.searchWindowPerRow,
    hooks: resourceHooks(publish, {
      allowPrivateWebhookTargets: !!opts.allowPrivateWebhookTargets,
      pulse: simulator.pulseOutput,
      log: (m) => app.log.warn(m),
      disconnect: (jtis) => {
        realtime.disconnectSessions(jtis);
      },
    }),
  });
  register(accessRoutes, { simulator, db });
  register(threatRoutes, { db, simulator, publish }); // and its clock: a level set for a time reverts by itself
  register(licenseRoutes, { db });
  register(visitorCredentialBatchRoutes, { db, publish: publishChange });
  register(batchRoutes, { db, publish: publishChange });
  register(accessAdminRoutes, {
    db,
    defaults: { lockout: opts.lockout ?? { attempts: 5, minutes: 15 }, sessionLifetimeS: opts.jwtLifetimeS ?? 8 * 3600 },
    disconnect: (jtis) => realtime.disconnectSessions(jtis),
  });
  for (const routes of [divisionRoutes, diagnosticRoutes, interfaceDiscoveryRoutes, dashboardRoutes, floorPlanHistoryRoutes]) register(routes, { db });
  register(attendanceRoutes, { db, publish: publishChange });
  register(reportJobRoutes, { db });
  register(backupRoutes, { db, backups: opts.backups ?? null });
  register(auditRoutes, { db, heads: auditHeads });
  register(uiErrorRoutes, { db });
  attachAlarms(app, { db, pipeline, publish }); // commands, escalation, forwarding, shelving (issue 50)
  register(alarmHandlingRoutes, { db });
  register(handoverRoutes, { db });
  register(eventRoutes, { db, simulator, testHooks: opts.testHooks ?? false, qr, countCap: opts.listCountCap });
  register(exportRoutes, { db });
  register(journalRoutes, { db });
  // an ended session's token stops working at once, and its open real-time connections are dropped too
  register(sessionRoutes, { db, tokenLifetimeS: opts.jwtLifetimeS ?? 8 * 3600, disconnect: (jtis) => realtime.disconnectSessions(jtis) });
  register(ingestRoutes, { db, pipeline, edge: edge.ingest });
  register(webHookRoutes, { db });
  if (opts.cardReader) register(registerMyKadRoutes, { source: opts.cardReader });

  return Object.assign(app as FastifyInstance, {
    tokens,
    realtime,
    pipeline,
    simulator,
    routes,
    requestCache: cache,
    webhooks,
    overrides,
    logic,
    unlockSchedules,
  });
}
