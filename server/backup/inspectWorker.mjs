// Issue 45: a backup image is opened apart from the server, in a worker thread. PGlite unpacks a .tar.gz with a
// stream whose errors it does not handle: a truncated or corrupted image threw an 'unexpected end of file' that no
// caller could catch, and the server process died with it. Here such an error ends this worker alone (the server
// hears it as the worker's 'error' and answers 400), and the unpacking and opening (seconds for a large image) never
// hold the server's event loop. Plain JavaScript: a worker thread gets no TypeScript loader under every runner.
import { openAsBlob } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const lite = await PGlite.create({ loadDataDir: await openAsBlob(workerData.path), pgliteWasmModule: workerData.wasm });
try {
  const v = await lite.query('select max(id)::int as v from schema_migrations');
  const c = await lite.query('select count(*)::int as n from clients');
  // every row of every table read whole (each tuple formed, each toasted value fetched): damage in a table's files
  // that opening alone does not touch fails here, not later in a restored server
  const { rows: tables } = await lite.query(
    `select format('%I.%I', schemaname, tablename) as t from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  for (const { t } of tables) await lite.query(`select sum(length(x::text))::text from ${t} x`);
  parentPort.postMessage({ schemaVersion: Number(v.rows[0]?.v ?? 0), clients: Number(c.rows[0]?.n ?? 0) });
} finally {
  await lite.close().catch(() => {});
}
