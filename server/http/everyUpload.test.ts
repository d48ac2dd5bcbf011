// Issue 45: no upload can stop the server, as a class. The upload routes are found from Fastify's route table, not
// listed by hand: a mutating route that takes a file's media type (it does not answer 415 to one; the backup, the
// identity batch and the session journal) or whose contract body holds a file or an image (photos, floor plans,
// firmware: data: URLs in JSON). Every one needs a case here, or the first test fails naming it. Each case sends a
// real file of its kind truncated at many points, damaged in each of its layers (gzip and tar; zip and XML; the
// lines of JSON; base64 and the image's own chunks) and cut off mid-body with the connection closed: a 4xx naming the
// file (`file`, the image's field, `line N`), nothing kept, and the server still serving after each. A catalogue
// resource with an image or file field is covered from its declaration (a body copied from one of its rows, or a base
// body below when it has none). Restore reads no upload: server/backup/brokenUploads.test.ts damages a stored backup.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Struct } from 'superstruct';
import { API, CATALOGUE, apiPaths, inputSchema, journalHeader, type JournalEntry, type ResourceDeclaration } from '../../contract';
import { routeDoc } from '../openapi';
import { startTestServer, type TestServer } from '../testkit';
import { routeLineSchemas } from './kit';

const PG = !!process.env.DATABASE_URL;
/**
 * Media types a file is sent as: a route that takes one of them reads files. (NDJSON is taken by every route, its parser
 * being the app's: a route that reads lines of JSON says so with noteLineSchemas, as the hostile-input test needs.)
 */
const FILE_TYPES = [
  'application/octet-stream',
  'application/gzip',
  'application/x-gzip',
  'application/zip',
  'application/x-tar',
  'application/jsonl',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'multipart/form-data; boundary=x',
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
  'application/xml',
  'text/xml',
];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PNG_FILE = readFileSync(new URL('../db/demo/ground-floor.png', import.meta.url));

let s: TestServer;
let nw: string;
const dir = mkdtempSync(join(tmpdir(), 'gh-every-upload-'));

beforeAll(async () => {
  s = await startTestServer({ backups: { dir, restart: () => {} } });
  nw = await s.loginTo('admin', 'NORTHWIND');
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

// ---------- sending ----------

interface Answer {
  status: number;
  fields: string[];
}
const answerOf = async (r: Response): Promise<Answer> => {
  const text = await r.text();
  let violations: { field: string }[] = [];
  try {
    violations = JSON.parse(text).violations ?? [];
  } catch {
    /* the status says it */
  }
  return { status: r.status, fields: violations.map((v) => v.field) };
};
const send = async (method: string, path: string, type: string, body: Buffer | string, headers: Record<string, string> = {}) =>
  answerOf(
    await fetch(`${s.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${nw}`, 'content-type': type, ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    }),
  );
/** Sends half of `body` after announcing all of it, then closes the connection; resolves once the server is done with it. */
const cutOff = (method: string, path: string, type: string, body: Buffer) =>
  new Promise<void>((resolve) => {
    const url = new URL(`${s.base}${path}`);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { authorization: `Bearer ${nw}`, 'content-type': type, 'content-length': body.length },
      },
      (res) => res.resume().on('end', resolve),
    );
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, Math.floor(body.length / 2)), () => req.destroy());
  });
const serving = async () => (await s.call('GET', API.health)).status === 200 && (await s.call('GET', API.me, { token: nw })).status === 200;

/** One broken file: what it is, and the field its refusal must name (null: a whole file after all, taken). */
interface Broken {
  what: string;
  body: Buffer | string;
  field: string | null;
  headers?: Record<string, string>;
}
/** A route's case: the real file, its broken forms, and how to count what the route keeps. */
interface Case {
  method: string;
  path: () => Promise<string>;
  type: string;
  real: () => Promise<Buffer | string>;
  broken: (real: Buffer | string) => Promise<Broken[]>;
  /** What the route keeps, as a value to compare: unchanged by a refused upload. */
  kept: () => Promise<string>;
}

