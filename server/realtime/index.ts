// The real-time endpoints (§7): one SockJS server per service prefix on the HTTP server's port, a STOMP 1.2
// session per connection, and per-tenant fan-out. `publish(clientId, destination, body)` reaches only that
// tenant's subscribers of `destination`; with a relay URL it goes through the external broker first.
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import sockjs from 'sockjs';
import { coalescing } from './coalesce';
import { claimUpgrades } from '../http/upgrades';
import { REALTIME_SERVICES, SOCKJS_PREFIX, serviceOfDestination, type RealtimeService } from '../../contract';
import { createRelay, type Relay } from './relay';
import { StompSession, tenantKey, type Hub, type RealtimeUser, type VerifyToken } from './session';

export type { RealtimeUser, VerifyToken } from './session';

export interface RealtimeOptions {
  /** The JWT check of the HTTP server: the user, or null to reject the CONNECT. */
  verifyToken: VerifyToken;
  /** headers set on every SockJS answer (the security headers of the rest of the server) */
  securityHeaders?: Readonly<Record<string, string>>;
  /** Largest frame accepted from a client, head and body (default 64 KiB). */
  maxFrameBytes?: number;
  /** Largest body accepted from a client (default 16 KiB). */
  maxBodyBytes?: number;
  /** Heart-beat the server offers and expects, both ways (default 10 s; 0 = none). */
  heartbeatMs?: number;
  /** A connection that sends no CONNECT within this many ms is closed (default 10 s). */
  connectTimeoutMs?: number;
  /** External STOMP broker (defaults to process.env.STOMP_RELAY_URL); unset = in-process broker. */
  relayUrl?: string;
  log?: (message: string) => void;
}

export interface RealtimeStats {
  connections: number;
  sessions: number;
  subscriptions: number;
  published: number;
  delivered: number;
  heartbeatsIn: number;
  heartbeatsOut: number;
  errors: number;
  dropped: number;
}

/** Open alarms per division (and of none), for per-session counts. */
export interface DivisionCounts {
  byDivision: Record<number, number>;
  none: number;
}

export interface Realtime {
  /** Deliver `body` (JSON) to `clientId`'s subscribers of `destination`; never to another tenant. With `users`, only
   *  to the sessions of those users (a notice addressed to people), and still only if they may subscribe. */
  publish(
    clientId: string | number | null,
    destination: string,
    body: unknown,
    to?: { users?: readonly number[]; division?: number | null; counts?: DivisionCounts },
  ): void;
  /** Close every session (and the relay). The HTTP server itself is the caller's to close. */
  close(): Promise<void>;
  /** Close the connections of these sign-in sessions (ended by an operator or signed out); returns how many. */
  disconnectSessions(sessionIds: readonly string[]): number;
  readonly stats: RealtimeStats;
  /** Whether the relay is in use, and connected. */
  readonly relay: { enabled: boolean; connected: boolean };
}

export const DEFAULT_LIMITS = { maxFrameBytes: 64 * 1024, maxBodyBytes: 16 * 1024, maxHeaders: 64, heartbeatMs: 10_000, connectTimeoutMs: 10_000 };

/**
 * Install the endpoints. Call it once the HTTP server exists (for Fastify: `attachRealtime(app.server, …)`
 * right after `fastify()`), before it listens; SockJS answers its prefixes and passes other requests on.
 */
