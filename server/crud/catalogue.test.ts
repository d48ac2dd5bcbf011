// Tests generated from the catalogue: every served resource gets the same checks from its declaration alone —
// audit rows, tenant isolation, division scope, sort and filter allow-lists, violations per field, the stale-edit
// 409, pickers' options, the export, and the 409 for deleting a row another resource still references.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATALOGUE,
  columnOf,
  filterableFields,
  labelOf,
  resourceByName,
  sortableFields,
  type AnyField,
  type Fields,
  type ResourceDeclaration,
} from '../../contract';
import { API, PATTERN_PREFIX } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string; // admin, Northwind selected (platform operator too)
let hb: string; // Harbour's administrator
let northwind: number;
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const served = CATALOGUE.filter((r) => r.routes !== false);
const fieldsOf = (r: ResourceDeclaration<any>) => Object.entries(r.fields as Fields);
const writable = (r: ResourceDeclaration<any>) => fieldsOf(r).filter(([, f]) => !f.readOnly && !f.virtual);
const entityOf = (r: ResourceDeclaration<any>) => r.label.one.toLowerCase();

let counter = 0;
const numberSeq = new Map<AnyField, number>();
const next = () => ++counter;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

function textFor(f: AnyField): string {
  const n = next();
  const candidates = [
    `Test ${n}`,
    `T-${n}`,
    `+1 555 ${n}`,
    `https://example.test/${n}`,
    `Test sample of some length ${n}`,
    ...(f.placeholder ? [f.placeholder] : []),
  ];
  const ok = candidates.find((c) => (!f.pattern || f.pattern.test(c)) && c.length <= (f.max ?? 200) && c.length >= (f.min ?? 0));
  if (!ok) throw new Error(`no sample text for ${f.label}`);
  return ok;
}
async function refId(target: string, token: string): Promise<number> {
  const t = resourceByName(target)!;
  const r = await s.call('GET', `${t.api}?size=1`, { token });
  if (r.body.items?.[0]) return r.body.items[0].id;
  // nothing seeded to point at (web hooks): make one from its own declaration
  return (await create(t, {}, token)).row.id;
}
/** `taken`: the values a unique field already holds in the resource (the demo data's, earlier tests'): none is drawn. */
async function valueFor(f: AnyField, token: string, taken: ReadonlySet<unknown> = new Set()): Promise<unknown> {
  switch (f.kind) {
    case 'text':
      return textFor(f);
    case 'email':
      return `t${next()}@example.test`;
    // each field counts up from its minimum (rows that must differ per parent, an interface's bus address, do)
    case 'number': {
      // a unique number (a threat level's rank) differs per row; others take their default
      if (f.default !== undefined && !f.unique) return f.default as number;
      const min = f.min ?? 1;
      const span = f.max !== undefined ? f.max - min + 1 : Infinity;
      // a unique one is a value the resource does not hold yet (the demo data holds threat levels of rank 1 and 3)
      for (let tries = 0; ; tries++) {
        const n = numberSeq.get(f) ?? 0;
        numberSeq.set(f, n + 1);
        const v = min + (n % span);
        if (!taken.has(v) || tries >= span) return v;
      }
    }
    case 'date':
      return tomorrow();
    // tomorrow, each field a minute later than the one declared before it (a start, then its end)
    case 'datetime':
      return new Date(Date.now() + 86_400_000 + next() * 60_000).toISOString();
    case 'choice':
      return f.default ?? f.choices![0].value;
    case 'switch':
      return true;
    case 'timezone':
      return 'UTC';
    case 'image':
      return PNG;
    case 'file':
      return `data:application/octet-stream;base64,${Buffer.from(`firmware ${next()}`).toString('base64')}`;
    case 'ref':
      return f.required ? refId(f.target!, token) : undefined;
    case 'refs':
      return [];
    case 'children': {
      const row: Record<string, unknown> = {};
      for (const [k, cf] of Object.entries(f.children!.fields)) if (!cf.readOnly) row[k] = await valueFor(cf, token);
      return [row];
    }
    default:
      return undefined;
  }
}
async function sample(r: ResourceDeclaration<any>, token = nw): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of writable(r)) {
    const taken =
      f.unique && f.kind === 'number'
        ? new Set(((await s.call('GET', `${r.api}?size=1000`, { token })).body.items ?? []).map((row: any) => row[k]))
        : undefined;
    const v = await valueFor(f, token, taken);
    if (v !== undefined) out[k] = v;
  }
  // a field a shared rule requires for the values chosen (a pulse needs its output) is filled like a required one
  for (const rule of r.rules ?? []) {
    if (rule.kind !== 'requiredWhen' || !rule.values.includes(String(out[rule.other] ?? '')) || out[rule.field] !== undefined) continue;
    const f = (r.fields as Fields)[rule.field];
    out[rule.field] = f.kind === 'ref' ? await refId(f.target!, token) : await valueFor(f, token);
  }
  if (r.extensible) {
    // the tenant's required user-defined fields (other generated tests declare some) get a value of their type
    const defs = (await s.call('GET', `${API.userFields}?size=1000`, { token })).body.items ?? [];
    out.udf = Object.fromEntries(
      defs
        .filter((d: any) => d.required)
        .map((d: any) => [
          d.key,
          d.kind === 'number'
            ? 1
            : d.kind === 'date'
              ? tomorrow()
              : d.kind === 'choice'
                ? String(d.options).split('\n')[0].trim()
                : 'x'.slice(0, d.maxLength ?? 1),
        ]),
    );
  }
  return out;
}
async function create(r: ResourceDeclaration<any>, over: Record<string, unknown> = {}, token = nw) {
  const input = { ...(await sample(r, token)), ...over };
  const res = await s.call('POST', r.api, { token, body: input });
  if (res.status !== 201) throw new Error(`create ${r.name}: ${res.status} ${JSON.stringify(res.body)}`);
  return { input, row: res.body };
}

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  northwind = (await s.call('GET', '/central/1.0/clients', { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
});
afterAll(async () => {
  await s?.close();
});

/** The list's search box finds `row` by its title's text (what a person types), and nothing by words no row has. */
async function searchFinds(r: (typeof CATALOGUE)[number], row: Record<string, any>) {
  const fields = r.fields as Record<string, { kind: string; virtual?: boolean }>;
  const textual = (k: string) => ['text', 'email'].includes(fields[k]?.kind) && !fields[k]?.virtual;
  const none = await s.call('GET', `${r.api}?q=${encodeURIComponent('no row says zqxj')}`, { token: nw });
  expect(none.status).toBe(200);
  expect(none.body.items).toEqual([]);
  const title = r.list.title
    .filter(textual)
    .map((k) => row[k])
    .find((v): v is string => typeof v === 'string' && v.length >= 3);
  if (!title) return; // a title of numbers or choices: what its search finds is its declaration's (searchable fields)
  const found = await s.call('GET', `${r.api}?q=${encodeURIComponent(title)}&size=100`, { token: nw });
  expect(found.status).toBe(200);
  expect(found.body.items.map((x: { id: number }) => x.id)).toContain(row.id);
}

describe.each(served.filter((r) => r.privileges.add).map((r) => [r.name, r] as const))('%s (generated from its declaration)', (_name, r) => {
  it('creates a row and writes one audit row with before/after, leaving out the fields the declaration omits', async () => {
    const { row } = await create(r);
    const audit = await s.db.query<any>('select action, before, after from audit_log where entity = $1 and entity_id = $2', [entityOf(r), String(row.id)]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ action: 'create', before: null });
    expect(audit.rows[0].after.id).toBe(row.id);
    const secrets = Object.entries(r.fields as Fields)
      .filter(([, f]) => f.writeOnly)
      .map(([k]) => k);
    for (const k of r.audit?.omit ?? []) if (!secrets.includes(k)) expect([null, `(${k})`]).toContain(audit.rows[0].after[k]);
    // a write-only field (a secret) is in no answer and no audit row
    for (const k of secrets) {
      expect(row).not.toHaveProperty(k);
      expect(audit.rows[0].after).not.toHaveProperty(k);
    }
  });

  it("answers 404 for another tenant's id on get, update and delete, and changes nothing", async () => {
    const { input, row } = await create(r);
    expect((await s.call('GET', `${r.api}/${row.id}`, { token: hb })).status).toBe(404);
    if (r.privileges.edit) expect((await s.call('PUT', `${r.api}/${row.id}`, { token: hb, body: input })).status).toBe(404);
    if (r.privileges.delete) {
      expect((await s.call('DELETE', `${r.api}/${row.id}`, { token: hb })).status).toBe(404);
      expect((await s.call('POST', `${r.api}/bulk-delete`, { token: hb, body: { ids: [row.id] } })).status).toBe(404);
    }
    const list = await s.call('GET', `${r.api}?size=1000`, { token: hb });
    expect(list.body.items.some((x: any) => x.id === row.id)).toBe(false);
    const still = await s.call('GET', `${r.api}/${row.id}`, { token: nw });
    expect(still.status).toBe(200);
    expect(still.body.updatedAt ?? null).toBe(row.updatedAt ?? null);
  });

  // a hand-written list (`routes: { list: false }`, the live doors) sorts and filters by its own rules
  const listed = typeof r.routes !== 'object';
  if (listed)
    it('sorts by every declared sortable field, and refuses any other field with 400', async () => {
      await create(r);
      for (const k of sortableFields(r)) {
        for (const dir of ['asc', 'desc']) {
          const res = await s.call('GET', `${r.api}?size=50&sort=${k},${dir}`, { token: nw });
          expect([k, dir, res.status]).toEqual([k, dir, 200]);
        }
      }
      const ids = (await s.call('GET', `${r.api}?size=50&sort=id,desc`, { token: nw })).body.items.map((x: any) => x.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const unsortable = [
        ...fieldsOf(r)
          .filter(([, f]) => !f.sort)
          .map(([k]) => k),
        'password',
      ];
      for (const k of unsortable) {
        const res = await s.call('GET', `${r.api}?sort=${k},asc`, { token: nw });
        expect([k, res.status]).toEqual([k, 400]);
        expect(res.body.violations[0].field).toBe('sort');
      }
    });

  // a title of several text fields ("Abdullah, Aisha"): a sort by its first field sorts by the whole title
  const title = r.list.title as readonly string[];
  const textTitle = title.length > 1 && title.every((k) => (r.fields as Fields)[k]?.kind === 'text' && (r.fields as Fields)[k]?.sort);
  if (listed && textTitle && (r.fields as Fields)[title[0]]?.search)
    it(`sorts by its title's first field as by the whole title (${title.join(', ')}), both ways`, async () => {
      const same = `Sortcheck ${next()}`;
      // the second field's later value made first: an order by the first field alone (and the id) puts it first
      const made = [];
      for (const second of ['Zed', 'Amy', 'Max']) made.push((await create(r, { [title[0]]: same, [title[1]]: second })).row.id);
      for (const dir of ['asc', 'desc'] as const) {
        const res = await s.call('GET', `${r.api}?size=50&q=${encodeURIComponent(same)}&sort=${title[0]},${dir}`, { token: nw });
        expect(res.status).toBe(200);
        const seconds = res.body.items.filter((x: any) => x[title[0]] === same).map((x: any) => x[title[1]]);
        expect([dir, seconds]).toEqual([dir, dir === 'asc' ? ['Amy', 'Max', 'Zed'] : ['Zed', 'Max', 'Amy']]);
      }
      for (const id of made) await s.call('DELETE', `${r.api}/${id}`, { token: nw });
    });

  if (listed)
    it('filters by every declared filter, and refuses a value of the wrong kind with 400', async () => {
      // every filterable reference filled, optional ones too (an empty one cannot be asked for in a query)
      const refs: Record<string, unknown> = {};
      for (const k of filterableFields(r)) {
        const f = (r.fields as Fields)[k];
        if (f.kind === 'ref' && !f.required) refs[k] = await refId(f.target!, nw);
      }
      const { row } = await create(r, refs);
      for (const k of filterableFields(r)) {
        const res = await s.call('GET', `${r.api}?size=1000&${k}=${encodeURIComponent(String(row[k]))}`, { token: nw });
        expect(res.status).toBe(200);
        expect(res.body.items.map((x: any) => x.id)).toContain(row.id);
        expect(res.body.items.every((x: any) => x[k] === row[k])).toBe(true);
        expect((await s.call('GET', `${r.api}?${k}=not%20a%20value`, { token: nw })).status).toBe(400);
      }
    });

  it('names the field of every violation (required, max length, pattern, unique) and writes nothing', async () => {
    const rows = await s.count(`select * from ${r.table}`);
    const audits = await s.count('select * from audit_log');
    const expectViolation = async (body: Record<string, unknown>, field: string, why: string) => {
      const res = await s.call('POST', r.api, { token: nw, body });
      expect([why, res.status]).toEqual([why, 400]);
      expect([why, res.body.violations.map((v: any) => v.field)]).toEqual([why, expect.arrayContaining([field])]);
      // issue 48: the refusal and each of its violations carry their key, which the console says (never their English);
      // a pattern's ("is not in the expected form: <the help's format>") too, the help's catalogue key a value of it
      expect([
        why,
        res.body.code,
        res.body.violations.filter((v: any) => typeof v.code !== 'string' || !v.values).map((v: any) => `${v.field} ${v.message}`),
      ]).toEqual([why, 'request.invalid', []]);
      for (const v of res.body.violations.filter((x: any) => x.message.startsWith(PATTERN_PREFIX)))
        expect([why, v.code, v.values['format:code']]).toEqual([why, 'text.notInForm', `resource.${r.name}.help.${v.field}`]);
      return res.body.violations.find((v: any) => v.field === field);
    };
    for (const [k, f] of writable(r)) {
      if (f.required && f.default === undefined && f.kind !== 'children' && f.kind !== 'refs') {
        const body = await sample(r);
        delete body[k];
        await expectViolation(body, k, `${k} required`);
      }
      if (f.kind === 'text' && f.max) await expectViolation({ ...(await sample(r)), [k]: 'A'.repeat(f.max + 1) }, k, `${k} max`);
      if (f.pattern) {
        const bad = ['lower case!', '<@>'].find((c) => !f.pattern!.test(c))!;
        await expectViolation({ ...(await sample(r)), [k]: bad }, k, `${k} pattern`);
      }
      // issue 45: every uploaded image or file (photos, floor plans, firmware) cut short or damaged is refused on its field
      if (f.kind === 'image' || f.kind === 'file') {
        const [prefix, base64] = String(await valueFor(f, nw)).split(',');
        const bytes = Buffer.from(base64, 'base64');
        const half = Math.floor(base64.length / 2);
        const cutBase64 = base64.slice(0, half % 4 ? half : half - 1); // cut in the middle of a group of four characters
        await expectViolation({ ...(await sample(r)), [k]: `${prefix},${cutBase64}` }, k, `${k} cut mid-base64`);
        if (f.kind === 'image')
          for (const at of [1, Math.floor(bytes.length / 2), bytes.length - 1])
            await expectViolation({ ...(await sample(r)), [k]: `${prefix},${bytes.subarray(0, at).toString('base64')}` }, k, `${k} image cut at ${at}`);
      }
    }
    expect(await s.count(`select * from ${r.table}`)).toBe(rows);
    expect(await s.count('select * from audit_log')).toBe(audits);
    for (const [k, f] of writable(r)) {
      if (f.unique) {
        const { input } = await create(r);
        const v = await expectViolation({ ...(await sample(r)), [k]: input[k] }, k, `${k} unique`);
        expect(v.message).toBe(f.uniqueMessage ?? `is already used by another ${entityOf(r)}`);
        // issue 48: said by its key, the declaration's own sentence by its catalogue key (src/i18n/catalogue.ts catKey.unique)
        expect([k, v.code, v.values]).toEqual([
          k,
          f.uniqueMessage ? `resource.${r.name}.unique.${k}` : 'record.alreadyUsed',
          f.uniqueMessage ? {} : { what: entityOf(r) },
        ]);
      }
      if (f.kind === 'children') {
        for (const [ck, cf] of Object.entries(f.children!.fields)) {
          if (!cf.unique) continue;
          const { input } = await create(r);
          const taken = (input[k] as any[])[0][ck];
          const body = await sample(r);
          (body[k] as any[])[0][ck] = taken;
          const v = await expectViolation(body, `${k}.0.${ck}`, `${k}.${ck} unique`);
          expect(v.message).toBe(cf.uniqueMessage ?? `is already used by another ${entityOf(r)}`);
          expect([ck, v.code]).toEqual([ck, cf.uniqueMessage ? `resource.${r.name}.child.${k}.unique.${ck}` : 'record.alreadyUsed']);
          const twice = await sample(r);
          (twice[k] as any[]).push({ ...(twice[k] as any[])[0] });
          expect((await expectViolation(twice, `${k}.1.${ck}`, `${k}.${ck} repeated`)).code).toBe('list.repeatedInForm');
        }
      }
    }
  });

  if (r.privileges.edit && r.timestamps)
    it('refuses a stale edit with 409 and keeps the newer row', async () => {
      const { input, row } = await create(r);
      const first = await s.call('PUT', `${r.api}/${row.id}`, { token: nw, body: { ...input, updatedAt: row.updatedAt } });
      expect(first.status).toBe(200);
      const stale = await s.call('PUT', `${r.api}/${row.id}`, { token: nw, body: { ...input, updatedAt: row.updatedAt } });
      expect(stale.status).toBe(409);
      expect(stale.body.message).toMatch(/changed .* since you opened it/);
      expect((await s.call('GET', `${r.api}/${row.id}`, { token: nw })).body.updatedAt).toBe(first.body.updatedAt);
    });

  it('answers pickers with id and title, only inside the caller\u2019s scope', async () => {
    const { row } = await create(r);
    const mine = await s.call('GET', `${r.api}/options?ids=${row.id}`, { token: nw });
    expect(mine.status).toBe(200);
    // the detail that tells namesakes apart is checked in options.test.ts; here: text or nothing, beside id and title
    expect(mine.body.items).toEqual([
      { id: row.id, label: r.list.title.map((k) => row[k] ?? '').join(', '), detail: expect.toSatisfy((d: unknown) => d === null || typeof d === 'string') },
    ]);
    expect((await s.call('GET', `${r.api}/options?ids=${row.id}`, { token: hb })).body.items).toEqual([]);
  });

  // (a list the catalogue does not serve, as the live doors screen's, searches in the console)
  if ((r.routes as { list?: boolean } | undefined)?.list !== false)
    it('finds the row it made by a word of its title in the list’s search box, and nothing by a word no row has', async () => {
      await searchFinds(r, (await create(r)).row);
    });

  if (r.export?.length)
    it('exports the filtered rows as CSV (formulas neutralised) and NDJSON, audited', async () => {
      // a searchable text field (the export's q searches those), else any free text field
      const free = writable(r).filter(([, f]) => f.kind === 'text' && !f.pattern && !f.unique);
      const [k] = free.find(([, f]) => f.search) ?? free[0];
      const { row } = await create(r, { [k]: '=HYPERLINK("x")' });
      const csv = await fetch(`${s.base}${r.api}/export?format=csv&q=HYPERLINK`, { headers: { authorization: `Bearer ${nw}` } });
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const text = await csv.text();
      expect(text.split('\r\n')[0].split(',')[0]).toBe('id');
      expect(text).toContain(`${row.id},`);
      expect(text).toContain(`"'=HYPERLINK(""x"")"`);
      const nd = await fetch(`${s.base}${r.api}/export?format=ndjson&q=HYPERLINK`, { headers: { authorization: `Bearer ${nw}` } });
      const lines = (await nd.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.id)).toContain(row.id);
      expect((await s.call('GET', `${r.api}/export?format=xml`, { token: nw })).status).toBe(400);
      // for a person: the header names the columns as the screens do
      const titled = await (await fetch(`${s.base}${r.api}/export?format=csv&titles=1&q=HYPERLINK`, { headers: { authorization: `Bearer ${nw}` } })).text();
      const first = titled.split('\r\n')[0].split(',');
      expect(first[0]).toBe('Id');
      expect(first).toContain(labelOf(k, (r.fields as Fields)[k]));
      expect(titled.split('\r\n').slice(1).join('\r\n')).toBe(text.split('\r\n').slice(1).join('\r\n'));
      expect((await s.call('GET', `${r.api}/export?format=csv&titles=maybe`, { token: nw })).status).toBe(400);
      expect(await s.count("select * from audit_log where action = 'export' and entity = $1", [r.name])).toBeGreaterThanOrEqual(2);
    });
});

