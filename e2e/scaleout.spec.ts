// Scale-out (issue 13): two server processes over one PostgreSQL database and the RabbitMQ relay, as a large site
// runs them. A door forced through one server raises an alarm that a console on the other shows live; the operator
// acknowledges it there, and the first server answers it acknowledged. Runs where TEST_DATABASE_URL and
// STOMP_RELAY_TEST_URL exist (.ci/run provides both; playwright.config.ts leaves it out otherwise, except in CI, where it fails without them).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, test } from './fixtures';
import { signIn } from './helpers';
import { ownServer, type OwnServer } from './server';

const PG = process.env.TEST_DATABASE_URL!;
const MQ = process.env.STOMP_RELAY_TEST_URL!;

test('an alarm raised through one server shows live on a console of the other, and its acknowledgement comes back', async ({ page }) => {
  test.setTimeout(180_000);
  // in CI this spec runs whatever the environment (playwright.config.ts): a missing service fails it, never skips it
  if (!PG || !MQ) throw new Error('scale-out needs TEST_DATABASE_URL (PostgreSQL) and STOMP_RELAY_TEST_URL (RabbitMQ): .ci/run provides both');
  const name = `gh_scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(PG);
  u.pathname = `/${name}`;
  const env = { DATABASE_URL: u.toString(), STOMP_RELAY_URL: MQ, JWT_SECRET: 'scale-out-e2e-secret-of-enough-length' };
  const servers: OwnServer[] = [];
  try {
    servers.push(await ownServer('scale-a', env)); // migrates and seeds the database
    servers.push(await ownServer('scale-b', env)); // finds it ready
    const [a, b] = servers;
    const login = await (
      await fetch(`${b.url}/idp/1.0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'operator', password: 'Gatehouse1!' }),
      })
    ).json();
    const headers = { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' };
    const door = (await (await fetch(`${b.url}/event/manage/doors`, { headers })).json()).items[0];

    await signIn(page, 'operator', undefined, a.url);
    await page.goto(`${a.url}/monitor/alarms`);
    const rows = page.getByTestId('alarm-row').filter({ hasText: door.name });
    await expect(page.getByTestId('alarms-screen')).toBeVisible();
    await expect(page.getByTestId('socket-status')).toHaveText(/connected/);
    const before = await rows.count();
    const forced = await (
      await fetch(`${b.url}/api/test/simulate`, { method: 'POST', headers, body: JSON.stringify({ kind: 'door.forced', doorId: door.id }) })
    ).json();
    expect(forced.eventCode).toBeGreaterThan(0);
    // stored by B, published by B through RabbitMQ, delivered by A's broker to this console
    await expect(rows).toHaveCount(before + 1, { timeout: 20_000 });
    await rows.first().getByTestId('alarm-acknowledge').click();
    await expect
      .poll(
        async () => {
          const open = await (await fetch(`${b.url}/event/manage/alarms`, { headers })).json();
          return open.find((e: { id: number }) => e.id === Number(forced.id))?.acknowledge ?? null;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  } finally {
    for (const s of servers) await s.dispose();
    const drop = new pg.Client({ connectionString: PG });
    await drop.connect();
    await drop.query(`drop database if exists ${name} with (force)`);
    await drop.end();
  }
});
