// `npm run bench [-- name …]`: measures the real server (and the built console in chromium) and writes JSON to
// bench/results/, then docs/BENCHMARKS.md from them (bench/report.ts). Numbers are measured, never asserted in tests;
// compare runs on the same machine.
// Names: rest, fanout, history, export, browser, ingest, firstload, batchUpload, exportList, decide, audit, backup, edge, edgeSnapshot, floorplan, osdp (all of them, in that order, without a name).
import { performance } from 'node:perf_hooks';
import { browser } from './browser';
import { decideBench } from './decide';
import { exportBench } from './export';
import { fanout } from './fanout';
import { firstload } from './firstload';
import { history } from './history';
import { ingest } from './ingest';
import { rest } from './rest';
import { batchUploadBench } from './batchUpload';
import { exportListBench } from './exportList';
import { auditBench } from './audit';
import { backupBench } from './backup';
import { edgeBench } from './edge';
import { edgeSnapshotBench } from './edgeSnapshot';
import { osdpBench } from './osdp';
import { floorplanBench } from './floorplan';
import { writeBenchmarksDoc } from './report';

const BENCHES: Record<string, () => Promise<unknown>> = {
  rest,
  fanout,
  history,
  export: exportBench,
  browser,
  ingest,
  firstload,
  batchUpload: batchUploadBench,
  exportList: exportListBench,
  decide: decideBench,
  audit: auditBench,
  backup: backupBench,
  edge: edgeBench,
  edgeSnapshot: edgeSnapshotBench,
  osdp: osdpBench,
  floorplan: floorplanBench,
};

async function main() {
  const asked = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = asked.filter((a) => !(a in BENCHES));
  if (unknown.length) {
    console.error(`unknown benchmark ${unknown.join(', ')}: choose from ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  const names = asked.length ? asked : Object.keys(BENCHES);
  for (const name of names) {
    const t = performance.now();
    console.log(`\n== ${name}`);
    await BENCHES[name]();
    console.log(`== ${name} took ${Math.round((performance.now() - t) / 1000)} s`);
  }
  // the figures of docs/BENCHMARKS.md come from the results, never copied by hand (BENCH_NO_DOC=1: leave it alone)
  if (process.env.BENCH_NO_DOC !== '1') writeBenchmarksDoc(Object.keys(BENCHES));
  process.exit(0); // sockets of the STOMP clients and chromium must not keep the process alive
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
