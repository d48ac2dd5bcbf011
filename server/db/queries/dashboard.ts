// Counts for the dashboard widgets of one client.
import type { Db } from '../db';

export async function dashboardCounts(db: Db, clientId: number) {
  const { rows } = await db.query<Record<string, string>>(`select
      (select count(*) from identities where client_id = $1)::text as identities,
      (select count(*) from credentials where client_id = $1 and status = 'active')::text as active_credentials,
      (select count(*) from divisions where client_id = $1)::text as divisions,
      (select count(*) from doors where client_id = $1)::text as doors,
      (select count(*) from controllers where client_id = $1)::text as controllers,
      (select count(*) from alarms where client_id = $1 and state <> 'processed')::text as open_alarms`, [clientId]);
  const r = rows[0];
  return {
    identities: Number(r.identities), activeCredentials: Number(r.active_credentials), divisions: Number(r.divisions),
    doors: Number(r.doors), controllers: Number(r.controllers), openAlarms: Number(r.open_alarms),
  };
}
