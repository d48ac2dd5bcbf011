// Issue 13's proof: hostile values derived from every contract schema, sent to every mutating route the app
// registers (enumerated from Fastify, so a new route is covered without touching this file), always answer 4xx —
// a 400 with violations — and change no row. The schema of each route is learnt from the server itself (the
// body() helper notes which contract struct a route validates with); routes that read no body get the parser's
// hostile bodies and hostile URL ids.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { is, type Struct } from 'superstruct';
import { API } from '../../contract';
import { startTestServer, type Call, type TestServer } from '../testkit';
import { routeBodySchemas } from './common';

let s: TestServer;
let token: string;
let baseline: string;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
let routes: Array<{ method: string; url: string }> = [];
const problems: string[] = [];

const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** Values a field of some kind may well accept: each field takes those its own struct accepts, so bodies get deep. */
const PLAUSIBLE: unknown[] = [
  'Edge', 'EDGE-1', 'ED', '#2d72d2', 'edge@example.com', '+60 12 345', 'Europe/London', 'UTC', '2025-01-15', '2025-01-16',
  'A long enough password 1!', 1, 2, 0, true, false, null, [], 'meeting', 'card', 'active', 'lock', TINY_PNG,
];

const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
const TEXT_HOSTILE = ['nul\u0000byte', 'lone \uD800 surrogate', '\uDC00', 'escape \u001b[31m', 'x'.repeat(70_000)];
const INT_HOSTILE = [2147483648, 9223372036854775808, -2147483649, 1e308, 1e21, 1.5];
/** What no field of a kind may accept, whatever else its rules are. */
function hostileFor(struct: Struct<any, any>): unknown[] {
  switch (struct.type) {
    case 'safeText': case 'requiredText': case 'emailAddress': case 'string': case 'enums': case 'literal': case 'union':
      return TEXT_HOSTILE;
    case 'calendarDate': return [...TEXT_HOSTILE, '2025-02-30', '2025-13-01', '0000-00-00', '2025-1-1'];
    case 'ianaZone': return [...TEXT_HOSTILE, 'Mars/Phobos', 'europe/london'];
    case 'imageDataUrl': return [...TEXT_HOSTILE, 'https://evil.example/p.png', 'data:image/svg+xml;base64,PHN2Zz4=', `data:image/png;base64,${'A'.repeat(2_100_000)}`];
    case 'int32': case 'integer': case 'number': case 'boundedNumber': return [...INT_HOSTILE, '1', 'NaN'];
    case 'boolean': return ['yes', 1, 'nul\u0000'];
    case 'boundedJson': return [deep(20), 'x'.repeat(20_000)];
    case 'array': {
      const element = struct.schema as Struct<any, any> | null;
      const long = Array.from({ length: 100_001 }, () => 1);
      return element ? [long, ...hostileFor(element).slice(0, 3).map((h) => [h])] : [long];
    }
    case 'object': case 'type': return ['not an object', 42];
    default: return []; // unknown(), any(): nothing is wrong for them
  }
}

/** A value the struct might accept (preferring ones it does), recursing into objects and lists. */
function plausible(struct: Struct<any, any>): fc.Arbitrary<unknown> {
  if ((struct.type === 'object' || struct.type === 'type') && struct.schema) {
    const fields = struct.schema as Record<string, Struct<any, any>>;
    return fc.record(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, plausible(f)])), { requiredKeys: [] });
  }
  if (struct.type === 'array' && struct.schema) return fc.array(plausible(struct.schema as Struct<any, any>), { maxLength: 2 });
  const accepted = [...PLAUSIBLE, ...(struct.type === 'enums' ? Object.values(struct.schema as object) : [])].filter((v) => is(v, struct));
  return accepted.length ? fc.constantFrom(...accepted) : fc.constantFrom(...PLAUSIBLE);
}

/** A body of plausible fields in which at least one field (at any depth) holds a hostile value of its kind. */
function hostile(struct: Struct<any, any>): fc.Arbitrary<unknown> | null {
  if ((struct.type === 'object' || struct.type === 'type') && struct.schema) {
    const fields = struct.schema as Record<string, Struct<any, any>>;
    const targets = Object.entries(fields).map(([k, f]) => [k, hostile(f)] as const).filter((e): e is [string, fc.Arbitrary<unknown>] => e[1] !== null);
    if (!targets.length) return null;
    return fc.tuple(plausible(struct), fc.constantFrom(...targets)).chain(([base, [key, arb]]) =>
      arb.map((bad) => ({ ...(base as object), [key]: bad })));
  }
  const values = hostileFor(struct);
  return values.length ? fc.constantFrom(...values) : null;
}

