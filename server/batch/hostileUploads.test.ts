// Issue 27, part 2: uploads are bounded before they are parsed. Each hostile file is BUILT here at run time (exceljs's
// writer, yazl, node:zlib), sent to the real server (in this process: startTestServer), and must get a 4xx whose
// violation on `file` names the limit, with the process's resident memory growing by less than 100 MB while the
// server answers (sampled throughout the request: the server reads in this process's event loop, between chunks).
// Oversized backups, journal chunks and firmware images are refused with 413 as they stream, never held whole.
import { request } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import ExcelJS from 'exceljs';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, firmwareResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MB = 1024 * 1024;

let s: TestServer;
let nw: string;
let admin: string;
let template: number;
let backupDir: string;
const BACKUP_LIMIT = 8 * MB;

beforeAll(async () => {
  backupDir = mkdtempSync(join(tmpdir(), 'gh-hostile-backups-'));
  s = await startTestServer({ backups: { dir: backupDir, maxUploadBytes: BACKUP_LIMIT } });
  admin = await s.login('admin');
  nw = await s.loginTo('admin', 'NORTHWIND');
  const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
  const made = await s.call('POST', API.batchTemplates, {
    token: nw,
    body: {
      name: 'Hostile',
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
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(backupDir, { recursive: true, force: true });
});

/** The highest RSS seen while `work` runs, less the RSS before it. */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; grewMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grewMb: (peak - before) / MB };
  } finally {
    clearInterval(sample);
  }
}

/**
 * Sends `body` (a buffer, or a stream sent chunked with no length) with node:http, stopping to send as soon as the
 * server answers; `length` declares a Content-Length without sending that much.
 */
function send(method: string, path: string, token: string, type: string, body: Buffer | Readable, length?: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}`, 'content-type': type };
    if (length !== undefined) headers['content-length'] = length;
    else if (Buffer.isBuffer(body)) headers['content-length'] = body.length;
    let answered = false;
    const req = request(s.base + path, { method, headers }, (res) => {
      answered = true;
      if (!Buffer.isBuffer(body)) {
        body.unpipe(req);
        body.destroy();
      } // answered: stop making the rest
      const chunks: Buffer[] = [];
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        req.destroy(); // an upload left open ends here
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode!, body: JSON.parse(text) });
        } catch {
          resolve({ status: res.statusCode!, body: text });
        }
      };
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', finish).on('close', finish);
    });
    // the server closes the connection once it has answered a body it will not read (Connection: close): the
    // write that was still under way then fails, after the answer, which is no failure. A deadline for the answer, not
    // a sleep: the answer ends the wait at once; 500 ms stood here, and an answer later than that on a loaded machine
    // was taken for none
    req.on('error', (e) =>
      setTimeout(() => {
        if (!answered) reject(e);
      }, 10_000),
    );
    if (Buffer.isBuffer(body)) req.end(body.subarray(0, length ?? body.length));
    else body.pipe(req);
  });
}

const uploadFile = (file: Buffer, type = XLSX) => send('POST', `${API.batchUpload}?templateId=${template}`, nw, type, file);

/**
 * A stream of `total` bytes of `fill`, in 1 MB chunks, made as it is read (never held). `open`: it then stays open
 * without ending, as an upload still under way: a server that waited for the whole body would never answer.
 */
function filler(total: number, fill = 0x30, open = false): Readable {
  const chunk = Buffer.alloc(MB, fill);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        if (!open) this.push(null);
        return;
      }
      const n = Math.min(MB, total - sent);
      sent += n;
      this.push(n === MB ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A zip of the given parts (yazl; deflated). */
async function zipOf(parts: Array<[string, Buffer | string | Readable]>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of parts) {
    if (data instanceof Readable) zip.addReadStream(data, name);
    else zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as unknown as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
/** A minimal workbook of one sheet whose XML is `sheet` (and shared strings `shared`, when given). */
function workbook(sheet: Buffer | string | Readable, shared?: Buffer | string | Readable): Promise<Buffer> {
  const parts: Array<[string, Buffer | string | Readable]> = [
    ['[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
    ['xl/workbook.xml', `<?xml version="1.0"?><workbook ${NS}><sheets><sheet name="People" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    [
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ],
    ['xl/worksheets/sheet1.xml', sheet],
  ];
  if (shared !== undefined) parts.push(['xl/sharedStrings.xml', shared]);
  return zipOf(parts);
}
/** A sheet's XML made as it is read: `head`, then `rows` rows from `row(n)`, then the end. */
function sheetStream(rows: number, row: (n: number) => string, head = ''): Readable {
  let n = 0;
  return Readable.from(
    (function* () {
      yield `<?xml version="1.0"?><worksheet ${NS}>${head}<sheetData>`;
      while (n < rows) {
        let part = '';
        for (let k = 0; k < 1000 && n < rows; k++) part += row(++n);
        yield part;
      }
      yield '</sheetData></worksheet>';
    })(),
  );
}