// a division-scoped resource: a user whose grant covers one branch of the tree sees, changes and creates only there
describe.each(served.filter((r) => r.scope.division && r.privileges.add).map((r) => [r.name, r] as const))('%s division scope (generated)', (_name, r) => {
  it('hides rows outside the grant\u2019s divisions (404) and refuses to put a row there', async () => {
    // a division itself (scope 'id') is placed by its parent: the field that puts a row somewhere
    const own = r.scope.division === 'id';
    const divField = own ? fieldsOf(r).find(([, f]) => f.kind === 'ref' && f.target === r.name)![0] : r.scope.division!;
    const all = (await s.call('GET', '/event/manage/divisions', { token: nw })).body.items as { id: number; parentId: number | null }[];
    const branch = all.find((d) => d.parentId !== null && all.some((c) => c.parentId === d.id))!;
    const covered = all.filter((d) => d.id === branch.id || d.parentId === branch.id).map((d) => d.id);
    const outside = all.find((d) => !covered.includes(d.id))!.id;
    const name = `scoped-${r.name}`.toLowerCase();
    const user = await s.db.query<{ id: number }>(
      `insert into users (username, password_hash, name, selected_client_id, home_client_id)
      select $1, password_hash, 'Scoped', $2, $2 from users where username = 'hr' returning id`,
      [name, northwind],
    );
    await s.db.query(`insert into user_grants (user_id, role_code, client_id, division_id) values ($1, 'administrator', $2, $3)`, [
      user.rows[0].id,
      northwind,
      branch.id,
    ]);
    const token = await s.login(name);
    const { input, row } = await create(r, { [divField]: outside });
    expect((await s.call('GET', `${r.api}/${row.id}`, { token })).status).toBe(404);
    if (r.privileges.edit) expect((await s.call('PUT', `${r.api}/${row.id}`, { token, body: input })).status).toBe(404);
    if (r.privileges.delete) expect((await s.call('DELETE', `${r.api}/${row.id}`, { token })).status).toBe(404);
    const list = await s.call('GET', `${r.api}?size=1000`, { token });
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(list.body.items.every((x: any) => covered.includes(own ? x.id : x[divField]))).toBe(true);
    const inside = await s.call('POST', r.api, { token, body: { ...(await sample(r)), [divField]: covered[1] ?? covered[0] } });
    expect(inside.status).toBe(201);
    const refused = await s.call('POST', r.api, { token, body: { ...(await sample(r)), [divField]: outside } });
    expect(refused.status).toBe(400);
    expect(refused.body.violations).toEqual([
      { field: divField, message: 'is not a division you may use', code: 'record.notYoursToUse', values: { what: 'division' } },
    ]);
  });
});

