// REST latency against a 20,000-identity tenant (in-memory PGlite) → bench/results/rest.json.
import { startTestServer } from '../server/testkit';
import { timed, writeResult } from './lib';

export async function rest() {
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
    return writeResult('rest', {
      database: s.db.kind,
      identities: rows,
      'GET identities page of 100 (ms)': await timed(200, () => s.call('GET', '/event/manage/identities?page=3&size=100&sort=lastName,asc', { token })),
      'GET identities filtered (ms)': await timed(200, () => s.call('GET', '/event/manage/identities?q=Person%2019&size=100', { token })),
      'GET dashboard summary (ms)': await timed(200, () => s.call('GET', '/event/manage/dashboard', { token })),
      'POST login (ms, scrypt)': await timed(30, () => s.call('POST', '/idp/1.0/login', { body: { username: 'operator', password: 'Gatehouse1!' } })),
    });
  } finally {
    await s.close();
  }
}
