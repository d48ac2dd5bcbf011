import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';
import { aloneAmongServers, vacuum } from './maintenance';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe('database maintenance', () => {
  it('vacuums and analyses the growing tables on the embedded database (PostgreSQL does it itself)', async () => {
    const logged: string[] = [];
    await vacuum(s.db, (m) => logged.push(m));
    expect(logged).toEqual([]);
    const { rows } = await s.db.query<{ n: string }>(`select count(*)::text n from pg_stat_user_tables where relname = 'events' and last_analyze is not null`);
    // on PGlite the pass analysed events; on PostgreSQL it is left to autovacuum (and did nothing)
    expect(Number(rows[0].n)).toBe(s.db.kind === 'pglite' ? 1 : 0);
    // and vacuumed the identities and credentials, whose capped list counts then read the index alone
    const vacuumed = await s.db.query<{ relname: string }>(
      `select relname from pg_stat_user_tables where relname in ('identities', 'credentials') and last_vacuum is not null order by relname`,
    );
    expect(vacuumed.rows.map((r) => r.relname)).toEqual(s.db.kind === 'pglite' ? ['credentials', 'identities'] : []);
  });

  it('runs an hourly job on one server at a time when several share PostgreSQL (always on the embedded database)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let runs = 0;
    const first = aloneAmongServers(s.db, 'test-job', async () => {
      runs += 1;
      await held;
      return 'first';
    });
    // the job has started, so the first server holds the lock (a 100 ms sleep stood here: on a loaded machine the
    // second could ask first)
    await expect.poll(() => runs, { timeout: 10_000, interval: 5 }).toBe(1);
    if (s.db.kind === 'postgres') {
      // the second server asks while the first still works: it does not run the job
      expect(
        await aloneAmongServers(s.db, 'test-job', async () => {
          runs += 1;
          return 'second';
        }),
      ).toBeNull();
      release();
      expect(await first).toBe('first');
      expect(runs).toBe(1);
      // once the first is done, the next pass runs
      expect(await aloneAmongServers(s.db, 'test-job', async () => 'next')).toBe('next');
    } else {
      release();
      expect(await first).toBe('first');
      expect(await aloneAmongServers(s.db, 'test-job', async () => 'next')).toBe('next');
    }
  });
});
