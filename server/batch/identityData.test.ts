// Issue 11, identity data: user-defined fields (typed, per tenant, on the identity, its search and export),
// batch templates and upload (CSV and XLSX, dry run, streamed idempotent import, error report, bad files as
// 4xx), licenses (signed keys, live usage, seat limits refused with 409 naming the limit). Real server, real
// database (PGlite; PostgreSQL with DATABASE_URL).
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { issueLicense } from '../../scripts/issue-license';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string;
let hb: string;
let northwind: number;
let division: number;

async function upload(token: string, templateId: number, body: Buffer | string, type = 'text/csv') {
  const payload: BodyInit = typeof body === 'string' ? body : new Uint8Array(body);
  const res = await fetch(`${s.base}${API.batchUpload}?templateId=${templateId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'x-file-name': 'people.csv' },
    body: payload,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}
async function runImport(token: string, id: number) {
  const res = await fetch(`${s.base}${API.batchUpload}/${id}/import`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, body: JSON.parse(text), events: [] as { event: string; data: any }[] };
  const events = text
    .trim()
    .split('\n\n')
    .map((b) => ({ event: /event: (.*)/.exec(b)![1], data: JSON.parse(/data: (.*)/.exec(b)![1]) }));
  return { status: res.status, events, body: events[events.length - 1].data };
}
const csv = (rows: string[][]) => rows.map((r) => r.join(',')).join('\r\n') + '\r\n';

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  northwind = (await s.call('GET', API.clients, { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
  division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('user-defined fields', () => {
  it('are declared per tenant, typed; a choice field must list its choices', async () => {
    const bad = await s.call('POST', API.userFields, { token: nw, body: { key: 'shift', label: 'Shift', kind: 'choice', required: false, options: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations).toContainEqual(expect.objectContaining({ field: 'options' }));
    const fields = [
      { key: 'badge', label: 'Badge colour', kind: 'text', required: true, maxLength: 8 },
      { key: 'floor', label: 'Floor', kind: 'number', required: false },
      { key: 'induction', label: 'Induction date', kind: 'date', required: false },
      { key: 'shift', label: 'Shift', kind: 'choice', required: false, options: 'Early\nLate\nNight' },
    ];
    for (const [i, f] of fields.entries()) expect((await s.call('POST', API.userFields, { token: nw, body: { ...f, position: i } })).status).toBe(201);
    // another tenant sees none of them
    expect((await s.call('GET', API.userFields, { token: hb })).body.items.map((x: any) => x.key)).not.toContain('badge');
  });

  it('are validated on the identity by the server, each violation named udf.<key>', async () => {
    const base = { firstName: 'Uma', lastName: 'Field', employeeNo: 'UDF-1', divisionId: division, status: 'active', credentials: [] };
    const missing = await s.call('POST', API.identities, { token: nw, body: base });
    expect(missing.status).toBe(400);
    expect(missing.body.violations).toEqual([{ field: 'udf.badge', message: 'is required', code: 'value.required', values: {} }]);
    const wrong = await s.call('POST', API.identities, {
      token: nw,
      body: { ...base, udf: { badge: 'TOO-LONG-COLOUR', floor: 'three', induction: '2026-02-30', shift: 'Noon', pet: 'cat' } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.violations.map((v: any) => v.field).sort()).toEqual(['udf.badge', 'udf.floor', 'udf.induction', 'udf.pet', 'udf.shift']);
    expect(await s.count('select 1 from identities where employee_no = $1', ['UDF-1'])).toBe(0);
    const ok = await s.call('POST', API.identities, {
      token: nw,
      body: { ...base, udf: { badge: '=red', floor: '3', induction: '2026-02-28', shift: 'Late' } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.udf).toEqual({ badge: '=red', floor: 3, induction: '2026-02-28', shift: 'Late' });
    // the edit keeps them, the list carries them, search finds them
    const got = await s.call('GET', `${API.identities}/${ok.body.id}`, { token: nw });
    expect(got.body.udf.shift).toBe('Late');
    const put = await s.call('PUT', `${API.identities}/${ok.body.id}`, {
      token: nw,
      body: { ...base, udf: { badge: 'blue', shift: 'Night' }, updatedAt: got.body.updatedAt },
    });
    expect(put.status).toBe(200);
    expect(put.body.udf).toEqual({ badge: 'blue', shift: 'Night' });
    const found = await s.call('GET', `${API.identities}?q=Night`, { token: nw });
    expect(found.body.items.map((x: any) => x.employeeNo)).toContain('UDF-1');
  });

  it('are columns of the CSV and NDJSON export, a formula neutralised', async () => {
    const fay = await s.call('POST', API.identities, {
      token: nw,
      body: { firstName: 'Fay', lastName: 'Formula', employeeNo: 'UDF-2', divisionId: division, status: 'active', credentials: [], udf: { badge: '="x"+1' } },
    });
    expect(fay.status).toBe(201);
    const res = await fetch(`${s.base}${API.identities}/export?format=csv&q=UDF-2`, { headers: { authorization: `Bearer ${nw}` } });
    const lines = (await res.text()).trim().split('\r\n');
    const header = lines[0].split(',');
    expect(header.slice(-4)).toEqual(['udf.badge', 'udf.floor', 'udf.induction', 'udf.shift']);
    expect(lines[1]).toContain(`"'=""x""+1"`);
    const nd = await fetch(`${s.base}${API.identities}/export?format=ndjson&q=UDF-2`, { headers: { authorization: `Bearer ${nw}` } });
    expect(JSON.parse((await nd.text()).trim())['udf.badge']).toBe('="x"+1');
  });
});

describe('batch templates and upload', () => {
  let template: number;
  const columns = [
    { header: 'Employee', target: 'employeeNo' },
    { header: 'First', target: 'firstName' },
    { header: 'Last', target: 'lastName' },
    { header: 'Card', target: 'credentialNumber' },
    { header: 'Badge', target: 'udf', udfKey: 'badge' },
  ];
  const file = (n: number, bad: number[] = []) =>
    csv([
      ['Employee', 'First', 'Last', 'Card', 'Badge'],
      ...Array.from({ length: n }, (_, i) => [
        `BT-${i + 1}`,
        bad.includes(i) ? '' : `Person${i + 1}`,
        'Batch',
        `CARD-BT-${i + 1}`,
        bad.includes(i) ? '' : 'green',
      ]),
    ]);

  it('a template must map the employee number, and its user-defined field columns name real fields', async () => {
    const noEmp = await s.call('POST', API.batchTemplates, {
      token: nw,
      body: { name: 'No emp', divisionId: division, credentialType: 'card', columns: [{ header: 'First', target: 'firstName' }] },
    });
    expect(noEmp.status).toBe(400);
    expect(noEmp.body.violations).toContainEqual(expect.objectContaining({ field: 'columns' }));
    const badKey = await s.call('POST', API.batchTemplates, {
      token: nw,
      body: {
        name: 'Bad key',
        divisionId: division,
        credentialType: 'card',
        columns: [...columns.slice(0, 4), { header: 'Pet', target: 'udf', udfKey: 'pet' }],
      },
    });
    expect(badKey.body.violations).toContainEqual(expect.objectContaining({ field: 'columns.4.udfKey' }));
    const ok = await s.call('POST', API.batchTemplates, { token: nw, body: { name: 'Staff', divisionId: division, credentialType: 'card', columns } });
    expect(ok.status).toBe(201);
    template = ok.body.id;
  });

  it('previews a file naming its bad rows, imports the rest with progress, and a re-run creates none', async () => {
    const prev = await upload(nw, template, file(300, [10, 150, 299]));
    expect(prev.status).toBe(201);
    expect(prev.body).toMatchObject({ total: 300, valid: 297, creates: 297, updates: 0, invalidRows: 3 });
    expect([...new Set(prev.body.errors.map((e: any) => e.row))]).toEqual([12, 152, 301]);
    expect(prev.body.errors).toContainEqual(expect.objectContaining({ row: 12, field: 'firstName' }));
    expect(prev.body.errors).toContainEqual(expect.objectContaining({ row: 12, field: 'udf.badge' }));
    expect(await s.count(`select 1 from identities where employee_no like 'BT-%'`)).toBe(0); // a dry run
    const run = await runImport(nw, prev.body.id);
    expect(run.status).toBe(200);
    expect(run.events[0]).toEqual({ event: 'start', data: { total: 297, invalid: 6 } });
    expect(run.events.filter((e) => e.event === 'progress').length).toBeGreaterThanOrEqual(2);
    expect(run.body).toMatchObject({ done: 297, created: 297, updated: 0, failed: 0 });
    expect(await s.count(`select 1 from identities where employee_no like 'BT-%'`)).toBe(297);
    expect(await s.count(`select 1 from credentials where number like 'CARD-BT-%'`)).toBe(297);
    expect(await s.count(`select 1 from audit_log where action = 'batch-create' and client_id = $1`, [northwind])).toBe(297);
    // the same file again: matched on employee number, nothing created
    const again = await upload(nw, template, file(300, [10, 150, 299]));
    expect(again.body).toMatchObject({ creates: 0, updates: 297 });
    const rerun = await runImport(nw, again.body.id);
    expect(rerun.body).toMatchObject({ created: 0, updated: 297, failed: 0 });
    expect(await s.count(`select 1 from identities where employee_no like 'BT-%'`)).toBe(297);
    // the error report, formula-safe CSV
    const report = await fetch(`${s.base}${API.batchUpload}/${prev.body.id}/errors.csv`, { headers: { authorization: `Bearer ${nw}` } });
    const lines = (await report.text()).trim().split('\r\n');
    expect(lines[0]).toBe('row,employeeNo,field,message');
    expect(lines.length).toBe(7);
    // the same report as data, each problem with its key (the console writes its file in the reader's language)
    const data = await s.call('GET', `${API.batchUpload}/${prev.body.id}/errors`, { token: nw });
    expect(data.status).toBe(200);
    expect(data.body.items).toHaveLength(6);
    expect(data.body.items.map((e: { row: number }) => String(e.row))).toEqual(lines.slice(1).map((l) => l.split(',')[0]));
    for (const e of data.body.items) expect(e).toMatchObject({ field: expect.any(String), message: expect.any(String), code: expect.any(String) });
    // another client's upload is not there
    expect((await s.call('GET', `${API.batchUpload}/${prev.body.id}/errors`, { token: hb })).status).toBe(404);
  }, 120_000);

  it('never leaves half a row: a card issued to someone else fails that row only, identity and all', async () => {
    const other = csv([
      ['Employee', 'First', 'Last', 'Card', 'Badge'],
      ['BT-NEW-1', 'New', 'One', 'CARD-BT-1', 'red'],
      ['BT-NEW-2', 'New', 'Two', 'CARD-NEW-2', 'red'],
    ]);
    const prev = await upload(nw, template, other);
    expect(prev.body.errors).toEqual([expect.objectContaining({ row: 2, field: 'credentials.0.number' })]);
    // the card is taken between preview and import: the row fails in its savepoint
    const p2 = await upload(
      nw,
      template,
      csv([
        ['Employee', 'First', 'Last', 'Card', 'Badge'],
        ['BT-NEW-3', 'New', 'Three', 'CARD-RACE', 'red'],
        ['BT-NEW-4', 'New', 'Four', 'CARD-NEW-4', 'red'],
      ]),
    );
    const holder = (await s.db.query<{ id: number }>(`select id from identities where employee_no = 'BT-1'`)).rows[0].id;
    await s.db.query(`insert into credentials (client_id, identity_id, type, number) values ($1, $2, 'card', 'CARD-RACE')`, [northwind, holder]);
    const run = await runImport(nw, p2.body.id);
    expect(run.body).toMatchObject({ created: 1, failed: 1 });
    expect(await s.count(`select 1 from identities where employee_no = 'BT-NEW-3'`)).toBe(0);
    expect(await s.count(`select 1 from identities where employee_no = 'BT-NEW-4'`)).toBe(1);
  });

  it('reads XLSX, and answers malformed files, wrong encodings, formulas and oversized files with 4xx violations', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.addRow(['Employee', 'First', 'Last', 'Card', 'Badge']);
    ws.addRow(['XL-1', 'Excel', 'Row', 'CARD-XL-1', 'blue']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const ok = await upload(nw, template, xlsx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(ok.body).toMatchObject({ total: 1, valid: 1, creates: 1 });
    ws.addRow(['XL-2', { formula: '1+1', result: 2 }, 'Row', 'CARD-XL-2', 'blue']);
    const formula = await upload(nw, template, Buffer.from(await wb.xlsx.writeBuffer()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(formula.status).toBe(400);
    expect(formula.body.violations[0]).toEqual({
      field: 'rows[3].First',
      message: 'Row 3, column B (First): a formula; upload values only',
      code: 'batch.cellNamed',
      values: expect.objectContaining({ 'what:code': 'batch.formula' }),
    });
    const broken = await upload(nw, template, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]), 'application/octet-stream');
    expect(broken.status).toBe(400);
    expect(broken.body.violations[0].field).toBe('file');
    const latin1 = await upload(nw, template, Buffer.from('Employee,First,Last,Card,Badge\r\nL-1,Jos\xe9,X,C-1,red\r\n', 'latin1'));
    expect(latin1.status).toBe(415);
    expect(latin1.body.violations[0]).toMatchObject({ field: 'file', message: expect.stringContaining('UTF-8') });
    const utf16 = await upload(nw, template, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Employee,First\r\n', 'utf16le')]));
    expect(utf16.status).toBe(415);
    const quote = await upload(nw, template, 'Employee,First,Last,Card,Badge\r\n"BT-1,unclosed\r\n');
    expect(quote.status).toBe(400);
    expect(quote.body.violations[0]).toMatchObject({ field: 'rows[2]', message: expect.stringMatching(/^Row 2: a quote is not closed/) });
    // a cell too long, a quote in the wrong place: the row and the column named in plain words, nothing stored
    const long = await upload(
      nw,
      template,
      csv([
        ['Employee', 'First', 'Last', 'Card', 'Badge'],
        ['BT-L1', 'Ann', 'Lee', 'C-L1', 'red'],
        ['BT-L2', 'Bo', 'x'.repeat(2001), 'C-L2', 'red'],
      ]),
    );
    expect(long.status).toBe(400);
    expect(long.body.violations).toEqual([
      expect.objectContaining({ field: 'rows[3].Last', message: 'Row 3, column C (Last): longer than 2,000 characters', code: 'batch.cellNamed' }),
    ]);
    expect(long.body.violations[0].values).toMatchObject({ row: '3', column: 'C', name: 'Last', 'what:code': 'batch.cellTooLong', 'what.max': '2,000' });
    expect(long.body.message).toBe('Row 3, column C (Last): longer than 2,000 characters');
    const stray = await upload(nw, template, 'Employee,First,Last,Card,Badge\r\nBT-Q1,Ann,Lee,C-Q1,red\r\nBT-Q2,"Bo"x,Lee,C-Q2,red\r\n');
    expect(stray.status).toBe(400);
    expect(stray.body.violations[0]).toMatchObject({
      field: 'rows[3].First',
      message: expect.stringMatching(/^Row 3, column B \(First\): text follows the closing quote/),
    });
    const inner = await upload(nw, template, 'Employee,First,Last,Card,Badge\r\nBT-Q3,An"n,Lee,C-Q3,red\r\n');
    expect(inner.body.violations[0]).toMatchObject({
      field: 'rows[2].First',
      message: expect.stringMatching(/^Row 2, column B \(First\): a quote in the middle of a cell/),
    });
    const longXl = new ExcelJS.Workbook();
    const lx = longXl.addWorksheet('People');
    lx.addRow(['Employee', 'First', 'Last', 'Card', 'Badge']);
    lx.addRow(['XL-L1', 'Ann', 'Lee', 'C-XL-L1', 'red']);
    lx.addRow(['XL-L2', 'Bo', 'Lee', 'C-XL-L2', 'y'.repeat(2001)]);
    const longX = await upload(nw, template, Buffer.from(await longXl.xlsx.writeBuffer()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(longX.status).toBe(400);
    expect(longX.body.violations).toEqual([
      expect.objectContaining({ field: 'rows[3].Badge', message: 'Row 3, column E (Badge): longer than 2,000 characters', code: 'batch.cellNamed' }),
    ]);
    expect(await s.count(`select 1 from identities where employee_no like 'BT-L%' or employee_no like 'BT-Q%'`)).toBe(0);
    const noColumn = await upload(nw, template, 'Employee,First\r\nA,B\r\n');
    expect(noColumn.status).toBe(400);
    expect(noColumn.body.violations[0].message).toContain('"Last"');
    const big = await upload(nw, template, Buffer.alloc(11 * 1024 * 1024, 65));
    expect(big.status).toBe(413);
    expect(await s.count(`select 1 from identities where employee_no like 'XL-%'`)).toBe(0);
  });

  it('respects privilege, tenant and division scope', async () => {
    // another tenant's template and upload are 404
    expect((await upload(hb, template, file(2))).status).toBe(404);
    const prev = await upload(nw, template, file(2));
    expect((await runImport(hb, prev.body.id)).status).toBe(404);
    // without 0.3.1.9 (HR adds identities but does not batch upload)
    const hr = await s.login('hr');
    expect((await upload(hr, template, file(2))).status).toBe(403);
  });
});

describe('licenses', () => {
  let id: number;
  it('lists the tenant’s license with live usage; a tampered or foreign key is refused on its field', async () => {
    const list = await s.call('GET', API.licenses, { token: hb });
    expect(list.status).toBe(200);
    const l = list.body.items[0];
    id = l.id;
    expect(l).toMatchObject({ licensee: 'Gatehouse demo', identitySeats: 250000 });
    expect(l.identitiesUsed).toBe(await s.count('select 1 from identities where client_id = $1', [l.clientId]));
    expect(l.operatorsUsed).toBeGreaterThan(0);
    const key = issueLicense({
      v: 1,
      licensee: 'Harbour',
      client: 'HARBOUR',
      modules: ['access'],
      seats: { identities: 5, doors: 5, readers: 5, operators: 5 },
      validTo: '2031-01-01',
    });
    const [h, p, sig] = key.split('.');
    const tampered = `${h}.${Buffer.from(Buffer.from(p, 'base64url').toString().replace('"identities":5', '"identities":9')).toString('base64url')}.${sig}`;
    const bad = await s.call('PUT', `${API.licenses}/${id}`, { token: hb, body: { licenseKey: tampered } });
    expect(bad.status).toBe(422);
    expect(bad.body.violations[0]).toMatchObject({ field: 'licenseKey', message: expect.stringContaining('signature') });
    const foreign = issueLicense({
      v: 1,
      licensee: 'N',
      client: 'NORTHWIND',
      modules: [],
      seats: { identities: 5, doors: 5, readers: 5, operators: 5 },
      validTo: '2031-01-01',
    });
    expect((await s.call('PUT', `${API.licenses}/${id}`, { token: hb, body: { licenseKey: foreign } })).body.violations[0].message).toContain('NORTHWIND');
    // another tenant's license is 404
    expect((await s.call('GET', `${API.licenses}/${id}`, { token: nw })).status).toBe(404);
    expect((await s.call('PUT', `${API.licenses}/${id}`, { token: nw, body: { licenseKey: key } })).status).toBe(404);
  });

  it('a new key with no identity seat free refuses the next identity (409 naming the limit), and a batch import', async () => {
    const used = await s.count('select 1 from identities i join clients c on c.id = i.client_id where c.code = $1', ['HARBOUR']);
    const key = issueLicense({
      v: 1,
      licensee: 'Harbour small',
      client: 'HARBOUR',
      modules: ['access'],
      seats: { identities: used, doors: 50, readers: 50, operators: 50 },
      validTo: '2031-01-01',
    });
    const put = await s.call('PUT', `${API.licenses}/${id}`, { token: hb, body: { licenseKey: key } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ licensee: 'Harbour small', identitySeats: used, identitiesUsed: used });
    expect(await s.count(`select 1 from audit_log where entity = 'license' and action = 'update'`)).toBe(1);
    const div = (await s.call('GET', `${API.identities}?size=1`, { token: hb })).body.items[0].divisionId;
    const refused = await s.call('POST', API.identities, {
      token: hb,
      body: { firstName: 'No', lastName: 'Seat', employeeNo: 'SEAT-1', divisionId: div, status: 'active', credentials: [] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('identities seats');
    const tpl = await s.call('POST', API.batchTemplates, {
      token: hb,
      body: {
        name: 'H',
        divisionId: div,
        credentialType: 'card',
        columns: [
          { header: 'E', target: 'employeeNo' },
          { header: 'F', target: 'firstName' },
          { header: 'L', target: 'lastName' },
        ],
      },
    });
    const prev = await upload(hb, tpl.body.id, 'E,F,L\r\nSEAT-2,A,B\r\n');
    expect(prev.body.creates).toBe(1);
    const run = await runImport(hb, prev.body.id);
    expect(run.status).toBe(409);
    expect(run.body.message).toContain('identities seats');
    expect(await s.count(`select 1 from identities where employee_no like 'SEAT-%'`)).toBe(0);
  });
});
