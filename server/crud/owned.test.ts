// A catalogue row's children and refs fields are read for a whole page in one query (server/crud/plugin.ts,
// withOwned: each field one JSON array). Oracle: the same fields read one table at a time, as the plugin read them
// before, for every declaration that has such fields, on a list page and on the record itself. The demo data gives
// identities two credentials and access groups, schedules their windows, access groups their doors and members.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, columnOf, type Fields, type ResourceDeclaration } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let token: string;
let clientId: number;

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  clientId = (await s.call('GET', '/central/1.0/clients', { token: admin })).body.items.find((c: { code: string }) => c.code === 'NORTHWIND').id;
  token = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId } })).body.token;
});
afterAll(async () => {
  await s?.close();
});

const owning = CATALOGUE.filter((r) => Object.values(r.fields as Fields).some((f) => f.kind === 'children' || f.kind === 'refs'));

/** The owned fields of row `id`, one table at a time. */
async function oracle(r: ResourceDeclaration<any>, id: number): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(r.fields as Fields)) {
    if (f.kind === 'children') {
      const c = f.children!;
      const cols = Object.entries(c.fields).map(([ck, cf]) => `${columnOf(ck, cf)}${cf.kind === 'date' ? '::text' : ''} as "${ck}"`);
      out[k] = (await s.db.query(`select id, ${cols.join(', ')} from ${c.table} where ${c.parent} = $1 order by id`, [id])).rows;
    } else if (f.kind === 'refs') {
      const t = f.through!;
      out[k] = (await s.db.query<{ b: number }>(`select ${t.to} as b from ${t.table} where ${t.from} = $1 order by ${t.to}`, [id])).rows.map((x) => x.b);
    }
  }
  return out;
}

describe('children and refs fields, read for a page at once', () => {
  it('are each row\u2019s own, in order, on a list page and on the record, for every declaration that has them', async () => {
    const checked: Record<string, number> = {};
    for (const r of owning) {
      const page = await s.call('GET', `${r.api}?size=100`, { token });
      if (page.status !== 200) continue; // a platform-level list the client's token does not open
      // a tenant's settings (a singleton) answer their one row at the path itself
      const rows = (r.singleton ? [page.body] : page.body.items) as Array<Record<string, unknown>>;
      for (const row of rows) {
        const want = await oracle(r, row.id as number);
        const got = Object.fromEntries(Object.keys(want).map((k) => [k, row[k]]));
        expect(got, `${r.name} #${row.id} on its list page`).toEqual(want);
        const record = await s.call('GET', `${r.api}/${row.id}`, { token });
        expect(record.status).toBe(200);
        expect(Object.fromEntries(Object.keys(want).map((k) => [k, record.body[k]])), `${r.name} #${row.id}`).toEqual(want);
        // a row with something owned counts: the comparison saw real children or links
        if (Object.values(want).some((v) => (v as unknown[]).length > 0)) checked[r.name] = (checked[r.name] ?? 0) + 1;
      }
    }
    // the demo data exercises the declarations that matter most: more than one row each with children or links
    for (const name of ['identities', 'schedules', 'accessGroups']) expect(checked[name] ?? 0, name).toBeGreaterThan(1);
  });
});
