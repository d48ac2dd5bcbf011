// A catalogue list counts at most the count cap of matching rows (issue 11): below it the total is exact, above it
// the total is a lower bound (`totalIsAtLeast`), and the last page always tells the exact total. The cap is 5 here
// (LIST_COUNT_CAP is 10,000) so a handful of identities shows every case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

const CAP = 5;
let s: TestServer;
let token: string;
let all: number;
let clientId: number;

const list = async (query: string) => {
  const r = await s.call('GET', `${API.identities}?${query}`, { token });
  expect(r.status).toBe(200);
  return r.body as { items: { id: number; lastName: string }[]; total: number; totalIsAtLeast: boolean; page: number; size: number };
};

beforeAll(async () => {
  s = await startTestServer({ listCountCap: CAP });
  const admin = await s.login('admin');
  const clients = await s.call('GET', '/central/1.0/clients', { token: admin });
  clientId = clients.body.items[0].id as number;
  token = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId } })).body.token;
  // 4 "Fewer" (below the cap) and 9 "Plenty" (above it), in the client's first division
  await s.db.query(
    `insert into identities (client_id, first_name, last_name, employee_no, division_id)
    select $1, 'Cap', case when g <= 4 then 'Fewer' else 'Plenty' end, 'CAP-' || g, (select min(id) from divisions where client_id = $1)
    from generate_series(1, 13) g`,
    [clientId],
  );
  all = await s.count('select 1 from identities where client_id = $1', [clientId]);
  expect(all).toBeGreaterThan(CAP);
});
afterAll(async () => {
  await s?.close();
});

describe('the total of a catalogue list', () => {
  it('is exact when fewer rows than the cap match, on a full first page and on a short one', async () => {
    const counted = await list('q=Fewer&size=2');
    expect(counted.items).toHaveLength(2);
    expect(counted).toMatchObject({ total: 4, totalIsAtLeast: false });
    expect(await list('q=Fewer&size=10')).toMatchObject({ total: 4, totalIsAtLeast: false });
  });

  it('is the cap as a lower bound when more rows than the cap match', async () => {
    expect(await list('q=Plenty&size=2')).toMatchObject({ total: CAP, totalIsAtLeast: true });
    expect(await list('size=3')).toMatchObject({ total: CAP, totalIsAtLeast: true });
  });

  it('is exact again on the last page, however many rows match', async () => {
    const last = await list('q=Plenty&size=4&page=2');
    expect(last.items).toHaveLength(1);
    expect(last).toMatchObject({ total: 9, totalIsAtLeast: false });
    expect(await list(`size=10&page=${Math.floor((all - 1) / 10)}`)).toMatchObject({ total: all, totalIsAtLeast: false });
  });

  it('past the cap, says at least the rows up to this page and one more while there are more', async () => {
    const deep = await list('q=Plenty&size=3&page=1'); // rows 4–6 of 9, the cap is 5
    expect(deep.items).toHaveLength(3);
    expect(deep).toMatchObject({ total: 7, totalIsAtLeast: true });
  });

  it('pages through every matching row once, whatever the total says', async () => {
    const seen: number[] = [];
    for (let page = 0; ; page++) {
      const p = await list(`q=Plenty&size=2&page=${page}&sort=employeeNo,asc`);
      seen.push(...p.items.map((x) => x.id));
      if (!p.totalIsAtLeast && (page + 1) * 2 >= p.total) break;
    }
    expect(new Set(seen).size).toBe(9);
    expect(seen).toHaveLength(9);
  });

  it('keeps the asked order and pages of a search that found fewer rows than the cap', async () => {
    const first = await list('q=Fewer&size=2&sort=employeeNo,desc');
    const second = await list('q=Fewer&size=2&page=1&sort=employeeNo,desc');
    expect([...first.items, ...second.items].map((x) => (x as { employeeNo?: string }).employeeNo)).toEqual(['CAP-4', 'CAP-3', 'CAP-2', 'CAP-1']);
    expect(second).toMatchObject({ total: 4, totalIsAtLeast: false });
    expect((await list('q=Fewer&size=4&sort=divisionName,asc')).items).toHaveLength(4);
  });

  it('past the last page counts again, so the console can find the end', async () => {
    expect(await list('q=Fewer&size=2&page=5')).toMatchObject({ items: [], total: 4, totalIsAtLeast: false });
  });
});