/** Hostile bodies every JSON route must refuse before its handler runs. */
const RAW_HOSTILE = [
  `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":',
  '\u0000',
];
const ID_HOSTILE = ['2147483648', '9223372036854775808', '12345678901234567890', '-1', '0', 'abc', '1e308', '1.5', '%00', '%F0%9F%92%A9', '1%00'];

/** Row counts of every table, and the newest update where a table has one: equal snapshots mean nothing changed. */
async function snapshot(): Promise<string> {
  const { rows: tables } = await s.db.query<{ table_name: string; has_updated: boolean }>(`select t.table_name,
      exists (select 1 from information_schema.columns c where c.table_name = t.table_name and c.column_name = 'updated_at') has_updated
    from information_schema.tables t where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
      and t.table_name not in ('health_probe') order by t.table_name`);
  const parts = tables.map((t) => `select '${t.table_name}' t, count(*)::text n, ${t.has_updated ? 'max(updated_at)::text' : "''"} u from "${t.table_name}"`);
  const { rows } = await s.db.query(parts.join(' union all '));
  return JSON.stringify(rows);
}

function pathWith(url: string, value: (param: string) => string): string {
  return url.replace(/:(\w+)/g, (_m, p: string) => value(p));
}
const sample = (p: string) => (p === 'id' ? '1' : 'sample');
const journalId = (p: string, url: string) => (url.startsWith(API.sessionJournals) ? 'hostile-recording-1' : sample(p));

async function send(method: string, path: string, payload: { body?: unknown; raw?: string }): Promise<Call> {
  return s.call(method, path, { token, ...(payload.raw !== undefined ? { raw: payload.raw } : { body: payload.body }) });
}

function judge(what: string, r: Call, needViolations: boolean) {
  const ok = r.status >= 400 && r.status < 500 && (!needViolations || r.status !== 400 || (Array.isArray(r.body?.violations) && r.body.violations.length > 0));
  if (!ok) problems.push(`${what} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  return ok;
}

beforeAll(async () => {
  s = await startTestServer();
  routes = s.app.routes.filter((r) => MUTATING.has(r.method));
  // learn each route's schema with a session of its own (logout ends it), then the probing session
  const select = async (t: string) => {
    const r = await s.call('PUT', API.meClient, { token: t, body: { clientId: 1 } });
    if (r.status !== 200) throw new Error(`select client: ${r.status}`);
    return r.body.token as string;
  };
  const learner = await select(await s.login('admin'));
  for (const r of [...routes].sort((a, b) => Number(a.url === API.logout) - Number(b.url === API.logout))) {
    await s.call(r.method, pathWith(r.url, (p) => journalId(p, r.url)), { token: learner, body: {} });
  }
  token = await select(await s.login('admin'));
  baseline = await snapshot();
}, 240_000);
afterAll(async () => { await s?.close(); });
beforeEach(() => { problems.length = 0; });

describe('hostile input on every mutating route', () => {
  it('knows the mutating routes and the schema of those that read a body', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routeBodySchemas.has(`POST ${API.identities}`)).toBe(true);
    expect(routeBodySchemas.has(`PUT ${API.meSettings}`)).toBe(true);
  });

  it('answers hostile values derived from each route\'s contract schema with 400 and violations, and changes no row', async () => {
    let probed = 0;
    for (const r of routes) {
      const struct = routeBodySchemas.get(`${r.method} ${r.url}`);
      const arb = struct ? hostile(struct) : null;
      if (!arb) continue;
      probed++;
      await fc.assert(fc.asyncProperty(arb, async (value) => {
        const res = await send(r.method, pathWith(r.url, (p) => journalId(p, r.url)), { body: value });
        const fine = judge(`${r.method} ${r.url} ${JSON.stringify(value).slice(0, 120)}`, res, true);
        const same = (await snapshot()) === baseline;
        if (!same) problems.push(`${r.method} ${r.url} changed rows with ${JSON.stringify(value).slice(0, 120)}`);
        return fine && same;
      }), { numRuns: 12, seed: 13, endOnFailure: true });
    }
    expect(probed).toBeGreaterThanOrEqual(12);
    expect(problems).toEqual([]);
  }, 180_000);

  it('refuses bodies too deep, prototype keys and broken JSON on every mutating route before its handler', async () => {
    for (const r of routes) {
      for (const raw of RAW_HOSTILE) {
        judge(`${r.method} ${r.url} raw ${raw.slice(0, 30)}`, await send(r.method, pathWith(r.url, (p) => journalId(p, r.url)), { raw }), true);
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toBe(baseline);
  }, 180_000);

  it('answers ids beyond an integer column, negative, fractional or not numbers in the URL with 4xx, and changes no row', async () => {
    for (const r of routes.filter((x) => x.url.includes(':'))) {
      for (const bad of ID_HOSTILE) {
        const path = pathWith(r.url, () => bad);
        judge(`${r.method} ${path}`, await send(r.method, path, { body: {} }), false);
      }
    }
    for (const q of ['page=2147483648', 'size=99999999999999999999', 'page=-1', 'divisionId=9223372036854775808', 'q=%00', 'sort=name%00,asc', 'status=%F0']) {
      judge(`GET ${API.identities}?${q}`, await s.call('GET', `${API.identities}?${q}`, { token }), true);
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toBe(baseline);
  }, 180_000);
});
