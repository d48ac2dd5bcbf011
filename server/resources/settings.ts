// What the Server section's settings do on the server (contract/resources/settings.ts):
// - company ID [0.7.4.0]: a card or fob added to the credential store without a facility code gets the site code;
//   `companyIdentity` is what the console prints (it reads the singleton itself);
// - central properties [0.7.3.0]: `pruneByRetention` deletes, each hour, every client's events and visitors older than
//   that client keeps them (0: for ever). An event an alarm refers to stays (the alarm's history needs it); a visitor
//   still on site stays; a visit request of that age goes with its visitor.
import type { Db } from '../db/db';
import { aloneAmongServers } from '../db/maintenance';
import type { ResourceHooks } from '../crud/hooks';
import { tenantOf } from '../db/tenant';

/**
 * The SQL of a client's company ID, for the client whose id is `client` (a parameter or a column): the name printed
 * (the client's own when none is set) and the site code (null: none). One place for both, read here and by the
 * visitors' select (what a badge prints).
 */
export const companyNameSql = (client: string) =>
  `(select coalesce(nullif(k.company_name, ''), c.name) from clients c left join company_identity k on k.client_id = c.id where c.id = ${client})`;
export const siteCodeSql = (client: string) => `(select k.site_code from company_identity k where k.client_id = ${client})`;

/** A client's company ID: the name printed and the site code (companyNameSql, siteCodeSql). */
export async function companyIdentity(db: Db, clientId: number): Promise<{ companyName: string; siteCode: number | null }> {
  const { rows } = await db.query<{ name: string | null; site: number | null }>(`select ${companyNameSql('$1')} as name, ${siteCodeSql('$1')} as site`, [
    clientId,
  ]);
  return { companyName: rows[0]?.name ?? '', siteCode: rows[0]?.site ?? null };
}

/** The credential store: a new entry without a facility code takes the site code (company ID). */
export const credentialStoreHooks: ResourceHooks = {
  async beforeInsert(ctx, input) {
    if ((input.facilityCode === undefined || input.facilityCode === null) && ctx.clientId !== null) {
      const { siteCode } = await companyIdentity(ctx.tx, ctx.clientId);
      if (siteCode !== null) input.facilityCode = siteCode;
    }
    return {};
  },
};

/** Rows deleted at most per statement, so one pass never holds the database for long. */
const PRUNE_CHUNK = 5000;

export interface Pruned {
  clientId: number;
  events: number;
  visitors: number;
  visitRequests: number;
}

/** Rows a delete removed (both engines: a CTE counts them). */
async function count(db: Db, del: string, params: unknown[]): Promise<number> {
  return (await db.query<{ n: number }>(`with d as (${del} returning 1) select count(*)::int as n from d`, params)).rows[0].n;
}

/** One pass over every client that keeps records for a limited time; returns what it deleted, per client. */
export async function pruneByRetention(db: Db): Promise<Pruned[]> {
  const { rows: clients } = await db.query<{ client_id: number; events: number; visitors: number }>(
    `select client_id, event_retention_days as events, visitor_retention_days as visitors from central_properties
      where event_retention_days > 0 or visitor_retention_days > 0 order by client_id`,
  );
  const out: Pruned[] = [];
  for (const c of clients) {
    const done: Pruned = { clientId: c.client_id, events: 0, visitors: 0, visitRequests: 0 };
    if (c.events > 0) {
      const params: unknown[] = [];
      const own = tenantOf(params, c.client_id); // $1
      params.push(c.events); // $2
      for (;;) {
        const n = await count(
          db,
          `delete from events where id in (select e.id from events e where ${own('e')} and e.at < now() - $2::int * interval '1 day'
             and not exists (select 1 from alarms a where a.event_id = e.id) limit ${PRUNE_CHUNK})`,
          params,
        );
        done.events += n;
        if (n < PRUNE_CHUNK) break;
      }
    }
    if (c.visitors > 0) {
      await db.transaction(async (tx) => {
        const params: unknown[] = [];
        const own = tenantOf(params, c.client_id); // $1
        params.push(c.visitors); // $2
        const cutoff = `(select (now() at time zone timezone)::date - $2::int from clients where id = $1)`;
        done.visitRequests = await count(tx, `delete from visit_requests where ${own()} and visit_date < ${cutoff}`, params);
        await tx.query(
          `update visit_requests set visitor_id = null where ${own()} and visitor_id in
          (select id from visitors where ${own()} and visit_date < ${cutoff} and status <> 'on-site')`,
          params,
        );
        done.visitors = await count(tx, `delete from visitors where ${own()} and visit_date < ${cutoff} and status <> 'on-site'`, params);
      });
    }
    if (done.events || done.visitors || done.visitRequests) out.push(done);
  }
  return out;
}

/** How often records past their client's retention are deleted. */
export const RETENTION_EVERY_MS = 60 * 60_000;

/** Prunes now and every `everyMs`; each pass that deleted something is logged. Returns the stop function. */
export function startRetention(db: Db, log: (m: string) => void, everyMs = RETENTION_EVERY_MS): () => void {
  if (everyMs <= 0) return () => {};
  let running = false;
  const pass = () => {
    if (running) return;
    running = true;
    // several servers on one PostgreSQL database: one of them prunes each pass
    void aloneAmongServers(db, 'retention', () => pruneByRetention(db))
      .then((all) => {
        for (const p of all ?? [])
          log(`retention: client ${p.clientId}: deleted ${p.events} events, ${p.visitors} visitors, ${p.visitRequests} visit requests`);
      })
      .catch((e) => log(`retention: ${(e as Error).message}`))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(pass, 30_000);
  first.unref();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
