// Issue 45: no upload can stop the server, the identity batch's spreadsheets too. A real .xlsx (ExcelJS, 200 people)
// is sent whole, then truncated at many points and with its sheet's (and shared strings') deflate data damaged: each
// broken one answers a 4xx naming `file`, nothing is created, and the server still serves. (An inflate error inside
// the zip reader is an 'error' event on a stream: unhandled, it would end the process.)
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
let s: TestServer;
let nw: string;
let template = 0;
let sheet: Buffer;

beforeAll(async () => {
  s = await startTestServer();
  nw = await s.loginTo('admin', 'NORTHWIND');
  const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
  const made = await s.call('POST', API.batchTemplates, {
    token: nw,
    body: {
      name: 'Broken files',
      divisionId: division,
      credentialType: 'card',
      columns: [
        { header: 'Employee', target: 'employeeNo' },
        { header: 'First', target: 'firstName' },
        { header: 'Last', target: 'lastName' },
      ],
    },
  });
  expect(made.status).toBe(201);
  template = made.body.id;
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('People');
  ws.addRow(['Employee', 'First', 'Last']);
  for (let i = 0; i < 200; i++) ws.addRow([`BRK-${i}`, `Given${i} ${'x'.repeat(i % 17)}`, `Family${(i * 7919) % 1000}`]);
  sheet = Buffer.from(await book.xlsx.writeBuffer());
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const upload = async (body: Buffer) => {
  const r = await fetch(`${s.base}${API.batchUpload}?templateId=${template}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${nw}`, 'content-type': XLSX, 'x-file-name': 'people.xlsx' },
    body: new Uint8Array(body),
  });
  const text = await r.text();
  let json: { violations?: { field: string }[] } = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* reported by the status */
  }
  return { status: r.status, fields: (json.violations ?? []).map((v) => v.field) };
};
const serving = async () => (await s.call('GET', API.health)).status === 200 && (await s.call('GET', `${API.identities}?size=1`, { token: nw })).status === 200;
const created = () => s.count(`select id from identities where employee_no like 'BRK-%'`);

/** Where a zip entry's compressed data starts (after its local file header), by its name. */
function entryData(zip: Buffer, name: string): { at: number; size: number } {
  for (let i = 0; i + 30 < zip.length; i++) {
    if (zip.readUInt32LE(i) !== 0x04034b50) continue;
    const nameLen = zip.readUInt16LE(i + 26);
    const extraLen = zip.readUInt16LE(i + 28);
    if (zip.subarray(i + 30, i + 30 + nameLen).toString() !== name) continue;
    const at = i + 30 + nameLen + extraLen;
    let next = zip.indexOf(Buffer.from([0x50, 0x4b]), at + 1);
    if (next < 0) next = zip.length;
    return { at, size: next - at };
  }
  throw new Error(`no entry ${name}`);
}
const flip = (b: Buffer, at: number, n: number) => {
  const c = Buffer.from(b);
  for (let i = at; i < Math.min(c.length, at + n); i++) c[i] ^= 0x5a;
  return c;
};

describe('a broken spreadsheet in the identity batch is a 4xx naming the file, and the server goes on', () => {
  it('the whole file is read (so the broken ones below fail for being broken)', async () => {
    const r = await upload(sheet);
    expect(r.status, JSON.stringify(r)).toBeLessThan(300);
  });

  it('truncated at many points', async () => {
    const before = await created();
    for (const f of [0.05, 0.3, 0.6, 0.9]) {
      const at = Math.floor(sheet.length * f);
      const r = await upload(sheet.subarray(0, at));
      expect(r.status, `cut at ${at} of ${sheet.length}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `cut at ${at}`).toBeLessThan(500);
      expect(r.fields, `cut at ${at}`).toEqual(['file']);
      expect(await serving(), `serving after the cut at ${at}`).toBe(true);
    }
    for (const tail of [1, 22]) {
      const r = await upload(sheet.subarray(0, sheet.length - tail));
      expect(r.status, `${tail} bytes short`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(await serving()).toBe(true);
    }
    expect(await created()).toBe(before);
  }, 120_000);

  it("damaged in its compression: the sheet's deflate data, and the shared strings'", async () => {
    const ws = entryData(sheet, 'xl/worksheets/sheet1.xml');
    expect(ws.size).toBeGreaterThan(64);
    const broken: [string, Buffer][] = [
      ['sheet: deflate data damaged at its start', flip(sheet, ws.at, 16)],
      ['sheet: deflate data damaged in its middle', flip(sheet, ws.at + Math.floor(ws.size / 2), 32)],
    ];
    try {
      const ss = entryData(sheet, 'xl/sharedStrings.xml');
      broken.push(['shared strings: deflate data damaged', flip(sheet, ss.at + Math.floor(ss.size / 3), 32)]);
    } catch {
      /* ExcelJS wrote the strings inline: the sheet's cases stand for them */
    }
    for (const [what, body] of broken) {
      const r = await upload(body);
      expect(r.status, what).toBeGreaterThanOrEqual(400);
      expect(r.status, what).toBeLessThan(500);
      expect(r.fields, what).toEqual(['file']);
      expect(await serving(), `serving after ${what}`).toBe(true);
    }
  }, 120_000);
});
