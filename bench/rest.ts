// REST latency as a shift sees it (issues 11 and 13): 200,000 identities with a card each in one tenant
// (BENCH_REST_ROWS), 50 operators signed in with sessions of their own (BENCH_REST_OPERATORS), all sending their
// requests at the same time, each its next as soon as the last is answered: catalogue list pages (the default
// order, other sorts, later pages, a filter) and searches (a name, an employee number, a card number, a cost centre,
// a search with a filter). Targets: list page p95 < 20 ms, search p95 < 50 ms, both measured while all 50 operators
// are busy. For comparison the same requests from one operator at a time, the dashboard and a sign-in (scrypt).
// PGlite, and PostgreSQL when BENCH_DATABASE_URL is set → bench/results/rest.json.
import { performance } from 'node:perf_hooks';
import { API } from '../contract';
import { benchDb, benchPostgres, benchServer, seedIdentities, summary, timed, writeResult } from './lib';

export const REST_LIST_P95_MS = 20;
export const REST_SEARCH_P95_MS = 50;

const LISTS = [
  `${API.identities}?page=0&size=20`, `${API.identities}?page=1&size=20`, `${API.identities}?page=0&size=50&sort=employeeNo,asc`,
  `${API.identities}?page=0&size=20&sort=validTo,desc`, `${API.identities}?page=0&size=20&sort=updatedAt,desc`,
  `${API.identities}?page=0&size=20&status=inactive`, `${API.identities}?page=20&size=100&sort=lastName,asc`,
];
const SEARCHES = [
  `${API.identities}?page=0&size=20&q=First1234`, `${API.identities}?page=0&size=20&q=EL-19999`, `${API.identities}?page=0&size=20&q=ELC-EL-4242`,
  `${API.identities}?page=0&size=20&q=CC-7`, `${API.identities}?page=0&size=20&q=Last77&status=active`, `${API.identities}?page=0&size=20&q=p31415%40bench`,
];

async function measure(b: Awaited<ReturnType<typeof benchDb>>, rows: number, operators: number, rounds: number) {
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

    // all operators at once: each alternates list pages and searches, its next request when the last is answered
    const busy = { list: [] as number[], search: [] as number[] };
    const t0 = performance.now();
    await Promise.all(tokens.map(async (token, op) => {
      for (let r = 0; r < rounds; r++) {
        const search = (op + r) % 2 === 1;
        const pool = search ? SEARCHES : LISTS;
        const p = pool[(op * 7 + r) % pool.length];
        const t = performance.now();
        await server.get(p, token);
        (search ? busy.search : busy.list).push(performance.now() - t);
      }
    }));
    const seconds = (performance.now() - t0) / 1000;
    const list = summary(busy.list);
    const search = summary(busy.search);
    return {
      database: b.db.kind, identities: rows, seedSeconds, operators,
      concurrent: {
        requests: busy.list.length + busy.search.length, seconds: Number(seconds.toFixed(1)),
        requestsPerSecond: Math.round((busy.list.length + busy.search.length) / seconds),
        'list page (ms)': list, 'search (ms)': search,
      },
      oneOperator: { 'list page (ms)': summary(alone.list), 'search (ms)': summary(alone.search) },
      'GET dashboard summary (ms)': await timed(20, () => server.get('/event/manage/dashboard', tokens[0])),
      'POST login (ms, scrypt)': await timed(20, () => server.login('operator')),
      met: list.p95 < REST_LIST_P95_MS && search.p95 < REST_SEARCH_P95_MS,
    };
  } finally {
    await server.close();
    await b.dispose();
  }
}

export async function rest(rows = Number(process.env.BENCH_REST_ROWS ?? 200_000), operators = Number(process.env.BENCH_REST_OPERATORS ?? 50), rounds = 20) {
  const pglite = await measure(await benchDb(), rows, operators, rounds);
  const url = process.env.BENCH_DATABASE_URL;
  const postgres = url ? await measure(await benchPostgres(url), rows, operators, rounds) : 'not measured: set BENCH_DATABASE_URL=postgres://… (a server where a database may be created)';
  return writeResult('rest', {
    pglite, postgres, lists: LISTS, searches: SEARCHES,
    target: { metric: `p95 while ${operators} operators send requests at once over ${rows.toLocaleString()} identities`, listP95AtMostMs: REST_LIST_P95_MS, searchP95AtMostMs: REST_SEARCH_P95_MS },
    met: pglite.met && (typeof postgres === 'string' || postgres.met),
  });
}