async function refused(file: Buffer, status: number, message: string, type = XLSX) {
  const uploads = await s.count('select 1 from batch_uploads');
  const { result, grewMb } = await rssGrowth(() => uploadFile(file, type));
  expect(result.status).toBe(status);
  expect(result.body.violations[0]).toMatchObject({ field: 'file', message: expect.stringContaining(message) });
  expect(grewMb).toBeLessThan(100);
  expect(await s.count('select 1 from batch_uploads')).toBe(uploads); // nothing kept
}

describe('hostile spreadsheets are refused while they are read', () => {
  it('a valid workbook still reads (control)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.addRow(['Employee', 'First', 'Last']);
    ws.addRow(['HOSTILE-1', 'Valid', 'Row']);
    const ok = await uploadFile(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ total: 1, valid: 1 });
  });

  it('a header cell in XFD1 over 20,000 one-cell rows (the file that took 4.6 GB): wider than 64 columns', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.getCell('XFD1').value = 'Employee';
    for (let r = 2; r <= 20_001; r++) ws.getCell(`A${r}`).value = `E${r}`;
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    await refused(file, 413, 'is wider than 64 columns');
  });

  it('the same without a <dimension>: the cell itself is the limit', async () => {
    const file = await workbook(sheetStream(20_000, (n) => `<row r="${n}"><c r="${n === 1 ? 'XFD1' : `A${n}`}" t="inlineStr"><is><t>E${n}</t></is></c></row>`));
    await refused(file, 413, 'is wider than 64 columns');
  });

  it('a sheet of 200,000 rows (exceljs streaming writer): more than 20,000 rows', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
    const ws = wb.addWorksheet('People');
    ws.addRow(['Employee', 'First', 'Last']).commit();
    for (let r = 1; r <= 200_000; r++) ws.addRow([`T-${r}`, 'Tall', 'Sheet']).commit();
    ws.commit();
    await wb.commit();
    await refused(Buffer.concat(chunks), 413, 'has more than 20,000 rows');
  }, 120_000);

  it('200,000 rows whose <dimension> says one: the rows are counted as they come', async () => {
    const file = await workbook(
      sheetStream(200_000, (n) => `<row r="${n}"><c r="A${n}" t="inlineStr"><is><t>T${n}</t></is></c></row>`, '<dimension ref="A1"/>'),
    );
    await refused(file, 413, 'has more than 20,000 rows');
  }, 60_000);

  let built: Promise<Buffer> | undefined;
  const gigabyteOfZeros = () => (built ??= workbook(filler(1024 * MB, 0)));
  it('a zip bomb (1 GB of zeros in one part, deflated to about 1 MB): refused from the zip directory, nothing inflated', async () => {
    const file = Buffer.from(await gigabyteOfZeros());
    expect(file.length).toBeLessThan(2 * MB);
    await refused(file, 413, 'unpacks to more than 50 MB');
  }, 120_000);

  it('the same bomb whose directory lies about its size: inflating stops at the size it claims', async () => {
    const file = Buffer.from(await gigabyteOfZeros());
    // the central directory record of the sheet: its uncompressed size (offset 24) says 1,000 bytes
    for (let at = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at - 1)) {
      const nameLength = file.readUInt16LE(at + 28);
      if (file.subarray(at + 46, at + 46 + nameLength).toString() === 'xl/worksheets/sheet1.xml') file.writeUInt32LE(1000, at + 24);
    }
    await refused(file, 400, 'xl/worksheets/sheet1.xml unpacks to more than its zip directory says (1,000 bytes)');
  }, 120_000);

  it('a part that unpacks more than 100 times its size (40 MB of zeros, within the total): a zip bomb', async () => {
    await refused(await workbook(filler(40 * MB, 0)), 413, 'unpacks to more than 100 times its size');
  }, 60_000);

  it('huge shared strings (500,000 of them, the count declared as 1): more than 400,000 different texts', async () => {
    const shared = Readable.from(
      (function* () {
        yield `<?xml version="1.0"?><sst ${NS} count="1" uniqueCount="1">`;
        for (let i = 0; i < 500; i++) {
          let part = '';
          for (let k = 0; k < 1000; k++) part += `<si><t>s${i * 1000 + k}</t></si>`;
          yield part;
        }
        yield '</sst>';
      })(),
    );
    const file = await workbook(
      sheetStream(1, () => '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
      shared,
    );
    await refused(file, 413, 'has more than 400,000 different texts');
  }, 60_000);

  it('deeply nested XML (100,000 levels in one cell, under a megabyte): refused at 32 levels', async () => {
    const depth = 100_000;
    const file = await workbook(sheetStream(1, () => `<row r="1"><c r="A1" t="inlineStr"><is>${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}</is></c></row>`));
    await refused(file, 400, 'nested deeper than 32 levels');
  }, 60_000);

  it('a CSV wider than 64 columns, or of more than 20,000 rows', async () => {
    await refused(Buffer.from(`Employee,First,Last${',x'.repeat(100)}\r\nA,B,C\r\n`), 413, 'is wider than 64 columns', 'text/csv');
    const wide = Buffer.alloc(9 * MB, ','); // one line of nine million empty fields
    await refused(wide, 413, 'is wider than 64 columns', 'text/csv');
    await refused(
      Buffer.from(['Employee,First,Last', ...Array.from({ length: 20_001 }, (_, i) => `C-${i},Tall,Csv`)].join('\r\n')),
      413,
      'has more than 20,000 rows',
      'text/csv',
    );
  }, 60_000);

  it('a body larger than 10 MB sent without a length: 413 while it is still being sent', async () => {
    const { result, grewMb } = await rssGrowth(() => send('POST', `${API.batchUpload}?templateId=${template}`, nw, 'text/csv', filler(11 * MB, 0x30, true)));
    expect(result.status).toBe(413);
    expect(grewMb).toBeLessThan(100);
  }, 60_000);
});

