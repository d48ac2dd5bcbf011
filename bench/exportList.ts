// The identity catalogue at scale (issue 11): 200,000 identities with a card each in one tenant
// (BENCH_LIST_ROWS to change), then (1) the catalogue's streamed CSV export of all of them, timed to the last byte,
// target < 6 s; (2) list pages as the console asks for them (default sort, other sorts, deep pages, a filter, a
// search), target p95 < 50 ms → bench/results/exportList.json.
import { performance } from 'node:perf_hooks';
import { API } from '../contract';
import { benchDb, benchServer, seedIdentities, summary, writeResult } from './lib';

export const EXPORT_LIST_TARGET_S = 6;
export const LIST_P95_TARGET_MS = 50;

export async function exportListBench(rows = Number(process.env.BENCH_LIST_ROWS ?? 200_000)) {
  const b = await benchDb();
  const server = await benchServer(b.db);
  try {
    const seedSeconds = await seedIdentities(b.db, b.harbour, rows);
    const token = await server.login('harbour');

    const t0 = performance.now();
    const res = await fetch(`${server.base}${API.identities}/export?format=csv`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`export: ${res.status}`);
    const reader = res.body!.getReader();
    let lines = 0,
      bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
    const exportS = (performance.now() - t0) / 1000;

    const pages = [
      `${API.identities}?page=0&size=20`,
      `${API.identities}?page=0&size=50&sort=employeeNo,asc`,
      `${API.identities}?page=500&size=20`,
      `${API.identities}?page=0&size=20&sort=validTo,desc`,
      `${API.identities}?page=0&size=20&status=inactive`,
      `${API.identities}?page=0&size=20&q=First1234`,
      `${API.identities}?page=0&size=20&sort=updatedAt,desc`,
      `${API.identities}?page=0&size=20&q=CC-7`,
    ];
    for (const p of pages) await server.get(p, token); // warm
    const byPage: Record<string, ReturnType<typeof summary>> = {};
    const all: number[] = [];
    for (const p of pages) {
      const xs: number[] = [];
      for (let i = 0; i < 15; i++) {
        const s = performance.now();
        await server.get(p, token);
        xs.push(performance.now() - s);
      }
      byPage[p] = summary(xs);
      all.push(...xs);
    }
    const p95 = summary(all).p95;
    return writeResult('exportList', {
      database: b.db.kind,
      identities: rows,
      seedSeconds,
      export: { rows: lines - 1, seconds: Number(exportS.toFixed(2)), mb: Number((bytes / 1e6).toFixed(1)), rowsPerSecond: Math.round((lines - 1) / exportS) },
      listPages: byPage,
      listP95Ms: p95,
      target: {
        metric: `CSV export of ${rows.toLocaleString()} identities (s) and list page p95 (ms)`,
        exportAtMostSeconds: EXPORT_LIST_TARGET_S,
        listP95AtMostMs: LIST_P95_TARGET_MS,
        scaledFrom: 200_000,
      },
      met: exportS < EXPORT_LIST_TARGET_S && p95 < LIST_P95_TARGET_MS && lines - 1 >= rows,
    });
  } finally {
    await server.close();
    await b.dispose();
  }
}
