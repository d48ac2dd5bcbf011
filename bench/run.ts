// `npm run bench`: measures the real server over loopback and writes JSON to bench/results/.
// Numbers are measured, never asserted in tests; compare runs on the same machine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../server/testkit';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2));
};

async function timed(n: number, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return { n, p50: pct(samples, 50), p95: pct(samples, 95), p99: pct(samples, 99), max: pct(samples, 100) };
}

async function main() {
  const s = await startTestServer();
  try {
    const admin = await s.login('admin');
    const clients = await s.call('GET', '/central/1.0/clients', { token: admin });
    const token = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: clients.body.items[0].id } })).body.token;
    // grow the tenant to a realistic size in one statement per batch
    const rows = 20_000;
    await s.db.query(`insert into identities (client_id, first_name, last_name, employee_no, division_id)
      select $1, 'Bench', 'Person ' || g, 'BN-' || lpad(g::text, 6, '0'), (select min(id) from divisions where client_id = $1)
      from generate_series(1, $2) g`, [clients.body.items[0].id, rows]);
    const results = {
      at: new Date().toISOString(),
      machine: { node: process.version },
      database: s.db.kind,
      identities: rows,
      'GET identities page of 100 (ms)': await timed(200, () => s.call('GET', '/event/manage/identities?page=3&size=100&sort=lastName,asc', { token })),
      'GET identities filtered (ms)': await timed(200, () => s.call('GET', '/event/manage/identities?q=Person%2019&size=100', { token })),
      'GET dashboard summary (ms)': await timed(200, () => s.call('GET', '/event/manage/dashboard', { token })),
      'POST login (ms, scrypt)': await timed(30, () => s.call('POST', '/idp/1.0/login', { body: { username: 'operator', password: 'Gatehouse1!' } })),
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/rest.json', JSON.stringify(results, null, 2));
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await s.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