// a resource that is enrolled, not typed in (controllers): edit-only, on the rows that exist
// issue 50: list scopes bound to the signed-in user (server/crud/scopes.ts): the admin is made the identity of a row's
// person (by e-mail, as an operator is linked to a member of staff) for the length of the test
describe.each(served.filter((r) => r.scopes?.length && r.privileges.add).map((r) => [r.name, r] as const))('%s scopes (generated)', (_name, r) => {
  it('answers each declared scope with rows of its own tenant’s list only, the user’s own under mine and never under an approvable one; an undeclared scope is 400', async () => {
    const person = r.scopes!.find((x) => x.kind === 'mine')?.person ?? r.scopes![0].person;
    const [me] = (await s.db.query<{ id: number; email: string }>(`select id, email from users where username = 'admin'`)).rows;
    const ident = await refId((r.fields as Fields)[person].target!, nw);
    const [{ email: kept }] = (await s.db.query<{ email: string | null }>('select email from identities where id = $1', [ident])).rows;
    await s.db.query(`update identities set email = $2 where id = $1`, [ident, me.email]);
    try {
      const mine = (await create(r, { [person]: ident })).row.id;
      const ids = async (token: string, q = '') => ((await s.call('GET', `${r.api}?size=1000${q}`, { token })).body.items as { id: number }[]).map((x) => x.id);
      const whole = new Set(await ids(nw));
      const other = new Set(await ids(hb));
      for (const sc of r.scopes!) {
        const scoped = await ids(nw, `&scope=${sc.name}`);
        for (const id of scoped) expect(whole.has(id), `${sc.name}: row ${id} is not in the list`).toBe(true);
        if (sc.kind === 'mine') {
          expect(scoped).toContain(mine);
          const theirs = (
            await s.db.query(`select 1 from ${r.table} where id = any($1::int[]) and ${columnOf(sc.person, (r.fields as Fields)[sc.person])} <> $2`, [
              scoped,
              ident,
            ])
          ).rows;
          expect(theirs.length, `${sc.name} shows another person’s rows`).toBe(0);
        } else expect(scoped, `${sc.name} shows the user’s own row`).not.toContain(mine);
        for (const id of await ids(hb, `&scope=${sc.name}`)) expect(whole.has(id)).toBe(false);
        expect([...other].some((id) => scoped.includes(id))).toBe(false);
      }
      expect((await s.call('GET', `${r.api}?scope=everyone`, { token: nw })).status).toBe(400);
    } finally {
      await s.db.query('update identities set email = $2 where id = $1', [ident, kept]);
    }
  });
});

