// The dashboard [0.1] of the selected client (§2: the dashboard needs one). Issue 10: every part is answered only to
// holders of the privilege of the screen that owns its data (DASHBOARD_WIDGET_PRIVILEGES), and counts of rows that
// have a division cover the divisions those privileges were granted on.
import type { FastifyInstance } from 'fastify';
import { API, DASHBOARD_WIDGET_PRIVILEGES, DashboardSummary, PRIV, auditEntityName, type DashboardPart } from '../../contract';
import type { Db } from '../db/db';
import { actorNames, recentChanges } from '../db/queries/audit';
import { dashboardParts, type DashboardAsk } from '../db/queries/dashboard';
import { clientOf, divisionsFor, principal } from './kit';
import { iso } from '../db/values';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  summary: { response: DashboardSummary, summary: "The dashboard's figures" },
} satisfies Record<string, RouteDoc>;

export function dashboardRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(API.dashboard, { config: { privileges: [PRIV.dashboard], ...DOCS.summary } }, async (req): Promise<DashboardSummary> => {
    const clientId = clientOf(req);
    const p = principal(req);
    const asks: DashboardAsk[] = [];
    for (const [part, codes] of Object.entries(DASHBOARD_WIDGET_PRIVILEGES) as Array<[DashboardPart, readonly string[]]>) {
      if (codes.some((c) => p.held.has(c))) asks.push({ part, divisions: divisionsFor(p, [...codes]) });
    }
    const summary: DashboardSummary = await dashboardParts(db, clientId, asks);
    if (asks.some((a) => a.part === 'recentChanges')) {
      const recent = await recentChanges(db, clientId, 8);
      const names = await actorNames(
        db,
        recent.map((r) => r.actor),
      );
      summary.recentChanges = recent.map((r) => ({
        at: iso(r.at)!,
        actor: r.actor,
        action: r.action,
        entity: r.entity,
        actorName: names.get(r.actor) ?? null,
        entityName: auditEntityName(r),
      }));
    }
    return summary;
  });
}
