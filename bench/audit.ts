// The cost per audited write (issue 31): an audit row inserted through the chain trigger (advisory lock, read of the
// chain's last row, SHA-256 of the canonical content) against the same insert into a scratch copy of audit_log as it
// was before migration 127 (no trigger, no chain columns filled), one statement each, alternating blocks so both see
// the same machine. PGlite in a temp DATA_DIR; PostgreSQL too when BENCH_DATABASE_URL is set.
// Target: an audited write costs under 1 ms more than the unchained one (median); the ratio is reported beside it
// (about 2 on a busy 2-core machine: the unchained insert is itself a fraction of a millisecond). `npx tsx bench/audit.ts`.
import { performance } from 'node:perf_hooks';
import { insertAudit } from '../server/db/queries/audit';
import type { Db } from '../server/db/db';
import { benchDb, benchPostgres, pct, writeResult } from './lib';

const WRITES = 3000;
const BLOCK = 250;
const TARGET_EXTRA_MS = 1;

async function measure(db: Db, clientId: number) {
  await db.exec(`drop table if exists audit_log_ref;
    create table audit_log_ref (id bigserial primary key, client_id int, actor text not null, action text not null, entity text not null,
      entity_id text, before jsonb, after jsonb, at timestamptz not null default now(), seq bigint, prev_hash text, hash text);
    create index audit_log_ref_client on audit_log_ref (client_id, id desc)`);
  const row = (i: number) => ({
    clientId,
    actor: 'bench',
    action: 'update',
    entity: 'identity',
    entityId: i,
    before: { name: `Person ${i}`, status: 'active' },
    after: { name: `Person ${i}`, status: 'suspended' },
  });
  const ref = (i: number) => {
    const a = row(i);
    return db.query('insert into audit_log_ref (client_id, actor, action, entity, entity_id, before, after) values ($1,$2,$3,$4,$5,$6,$7)', [
      a.clientId,
      a.actor,
      a.action,
      a.entity,
      String(a.entityId),
      JSON.stringify(a.before),
      JSON.stringify(a.after),
    ]);
  };
  const chained: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < 200; i++) {
    await insertAudit(db, row(i));
    await ref(i);
  } // warm-up
  for (let done = 0; done < WRITES; done += BLOCK) {
    for (let i = 0; i < BLOCK; i++) {
      const t = performance.now();
      await insertAudit(db, row(done + i));
      chained.push(performance.now() - t);
    }
    for (let i = 0; i < BLOCK; i++) {
      const t = performance.now();
      await ref(done + i);
      plain.push(performance.now() - t);
    }
  }
  await db.exec('drop table audit_log_ref');
  const chainedMs = { p50: pct(chained, 50), p95: pct(chained, 95), p99: pct(chained, 99) };
  const plainMs = { p50: pct(plain, 50), p95: pct(plain, 95), p99: pct(plain, 99) };
  const extraP50Ms = Number((chainedMs.p50 - plainMs.p50).toFixed(2));
  return { writes: WRITES, chainedMs, plainMs, extraP50Ms, ratioP50: Number((chainedMs.p50 / plainMs.p50).toFixed(2)), met: extraP50Ms < TARGET_EXTRA_MS };
}

export async function auditBench() {
  const results: Record<string, unknown> = {};
  const lite = await benchDb();
  try {
    results.pglite = await measure(lite.db, lite.northwind);
  } finally {
    await lite.dispose();
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const pg = await benchPostgres(url);
    try {
      results.postgres = await measure(pg.db, pg.northwind);
    } finally {
      await pg.dispose();
    }
  }
  const met = Object.values(results).every((r) => (r as { met: boolean }).met);
  writeResult('audit', { ...results, target: { extraP50MsBelow: TARGET_EXTRA_MS }, met });
}

if (import.meta.url === `file://${process.argv[1]}`)
  auditBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