describe.each(served.filter((r) => !r.privileges.add && r.privileges.edit && !r.singleton).map((r) => [r.name, r] as const))(
  '%s, edit only (generated)',
  (_name, r) => {
    it('edits an existing row with an audit row; another tenant\u2019s id is 404; a bad value is named; there is no create', async () => {
      const [row] = (await s.call('GET', `${r.api}?size=1`, { token: nw })).body.items;
      expect(row).toBeDefined();
      const input = Object.fromEntries(writable(r).map(([k]) => [k, row[k]]));
      // a text field gets a suffix; a resource of numbers only (an interface's timing) gets another number in range
      const text = writable(r).find(([, f]) => f.kind === 'text' && !f.pattern);
      const [k, nf] = text ?? writable(r).find(([, f]) => f.kind === 'number')!;
      const edited = text ? `${row[k]} (edited)` : row[k] === (nf.min ?? 0) ? (nf.max ?? (nf.min ?? 0) + 1) : (nf.min ?? 0);
      const changed = await s.call('PUT', `${r.api}/${row.id}`, { token: nw, body: { ...input, [k]: edited } });
      expect(changed.status).toBe(200);
      expect(changed.body[k]).toBe(edited);
      const audit = await s.db.query<any>('select action, before, after from audit_log where entity = $1 and entity_id = $2', [entityOf(r), String(row.id)]);
      expect(audit.rows.at(-1)).toMatchObject({ action: 'update', before: { [k]: row[k] }, after: { [k]: edited } });
      expect((await s.call('GET', `${r.api}/${row.id}`, { token: hb })).status).toBe(404);
      expect((await s.call('PUT', `${r.api}/${row.id}`, { token: hb, body: input })).status).toBe(404);
      for (const [pk, f] of writable(r).filter(([, f]) => f.pattern)) {
        const bad = await s.call('PUT', `${r.api}/${row.id}`, { token: nw, body: { ...input, [pk]: 'not a match!' } });
        expect([pk, bad.status, bad.body.violations?.[0]?.field]).toEqual([pk, 400, pk]);
        expect(f.help && bad.body.violations[0].message).toContain(f.help);
      }
      expect([404, 405]).toContain((await s.call('POST', r.api, { token: nw, body: input })).status);
    });
    it('finds a row by a word of its title in the list’s search box, and nothing by a word no row has', async () => {
      const [row] = (await s.call('GET', `${r.api}?size=1`, { token: nw })).body.items;
      expect(row).toBeDefined();
      await searchFinds(r, row);
    });
  },
);

