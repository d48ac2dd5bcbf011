// History export throughput over 4,000,000 stored events (BENCH_EXPORT_ROWS to change): a fresh PGlite in a temp
// DATA_DIR, then the export streamed over loopback HTTP as CSV and NDJSON files and as the console's event stream,
// reading as fast as the client can → bench/results/export.json. Each run stops after BENCH_EXPORT_MAX_S seconds
// (default 30) so the whole bench stays within minutes: keyset pages cost the same at any depth, so the rate of a
// capped run is the rate of the whole export; the JSON says how many rows each run streamed.
// Target: ≥ 20,000 events/s.
import { performance } from 'node:perf_hooks';
import { API } from '../contract';
import { benchDb, benchServer, seedEvents, writeResult } from './lib';

export const EXPORT_TARGET_PER_S = 20_000;

async function streamed(url: string, token: string, maxS: number, countRows: (chunk: Buffer) => number) {
  const ac = new AbortController();
  const t = performance.now();
  const heapBefore = process.memoryUsage().rss;
  let rows = 0,
    bytes = 0,
    firstByteMs = 0,
    capped = false,
    peakRss = heapBefore;
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - t;
      bytes += value.length;
      rows += countRows(Buffer.from(value.buffer, value.byteOffset, value.length));
      if ((rows & 0xff) === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
      if (performance.now() - t > maxS * 1000) {
        capped = true;
        ac.abort();
        break;
      }
    }
  } catch (e) {
    if (!capped) throw e;
  }
  const s = (performance.now() - t) / 1000;
  return {
    rows,
    seconds: Number(s.toFixed(2)),
    eventsPerSecond: Math.round(rows / s),
    mbPerSecond: Number((bytes / 1e6 / s).toFixed(1)),
    firstByteMs: Math.round(firstByteMs),
    stoppedAtCap: capped,
    peakRssMb: Math.round(peakRss / 1e6),
  };
}
const newlines = (b: Buffer) => {
  let n = 0,
    i = -1;
  while ((i = b.indexOf(10, i + 1)) >= 0) n++;
  return n;
};

export async function exportBench(rows = Number(process.env.BENCH_EXPORT_ROWS ?? 4_000_000)) {
  const maxS = Number(process.env.BENCH_EXPORT_MAX_S ?? 30);
  const b = await benchDb();
  const server = await benchServer(b.db);
  try {
    console.log(`export: seeding ${rows.toLocaleString()} events`);
    const seeded = await seedEvents(b.db, b.northwind, rows);
    const token = await server.login('operator');
    const runs: Record<string, Awaited<ReturnType<typeof streamed>>> = {};
    for (const format of ['csv', 'ndjson'] as const) {
      console.log(`export: ${format} file`);
      const r = await streamed(`${server.base}${API.eventsExport}?format=${format}`, token, maxS, newlines);
      if (format === 'csv' && !r.stoppedAtCap) r.rows -= 1; // the header line
      runs[`${format} file (${API.eventsExport})`] = r;
    }
    console.log('export: csv through the event stream the console reads');
    // each page is one `rows` event: count the rows by the progress events' totals instead of newlines
    let lastDone = 0;
    runs[`csv event stream (${API.eventsExportProgress})`] = await streamed(`${server.base}${API.eventsExportProgress}?format=csv`, token, maxS, (chunk) => {
      const m = [...chunk.toString('latin1').matchAll(/"done":(\d+)/g)];
      if (!m.length) return 0;
      const done = Number(m[m.length - 1][1]);
      const add = done - lastDone;
      lastDone = done;
      return add;
    });
    const worst = Math.min(...Object.values(runs).map((r) => r.eventsPerSecond));
    return writeResult('export', {
      database: b.db.kind,
      storedEvents: rows,
      seedSeconds: Math.round(seeded.ms / 100) / 10,
      capSecondsPerRun: maxS,
      runs,
      target: { metric: 'events streamed per second, every format', atLeast: EXPORT_TARGET_PER_S },
      worstEventsPerSecond: worst,
      met: worst >= EXPORT_TARGET_PER_S,
    });
  } finally {
    await server.close();
    await b.dispose();
  }
}
