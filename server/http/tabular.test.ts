// Issue 29, exports and spreadsheets, against the real server: every file a list, a report or an upload hands out
// comes from one writer (./tabular.ts). Each CSV starts with a UTF-8 byte-order mark and has unique headers; times are
// ISO 8601 with the client's offset, the zone named in the header; "Zoë 🙂" comes back as written; the XLSX of a list
// opens with exceljs and holds the CSV's rows. One test walks the route table, so a new export is held to the same.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CATALOGUE } from '../../contract';
import { reportJobsResource } from '../../contract/resources/reportJobs';
import { startTestServer, type TestServer } from '../testkit';
import { csvHead, csvText, uniqueHeaders, zonedTime } from './tabular';

let s: TestServer;
let nw: string; // admin, Northwind selected (Asia/Kuala_Lumpur, +08:00)
let person: { id: number; createdAt: string };
const ZONE = 'Asia/Kuala_Lumpur';
const NAME = 'Zoë 🙂';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

async function download(path: string, token = nw) {
  const res = await fetch(s.base + path, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type') ?? '', disposition: res.headers.get('content-disposition') ?? '', bytes };
}
/** A CSV's rows as a spreadsheet reads them (csv-parse; the byte-order mark checked first, then dropped). */
function csvRows(bytes: Buffer): string[][] {
  expect(bytes.subarray(0, 3).equals(BOM)).toBe(true);
  return parse(bytes.subarray(3).toString('utf8'), { relax_column_count: true }) as string[][];
}
/** An XLSX's first sheet as text rows (exceljs), and whether its header row is bold and frozen. */
async function xlsxRows(bytes: Buffer): Promise<{ rows: string[][]; bold: boolean; frozen: boolean }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.worksheets[0];
  const rows: string[][] = [];
  const width = ws.getRow(1).cellCount;
  ws.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) {
      const v = row.getCell(c).value;
      cells.push(v === null || v === undefined ? '' : String(v));
    }
    rows.push(cells);
  });
  return { rows, bold: !!ws.getRow(1).font?.bold, frozen: ws.views?.[0]?.state === 'frozen' };
}
const unique = (header: string[]) => expect(new Set(header.map((h) => h.toLowerCase())).size).toBe(header.length);

beforeAll(async () => {
  s = await startTestServer();
  nw = await s.loginTo('admin', 'NORTHWIND');
  const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
  const made = await s.call('POST', API.identities, {
    token: nw,
    body: { firstName: NAME, lastName: 'Tabular', employeeNo: 'TAB-1', divisionId: division, status: 'active', credentials: [] },
  });
  expect(made.status).toBe(201);
  person = made.body;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the writer', () => {
  it('names colliding headers apart and shows an instant in the zone with its offset', () => {
    expect(uniqueHeaders(['Division', 'division', 'Name', 'Division'])).toEqual(['Division', 'division (2)', 'Name', 'Division (3)']);
    expect(zonedTime('2026-11-27T01:15:00Z', ZONE)).toBe('2026-11-27T09:15:00+08:00');
    expect(zonedTime('2026-07-01T12:00:00.250Z', 'Europe/London')).toBe('2026-07-01T13:00:00.250+01:00');
    expect(zonedTime(null, ZONE)).toBeNull();
  });
  it('quotes commas, quotes and line breaks, neutralises formulas, keeps numbers and booleans as written', () => {
    expect(
      csvText([
        ['x,y', 'say "hi"', 'two\nlines', 'a\rb'],
        ['=1+1', -3, true, null],
      ]),
    ).toBe(`"x,y","say ""hi""","two\nlines","a\rb"\r\n'=1+1,-3,true,\r\n`);
    expect(csvHead(['a', 'b'])).toBe('\uFEFFa,b\r\n');
  });
});

describe('the identities list export', () => {
  it('CSV: byte-order mark, unique headers ("Division id" and "Division"), times with the offset and the zone, "Zoë 🙂" as written', async () => {
    const r = await download(`${API.identities}/export?format=csv&titles=1&q=TAB-1`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/csv; charset=utf-8/);
    const [header, ...rows] = csvRows(r.bytes);
    unique(header);
    expect(header).toContain('Division');
    expect(header).toContain('Division id');
    expect(header).toContain(`Created (${ZONE})`);
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header.map((h, i) => [h, rows[0][i]]));
    expect(Object.values(row)).toContain(NAME);
    const created = row[`Created (${ZONE})`];
    expect(created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+08:00$/);
    expect(Date.parse(created)).toBe(Date.parse(person.createdAt));
    // the machine header (no titles) is unique too, the same rows
    const plain = csvRows((await download(`${API.identities}/export?format=csv&q=TAB-1`)).bytes);
    unique(plain[0]);
    expect(plain[0]).toContain(`createdAt (${ZONE})`);
    expect(plain.slice(1)).toEqual(rows);
  });

  it('"Zoë 🙂" survives a round trip: exported, read back, it is the same text', async () => {
    const [header, row] = csvRows((await download(`${API.identities}/export?format=csv&q=TAB-1`)).bytes);
    expect(row[header.indexOf('firstName')]).toBe(NAME);
    expect(Buffer.from(row[header.indexOf('firstName')], 'utf8').equals(Buffer.from(NAME, 'utf8'))).toBe(true);
  });

  it('XLSX opens with exceljs and holds the same rows as the CSV, its header bold and frozen', async () => {
    const csv = csvRows((await download(`${API.identities}/export?format=csv&titles=1&q=Tabular`)).bytes);
    const r = await download(`${API.identities}/export?format=xlsx&titles=1&q=Tabular`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(r.disposition).toMatch(/filename="identities-.*\.xlsx"/);
    const x = await xlsxRows(r.bytes);
    expect(x.rows).toEqual(csv);
    expect(x.bold).toBe(true);
    expect(x.frozen).toBe(true);
  });
});

