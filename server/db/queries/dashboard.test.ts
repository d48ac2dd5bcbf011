// The dashboard's identity and active-credential counts are kept as rows change (migration 100, issue 13): after
// every kind of write they equal what counting every row says, per division, and a rolled-back write counts nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testkit';
import { dashboardParts } from './dashboard';

let s: TestServer;
let client: number;
let divisions: number[];
beforeAll(async () => {
  s = await startTestServer();
  client = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  divisions = (await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id', [client])).rows.map((r) => Number(r.id));
});
afterAll(async () => {
  await s?.close();
});

/** What the dashboard says for `divs`, and what counting every row says. */
async function both(divs: number[]) {
  const kept = await dashboardParts(s.db, client, [
    { part: 'identities', divisions: divs },
    { part: 'activeCredentials', divisions: divs },
  ]);
  const counted = {
    identities: await s.count('select 1 from identities where client_id = $1 and division_id = any($2::int[])', [client, divs]),
    activeCredentials: await s.count(
      `select 1 from credentials c join identities i on i.id = c.identity_id
      where c.client_id = $1 and c.status = 'active' and i.division_id = any($2::int[])`,
      [client, divs],
    ),
  };
  return { kept, counted };
}
async function expectExact() {
  for (const divs of [divisions, ...divisions.map((d) => [d])]) {
    const { kept, counted } = await both(divs);
    expect(kept).toEqual(counted);
  }
}

describe('the dashboard counts kept per division', () => {
  it('start equal to counting every row (the migration counted what was there)', async () => {
    const { kept } = await both(divisions);
    expect(kept.identities).toBeGreaterThan(0);
    expect(kept.activeCredentials).toBeGreaterThan(0);
    await expectExact();
  });

  it('follow inserts of identities and credentials, several in one statement', async () => {
    const before = (await both(divisions)).kept;
    await s.db.query(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id, status)
      select $1, 'Count', 'Test' || g, 'CT-' || g, ($2::int[])[1 + g % array_length($2::int[], 1)], 'active' from generate_series(1, 30) g`,
      [client, divisions],
    );
    await s.db.query(
      `insert into credentials (client_id, identity_id, type, number, status)
      select $1, id, 'card', 'CT-CARD-' || id, case when id % 3 = 0 then 'inactive' else 'active' end from identities where employee_no like 'CT-%'`,
      [client],
    );
    const after = (await both(divisions)).kept;
    expect(after.identities).toBe(before.identities! + 30);
    expect(after.activeCredentials).toBeGreaterThan(before.activeCredentials!);
    await expectExact();
  });

  it('follow a credential blocked and unblocked, given to another identity, and deleted', async () => {
    const card = Number(
      (await s.db.query<{ id: number }>(`select id from credentials where number like 'CT-CARD-%' and status = 'active' order by id limit 1`)).rows[0].id,
    );
    await s.db.query(`update credentials set status = 'inactive' where id = $1`, [card]);
    await expectExact();
    await s.db.query(`update credentials set status = 'active' where id = $1`, [card]);
    const other = Number(
      (
        await s.db.query<{ id: number }>(
          `select id from identities where client_id = $1 and division_id <> (select i.division_id from credentials c join identities i on i.id = c.identity_id where c.id = $2) order by id limit 1`,
          [client, card],
        )
      ).rows[0].id,
    );
    await s.db.query('update credentials set identity_id = $2 where id = $1', [card, other]);
    await expectExact();
    await s.db.query('delete from credentials where id = $1', [card]);
    await expectExact();
  });

  it('move an identity and its active credentials to its new division', async () => {
    const { rows } = await s.db.query<{ id: number; division_id: number }>(`select i.id, i.division_id from identities i
      where i.employee_no like 'CT-%' and exists (select 1 from credentials c where c.identity_id = i.id and c.status = 'active') order by i.id limit 1`);
    const to = divisions.find((d) => d !== Number(rows[0].division_id))!;
    const before = await both([to]);
    await s.db.query('update identities set division_id = $2 where id = $1', [rows[0].id, to]);
    const after = await both([to]);
    expect(after.kept.identities).toBe(before.kept.identities! + 1);
    expect(after.kept.activeCredentials).toBeGreaterThan(before.kept.activeCredentials!);
    await s.db.query(`update identities set last_name = last_name || '!' where employee_no like 'CT-%'`); // no move: nothing changes
    await expectExact();
  });

  it('take off a deleted identity together with the credentials the cascade deletes', async () => {
    await s.db.query(`delete from identities where employee_no in ('CT-3', 'CT-4', 'CT-5')`);
    await expectExact();
    await s.db.query(`delete from identities where employee_no like 'CT-%'`);
    await expectExact();
  });

  it('count nothing of a write that was rolled back', async () => {
    const before = (await both(divisions)).kept;
    await expect(
      s.db.transaction(async (tx) => {
        await tx.query(
          `insert into identities (client_id, first_name, last_name, employee_no, division_id, status) values ($1, 'Roll', 'Back', 'RB-1', $2, 'active')`,
          [client, divisions[0]],
        );
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await both(divisions)).kept).toEqual(before);
  });

  it('count nothing after the credentials, then the identities, are emptied (truncate)', async () => {
    await s.db.exec('truncate credentials');
    await expectExact();
    expect((await both(divisions)).kept.activeCredentials).toBe(0);
    await s.db.exec('truncate identities cascade');
    await expectExact();
    expect((await both(divisions)).kept).toEqual({ identities: 0, activeCredentials: 0 });
  });
});
