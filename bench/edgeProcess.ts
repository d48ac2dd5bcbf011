// The edge processes of `npm run bench -- edge` (bench/edge.ts), each the real startEdge under tsx as `npm run edge`
// runs it, in a process of its own as on a site (its journal, its upload and its garbage collection off the server's
// event loop):
// - `tsx bench/edgeProcess.ts DATA_DIR`: a data directory that holds a snapshot, its server unreachable (it keeps
//   retrying, as an edge cut off from its server does). Prints one JSON line once the snapshot is loaded, then runs
//   until killed; the bench reads its resident memory from /proc.
// - `tsx bench/edgeProcess.ts resync DATA_DIR SERVER KEY EVENTS LIVE_EVERY_MS DOOR,DOOR,… [UPLOAD_BATCH]`: an edge
//   whose journal holds EVENTS undelivered events, connected to SERVER. One JSON line each: `online` when the server
//   welcomed it (its upload starts), `swipe` for each live card presented at one of its doors every LIVE_EVERY_MS
//   (the card, when, how long the door took to decide and journal it, and of that the journal's append with its fsync), `done` when the server has every event (with the processor time the edge used from `online`, µs).
//   Times are epoch milliseconds with a fraction (performance.timeOrigin + now()), comparable across processes.
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { startEdge } from '../edge/main';

const now = () => performance.timeOrigin + performance.now();
const say = (m: object) => process.stdout.write(`${JSON.stringify(m)}\n`);

process.on('SIGTERM', () => process.exit(0));

if (process.argv[2] === 'resync') {
  const [dataDir, server, key, events, everyMs, doorList, batch] = process.argv.slice(3);
  const doorIds = doorList.split(',').map(Number);
  const edge = startEdge({
    server,
    key,
    dataDir,
    log: process.env.BENCH_EDGE_LOG ? (l: string) => console.error(`edge: ${l}`) : () => {},
    uploadBatch: batch ? Number(batch) : undefined,
  });
  if (edge.journal.undelivered < Number(events)) throw new Error(`the edge opened ${edge.journal.undelivered} undelivered events, not ${events}`);
  let ticker: ReturnType<typeof setInterval> | null = null;
  let online = false;
  // each swipe's time apart: the journal's append (its write and fsync: the disk's) and the rest (the decision and the
  // entry: the edge's own); BENCH_EDGE_TRACE=1 also says each slow swipe with the garbage collections beside it
  const trace = !!process.env.BENCH_EDGE_TRACE;
  const gcs: { start: number; ms: number; kind: number }[] = [];
  let appendMs = 0;
  if (trace)
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        gcs.push({
          start: performance.timeOrigin + e.startTime,
          ms: e.duration,
          kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1,
        });
    }).observe({ entryTypes: ['gc'] });
  const append = edge.journal.append.bind(edge.journal);
  edge.journal.append = (e) => {
    const t = performance.now();
    try {
      return append(e);
    } finally {
      appendMs += performance.now() - t;
    }
  };
  let cpu = process.cpuUsage();
  edge.link.on((what) => {
    if (what !== 'online' || online) return;
    online = true;
    cpu = process.cpuUsage();
    say({ online: now() });
    let n = 0;
    ticker = setInterval(() => {
      n++;
      const card = `LA${n}`;
      const at = now();
      appendMs = 0;
      edge.swipe({ doorId: doorIds[n % doorIds.length], card });
      const end = now();
      say({ swipe: card, at, doorMs: end - at, appendMs });
      if (trace && end - at > 10) {
        const gc = gcs.filter((g) => g.start + g.ms >= at && g.start <= end);
        console.error(`slow swipe ${(end - at).toFixed(1)} ms: append ${appendMs.toFixed(1)} ms, gc ${JSON.stringify(gc)}`);
      }
    }, Number(everyMs));
  });
  const stop = edge.journal.watch(() => {
    if (!online || edge.journal.undelivered > 0) return;
    stop();
    const used = process.cpuUsage(cpu);
    say({ done: now(), cpuUs: used.user + used.system });
    if (ticker) clearInterval(ticker);
  });
} else {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: tsx bench/edgeProcess.ts DATA_DIR');
  const t = performance.now();
  const edge = startEdge({ server: 'http://127.0.0.1:9', key: 'gh_000000000000_bench', dataDir, log: () => {}, backoff: { first: 1000, max: 5000 } });
  if (!edge.store.held) throw new Error(`no snapshot held in ${dataDir}`);
  console.log(JSON.stringify({ loadMs: Math.round(performance.now() - t), version: edge.store.held.version }));
}
