// The dashboard summary [0.1] of the selected client (§2: the dashboard needs one).
import type { FastifyInstance } from 'fastify';
import { API, PRIV, type DashboardSummary } from '../../contract';
import type { Db } from '../db/db';
import { recentChanges } from '../db/queries/audit';
import { dashboardCounts } from '../db/queries/dashboard';
import { clientOf, iso } from './common';

export function dashboardRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(API.dashboard, { config: { privileges: [PRIV.dashboard] } }, async (req): Promise<DashboardSummary> => {
    const clientId = clientOf(req);
    const recent = await recentChanges(db, clientId, 8);
    return {
      ...(await dashboardCounts(db, clientId)),
      recentChanges: recent.map((r) => ({ at: iso(r.at)!, actor: r.actor, action: r.action, entity: r.entity })),
    };
  });
}
