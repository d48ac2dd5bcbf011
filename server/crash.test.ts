// The kill -9 guarantee (issue 13): the real server (`server/main.ts`, embedded PGlite in a data directory) is
// killed with SIGKILL while identities with credentials are being written; after a restart on the same directory
// every write it acknowledged is there, whole, and no write is there by halves. Also: a data directory that
// cannot be written stops the start with a plain sentence instead of a stack trace.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API } from '../contract';
import { freePort } from '../edge/testPeers';
import { openPglite } from './db/db';
import { DEMO_PASSWORD } from './db/seed';
import { seededImage } from './testImage';
import { serverProcessArgs } from './processArgs';

const dir = mkdtempSync(join(tmpdir(), 'gh-crash-'));
const port = await freePort(); // from the system: a random number collided with other servers in CI
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: join(dir, 'data'),
  DATABASE_URL: '',
  STATIC_DIR: join(dir, 'no-console'),
  SIMULATOR: 'off',
  LOG: '0',
  RATE_LIMIT_MAX: '100000',
};
let child: ChildProcess | null = null;

async function start() {
  child = spawn(process.execPath, serverProcessArgs(), { env, stdio: 'ignore', detached: true });
  for (;;) {
    try {
      if ((await fetch(`${base}${API.health}`)).ok) return;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 200)); // polling for the server to answer, not waiting out a time
  }
}
async function kill() {
  const c = child;
  if (!c || c.exitCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  process.kill(-c.pid!, 'SIGKILL'); // the whole group: a crash, no goodbye
  await exited;
  child = null;
}
afterAll(async () => {
  await kill();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}
// the HR manager adds identities at Northwind
const login = async () => (await call('POST', API.login, null, { username: 'hr', password: DEMO_PASSWORD })).body.token as string;

describe('a server killed with SIGKILL while writing', () => {
  it('keeps every acknowledged identity whole after a restart, and no half-written one', async () => {
    // the data directory from the test run's migrated and seeded image (server/testkit.ts) when there is one: the server
    // then starts on a seeded database instead of migrating and seeding its own (7-10 s of processor time less)
    const image = process.env.GATEHOUSE_TEST_PGLITE_IMAGE;
    if (image) await (await openPglite(env.DATA_DIR, seededImage(image))).close();
    await start();
    let token = await login();
    const division = (await call('GET', API.divisions, token)).body.items[0].id;
    const acknowledged = new Map<string, number>();
    let sent = 0;
    let stop = false;
    // set just before the kill: the writers go on sending while the server dies, so some are mid-request
    let killing = false;
    let failed: Error | null = null;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const employeeNo = `CRASH-${w}-${i}`;
        sent++;
        try {
          const r = await call('POST', API.identities, token, {
            firstName: 'Crash',
            lastName: `Test ${w}-${i}`,
            employeeNo,
            divisionId: division,
            credentials: [
              { type: 'card', number: `${employeeNo}-A` },
              { type: 'pin', number: `${employeeNo}-B` },
            ],
          });
          if (r.status === 201) acknowledged.set(employeeNo, r.body.id);
          else if (!killing) throw new Error(`write answered ${r.status}: ${JSON.stringify(r.body)}`);
        } catch (e) {
          if (killing) continue; // from the kill on, a reset or refused connection is expected
          failed = e as Error;
          return;
        }
      }
    };
    const writers = [0, 1, 2].map(writer);
    while (acknowledged.size < 30 && !failed) await new Promise((r) => setTimeout(r, 20)); // until 30 writes are acknowledged
    if (failed) throw failed;
    killing = true;
    await kill(); // mid-flight: three writers have requests outstanding
    stop = true;
    await Promise.allSettled(writers);
    expect(sent).toBeGreaterThan(acknowledged.size);

    await start();
    token = await login();
    const stored = new Map<string, { id: number; credentials: number }>();
    for (let page = 0; ; page++) {
      const r = await call('GET', `${API.identities}?q=CRASH-&size=1000&page=${page}`, token);
      for (const i of r.body.items) stored.set(i.employeeNo, { id: i.id, credentials: i.credentials.length });
      if (r.body.items.length < 1000) break;
    }
    for (const [employeeNo, id] of acknowledged) expect(stored.get(employeeNo)?.id, employeeNo).toBe(id);
    for (const [employeeNo, s] of stored) expect(s.credentials, `${employeeNo} whole`).toBe(2);
    expect((await call('GET', API.health, null)).status).toBe(200);

    // a second server on the same data directory would open the embedded database beside the first and damage it (a
    // restart whose old process had not ended yet did): it refuses to start, the first goes on serving
    const second = spawnSync(process.execPath, serverProcessArgs(), {
      env: { ...env, PORT: String(port + 2) },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`Gatehouse cannot start: another Gatehouse server (process ${child!.pid}) is using the embedded database in`);
    expect((await call('GET', API.health, null)).status).toBe(200);
    expect((await call('GET', `${API.identities}?q=CRASH-&size=1`, token)).status).toBe(200);
    await kill();
  }, 400_000);

  it('says plainly at start-up that the data directory cannot be written', () => {
    // a path under a plain file cannot be created or written, whoever runs the test (root ignores permissions)
    writeFileSync(join(dir, 'a-file'), '');
    const target = join(dir, 'a-file', 'data');
    const r = spawnSync(process.execPath, serverProcessArgs(), {
      env: { ...env, DATA_DIR: target, PORT: String(port + 1) },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`Gatehouse cannot start: The data directory ${target}`);
    expect(r.stderr).toMatch(/writable DATA_DIR/);
  }, 200_000);
});