// a tenant's settings (singletons): one row per tenant, read at the resource's path with its defaults, changed there
const singletons = served.filter((r) => r.singleton && r.scope.tenant !== 'platform');
describe.each(singletons.map((r) => [r.name, r] as const))('%s settings (generated from its declaration)', (_name, r) => {
  const defaults = () =>
    Object.fromEntries(
      writable(r)
        .filter(([, f]) => f.default !== undefined)
        .map(([k, f]) => [k, f.default]),
    );
  it('reads each tenant’s own row, made with the declared defaults; no list, add or delete', async () => {
    const mine = await s.call('GET', r.api, { token: nw });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject(defaults());
    const again = await s.call('GET', r.api, { token: nw });
    expect(again.body.id).toBe(mine.body.id);
    const theirs = await s.call('GET', r.api, { token: hb });
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect([404, 405]).toContain((await s.call('POST', r.api, { token: nw, body: {} })).status);
    expect([404, 405]).toContain((await s.call('DELETE', `${r.api}/${mine.body.id}`, { token: nw })).status);
    expect((await s.call('GET', `${r.api}/${theirs.body.id}`, { token: nw })).status).toBe(404);
  });
  it('changes the tenant’s row with an audit row, refuses bad values naming the field, and leaves the other tenant’s', async () => {
    const before = (await s.call('GET', r.api, { token: nw })).body;
    const input = await sample(r);
    // each number one step off its default, each switch turned over: a change the audit row shows
    for (const [k, f] of writable(r)) {
      const from = (f.default as number | undefined) ?? f.min ?? 0;
      if (f.kind === 'number') input[k] = from === (f.max ?? Infinity) ? from - 1 : from + 1;
      if (f.kind === 'switch') input[k] = !f.default;
    }
    const saved = await s.call('PUT', r.api, { token: nw, body: input });
    expect(saved.status).toBe(200);
    expect(saved.body.id).toBe(before.id);
    for (const [k] of writable(r).filter(([, f]) => f.kind === 'number' || f.kind === 'switch')) expect([k, saved.body[k]]).toEqual([k, input[k]]);
    const audit = await s.db.query<any>('select action from audit_log where entity = $1 and entity_id = $2', [entityOf(r), String(before.id)]);
    expect(audit.rows.map((x) => x.action)).toContain('update');
    const theirs = (await s.call('GET', r.api, { token: hb })).body;
    expect(theirs).toMatchObject(defaults());
    for (const [k, f] of writable(r).filter(([, f]) => f.kind === 'number')) {
      const bad = await s.call('PUT', r.api, { token: nw, body: { ...input, [k]: (f.max ?? 0) + 1 } });
      expect([k, bad.status, bad.body.violations?.[0]?.field]).toEqual([k, 400, k]);
    }
    expect((await s.call('GET', r.api, { token: nw })).body).toMatchObject(
      Object.fromEntries(
        writable(r)
          .filter(([, f]) => f.kind === 'number')
          .map(([k]) => [k, input[k]]),
      ),
    );
  });
  it('answers 403 to a user without its code (reading it too, unless they hold one of its read codes)', async () => {
    const operator = await s.login('operator');
    const held: string[] = (await s.call('GET', '/idp/1.0/me', { token: operator })).body.privileges.priviledges.flatMap((e: any) => e.privilegeIds);
    expect(held).not.toContain(r.privileges.view);
    const reads = (r.privileges.read ?? []).some((c) => held.includes(c));
    expect((await s.call('GET', r.api, { token: operator })).status).toBe(reads ? 200 : 403);
    expect((await s.call('PUT', r.api, { token: operator, body: defaults() })).status).toBe(403);
  });
});
it('has settings to check', () => {
  expect(singletons.length).toBeGreaterThan(0);
});