const cuts = (n: number) => [1, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99].map((f) => Math.max(1, Math.floor(n * f))).concat([n - 8, n - 1]);
const flip = (b: Buffer, at: number, n = 64) => {
  const c = Buffer.from(b);
  for (let i = at; i < Math.min(c.length, at + n); i++) c[i] ^= 0xa5;
  return c;
};
const uniqueCuts = (n: number) => [...new Set(cuts(n))].filter((at) => at > 0 && at < n).sort((a, b) => a - b);

// ---------- the raw uploads ----------

/** The tar member header at or after `from` (ustar: "ustar" at 257 of a 512-byte header). */
function memberHeaderNear(tar: Buffer, from: number): number {
  for (let at = from - (from % 512); at + 512 <= tar.length; at += 512) if (tar.subarray(at + 257, at + 262).toString() === 'ustar') return at;
  throw new Error('no tar header after the middle');
}
/** The tar layer's damage is sent gzipped again at the fastest level: the gzip is whole either way, and the 49 MB tar of
 *  the seeded database took seconds of processor time at the default level. */
const FAST = { level: 1 };
const backupFiles = async () => String(readdirSync(dir).filter((f) => /\.(tar\.gz|dump|part)$/.test(f)).length);
const backupCase: Case = {
  method: 'POST',
  path: async () => `${API.backups}/upload`,
  type: 'application/octet-stream',
  async real() {
    const taken = await s.call('POST', API.backups, { token: nw });
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    const file = await fetch(`${s.base}${API.backups}/${taken.body.id}/file`, { headers: { authorization: `Bearer ${nw}` } });
    const image = Buffer.from(await file.arrayBuffer());
    expect((await s.call('DELETE', `${API.backups}/${taken.body.id}`, { token: nw })).status).toBe(204);
    return image;
  },
  async broken(real) {
    const image = real as Buffer;
    const out: Broken[] = uniqueCuts(image.length).map((at) => ({ what: `cut at ${at} of ${image.length}`, body: image.subarray(0, at), field: 'file' }));
    out.push({ what: 'its header damaged', body: flip(image, 0, 16), field: 'file' });
    if (PG) {
      // a pg_dump custom archive: a table of contents, then each table's data compressed (zlib) in blocks
      out.push({ what: 'compressed table data damaged in the middle', body: flip(image, Math.floor(image.length / 2), 256), field: 'file' });
      return out;
    }
    const tar = gunzipSync(image);
    out.push(
      { what: 'gzip: deflate data damaged in the middle', body: flip(image, Math.floor(image.length / 2)), field: 'file' },
      { what: 'gzip: its trailer (CRC and length) damaged', body: flip(image, image.length - 8, 8), field: 'file' },
      { what: 'tar: cut in the middle of a member', body: gzipSync(tar.subarray(0, Math.floor(tar.length / 3)), FAST), field: 'file' },
      { what: 'tar: a member header damaged', body: gzipSync(flip(tar, memberHeaderNear(tar, Math.floor(tar.length / 2)), 512), FAST), field: 'file' },
    );
    return out;
  },
  kept: backupFiles,
};