describe('the q search of identities by credential number', () => {
  it("finds the identity holding the card, and never another tenant's", async () => {
    const pick = (sql: string) =>
      s.db.query<{ id: number; client_id: number }>(`select id, client_id from identities where ${sql} order by id limit 1`, [clientId]);
    const mine = (await pick('client_id = $1')).rows[0];
    const theirs = (await pick('client_id <> $1')).rows[0];
    await s.db.query(`insert into credentials (client_id, identity_id, type, number) values ($1, $2, 'card', 'CARD-XQ-1'), ($3, $4, 'card', 'CARD-XQ-2')`, [
      mine.client_id,
      mine.id,
      theirs.client_id,
      theirs.id,
    ]);
    const found = await list('q=card-xq');
    expect(found.items.map((x) => x.id)).toEqual([mine.id]);
    expect(found).toMatchObject({ total: 1, totalIsAtLeast: false });
  });

  it('still finds them when more than a thousand identities hold a matching card (read as a subquery)', async () => {
    await s.db.query(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id)
      select $1, 'Many', 'Cards', 'MC-' || g, (select min(id) from divisions where client_id = $1) from generate_series(1, 1001) g`,
      [clientId],
    );
    await s.db.query(
      `insert into credentials (client_id, identity_id, type, number)
      select $1, id, 'card', 'MANYCARD-' || id from identities where employee_no like 'MC-%'`,
      [clientId],
    );
    expect(await list('q=manycard&size=2')).toMatchObject({ total: CAP, totalIsAtLeast: true });
    const last = await list('q=manycard&size=100&page=10');
    expect(last.items).toHaveLength(1);
    expect(last).toMatchObject({ total: 1001, totalIsAtLeast: false });
  });
});

describe('the total of an unsearched, unfiltered identity list', () => {
  // read from the identities kept per division (migration 100), not counted: still exact, and still capped
  let t: TestServer;
  let op: string;
  let client: number;
  const whole = async () => {
    const r = await t.call('GET', `${API.identities}?size=2`, { token: op });
    expect(r.status).toBe(200);
    return r.body as { total: number; totalIsAtLeast: boolean };
  };
  const counted = () => t.count('select 1 from identities where client_id = $1', [client]);
  beforeAll(async () => {
    t = await startTestServer({ listCountCap: 1000 });
    const admin = await t.login('admin');
    client = (await t.call('GET', '/central/1.0/clients', { token: admin })).body.items[0].id as number;
    op = (await t.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: client } })).body.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('follows rows written outside the catalogue routes, and says "at least" past the cap', async () => {
    expect(await whole()).toEqual(expect.objectContaining({ total: await counted(), totalIsAtLeast: false }));
    await t.db.query(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id)
      select $1, 'Kept', 'Count' || g, 'KC-' || g, (select max(id) from divisions where client_id = $1) from generate_series(1, 7) g`,
      [client],
    );
    await t.db.query(`delete from identities where employee_no = 'KC-1'`);
    const now = await counted();
    expect(await whole()).toEqual(expect.objectContaining({ total: now, totalIsAtLeast: false }));
    await t.db.query(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id)
      select $1, 'Kept', 'Many' || g, 'KM-' || g, (select min(id) from divisions where client_id = $1) from generate_series(1, 1000) g`,
      [client],
    );
    expect(await whole()).toEqual(expect.objectContaining({ total: 1000, totalIsAtLeast: true }));
  });
});

describe('a broad q search (more matches than SEARCH_COUNT_CAP)', () => {
  // The search counts 3 matches at most first, walks 1 row of the asked order per row asked (a window of
  // offset + size + 1), and counts 8 at most when the window is too short: the three ways a search's page is read.
  let t: TestServer;
  let op: string;
  let client: number;
  const search = async (query: string) => {
    const r = await t.call('GET', `${API.identities}?${query}`, { token: op });
    expect(r.status).toBe(200);
    return r.body as { items: { id: number; employeeNo: string }[]; total: number; totalIsAtLeast: boolean };
  };
  /** The matching employee numbers in the asked order, read from the table. */
  const expected = async (lastName: string, dir: 'asc' | 'desc') =>
    (
      await t.db.query<{ employee_no: string }>(`select employee_no from identities where client_id = $1 and last_name = $2 order by employee_no ${dir}`, [
        client,
        lastName,
      ])
    ).rows.map((x) => x.employee_no);
  beforeAll(async () => {
    t = await startTestServer({ listCountCap: 8, searchCountCap: 3, searchWindowPerRow: 1 });
    const admin = await t.login('admin');
    client = (await t.call('GET', '/central/1.0/clients', { token: admin })).body.items[0].id as number;
    op = (await t.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: client } })).body.token;
    // employee numbers starting "0-" come first in ascending order and last in descending order
    await t.db.query(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id)
      select $1, 'Search', case when g <= 6 then 'Broad' else 'Wide' end, '0-' || case when g <= 6 then 'BR-' else 'WI-' end || lpad(g::text, 2, '0'),
        (select min(id) from divisions where client_id = $1) from generate_series(1, 16) g`,
      [client],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads the page from the asked order\'s first rows when they hold it, and says "at least" the count cap', async () => {
    const page = await search('q=Broad&size=2&sort=employeeNo,asc');
    expect(page.items.map((x) => x.employeeNo)).toEqual((await expected('Broad', 'asc')).slice(0, 2));
    expect(page).toMatchObject({ total: 3, totalIsAtLeast: true });
  });

  it('reads and counts the matches when the window is too short, and then knows the exact total', async () => {
    const page = await search('q=Broad&size=2&sort=employeeNo,desc');
    expect(page.items.map((x) => x.employeeNo)).toEqual((await expected('Broad', 'desc')).slice(0, 2));
    expect(page).toMatchObject({ total: 6, totalIsAtLeast: false });
  });

  it("pages in the asked order when more than the list's count cap match and the window is too short", async () => {
    const page = await search('q=Wide&size=3&sort=employeeNo,desc');
    expect(page.items.map((x) => x.employeeNo)).toEqual((await expected('Wide', 'desc')).slice(0, 3));
    expect(page).toMatchObject({ total: 8, totalIsAtLeast: true });
  });

  it('pages through every match once, in order, in both directions, whichever way each page was read', async () => {
    for (const [name, dir] of [
      ['Broad', 'asc'],
      ['Broad', 'desc'],
      ['Wide', 'asc'],
      ['Wide', 'desc'],
    ] as const) {
      const seen: string[] = [];
      for (let page = 0; page < 20; page++) {
        const p = await search(`q=${name}&size=2&page=${page}&sort=employeeNo,${dir}`);
        seen.push(...p.items.map((x) => x.employeeNo));
        if (!p.items.length || (!p.totalIsAtLeast && (page + 1) * 2 >= p.total)) break;
      }
      expect(seen).toEqual(await expected(name, dir));
    }
  });
});