describe('the event history export', () => {
  it('CSV and XLSX hold the same rows, the time with the offset and the zone in the header', async () => {
    const northwind = (await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id;
    await s.db.query(
      `insert into events (client_id, event_code, event_source_id, event_source_name, event_point_id, event_point_name, message, at)
      select $1, 1000, 'tab-reader', 'Reader', 'tab-door', 'Door', $2 || ' ' || g, now() - g * interval '1 hour' from generate_series(1, 5) g`,
      [northwind, NAME],
    );
    const csv = csvRows((await download(`${API.eventsExport}?format=csv&eventCode=1000`)).bytes);
    expect(csv.filter((r) => r[7]?.startsWith(NAME))).toHaveLength(5);
    expect(csv[0][1]).toBe(`time (${ZONE})`);
    expect(csv.length).toBeGreaterThan(1);
    expect(csv.slice(1).every((r) => /\+08:00$/.test(r[1]))).toBe(true);
    const x = await xlsxRows((await download(`${API.eventsExport}?format=xlsx&eventCode=1000`)).bytes);
    expect(x.rows).toEqual(csv);
    // the progress stream carries text pages: an XLSX is the file route's only
    expect((await download(`${API.eventsExportProgress}?format=xlsx`)).status).toBe(400);
  });
});

// Routes that hand out a file which is not a table, each with the reason
const NOT_TABLES: Record<string, string> = {
  '/event/manage/audit/export': 'the audit chain: signed NDJSON records to verify (server/audit/chain.ts), not a table',
};
const isExport = (url: string) => /\/export$|\.csv$|\.xlsx$|\/runs\/:runId\/file$/.test(url);

describe('every export route of the route table', () => {
  it('answers a byte-order mark and unique headers, and its XLSX the same header', async () => {
    const exports = s.app.routes.filter((r) => r.method === 'GET' && isExport(r.url) && !NOT_TABLES[r.url]).map((r) => r.url);
    expect(exports.length).toBeGreaterThan(30);
    const catalogue = new Map(CATALOGUE.filter((r) => r.export?.length).map((r) => [`${r.api}/export`, r]));
    // a run of a scheduled report (events, with its times), and a batch upload with a bad row, to download
    const job = await s.call('POST', reportJobsResource.api, {
      token: nw,
      body: { name: 'Tabular', report: 'events', frequency: 'daily', hour: 6, weekday: '1', monthDay: 1, keepRuns: 10, enabled: true, format: 'csv' },
    });
    expect(job.status).toBe(201);
    expect((await s.call('POST', `${reportJobsResource.api}/${job.body.id}/run`, { token: nw })).status).toBeLessThan(300);
    const run = (await s.call('GET', `${reportJobsResource.api}/${job.body.id}/runs`, { token: nw })).body.items[0];
    const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
    const tpl = await s.call('POST', API.batchTemplates, {
      token: nw,
      body: {
        name: 'Tabular',
        divisionId: division,
        credentialType: 'card',
        columns: [
          { header: 'E', target: 'employeeNo' },
          { header: 'F', target: 'firstName' },
          { header: 'L', target: 'lastName' },
        ],
      },
    });
    const up = await fetch(`${s.base}${API.batchUpload}?templateId=${tpl.body.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${nw}`, 'content-type': 'text/csv' },
      body: `E,F,L\r\nTAB-2,${NAME},\r\n`,
    });
    const upload = await up.json();
    expect(upload.invalidRows).toBe(1);

    const unknown: string[] = [];
    for (const url of exports) {
      let path: string;
      if (catalogue.has(url)) path = `${url}?format=csv&titles=1`;
      else if (url === API.eventsExport) path = `${url}?format=csv`;
      else if (url === `${API.batchUpload}/:id/errors.csv`) path = `${API.batchUpload}/${upload.id}/errors.csv`;
      else if (url === `${reportJobsResource.api}/:id/runs/:runId/file`) path = `${reportJobsResource.api}/${job.body.id}/runs/${run.id}/file`;
      else {
        unknown.push(url);
        continue;
      }
      const r = await download(path);
      expect(r.status, path).toBe(200);
      expect(r.type, path).toMatch(/^text\/csv; charset=utf-8/);
      expect(r.bytes.subarray(0, 3).equals(BOM), `${path} starts with a byte-order mark`).toBe(true);
      const [header] = csvRows(r.bytes);
      expect(new Set(header.map((h) => h.toLowerCase())).size, `${path}: ${header.join(',')}`).toBe(header.length);
      if (catalogue.get(url)?.export?.includes('csv') || url === API.eventsExport) {
        const x = await download(path.replace('format=csv', 'format=xlsx'));
        expect(x.status, path).toBe(200);
        expect((await xlsxRows(x.bytes)).rows[0], path).toEqual(header);
      }
      if (url.endsWith('/file')) expect(header[1]).toBe(`time (${ZONE})`); // the events report: its times in the client's zone
      if (url.endsWith('errors.csv')) expect(csvRows(r.bytes)[1]).toEqual(['2', 'TAB-2', 'lastName', expect.any(String)]);
    }
    // a new export route is added here, and so held to the same
    expect(unknown).toEqual([]);
  });
});
