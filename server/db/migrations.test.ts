// Migrations that give roles new privileges must work on a database that has roles (an upgrade), not only on a fresh
// one, where they find no role and do nothing. Each client's role is a row of its own (migration 040: role_id is
// required), so a grant written by role code only fails on every real install: 150, 151 and 152 did, and would have
// stopped an upgraded server at start. Every such migration is run again here on the seeded demo database (in a
// transaction rolled back after), generated from the migrations folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from './migrate';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const ROLLBACK = new Error('rolled back on purpose');
const granting = loadMigrations().filter((m) => m.id >= 141 && /insert\s+into\s+role_privileges/i.test(m.sql));

describe('migrations that grant privileges, on a database with roles (an upgrade)', () => {
  it('finds them (a rename of the folder or the statement would leave this test with nothing to run)', () => {
    expect(granting.map((m) => m.id)).toEqual(expect.arrayContaining([141, 150, 151, 152, 175]));
  });
  for (const m of granting) {
    it(`${m.id}_${m.name} runs on the seeded demo roles, each grant on a client's role`, async () => {
      expect(await s.count('select 1 from role_privileges')).toBeGreaterThan(0);
      let nulls = -1;
      await s.db
        .transaction(async (tx) => {
          await tx.exec(m.sql);
          nulls = Number((await tx.query<{ n: string }>('select count(*)::text n from role_privileges where role_id is null')).rows[0].n);
          throw ROLLBACK;
        })
        .catch((e) => {
          if (e !== ROLLBACK) throw e;
        });
      expect(nulls).toBe(0);
    });
  }
});