let template = 0;
const batchCase: Case = {
  method: 'POST',
  path: async () => {
    if (!template) {
      const division = (await s.call('GET', `${API.identities}?size=1`, { token: nw })).body.items[0].divisionId;
      const made = await s.call('POST', API.batchTemplates, {
        token: nw,
        body: {
          name: 'Every upload',
          divisionId: division,
          credentialType: 'card',
          columns: [
            { header: 'Employee', target: 'employeeNo' },
            { header: 'First', target: 'firstName' },
            { header: 'Last', target: 'lastName' },
          ],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      template = made.body.id;
    }
    return `${API.batchUpload}?templateId=${template}`;
  },
  type: XLSX,
  async real() {
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('People');
    ws.addRow(['Employee', 'First', 'Last']);
    for (let i = 0; i < 300; i++) ws.addRow([`EVU-${i}`, `Given${i} ${'y'.repeat(i % 13)}`, `Family${(i * 7919) % 1000}`]);
    return Buffer.from(await book.xlsx.writeBuffer());
  },
  async broken(real) {
    const xlsx = real as Buffer;
    const out: Broken[] = uniqueCuts(xlsx.length).map((at) => ({ what: `cut at ${at} of ${xlsx.length}`, body: xlsx.subarray(0, at), field: 'file' }));
    // the zip layer: the sheet's deflate data, and the central directory at its end
    const zip = await JSZip.loadAsync(xlsx);
    const sheetAt = xlsx.indexOf('xl/worksheets/sheet1.xml');
    out.push(
      { what: "zip: the sheet's deflate data damaged", body: flip(xlsx, sheetAt + 200, 64), field: 'file' },
      { what: 'zip: its central directory damaged', body: flip(xlsx, xlsx.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])), 46), field: 'file' },
    );
    // the XML layer, zipped whole again: the sheet cut in the middle of a row, and a tag broken
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    const rezip = async (xml: string) => {
      const z = await JSZip.loadAsync(xlsx);
      z.file('xl/worksheets/sheet1.xml', xml);
      return Buffer.from(await z.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    };
    out.push(
      { what: "XML: the sheet's XML cut mid-row", body: await rezip(sheet.slice(0, Math.floor(sheet.length / 2))), field: 'file' },
      { what: "XML: a tag of the sheet's XML broken", body: await rezip(sheet.replace('<sheetData>', '<sheetData><row r="2"><c r="A2"')), field: 'file' },
    );
    return out;
  },
  kept: async () => String(await s.count('select 1 from batch_uploads')),
};

const JOURNAL_STARTED = 1_714_550_400_000;
let recordings = 0;
const recording = () => `every-upload-${process.pid}-${++recordings}`;
let journalAt = '';
const gzipped = { 'content-encoding': 'gzip' };
const journalCase: Case = {
  method: 'POST',
  path: async () => (journalAt = `${API.sessionJournals}/${recording()}`),
  type: 'application/x-ndjson',
  async real() {
    const header = journalHeader(JOURNAL_STARTED);
    const entries: JournalEntry[] = Array.from({ length: 40 }, (_, i) => ({
      seq: i + 1,
      at: JOURNAL_STARTED + i * 250,
      actor: i === 0 ? '#root' : 'tabs',
      event: i === 0 ? { type: 'xstate.init', input: {} } : { type: 'route.visited', path: `/monitor/events?page=${i}` },
      state: { step: i + 1, open: ['/monitor/events', '/configure/doors'].slice(0, 1 + (i % 2)) },
    })) as JournalEntry[];
    return [header, ...entries].map((l) => JSON.stringify(l)).join('\n') + '\n';
  },
  async broken(real) {
    const text = real as string;
    const lineOf = (at: number) => text.slice(0, at).split('\n').length;
    const out: Broken[] = uniqueCuts(text.length).map((at) => {
      // cut at a line's end, the chunk is whole and shorter: taken (a header alone is not a chunk: line 2 is missing)
      const whole = text[at - 1] === '\n' || text[at] === '\n';
      const lines = text.slice(0, at).split('\n').filter(Boolean).length;
      return { what: `cut at ${at} of ${text.length}`, body: text.slice(0, at), field: whole ? (lines >= 2 ? null : 'line 2') : `line ${lineOf(at)}` };
    });
    const mid = text.indexOf('\n', Math.floor(text.length / 2)) + 10;
    out.push(
      { what: 'a line damaged in the middle', body: text.slice(0, mid) + '\u0000}{' + text.slice(mid + 3), field: `line ${lineOf(mid)}` },
      // the gzip layer of a chunk sent compressed (Content-Encoding: gzip): whole it is taken; cut or damaged, refused
      { what: 'sent gzip-compressed, whole', body: gzipSync(text), field: null, headers: gzipped },
      { what: 'sent gzip-compressed, the gzip cut in the middle', body: gzipSync(text).subarray(0, 300), field: '(body)', headers: gzipped },
      { what: 'sent gzip-compressed, its deflate data damaged', body: flip(gzipSync(text), 40, 32), field: '(body)', headers: gzipped },
    );
    return out;
  },
  kept: async () =>
    String(
      await s.count('select 1 from session_journal_entries e join session_journals j on j.id = e.journal_id where j.recording = $1', [
        journalAt.split('/').pop(),
      ]),
    ),
};

/** Raw upload routes and their cases. */
const RAW: Record<string, Case> = {
  [`POST ${API.backups}/upload`]: backupCase,
  [`POST ${API.batchUpload}`]: batchCase,
  [`POST ${API.sessionJournals}/:id`]: journalCase,
};

// ---------- files inside JSON: photos, floor plans, firmware ----------

/** A made-up controller firmware image (no real maker's file is at hand): a header, a version, then code-like bytes. */
const FIRMWARE = Buffer.concat([
  Buffer.from('GHFW\u0001GH-C4 4.3.0\u0000'),
  Buffer.from(Array.from({ length: 48_000 }, (_, i) => (i * 131 + (i >> 7)) & 0xff)),
]);
/** Resources with a file field but no demo row to copy: a body of their own (the file field is filled in). */
const BASE: Record<string, () => Record<string, unknown>> = {
  firmware: () => ({ version: `GH-C4 9.${Date.now() % 1000}.${recordings++}` }),
  visitorWatchlist: () => ({ fullName: `Upload Watch ${recordings++}`, kind: 'deny', reason: 'Seen at the loading dock without a pass' }),
};
const holdsFile = (struct: Struct<any, any> | undefined, seen = new Set<unknown>()): boolean => {
  if (!struct || seen.has(struct)) return false;
  seen.add(struct);
  if (struct.type === 'imageDataUrl' || struct.type === 'fileDataUrl') return true;
  const schema = struct.schema as unknown;
  if (schema && typeof schema === 'object')
    return Object.values(schema as Record<string, unknown>).some((v) => v instanceof Object && 'type' in v && holdsFile(v as Struct<any, any>, seen));
  return false;
};
/** The file fields a body may carry (a read-only one, such as the visitor's matched watchlist photo, is never taken). */
const fileFields = (r: ResourceDeclaration<any>) =>
  Object.entries(r.fields as Record<string, { kind: string; readOnly?: boolean }>).filter(([, f]) => (f.kind === 'image' || f.kind === 'file') && !f.readOnly);
const dataUrl = (kind: string, bytes: Buffer) => `data:${kind === 'image' ? 'image/png' : 'application/octet-stream'};base64,${bytes.toString('base64')}`;

/** The chunks of a PNG (length, type, data, CRC) after its 8-byte signature: where each starts. */
function pngChunks(png: Buffer): { at: number; type: string; length: number }[] {
  const out: { at: number; type: string; length: number }[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    out.push({ at, type: png.subarray(at + 4, at + 8).toString('latin1'), length });
    at += 12 + length;
  }
  return out;
}

/** A case for a catalogue route with a file field: a body from one of its rows (or BASE), the field made broken. */
function jsonFileCase(r: ResourceDeclaration<any>, method: 'POST' | 'PUT'): Case & { body: (file: string) => Promise<string> } {
  const [field, f] = fileFields(r)[0];
  const real = f.kind === 'image' ? PNG_FILE : FIRMWARE;
  const keys = Object.keys((inputSchema(r) as Struct<any, any>).schema as object);
  const pick = (x: Record<string, any>) => Object.fromEntries(keys.filter((k) => k in x && x[k] !== undefined).map((k) => [k, x[k]]));
  // a new row's body leaves out what must be unique or is owned (credentials): those would refuse the real file too
  const fresh = (x: Record<string, any>) => {
    const out = pick(x);
    for (const [k, g] of Object.entries(r.fields as Record<string, { kind: string; unique?: string; max?: number }>)) {
      if (g.kind === 'children') out[k] = [];
      else if (g.unique && g.kind === 'text') out[k] = `UPLOAD-${Date.now() % 100_000}-${recordings++}`.slice(0, g.max ?? 100); // fits codes (capitals, digits, dashes) too
    }
    return out;
  };
  let made: Record<string, any> | null = null;
  /** The resource's first row as it is now (read each time: the real file's PUT changed it), or one made from BASE. */
  const rowOf = async () => {
    const first = made ?? (await s.call('GET', `${r.api}?size=1`, { token: nw })).body.items?.[0];
    if (first) return (await s.call('GET', `${r.api}/${first.id}`, { token: nw })).body as Record<string, any>;
    const base = BASE[r.name];
    if (!base) throw new Error(`${r.name}: no row to copy a body from and no BASE body: add one`);
    const res = await s.call('POST', r.api, { token: nw, body: { ...base(), [field]: dataUrl(f.kind, real) } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (made = res.body as Record<string, any>);
  };
  const body = async (file: string) => {
    const x = await rowOf();
    const b = method === 'PUT' ? pick(x) : { ...fresh(x), ...(BASE[r.name]?.() ?? {}) };
    return JSON.stringify({ ...b, [field]: file });
  };
  return {
    method,
    type: 'application/json',
    path: async () => (method === 'POST' ? r.api : `${r.api}/${(await rowOf()).id}`),
    real: async () => body(dataUrl(f.kind, real)),
    body,
    async broken() {
      const url = dataUrl(f.kind, real);
      const [prefix, base64] = url.split(',');
      const out: Broken[] = [];
      // the file itself cut at many points (as bytes, whole base64): an image's own format says it is cut; a firmware
      // image is any bytes, so its cuts are made mid-way through base64's groups of four, which no whole file has
      if (f.kind === 'image')
        for (const at of uniqueCuts(real.length))
          out.push({ what: `${field} cut at byte ${at} of ${real.length}`, body: await body(`${prefix},${real.subarray(0, at).toString('base64')}`), field });
      else
        for (const c of uniqueCuts(base64.length).map((c) => (c % 4 ? c : c - 1)))
          out.push({ what: `${field} cut at character ${c} of its ${base64.length} base64`, body: await body(`${prefix},${base64.slice(0, c)}`), field });
      // the base64 layer: a character no base64 has, and the data: URL's head broken
      out.push(
        { what: `${field}: base64 damaged`, body: await body(`${prefix},${base64.slice(0, 400)}*%$${base64.slice(403)}`), field },
        { what: `${field}: data: URL head broken`, body: await body(`${prefix.replace('base64', 'base46')},${base64}`), field },
      );
      // the image's own layer: a PNG's compressed pixel data (IDAT, zlib) damaged inside its chunk
      if (f.kind === 'image') {
        const idat = pngChunks(real).find((c) => c.type === 'IDAT')!;
        out.push({
          what: `${field}: compressed pixel data (IDAT) damaged`,
          body: await body(dataUrl('image', flip(real, idat.at + 8 + Math.floor(idat.length / 2), 16))),
          field,
        });
      }
      // the JSON layer: the body itself cut short (whole as sent)
      const whole = await body(url);
      for (const at of [10, Math.floor(whole.length / 2), whole.length - 2])
        out.push({ what: `the JSON body cut at ${at}`, body: whole.slice(0, at), field: '(body)' });
      return out;
    },
    kept: async () =>
      method === 'POST'
        ? String(await s.count(`select 1 from ${r.table}`))
        : JSON.stringify(
            (await s.db.query(`select md5(coalesce(${snake(field)}, '')) as f, updated_at from ${r.table} where id = $1`, [(await rowOf()).id])).rows,
          ),
  };
}
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// ---------- the route table ----------

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const urlOf = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '1');
/** Every catalogue route with a file field gets its case from the declaration. */
const CATALOGUE_CASES = new Map(
  CATALOGUE.filter((r) => fileFields(r).length).flatMap((r) => [
    ...(r.privileges.add ? [[`POST ${apiPaths(r).list}`, () => jsonFileCase(r, 'POST')] as const] : []),
    ...(r.privileges.edit ? [[`PUT ${apiPaths(r).one}`, () => jsonFileCase(r, 'PUT')] as const] : []),
  ]),
);

/** The upload routes of the route table, each with why it is one. */
async function uploadRoutes(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const r of s.app.routes.filter((x) => ['POST', 'PUT', 'PATCH'].includes(x.method))) {
    if (holdsFile(routeDoc(r as never).body)) found.set(key(r), 'a file in its JSON body');
    if (routeLineSchemas.has(key(r))) found.set(key(r), 'lines of JSON (an NDJSON file)');
    for (const type of FILE_TYPES) {
      if (found.has(key(r))) break;
      const res = await s.app.inject({
        method: r.method as 'POST',
        url: urlOf(r.url),
        headers: { authorization: `Bearer ${nw}`, 'content-type': type },
        payload: 'x',
      });
      if (res.statusCode !== 415) found.set(key(r), `takes ${type} (answered ${res.statusCode})`);
    }
  }
  return found;
}

async function run(name: string, c: Case): Promise<string[]> {
  const problems: string[] = [];
  const real = await c.real();
  // the real file is taken: the route works, and what follows is refused for what was done to the file
  const taken = await send(c.method, await c.path(), c.type, real);
  if (taken.status >= 300) problems.push(`${name}: the real file answered ${taken.status} ${taken.fields.join(', ')}`);
  for (const b of await c.broken(real)) {
    const path = await c.path();
    const before = await c.kept();
    const a = await send(c.method, path, c.type, b.body, b.headers);
    const named = (f: string) => a.fields.some((x) => x === f || x.startsWith(`${f}.`));
    if (b.field === null) {
      if (a.status >= 300) problems.push(`${name} ${b.what}: a whole file, answered ${a.status} ${a.fields.join(', ')}`);
    } else {
      if (a.status < 400 || a.status >= 500) problems.push(`${name} ${b.what}: answered ${a.status}, not a 4xx`);
      else if (!named(b.field)) problems.push(`${name} ${b.what}: ${a.status} naming ${a.fields.join(', ') || 'nothing'}, not ${b.field}`);
      if ((await c.kept()) !== before) problems.push(`${name} ${b.what}: kept`);
    }
    if (!(await serving())) problems.push(`${name} ${b.what}: the server no longer serves`);
  }
  // cut off mid-body, the connection closed: nothing kept, the server goes on
  const path = await c.path();
  const before = await c.kept();
  await cutOff(c.method, path, c.type, typeof real === 'string' ? Buffer.from(real) : real);
  await expect.poll(c.kept, { timeout: 10_000 }).toBe(before);
  if (!(await serving())) problems.push(`${name} cut off mid-body: the server no longer serves`);
  return problems;
}

describe('every upload route', () => {
  const cases = () => new Map<string, () => Case>([...Object.entries(RAW).map(([k, c]) => [k, () => c] as const), ...CATALOGUE_CASES]);

  it('has a case here for each upload route of the route table (and none for a route that is gone)', async () => {
    const routes = await uploadRoutes();
    expect(routes.size).toBeGreaterThanOrEqual(Object.keys(RAW).length);
    const have = cases();
    expect([...routes].filter(([k]) => !have.has(k)).map(([k, why]) => `${k}: ${why}`)).toEqual([]);
    expect([...have.keys()].filter((k) => !routes.has(k))).toEqual([]);
    // jsonFileCase breaks a resource's one file field: a second one needs the case to break each
    expect(CATALOGUE.filter((r) => fileFields(r).length > 1).map((r) => r.name)).toEqual([]);
  }, 120_000);

  for (const name of [...Object.keys(RAW), ...CATALOGUE_CASES.keys()])
    it(`${name}: a real file truncated, damaged in each layer and cut off mid-body is a 4xx naming it, and the server goes on`, async () => {
      expect(await run(name, cases().get(name)!())).toEqual([]);
    }, 600_000);
});
