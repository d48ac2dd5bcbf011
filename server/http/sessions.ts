// Who is signed in (issue 4, Monitor): operators' console sessions [0.2.4.0] and service accounts' integration
// sessions [0.2.5.0] of the users who hold grants in the selected client, from where and since when; ending them
// [0.2.4.1 / 0.2.5.1] kills their tokens at once (every request checks its session) and is audited. The caller's
// own current session is not ended here (409: sign out instead). Another tenant's session is "not found".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API, EndSessionsRequest, EndSessionsResult, PRIV, Page, SessionListQuery, SessionSummary, type SessionKind } from '../../contract';
import type { Db } from '../db/db';
import { SESSION_SORT, clientlessSessionUserIds, endSessionsById, listSessions, visibleSessions, type SessionRow } from '../db/queries/sessions';
import { HttpError, body, clientOf, listParams, principal, query, fill } from './kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  list: { query: SessionListQuery, response: Page(SessionSummary) },
  end: { body: EndSessionsRequest, response: EndSessionsResult },
} satisfies Record<string, RouteDoc>;

const KINDS: Record<SessionKind, { path: string; privileges: { view: string; end: string }; entity: string }> = {
  operator: { path: API.operatorSessions, privileges: PRIV.operatorSessions, entity: 'operator-session' },
  service: { path: API.serviceAccountSessions, privileges: PRIV.serviceSessions, entity: 'service-account-session' },
};

/** The accounts of the sessions a request names that belong to no client (checked as the account's, not the client's). */
async function clientlessSessionUsers(db: Db, req: FastifyRequest): Promise<number[]> {
  const ids = (req.body as { ids?: unknown } | undefined)?.ids;
  const wanted = Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x) && x > 0 && x <= Number.MAX_SAFE_INTEGER) : [];
  if (!wanted.length) return [];
  // only sessions the client could see at all (its operators'): another's stays "not found"
  return clientlessSessionUserIds(db, req.principal?.clientId ?? null, wanted);
}

export function sessionRoutes(
  app: FastifyInstance,
  {
    db,
    tokenLifetimeS,
    disconnect,
  }: {
    db: Db;
    tokenLifetimeS: number;
    /** Drop the real-time connections of ended sessions (by jti), after the commit. */
    disconnect?: (jtis: string[]) => void;
  },
) {
  // console tokens expire after their lifetime, so an operator session nobody ended is over by then; service
  // accounts' sessions last until they are ended
  const scope = (req: FastifyRequest, kind: SessionKind) => ({ kind, clientId: clientOf(req), lifetimeS: kind === 'operator' ? tokenLifetimeS : null });

  const summary = (r: SessionRow, jti: string): SessionSummary => ({
    id: Number(r.id),
    userId: r.user_id,
    username: r.username,
    name: r.name,
    kind: r.kind,
    ip: r.ip,
    userAgent: r.user_agent,
    startedAt: iso(r.started_at)!,
    lastSeenAt: iso(r.last_seen_at)!,
    endedAt: iso(r.ended_at),
    endedBy: r.ended_by,
    state: r.open ? 'open' : r.ended_at ? 'ended' : 'expired',
    current: r.jti === jti,
    signInMethod: r.sign_in_method ?? 'password',
    signInProvider: r.sign_in_provider ?? null,
  });

  for (const [kind, k] of Object.entries(KINDS) as [SessionKind, (typeof KINDS)[SessionKind]][]) {
    app.get(k.path, { config: { privileges: [k.privileges.view], ...DOCS.list } }, async (req) => {
      const s = scope(req, kind);
      const l = listParams(req.query, SESSION_SORT, 's.started_at desc, s.id desc', SessionListQuery);
      const { state = 'open' } = query(req.query, SessionListQuery);
      const { rows, total } = await listSessions(db, s, { q: l.q, state }, l);
      return { items: rows.map((r) => summary(r, principal(req).jti)), total, page: l.page, size: l.size };
    });

    // all or nothing: one id that is not a visible session of this kind (another client's, gone) ends none
    // issue 27: a session of this client is the client's to end; one opened before any client was chosen works in
    // every client of its account, so it is the account's (server/auth/accountScope.ts)
    app.post(
      `${k.path}/end`,
      { config: { privileges: [k.privileges.end], touches: 'account', accounts: clientlessSessionUsers, ...DOCS.end } },
      async (req): Promise<EndSessionsResult> => {
        const s = scope(req, kind);
        const { ids } = body(req.body, EndSessionsRequest);
        const wanted = [...new Set(ids)];
        const me = principal(req);
        return db
          .transaction(async (tx) => {
            const found = await visibleSessions(tx, s, wanted);
            if (found.length !== wanted.length) throw new HttpError(404, fill('session.someNotFound', 'Some sessions were not found; none was ended', {}));
            if (found.some((r) => r.jti === me.jti))
              throw new HttpError(409, fill('session.ownCurrent', 'That is your own current session: sign out instead; none was ended', {}));
            const ended = new Set(
              await endSessionsById(
                tx,
                found.filter((r) => !r.ended_at).map((r) => Number(r.id)),
                me.username,
              ),
            );
            for (const r of found) {
              if (!ended.has(Number(r.id))) continue;
              await audit(tx, req, {
                clientId: s.clientId,
                action: 'end',
                entity: k.entity,
                entityId: Number(r.id),
                before: { username: r.username, ip: r.ip, startedAt: iso(r.started_at), state: r.open ? 'open' : 'expired' },
                after: { state: 'ended', endedBy: me.username },
              });
            }
            return {
              result: { ended: ended.size, alreadyEnded: found.length - ended.size },
              jtis: found.filter((r) => ended.has(Number(r.id))).map((r) => r.jti),
            };
          })
          .then(({ result, jtis }) => {
            disconnect?.(jtis);
            return result;
          });
      },
    );
  }
}