// the installation's settings (a platform singleton): one row whichever client the platform operator works in; a
// client's administrator, who holds every tenant code but not the platform grant, may neither read nor change it
const platformSingletons = served.filter((r) => r.singleton && r.scope.tenant === 'platform');
describe.each(platformSingletons.map((r) => [r.name, r] as const))('%s platform settings (generated from its declaration)', (_name, r) => {
  it('is one row with the declared defaults in every client, changed with an audit row, bad numbers named; 403 to a client\u2019s administrator', async () => {
    const defaults = Object.fromEntries(
      writable(r)
        .filter(([, f]) => f.default !== undefined)
        .map(([k, f]) => [k, f.default]),
    );
    const mine = await s.call('GET', r.api, { token: nw });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject(defaults);
    const inHarbour = await s.loginTo('admin', 'HARBOUR');
    expect((await s.call('GET', r.api, { token: inHarbour })).body.id).toBe(mine.body.id);
    expect((await s.call('GET', r.api, { token: hb })).status).toBe(403);
    expect((await s.call('PUT', r.api, { token: hb, body: defaults })).status).toBe(403);
    const input: Record<string, unknown> = { ...defaults };
    for (const [k, f] of writable(r))
      if (f.kind === 'number') input[k] = (f.default as number) === f.max ? (f.default as number) - 1 : (f.default as number) + 1;
    const saved = await s.call('PUT', r.api, { token: inHarbour, body: input });
    expect(saved.status).toBe(200);
    expect((await s.call('GET', r.api, { token: nw })).body).toMatchObject(input);
    const audit = await s.db.query<any>('select action, client_id from audit_log where entity = $1 and entity_id = $2', [entityOf(r), String(mine.body.id)]);
    expect(audit.rows).toContainEqual({ action: 'update', client_id: null });
    for (const [k, f] of writable(r).filter(([, f]) => f.kind === 'number')) {
      const bad = await s.call('PUT', r.api, { token: nw, body: { ...input, [k]: (f.max ?? 0) + 1 } });
      expect([k, bad.status, bad.body.violations?.[0]?.field]).toEqual([k, 400, k]);
    }
    expect([404, 405]).toContain((await s.call('POST', r.api, { token: nw, body: {} })).status);
  });
});
it('has platform settings to check', () => {
  expect(platformSingletons.length).toBeGreaterThan(0);
});