export function attachRealtime(httpServer: HttpServer, options: RealtimeOptions): Realtime {
  const limits = {
    maxFrameBytes: options.maxFrameBytes ?? DEFAULT_LIMITS.maxFrameBytes,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes,
    maxHeaders: DEFAULT_LIMITS.maxHeaders,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_LIMITS.heartbeatMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_LIMITS.connectTimeoutMs,
  };
  const log = options.log ?? (() => {});
  const stats: Omit<RealtimeStats, 'sessions' | 'subscriptions'> = {
    connections: 0,
    published: 0,
    delivered: 0,
    heartbeatsIn: 0,
    heartbeatsOut: 0,
    errors: 0,
    dropped: 0,
  };
  /** tenant → connected sessions */
  const tenants = new Map<string, Set<StompSession>>();
  const open = new Set<{ session: StompSession; conn: { close(): void } }>();
  let closing = false;

  function deliverLocal(tenant: string, destination: string, json: string, users?: readonly number[], division?: number | null, counts?: DivisionCounts): void {
    const sessions = tenants.get(tenant);
    if (!sessions) return;
    const only = users ? new Set(users) : null;
    const bytes = Buffer.byteLength(json, 'utf8'); // once for every session that hears it
    for (const s of sessions) {
      if (only && !(s.user && only.has(Number(s.user.userId)))) continue;
      const allowed = s.user?.divisionsOf?.(destination) ?? null;
      // a message of one division reaches the sessions that may see it (no set: the whole client)
      if (division !== undefined && division !== null && allowed && !allowed.has(division)) continue;
      // a count per division: a session of some divisions hears the count of those (and of none)
      if (counts && allowed) {
        let n = counts.none;
        for (const d of allowed) n += counts.byDivision[d] ?? 0;
        s.deliver(destination, JSON.stringify({ count: n }));
        continue;
      }
      s.deliver(destination, json, bytes);
    }
  }

  const relayUrl = options.relayUrl ?? process.env.STOMP_RELAY_URL;
  const relay: Relay | null = relayUrl
    ? createRelay(
        relayUrl,
        (m) => deliverLocal(m.tenant, m.destination, m.json, m.users, m.division, m.counts),
        log,
        // a process with no session of a tenant leaves that tenant's messages undecoded (scale-out: issue 30)
        (tenant) => tenants.has(tenant),
      )
    : null;

  function route(tenant: string, destination: string, body: unknown, users?: readonly number[], division?: number | null, counts?: DivisionCounts): void {
    const json = JSON.stringify(body);
    stats.published++;
    if (relay)
      relay.publish({
        tenant,
        destination,
        json,
        ...(users ? { users } : {}),
        ...(division !== undefined && division !== null ? { division } : {}),
        ...(counts ? { counts } : {}),
      });
    else deliverLocal(tenant, destination, json, users, division, counts);
  }

  const hub: Hub = {
    verifyToken: options.verifyToken,
    limits,
    clientSend: (user: RealtimeUser, destination, body) => route(tenantKey(user.clientId), destination, body),
    joined(session) {
      const key = tenantKey(session.user!.clientId);
      let set = tenants.get(key);
      if (!set) tenants.set(key, (set = new Set()));
      set.add(session);
    },
    left(session) {
      if (!session.user) return;
      const key = tenantKey(session.user.clientId);
      const set = tenants.get(key);
      set?.delete(session);
      if (set && set.size === 0) tenants.delete(key);
    },
    count(what) {
      stats[what]++;
    },
  };

  for (const service of REALTIME_SERVICES as readonly RealtimeService[]) {
    const server = sockjs.createServer({
      prefix: SOCKJS_PREFIX[service],
      log: (severity, message) => {
        if (severity === 'error') log(`sockjs ${service}: ${message}`);
      },
    });
    server.on('connection', (conn: sockjs.Connection | null) => {
      if (!conn) return; // sockjs emits null for a session that closed before it opened
      if (closing) {
        conn.close();
        return;
      }
      stats.connections++;
      const transport = coalescing({
        send: (t) => {
          conn.write(t);
        },
        close: () => {
          conn.close();
        },
      });
      const session = new StompSession(service, transport, hub);
      const entry = { session, conn: { close: () => transport.close() } };
      open.add(entry);
      conn.on('data', (d: string) => session.receive(d));
      conn.on('close', () => {
        stats.connections--;
        open.delete(entry);
        session.closed();
      });
    });
    server.installHandlers(httpServer);
    claimUpgrades(httpServer, (path) => path.startsWith(`${SOCKJS_PREFIX[service]}/`));
  }
  // SockJS answers its prefixes itself, outside Fastify: the security headers every other answer has are set on its
  // responses before it writes them (issue 45: /ws/event/info carried none)
  const headers = options.securityHeaders;
  if (headers) {
    const prefixes = (REALTIME_SERVICES as readonly RealtimeService[]).map((svc) => `${SOCKJS_PREFIX[svc]}/`);
    httpServer.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (prefixes.some((p) => req.url?.startsWith(p))) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    });
  }

  return {
    publish(clientId, destination, body, to) {
      if (!serviceOfDestination(destination)) throw new Error(`Unknown destination ${destination}`);
      route(tenantKey(clientId), destination, body, to?.users, to?.division, to?.counts);
    },
    disconnectSessions(sessionIds) {
      const ids = new Set(sessionIds);
      let n = 0;
      for (const { session, conn } of [...open]) {
        if (session.user?.sessionId === undefined || !ids.has(session.user.sessionId)) continue;
        conn.close();
        n++;
      }
      return n;
    },
    async close() {
      closing = true;
      for (const { session, conn } of [...open]) {
        conn.close();
        session.closed();
      }
      await relay?.close();
    },
    get stats(): RealtimeStats {
      let sessions = 0;
      let subscriptions = 0;
      for (const set of tenants.values())
        for (const s of set) {
          sessions++;
          subscriptions += s.subscriptions.size;
        }
      return { ...stats, sessions, subscriptions };
    },
    get relay() {
      return { enabled: relay !== null, connected: relay?.connected ?? false };
    },
  };
}
