// Issue 28: the tenant condition is applied by one helper (server/db/tenant.ts: tenant(), tenantOf()), never written
// by hand. A hand-written `client_id = $2` is where a tenant leak hides: a parameter moved, a copy that names the
// wrong place, a condition forgotten on one table of a join. This reads every server product file and names the
// file and line of each one; and checks, on the real database, that the helpers answer one tenant's rows.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';
import { tenant, tenantOf } from './tenant';

const SERVER = fileURLToPath(new URL('..', import.meta.url));

function productFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...productFiles(p));
    else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) out.push(p);
  }
  return out;
}

/** `client_id = $n` (any alias, any spacing); not `home_client_id = $2`, another column that merely ends so. */
const HAND_WRITTEN = /(?<![A-Za-z0-9_])client_id\s*=\s*\$\d/;

/** The helper itself writes the condition, and says in its comments what it writes. */
const ALLOWED = new Set(['db/tenant.ts']);

describe('the tenant condition', () => {
  it('is written by tenant() or tenantOf() in every server product file, never by hand', () => {
    const files = productFiles(SERVER);
    expect(files.length).toBeGreaterThan(100); // the walk found the server, not an empty folder
    const bad = files
      .filter((f) => !ALLOWED.has(relative(SERVER, f).split('\\').join('/')))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .flatMap((line, i) => (HAND_WRITTEN.test(line) ? [`server/${relative(SERVER, f).split('\\').join('/')}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(bad).toEqual([]);
  });

  it('sees a hand-written condition in any of its spellings, and not a column that only ends in client_id', () => {
    for (const sql of ['where client_id = $1', 'and d.client_id=$12', 'x.client_id  =  $3']) expect(HAND_WRITTEN.test(sql)).toBe(true);
    for (const sql of ['home_client_id = $2', 'selected_client_id = $2', 'client_id is null', 'client_id = any($1::int[])'])
      expect(HAND_WRITTEN.test(sql)).toBe(false);
  });
});

describe('tenant() and tenantOf() on the database', () => {
  let s: TestServer;
  let clients: number[];
  beforeAll(async () => {
    s = await startTestServer();
    clients = (await s.db.query<{ id: number }>('select id from clients order by id')).rows.map((r) => Number(r.id));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answer the rows of that client alone, the parameters in their places', async () => {
    expect(clients.length).toBeGreaterThan(1);
    for (const clientId of clients) {
      const params: unknown[] = [0];
      const { rows } = await s.db.query<{ client_id: number }>(`select client_id from doors where id > $1 and ${tenant(params, clientId)}`, params);
      expect(params).toEqual([0, clientId]);
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => Number(r.client_id)))).toEqual(new Set([clientId]));
    }
  });

  it('name one parameter on every table of a join (tenantOf), the same rows as the tables filtered one by one', async () => {
    const [clientId] = clients;
    const params: unknown[] = [];
    const own = tenantOf(params, clientId);
    params.push(0);
    expect(own('d')).toBe('d.client_id = $1');
    expect(own('r')).toBe('r.client_id = $1');
    const { rows } = await s.db.query<{ n: string }>(
      `select count(*)::text as n from card_readers r join doors d on d.id = r.door_id where ${own('r')} and ${own('d')} and r.id > $2`,
      params,
    );
    const { rows: alone } = await s.db.query<{ n: string }>(
      'select count(*)::text as n from card_readers r join doors d on d.id = r.door_id where r.client_id = $1 and d.client_id = $1',
      [clientId],
    );
    expect(Number(rows[0].n)).toBeGreaterThan(0);
    expect(rows[0].n).toBe(alone[0].n);
  });
});
