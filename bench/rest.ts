// REST latency as a shift sees it (issues 11 and 13): 200,000 identities with a card each in one tenant
// (BENCH_REST_ROWS), 50 operators signed in with sessions of their own (BENCH_REST_OPERATORS). PGlite, and
// PostgreSQL when BENCH_DATABASE_URL is set → bench/results/rest.json. Three measurements:
//   - operators (judged): the 50 operators work as operators do, for BENCH_REST_SECONDS (60 s): each opens a list
//     page (the default order or another sort, a filter), pages on now and then, searches (a name, an employee
//     number, a card number, a cost centre, an e-mail, a search with a filter) and opens a record from what it
//     found, with a human think time of 1–3 s between two actions (uniform, from a seeded generator per operator:
//     BENCH_REST_SEED, so two runs send the same requests in the same rhythm); the operators start spread over the
//     first 3 s. p50/p95 per kind and requests/s. Targets: list page p95 < 20 ms, search p95 < 50 ms.
//   - saturation (information only): the same 50 sessions each sending its next request the moment the last is
//     answered, no think time: 50 requests always in flight, which measures throughput (each waits for the other
//     49: p50 ≈ 50 ÷ requests/s), not what 50 operators see.
//   - one operator alone: the same list pages and searches one at a time; the dashboard; a sign-in (scrypt).
// The clients run in the server's process and share its cores (and the machine's, with whatever else runs: the
// 1-minute load is in the JSON).
import { performance } from 'node:perf_hooks';
import { API } from '../contract';
import { benchDb, benchPostgres, benchServer, seedIdentities, summary, timed, writeResult } from './lib';

export const REST_LIST_P95_MS = 20;
export const REST_SEARCH_P95_MS = 50;
/** An operator's pause between two actions, uniform in this range. */
export const THINK_MS: readonly [number, number] = [1000, 3000];

const LISTS = [
  `${API.identities}?page=0&size=20`, `${API.identities}?page=1&size=20`, `${API.identities}?page=0&size=50&sort=employeeNo,asc`,
  `${API.identities}?page=0&size=20&sort=validTo,desc`, `${API.identities}?page=0&size=20&sort=updatedAt,desc`,
  `${API.identities}?page=0&size=20&status=inactive`, `${API.identities}?page=20&size=100&sort=lastName,asc`,
];
const SEARCHES = [
  `${API.identities}?page=0&size=20&q=First1234`, `${API.identities}?page=0&size=20&q=EL-19999`, `${API.identities}?page=0&size=20&q=ELC-EL-4242`,
  `${API.identities}?page=0&size=20&q=CC-7`, `${API.identities}?page=0&size=20&q=Last77&status=active`, `${API.identities}?page=0&size=20&q=p31415%40bench`,
];
/** What an operator opens first: the list in one of its orders (or filtered), 20 rows a page. */
const FIRST_PAGES = [`size=20`, `size=20&sort=employeeNo,asc`, `size=20&sort=validTo,desc`, `size=20&sort=updatedAt,desc`, `size=20&status=inactive`];
/** What an operator searches for, with n from its generator (names, employee and card numbers, cost centres, e-mails). */
const QUERIES: Array<(n: number) => string> = [
  (n) => `q=First${n}`, (n) => `q=EL-${n}`, (n) => `q=ELC-EL-${n}`, (n) => `q=CC-${n % 40}`, (n) => `q=Last${n % 5000}&status=active`,
  (n) => `q=p${n}%40bench`, (n) => `q=Last${n % 5000}`,
];

/** mulberry32: a small seeded generator, so a run's requests and pauses can be repeated. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'list' | 'search' | 'record';
type Server = Awaited<ReturnType<typeof benchServer>>;

/** One operator's shift for `ms`: list page, sometimes the next pages, a search, a record from it; a think time between two. */
async function operator(server: Server, token: string, rows: number, random: () => number, until: number, samples: Record<Kind, number[]>) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const think = () => sleep(THINK_MS[0] + random() * (THINK_MS[1] - THINK_MS[0]));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const get = async (kind: Kind, path: string) => {
    const t = performance.now();
    const body = await server.get(path, token);
    samples[kind].push(performance.now() - t);
    return body;
  };
  await sleep(random() * 3000); // operators do not all start in the same millisecond
  while (performance.now() < until) {
    const first = pick(FIRST_PAGES);
    await get('list', `${API.identities}?page=0&${first}`);
    for (let page = 1; random() < 0.4 && page <= 3 && performance.now() < until; page++) {
      await think();
      await get('list', `${API.identities}?page=${page}&${first}`);
    }
    if (performance.now() >= until) break;
    await think();
    const found = JSON.parse(await get('search', `${API.identities}?page=0&size=20&${pick(QUERIES)(1 + Math.floor(random() * rows))}`)) as { items: Array<{ id: number }> };
    await think();
    if (found.items.length && performance.now() < until) {
      await get('record', `${API.identities}/${pick(found.items).id}`);
      await think();
    }
  }
}

