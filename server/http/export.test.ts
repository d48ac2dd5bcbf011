// The event history export against the real server: CSV and NDJSON files and the event-stream of the same rows,
// keyset-paged newest first over more rows than one page, per tenant, with the history list's filters; bad
// filters, a missing privilege or token get their error and write nothing (not even an audit row).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import type { Db } from '../db/db';
import { startTestServer, type TestServer } from '../testkit';
import { CSV_COLUMNS, EXPORT_PAGE, EXPORT_PATH, EXPORT_PROGRESS_PATH, csvHeader, exportPages } from './export';

// Northwind's zone: CSV times carry its offset, the time column's header names it
const CSV_HEADER = csvHeader('Asia/Kuala_Lumpur');

let s: TestServer;
let operator: string, reception: string, harbour: string;
let northwind: number, harbourId: number;
const BULK = EXPORT_PAGE * 2 + 345; // more than two keyset pages

async function get(path: string, token?: string) {
  const res = await fetch(s.base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  // the bytes as sent: the CSV's byte-order mark kept (Response.text() would drop it)
  return { status: res.status, headers: res.headers, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer()) };
}
/** Parses a text/event-stream body into its events (the console's parser is tested in src/api/stream.test.ts). */
function sseEvents(text: string): { event: string; data: any; id?: string }[] {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const out: { event: string; data: any; id?: string } = { event: 'message', data: '' };
      for (const line of block.split('\n')) {
        const [k, ...v] = line.split(': ');
        if (k === 'event') out.event = v.join(': ');
        else if (k === 'id') out.id = v.join(': ');
        else if (k === 'data') out.data = JSON.parse(v.join(': '));
      }
      return out;
    });
}
const ids = (csv: string) =>
  csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]));
const auditCount = () => s.count(`select 1 from audit_log where action = 'export' and entity = 'events'`);

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [operator, reception, harbour] = await Promise.all(['operator', 'reception', 'harbour'].map((u) => s.login(u)));
  const code = async (c: string) => Number((await s.db.query<{ id: number }>('select id from clients where code = $1', [c])).rows[0].id);
  [northwind, harbourId] = [await code('NORTHWIND'), await code('HARBOUR')];
  await s.db.query(
    `insert into events (client_id, event_code, event_source_id, event_source_name, event_point_id, event_point_name, message, at)
    select $1, case when g % 10 = 0 then 2002 else 1000 end, 'reader-' || (g % 7), 'Reader ' || (g % 7), 'door-' || (g % 5), 'Door, "' || (g % 5) || '"',
      'Card swipe ' || g, now() - (($2 - g) || ' seconds')::interval
    from generate_series(1, $2) g`,
    [northwind, BULK],
  );
  await s.db.query(
    `insert into events (client_id, event_code, event_source_id, event_point_id, message)
    select $1, 1000, 'hh-reader', 'hh-door', 'Harbour swipe ' || g from generate_series(1, 50) g`,
    [harbourId],
  );
});
afterAll(async () => {
  await s?.close();
});

