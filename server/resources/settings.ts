// What the Server section's settings do on the server (contract/resources/settings.ts):
// - company ID [0.7.4.0]: a card or fob added to the credential store without a facility code gets the site code;
//   `companyIdentity` is what the console prints (it reads the singleton itself);
// - central properties [0.7.3.0]: `pruneByRetention` deletes, each hour, every client's events and visitors older than
//   that client keeps them (0: for ever). An event an alarm refers to stays (the alarm's history needs it); a visitor
//   still on site stays; a visit request of that age goes with its visitor.
import type { Db } from '../db/db';
import { aloneAmongServers } from '../db/maintenance';
import type { ResourceHooks } from '../crud/hooks';
import { companyIdentityRow, pruneEvents, pruneVisitors, retentionClients } from '../db/queries/settings';

/** The SQL of a client's company ID (its name printed, its site code), read here and by the visitors' select. */
export { companyNameSql, siteCodeSql } from '../db/queries/settings';

/** A client's company ID: the name printed and the site code (companyNameSql, siteCodeSql). */
export async function companyIdentity(db: Db, clientId: number): Promise<{ companyName: string; siteCode: number | null }> {
  const row = await companyIdentityRow(db, clientId);
  return { companyName: row?.name ?? '', siteCode: row?.site ?? null };
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

/** One pass over every client that keeps records for a limited time; returns what it deleted, per client. */
export async function pruneByRetention(db: Db): Promise<Pruned[]> {
  const out: Pruned[] = [];
  for (const c of await retentionClients(db)) {
    const done: Pruned = { clientId: c.client_id, events: 0, visitors: 0, visitRequests: 0 };
    if (c.events > 0) {
      for (;;) {
        const n = await pruneEvents(db, c.client_id, c.events, PRUNE_CHUNK);
        done.events += n;
        if (n < PRUNE_CHUNK) break;
      }
    }
    if (c.visitors > 0) {
      await db.transaction(async (tx) => {
        const pruned = await pruneVisitors(tx, c.client_id, c.visitors);
        done.visitRequests = pruned.visitRequests;
        done.visitors = pruned.visitors;
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
