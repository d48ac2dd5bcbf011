// The Server section's settings (server/resources/settings.ts; issue 48: its queries in the queries room): a client's
// company ID, and the retention pass that deletes each client's events and visitors older than it keeps them.
import type { Db } from '../db';
import { tenantOf } from '../tenant';

/**
 * The SQL of a client's company ID, for the client whose id is `client` (a parameter or a column): the name printed
 * (the client's own when none is set) and the site code (null: none). One place for both, read here and by the
 * visitors' select (what a badge prints).
 */
export const companyNameSql = (client: string) =>
  `(select coalesce(nullif(k.company_name, ''), c.name) from clients c left join company_identity k on k.client_id = c.id where c.id = ${client})`;
export const siteCodeSql = (client: string) => `(select k.site_code from company_identity k where k.client_id = ${client})`;

/** A client's company ID as stored: the name printed and the site code. */
export async function companyIdentityRow(db: Db, clientId: number): Promise<{ name: string | null; site: number | null } | undefined> {
  const { rows } = await db.query<{ name: string | null; site: number | null }>(`select ${companyNameSql('$1')} as name, ${siteCodeSql('$1')} as site`, [
    clientId,
  ]);
  return rows[0];
}

/** Rows a delete removed (both engines: a CTE counts them). */
async function count(db: Db, del: string, params: unknown[]): Promise<number> {
  return (await db.query<{ n: number }>(`with d as (${del} returning 1) select count(*)::int as n from d`, params)).rows[0].n;
}

/** The clients that keep events or visitors for a limited time, with their days (0: for ever). */
export async function retentionClients(db: Db): Promise<{ client_id: number; events: number; visitors: number }[]> {
  const { rows } = await db.query<{ client_id: number; events: number; visitors: number }>(
    `select client_id, event_retention_days as events, visitor_retention_days as visitors from central_properties
      where event_retention_days > 0 or visitor_retention_days > 0 order by client_id`,
  );
  return rows;
}

/** Deletes up to `chunk` of the client's events older than `days` that no alarm refers to: how many. */
export async function pruneEvents(db: Db, clientId: number, days: number, chunk: number): Promise<number> {
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(days); // $2
  return count(
    db,
    `delete from events where id in (select e.id from events e where ${own('e')} and e.at < now() - $2::int * interval '1 day'
             and not exists (select 1 from alarms a where a.event_id = e.id) limit ${chunk})`,
    params,
  );
}

/**
 * Deletes the client's visit requests and visitors (not on site) of a visit day more than `days` before today in the
 * client's zone, in `tx`: how many of each.
 */
export async function pruneVisitors(tx: Db, clientId: number, days: number): Promise<{ visitRequests: number; visitors: number }> {
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(days); // $2
  const cutoff = `(select (now() at time zone timezone)::date - $2::int from clients where id = $1)`;
  const visitRequests = await count(tx, `delete from visit_requests where ${own()} and visit_date < ${cutoff}`, params);
  await tx.query(
    `update visit_requests set visitor_id = null where ${own()} and visitor_id in
          (select id from visitors where ${own()} and visit_date < ${cutoff} and status <> 'on-site')`,
    params,
  );
  const visitors = await count(tx, `delete from visitors where ${own()} and visit_date < ${cutoff} and status <> 'on-site'`, params);
  return { visitRequests, visitors };
}