async function measure(b: Awaited<ReturnType<typeof benchDb>>, rows: number, operators: number, rounds: number, seconds: number, seed: number) {
  const server = await benchServer(b.db);
  try {
    const seedSeconds = await seedIdentities(b.db, b.harbour, rows);
    // one session per operator (50 sign-ins, one after another: each is a scrypt)
    const tokens: string[] = [];
    for (let i = 0; i < operators; i++) tokens.push(await server.login('harbour'));
    for (const p of [...LISTS, ...SEARCHES]) await server.get(p, tokens[0]); // warm

    // one operator at a time, for comparison
    const alone = { list: [] as number[], search: [] as number[] };
    for (let i = 0; i < 5; i++) {
      for (const p of LISTS) { const t = performance.now(); await server.get(p, tokens[0]); alone.list.push(performance.now() - t); }
      for (const p of SEARCHES) { const t = performance.now(); await server.get(p, tokens[0]); alone.search.push(performance.now() - t); }
    }

    // the operator model (judged): every operator at its own pace, think times between actions
    const samples: Record<Kind, number[]> = { list: [], search: [], record: [] };
    const t1 = performance.now();
    await Promise.all(tokens.map((token, op) => operator(server, token, rows, seeded(seed * 1000 + op), t1 + seconds * 1000, samples)));
    const modelSeconds = (performance.now() - t1) / 1000;
    const modelRequests = samples.list.length + samples.search.length + samples.record.length;
    const list = summary(samples.list);
    const search = summary(samples.search);

    // saturation (information): each operator's next request as soon as the last is answered
    const busy = { list: [] as number[], search: [] as number[] };
    const t0 = performance.now();
    await Promise.all(tokens.map(async (token, op) => {
      for (let r = 0; r < rounds; r++) {
        const isSearch = (op + r) % 2 === 1;
        const pool = isSearch ? SEARCHES : LISTS;
        const p = pool[(op * 7 + r) % pool.length];
        const t = performance.now();
        await server.get(p, token);
        (isSearch ? busy.search : busy.list).push(performance.now() - t);
      }
    }));
    const saturationSeconds = (performance.now() - t0) / 1000;
    return {
      database: b.db.kind, identities: rows, seedSeconds, operators,
      operatorModel: {
        seconds: Number(modelSeconds.toFixed(1)), thinkTimeMs: THINK_MS, seed, requests: modelRequests,
        requestsPerSecond: Number((modelRequests / modelSeconds).toFixed(1)),
        'list page (ms)': list, 'search (ms)': search, 'open record (ms)': summary(samples.record),
      },
      saturation: {
        note: 'information only: no think time, 50 requests always in flight',
        requests: busy.list.length + busy.search.length, seconds: Number(saturationSeconds.toFixed(1)),
        requestsPerSecond: Math.round((busy.list.length + busy.search.length) / saturationSeconds),
        'list page (ms)': summary(busy.list), 'search (ms)': summary(busy.search),
      },
      oneOperator: { 'list page (ms)': summary(alone.list), 'search (ms)': summary(alone.search) },
      'GET dashboard summary (ms)': await timed(20, () => server.get(API.dashboard, tokens[0])),
      'POST login (ms, scrypt)': await timed(20, () => server.login('operator')),
      met: list.p95 < REST_LIST_P95_MS && search.p95 < REST_SEARCH_P95_MS,
    };
  } finally {
    await server.close();
    await b.dispose();
  }
}

export async function rest(rows = Number(process.env.BENCH_REST_ROWS ?? 200_000), operators = Number(process.env.BENCH_REST_OPERATORS ?? 50), rounds = 20,
  seconds = Number(process.env.BENCH_REST_SECONDS ?? 60), seed = Number(process.env.BENCH_REST_SEED ?? 13)) {
  const pglite = await measure(await benchDb(), rows, operators, rounds, seconds, seed);
  const url = process.env.BENCH_DATABASE_URL;
  const postgres = url ? await measure(await benchPostgres(url), rows, operators, rounds, seconds, seed) : 'not measured: set BENCH_DATABASE_URL=postgres://… (a server where a database may be created)';
  return writeResult('rest', {
    pglite, postgres, lists: LISTS, searches: SEARCHES, firstPages: FIRST_PAGES, queries: QUERIES.map((q) => q(4242)),
    target: {
      metric: `p95 while ${operators} signed-in operators work over ${rows.toLocaleString()} identities (list, page on, search, open a record; ${THINK_MS[0] / 1000}–${THINK_MS[1] / 1000} s think time) for ${seconds} s`,
      listP95AtMostMs: REST_LIST_P95_MS, searchP95AtMostMs: REST_SEARCH_P95_MS,
    },
    met: pglite.met && (typeof postgres === 'string' || postgres.met),
  });
}