describe('GET /event/manage/events/export', () => {
  it('streams every event of the tenant as CSV, newest first, across keyset pages, without duplicates', async () => {
    const forced = await s.call('POST', API.testSimulate, { token: operator, body: { kind: 'door.forced' } });
    expect(forced.status).toBe(200);
    expect((await s.call('POST', `${API.alarms}/${forced.body.id}/acknowledge`, { token: operator, body: {} })).status).toBeLessThan(300);
    const r = await get(`${EXPORT_PATH}?format=csv`, operator);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(r.headers.get('content-disposition')).toMatch(/attachment; filename="events-.*\.csv"/);
    expect(r.text.startsWith(CSV_HEADER)).toBe(true);
    const got = ids(r.text);
    const expected = (await s.db.query<{ id: string }>('select id from events where client_id = $1 order by id desc', [northwind])).rows.map((x) =>
      Number(x.id),
    );
    expect(expected.length).toBeGreaterThan(EXPORT_PAGE * 2);
    expect(got).toEqual(expected);
    // the forced door is the newest: an alert, acknowledged, not processed; a quoted point name survives
    const first = r.text.split('\r\n')[1];
    expect(first.startsWith(`${forced.body.id},`)).toBe(true);
    expect(first.endsWith(',true,1,true,false')).toBe(true);
    expect(r.text).toContain(',"Door, ""3""",Card swipe 3,false,100,false,false\r\n');
    expect(CSV_HEADER.startsWith('\uFEFF')).toBe(true);
    expect(CSV_HEADER.slice(1).trim().split(',')).toEqual(CSV_COLUMNS.map((c) => (c === 'time' ? 'time (Asia/Kuala_Lumpur)' : c)));
    // the time in the client's zone: ISO 8601 with its offset, the same instant as stored
    const stored = (await s.db.query<{ at: Date }>('select at from events where id = $1', [forced.body.id])).rows[0].at;
    const time = first.split(',')[1];
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+08:00$/);
    expect(Date.parse(time)).toBe(new Date(stored).getTime());
  });

  it('streams NDJSON with the history filters, and only that tenant sees its rows', async () => {
    const r = await get(`${EXPORT_PATH}?format=ndjson&eventCode=2002&eventPointId=door-0`, operator);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const rows = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBe(await s.count(`select 1 from events where client_id = $1 and event_code = 2002 and event_point_id = 'door-0'`, [northwind]));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((e) => e.eventCode === 2002 && e.eventPointId === 'door-0')).toBe(true);
    expect(rows[0]).toMatchObject({ eventPointName: 'Door, "0"', alert: false, acknowledge: false, process: false });
    const hh = await get(`${EXPORT_PATH}?format=ndjson`, harbour);
    const theirs = hh.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // exactly Harbour's events (the 50 made here and the demo's badge-ins), none of Northwind's
    const harbourIds = (
      await s.db.query<{ id: string }>(`select e.id::text id from events e join clients c on c.id = e.client_id where c.code = 'HARBOUR' order by e.id desc`)
    ).rows.map((x) => Number(x.id));
    expect(theirs.map((e) => Number(e.id)).sort((a, b) => b - a)).toEqual(harbourIds);
    expect(theirs.filter((e) => e.eventSourceId === 'hh-reader')).toHaveLength(50);
  });

  it('honours a time range and afterId like the list does', async () => {
    const list = await s.call('GET', `${API.events}?size=10`, { token: operator });
    const tenth = list.body.items[9];
    const r = await get(`${EXPORT_PATH}?format=ndjson&afterId=${tenth.id}`, operator);
    expect(
      r.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(list.body.items.slice(0, 9).map((e: any) => e.id));
    const from = new Date(Date.now() - 60_000).toISOString();
    const ranged = await get(`${EXPORT_PATH}?format=ndjson&from=${encodeURIComponent(from)}`, operator);
    const times = ranged.text
      .trim()
      .split('\n')
      .map((l) => Date.parse(JSON.parse(l).time));
    expect(times.length).toBe(await s.count('select 1 from events where client_id = $1 and at >= $2', [northwind, from]));
    expect(times.every((t) => t >= Date.parse(from))).toBe(true);
  });

  it('answers bad filters with 400 and every violation, before streaming and without an audit row', async () => {
    const before = await auditCount();
    const r = await get(`${EXPORT_PATH}?format=xml&eventCode=12,abc&from=yesterday&beforeId=-4&alert=maybe`, operator);
    expect(r.status).toBe(400);
    // the format is refused first; then the filters, all at once
    expect(JSON.parse(r.text).violations).toEqual([
      { field: 'format', message: 'must be one of csv, xlsx, ndjson', code: 'value.notOneOf', values: { choices: 'csv, xlsx, ndjson' } },
    ]);
    const f = await get(`${EXPORT_PATH}?format=csv&eventCode=12,abc&from=yesterday&beforeId=-4&alert=maybe`, operator);
    expect(f.status).toBe(400);
    expect(
      JSON.parse(f.text)
        .violations.map((v: any) => v.field)
        .sort(),
    ).toEqual(['alert', 'beforeId', 'eventCode', 'from']);
    const twice = await get(`${EXPORT_PATH}?eventPointId=a&eventPointId=b`, operator);
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.text).violations).toEqual([{ field: 'eventPointId', message: 'must be given once', code: 'query.givenOnce', values: {} }]);
    expect(await auditCount()).toBe(before);
  });

  it('needs a token and the events or event-report privilege', async () => {
    const before = await auditCount();
    expect((await get(`${EXPORT_PATH}?format=csv`)).status).toBe(401);
    expect((await get(`${EXPORT_PROGRESS_PATH}?format=csv`)).status).toBe(401);
    expect((await get(`${EXPORT_PATH}?format=csv`, reception)).status).toBe(403);
    expect((await get(`${EXPORT_PROGRESS_PATH}?format=ndjson`, reception)).status).toBe(403);
    expect(await auditCount()).toBe(before);
    // an allowed export is in the activity report
    await get(`${EXPORT_PATH}?format=csv&eventCode=2002`, operator);
    expect(await auditCount()).toBe(before + 1);
  });
});

