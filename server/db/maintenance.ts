// Housekeeping PostgreSQL does by itself (autovacuum) but embedded PGlite does not: without it, counts over the
// append-only events table read every row from the heap instead of the index alone, and history queries slow
// down as events pile up. The server vacuums and analyses the busy tables now and then; on PostgreSQL nothing.
// Identities and credentials too (issue 13): a list page counts its matches up to the cap, and a vacuumed table's
// index answers that count alone (an index-only scan) instead of reading 10,001 rows.
import type { Db } from './db';

/** How often the embedded database is vacuumed (PostgreSQL's autovacuum makes this unnecessary there). */
export const PGLITE_VACUUM_MS = 15 * 60_000;
const TABLES = ['events', 'alarms', 'alarm_history', 'audit_log', 'sessions', 'identities', 'credentials'];

/**
 * Runs `fn` unless another server on the same PostgreSQL database is running the job `name` now (an advisory lock,
 * held by a transaction kept open on a connection of its own while `fn` works on others); the embedded database is
 * this process's alone, so there it always runs. Answers what `fn` answered, or null when another server had it.
 */
export async function aloneAmongServers<T>(db: Db, name: string, fn: () => Promise<T>): Promise<T | null> {
  if (db.kind !== 'postgres') return fn();
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ got: boolean }>('select pg_try_advisory_xact_lock(hashtext($1)) as got', [`gatehouse:${name}`]);
    return rows[0]?.got ? fn() : null;
  });
}

/** One pass: VACUUM (ANALYZE) of the tables that grow; errors are logged, never thrown (it runs again later). */
export async function vacuum(db: Db, log: (m: string) => void = () => {}): Promise<void> {
  if (db.kind !== 'pglite') return;
  for (const t of TABLES) {
    try {
      await db.exec(`vacuum (analyze) ${t}`);
    } catch (e) {
      log(`vacuum ${t}: ${(e as Error).message}`);
    }
  }
}

/** Vacuums the embedded database every `everyMs`; returns the stop function. Nothing on PostgreSQL. */
export function startMaintenance(db: Db, log: (m: string) => void, everyMs = PGLITE_VACUUM_MS): () => void {
  if (db.kind !== 'pglite' || everyMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void vacuum(db, log).finally(() => {
      running = false;
    });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