describe('other uploads are bounded as they stream', () => {
  // on either engine (on PostgreSQL a backup is a pg_dump archive, bounded the same way as it streams)
  it('a backup larger than the limit: 413 on `file`, declared or while it is still being sent, and nothing kept', async () => {
    const declared = await rssGrowth(() => send('POST', `${API.backups}/upload`, admin, 'application/gzip', filler(MB, 1, true), 2 * 1024 * MB));
    expect(declared.result.status).toBe(413);
    expect(declared.result.body.violations[0]).toMatchObject({ field: 'file', message: expect.stringContaining('larger than a backup may be') });
    const streamed = await rssGrowth(() => send('POST', `${API.backups}/upload`, admin, 'application/gzip', filler(BACKUP_LIMIT + 2 * MB, 1, true)));
    expect(streamed.result.status).toBe(413);
    expect(streamed.result.body.violations[0]).toMatchObject({ field: 'file', message: expect.stringContaining('larger than a backup may be') });
    expect(streamed.grewMb).toBeLessThan(100);
    expect(readdirSync(backupDir)).toEqual([]); // not even a part file
  }, 120_000);

  it('a gzip bomb as a backup (500 MB of zeros, gzipped to half a megabyte): 413 as it inflates, nothing kept', async () => {
    const chunks: Buffer[] = [];
    for await (const c of filler(500 * MB, 0).pipe(createGzip()) as AsyncIterable<Buffer>) chunks.push(c);
    const bomb = Buffer.concat(chunks);
    expect(bomb.length).toBeLessThan(BACKUP_LIMIT);
    const { result, grewMb } = await rssGrowth(() => send('POST', `${API.backups}/upload`, admin, 'application/gzip', bomb));
    expect(result.status).toBe(413);
    expect(result.body.violations[0]).toMatchObject({
      field: 'file',
      message: expect.stringContaining('unpacks to more than 100 times its size'),
      code: 'backup.gzipBomb',
      values: { ratio: 100 },
    });
    expect(grewMb).toBeLessThan(100);
    expect(readdirSync(backupDir)).toEqual([]);
  }, 120_000);

  it('a session journal chunk larger than its limit: 413, declared or while it is still being sent', async () => {
    const token = await s.login('operator');
    const path = `${API.sessionJournals}/hostile-recording-1`;
    const declared = await send('POST', path, token, 'application/x-ndjson', filler(MB / 4, 0x41, true), 500 * MB);
    expect(declared.status).toBe(413);
    const { result, grewMb } = await rssGrowth(() => send('POST', path, token, 'application/x-ndjson', filler(3 * MB, 0x41, true)));
    expect(result.status).toBe(413);
    expect(result.body.violations[0].field).toBe('(body)');
    expect(grewMb).toBeLessThan(100);
    expect(await s.count(`select 1 from session_journals where recording = 'hostile-recording-1'`)).toBe(0);
  }, 60_000);

  it('a firmware image (a data: URL in JSON) past the 2 MB body limit: 413 while it is still being sent', async () => {
    const token = await s.loginTo('admin', 'NORTHWIND');
    const json = Readable.from(
      (function* () {
        yield '{"version":"GH-C4 9.9.9","file":"data:application/octet-stream;base64,';
        const chunk = Buffer.alloc(MB, 0x41).toString();
        for (let i = 0; i < 4; i++) yield chunk;
        // and then nothing more, the upload left open: the answer must come without the rest
      })(),
      { objectMode: false },
    );
    const open = new PassThrough();
    json.pipe(open, { end: false });
    const { result, grewMb } = await rssGrowth(() => send('POST', firmwareResource.api, token, 'application/json', open));
    expect(result.status).toBe(413);
    expect(grewMb).toBeLessThan(100);
    expect(await s.count(`select 1 from firmware_images where version = 'GH-C4 9.9.9'`)).toBe(0);
  }, 60_000);
});