// every pair (a deletable resource, a resource referencing it): the delete is refused while the reference stands,
// unless the reference is declared to go with its target (onDelete 'cascade': a leave goes with its member of staff)
const allPairs = served
  .filter((t) => t.privileges.delete)
  .flatMap((t) =>
    served.flatMap((o) =>
      fieldsOf(o)
        .filter(([, f]) => f.kind === 'ref' && f.target === t.name && !f.readOnly && o.privileges.add)
        .map(([k, f]) => [`${t.name} ← ${o.name}.${k}`, t, o, k, f.onDelete === 'cascade'] as const),
    ),
  );
const referencePairs = allPairs.filter((p) => !p[4]);
const cascadePairs = allPairs.filter((p) => p[4]);

describe('references between resources (generated)', () => {
  it('has at least one reference to a deletable resource to check', () => {
    expect(referencePairs.length).toBeGreaterThan(0);
  });
  it.each(referencePairs)('refuses to delete %s while it is referenced (409 naming the user), then deletes once it is not', async (_n, target, other, k) => {
    const { row: used } = await create(target);
    const { row: user } = await create(other, { [k]: used.id });
    const del = await s.call('DELETE', `${target.api}/${used.id}`, { token: nw });
    expect(del.status).toBe(409);
    expect(del.body.message).toContain(`Still used by 1 ${other.label.one.toLowerCase()}`);
    expect((await s.call('GET', `${target.api}/${used.id}`, { token: nw })).status).toBe(200);
    expect(user.id).toBeGreaterThan(0);
    const { row: free } = await create(target);
    expect((await s.call('DELETE', `${target.api}/${free.id}`, { token: nw })).body).toEqual({ deleted: 1 });
  });
  if (cascadePairs.length)
    it.each(cascadePairs)('deletes %s with the rows that reference it (declared cascade)', async (_n, target, other, k) => {
      const { row: used } = await create(target);
      const { row: user } = await create(other, { [k]: used.id });
      expect((await s.call('DELETE', `${target.api}/${used.id}`, { token: nw })).body).toEqual({ deleted: 1 });
      expect((await s.call('GET', `${other.api}/${user.id}`, { token: nw })).status).toBe(404);
    });
});

describe('who may create tenants', () => {
  it('lets a platform operator create a client (and administer it), and refuses a tenant administrator with 403', async () => {
    const body = { name: 'Osprey Works', code: 'OSPREY', timezone: 'UTC' };
    const refused = await s.call('POST', '/central/1.0/clients', { token: hb, body });
    expect(refused.status).toBe(403);
    expect(await s.count("select * from clients where code = 'OSPREY'")).toBe(0);
    const me = await s.call('GET', '/idp/1.0/me', { token: hb });
    expect(me.body.privileges.priviledges.flatMap((e: any) => e.privilegeIds)).not.toContain('9.2.1');
    const made = await s.call('POST', '/central/1.0/clients', { token: nw, body });
    expect(made.status).toBe(201);
    const mine = await s.call('GET', '/central/1.0/clients?size=100', { token: nw });
    expect(mine.body.items.map((c: any) => c.code)).toContain('OSPREY');
    // and still cannot grant it to themselves through a tenant role: 9.2.1 is in no role granted inside a client
    expect(await s.count("select * from role_privileges where privilege = '9.2.1' and role_code <> 'platform-operator'")).toBe(0);
  });
});