describe('the history list shares the filters', () => {
  it('answers the same bad filters with the same violations', async () => {
    const r = await s.call('GET', `${API.events}?eventCode=12,abc&from=yesterday&beforeId=-4&alert=maybe`, { token: operator });
    expect(r.status).toBe(400);
    expect(r.body.violations.map((v: any) => v.field).sort()).toEqual(['alert', 'beforeId', 'eventCode', 'from']);
  });
  it('lists a time range newest first, and pages before an id', async () => {
    const from = new Date(Date.now() - 3600_000).toISOString();
    const r = await s.call('GET', `${API.events}?size=50&from=${encodeURIComponent(from)}`, { token: operator });
    expect(r.status).toBe(200);
    const ids = r.body.items.map((e: any) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(r.body.items.every((e: any) => Date.parse(e.time) >= Date.parse(from))).toBe(true);
    const before = await s.call('GET', `${API.events}?size=5&beforeId=${ids[9]}`, { token: operator });
    expect(before.body.items.map((e: any) => e.id)).toEqual(ids.slice(10, 15));
  });
});

describe('GET /event/manage/events/export/progress', () => {
  it('sends start, the rows with progress after every page, and end with the totals', async () => {
    const file = await get(`${EXPORT_PATH}?format=csv&eventCode=1000`, operator);
    const r = await get(`${EXPORT_PROGRESS_PATH}?format=csv&eventCode=1000`, operator);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseEvents(r.text);
    const total = await s.count('select 1 from events where client_id = $1 and event_code = 1000', [northwind]);
    expect(events[0]).toMatchObject({ event: 'start', data: { total, format: 'csv', header: CSV_HEADER } });
    expect(events.at(-1)).toEqual({ event: 'end', data: { done: total, total } });
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data);
    expect(progress.length).toBe(Math.ceil(total / EXPORT_PAGE));
    expect(progress.map((p) => p.done)).toEqual(progress.map((_, i) => Math.min(total, (i + 1) * EXPORT_PAGE)));
    // the rows events are the file, byte for byte
    const body = events
      .filter((e) => e.event === 'rows')
      .map((e) => e.data)
      .join('');
    expect(events[0].data.header + body).toBe(file.text);
  });

  it('carries on after a lost connection from the last cursor (beforeId) with the rest only', async () => {
    const all = sseEvents((await get(`${EXPORT_PROGRESS_PATH}?format=ndjson`, operator)).text);
    const cursor = all.find((e) => e.event === 'progress')!.data.cursor;
    const rest = sseEvents((await get(`${EXPORT_PROGRESS_PATH}?format=ndjson&beforeId=${cursor}`, operator)).text);
    const lines = (evs: typeof all) =>
      evs
        .filter((e) => e.event === 'rows')
        .map((e) => e.data)
        .join('')
        .trim()
        .split('\n');
    expect(lines(rest)).toEqual(lines(all).slice(EXPORT_PAGE));
    expect(rest[0].data.total).toBe(all[0].data.total - EXPORT_PAGE);
  });
});

describe('export pages', () => {
  it('are read from the database one at a time, only when the reader asks for the next', async () => {
    let queries = 0;
    const counting: Db = {
      ...s.db,
      query: (sql, params) => {
        queries++;
        return s.db.query(sql, params);
      },
    };
    const pages = exportPages(counting, { clientId: northwind, format: 'ndjson', where: 'e.client_id = $1', params: [northwind] }, 100);
    const first = await pages.next();
    expect(first.done).toBe(false);
    expect(first.value!.count).toBe(100);
    expect(queries).toBe(1);
    await pages.next();
    expect(queries).toBe(2);
    await pages.return(undefined);
    expect(queries).toBe(2);
  });
});
