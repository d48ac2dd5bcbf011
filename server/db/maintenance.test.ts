import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';
import { vacuum } from './maintenance';

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.close(); });

describe('database maintenance', () => {
  it('vacuums and analyses the growing tables on the embedded database (PostgreSQL does it itself)', async () => {
    const logged: string[] = [];
    await vacuum(s.db, (m) => logged.push(m));
    expect(logged).toEqual([]);
    const { rows } = await s.db.query<{ n: string }>(`select count(*)::text n from pg_stat_user_tables where relname = 'events' and last_analyze is not null`);
    // on PGlite the pass analysed events; on PostgreSQL it is left to autovacuum (and did nothing)
    expect(Number(rows[0].n)).toBe(s.db.kind === 'pglite' ? 1 : 0);
    // and vacuumed the identities and credentials, whose capped list counts then read the index alone
    const vacuumed = await s.db.query<{ relname: string }>(`select relname from pg_stat_user_tables where relname in ('identities', 'credentials') and last_vacuum is not null order by relname`);
    expect(vacuumed.rows.map((r) => r.relname)).toEqual(s.db.kind === 'pglite' ? ['credentials', 'identities'] : []);
  });
});
