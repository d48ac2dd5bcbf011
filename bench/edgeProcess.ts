// The edge process of `npm run bench -- edge` (bench/edge.ts): the real startEdge over a data directory that holds a
// snapshot, its server unreachable (it keeps retrying, as an edge cut off from its server does). Prints one JSON line
// once the snapshot is loaded, then runs until killed; the bench reads its resident memory from /proc.
import { performance } from 'node:perf_hooks';
import { startEdge } from '../edge/main';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: tsx bench/edgeProcess.ts DATA_DIR');
const t = performance.now();
const edge = startEdge({ server: 'http://127.0.0.1:9', key: 'gh_000000000000_bench', dataDir, log: () => {}, backoff: { first: 1000, max: 5000 } });
if (!edge.store.held) throw new Error(`no snapshot held in ${dataDir}`);
console.log(JSON.stringify({ loadMs: Math.round(performance.now() - t), version: edge.store.held.version }));
