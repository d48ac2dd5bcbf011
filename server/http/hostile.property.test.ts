// Issues 13 and 27: hostile values derived from every contract schema, sent to every mutating route the app registers
// (enumerated from Fastify, so a new route is covered without touching this file), always answer 4xx — a 400 with
// violations naming the field — and change no row. The schema of each route is learnt from the server itself: the
// body() helper notes the contract struct a JSON route validates with, and a route whose body is lines of JSON (the
// session journal upload) names its line schemas (noteLineSchemas). The values reach into free-form fields too
// (settings blobs, journal states and event payloads, records): NUL, lone surrogates, text past the field's bound,
// nesting past its depth, numbers past its range at any depth. A mutating route whose schema is not known fails the
// first test unless it takes no body (NO_BODY below, or a catalogue deletion or row action that sends none).
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { is, type Struct } from 'superstruct';
import { API, CATALOGUE, JSON_VALUE_MAX_DEPTH, apiPaths, extraFieldsOf, listMaxOf, type JsonBounds, type NumberBounds, type TextBounds } from '../../contract';
import { startTestServer, tablesSnapshot, type Call, type TestServer } from '../testkit';
import { routeBodySchemas, routeLineSchemas } from './kit';

let s: TestServer;
let token: string;
let baseline: string;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
let routes: Array<{ method: string; url: string }> = [];
const problems: string[] = [];

/**
 * Hand-written mutating routes that read no JSON body, each with the reason. (Catalogue deletions of one row and
 * row actions, which send no body, are read from the catalogue below.)
 */
const NO_BODY: Record<string, string> = {
  'POST /idp/1.0/logout': "ends the caller's session; reads only its token",
  'POST /central/1.0/backups': 'backs up now; nothing to say',
  'DELETE /central/1.0/backups/:id': 'deletes one backup named in the URL',
  'POST /central/1.0/backups/:id/restore': 'restores the backup named in the URL',
  'POST /central/1.0/backups/upload': 'a backup file streamed as the body, checked as an archive (server/backup)',
  'POST /event/manage/identity-batch-upload': 'a CSV or .xlsx file as the body, every row checked with IdentityInput (server/batch)',
  'POST /event/manage/alarms/:id/acknowledge': 'acknowledges the alarm named in the URL',
  'POST /event/manage/controllers/diagnostic/:ipAddress/ping': 'pings the address named in the URL',
  'DELETE /event/manage/divisions/:id': 'deletes one division named in the URL',
  'POST /report/1.0/scheduled-jobs/:id/runs/:runId/retry': 'makes the failed run named in the URL again',
  // catalogue actions of the server's hooks (server/resources/*.ts) that act on the row named in the URL alone
  'POST /visitor/1.0/visitors/:id/badge-printed': 'marks the badge printed',
  'POST /visitor/1.0/visitors/:id/sign-in': 'signs the visitor in',
  'POST /visitor/1.0/visitors/:id/sign-out': 'signs the visitor out',
  'POST /idp/1.0/service-accounts/:id/rotate-key': 'issues a new key, answered once',
  'POST /idp/1.0/service-accounts/:id/revoke-key': 'revokes the key',
  'POST /event/manage/controllers/:id/edge-key': "issues the edge controller's key, answered once (server/edge/keys.ts)",
  'POST /event/manage/controllers/:id/revoke-edge-key': "revokes the edge controller's key",
  'POST /event/manage/card-readers/:id/repair': 'sends the reader named in the URL into OSDP install mode on its edge (server/edge/readerRoutes.ts)',
  'POST /idp/1.0/saml/acs': 'a SAML response form-posted by the identity provider, checked by node-saml and us (server/auth/iam/saml.test.ts)',
  'POST /idp/1.0/saml/slo': 'a SAML logout message form-posted by the identity provider, checked by node-saml and us (server/auth/iam/samlLogout.test.ts)',
  'POST /event/manage/alarm-groups/:id/arm': 'arms the group',
  'POST /event/manage/alarm-groups/:id/disarm': 'disarms the group',
  'POST /event/manage/operators/:id/disable': 'disables the operator',
  'POST /event/manage/operators/:id/enable': 'enables the operator',
  'POST /event/manage/operators/:id/remove': 'removes the operator from the client',
};
/**
 * Routes whose violations name a part of the body as its own form does: the access preview checks `values` (the
 * form being previewed) and names their fields as that form's (`name`, not `values.name`).
 */
const NAMED_FROM: Record<string, string> = { 'POST /event/manage/access-preview': 'values' };
/** Catalogue routes that read no body: the deletion of one row, and row actions (buttons that send nothing). */
const CATALOGUE_NO_BODY = new Set(
  CATALOGUE.flatMap((r) => [
    ...(r.privileges.delete ? [`DELETE ${apiPaths(r).one}`] : []),
    ...(r.screens?.rowActions ?? []).map((a) => `POST ${apiPaths(r).action(a.action)}`),
  ]),
);
/**
 * Routes that answer a batch item by item (devices resend nothing they were told was bad): a 200 that stored
 * nothing and named every item in `rejected`, with violations, is their refusal.
 */
const PER_ITEM: Record<string, (body: any, sent: any) => boolean> = {
  'POST /api/devices/events': (b, sent) =>
    b?.accepted === 0 &&
    Array.isArray(b.rejected) &&
    b.rejected.length === (sent?.events?.length ?? -1) &&
    b.rejected.every((x: any) => Array.isArray(x.violations) && x.violations.length > 0),
};

const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** Values a field of some kind may well accept: each field takes those its own struct accepts, so bodies get deep. */
const PLAUSIBLE: unknown[] = [
  'Edge',
  'EDGE-1',
  'ED',
  '#2d72d2',
  'edge@example.com',
  '+60 12 345',
  'Europe/London',
  'UTC',
  '2025-01-15',
  '2025-01-16',
  'A long enough password 1!',
  '2025-01-15T10:00:00Z',
  1,
  2,
  0,
  1_714_550_400_000,
  true,
  false,
  null,
  [],
  'meeting',
  'card',
  'active',
  'lock',
  TINY_PNG,
];

type AnyStruct = Struct<any, any>;
type Path = Array<string | number>;
/** One hostile value and where it goes in a body; `free`: inside a free-form field (always sent, however big the schema). */
interface Case {
  path: Path;
  value: unknown;
  free?: boolean;
}

const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
const TEXT_HOSTILE = ['nul\u0000byte', 'lone \uD800 surrogate', '\uDC00', 'escape \u001b[31m', 'x'.repeat(70_000)];
/** Numbers no JavaScript integer, column or time takes, and numbers sent as text; a field's own bounds add more. */
const NUMBER_HOSTILE = [2 ** 53 + 1, 1e308, -1e308, 9223372036854775808, 'NaN', 'Infinity', '-Infinity', '1'];
/** Past an integer column, for number fields that do not say their bounds. */
const INT32_PAST = [2 ** 31, -(2 ** 31) - 1];
const INTEGER_KINDS = new Set(['int32', 'integer', 'safeInteger']);
const NUMBER_KINDS = new Set([...INTEGER_KINDS, 'number', 'boundedNumber', 'epochMs']);
const TEXT_KINDS = new Set(['safeText', 'requiredText', 'emailAddress', 'string', 'enums', 'literal', 'union', 'isoInstant', 'dateTimeInstant', 'fileDataUrl']);
/** Kinds that hold any JSON: walked into with what PostgreSQL's jsonb or a later reader cannot take. */
const FREE_KINDS = new Set(['boundedJson', 'unknown', 'any', 'record', 'udf']);

/** What no free-form JSON field may hold, at any depth; past its own bounds when it has them. */
function jsonHostile(b: JsonBounds | null): unknown[] {
  const maxChars = b?.maxChars ?? 65_536;
  return [
    'nul\u0000byte',
    { note: 'nul\u0000' },
    ['lone \uD800'],
    { deeper: { list: ['x', '\uDC00'] } },
    { 'key\u0000': 1 },
    { 'lone\uD800key': 'x' },
    'x'.repeat(maxChars + 1),
    ...(maxChars < 70_000 ? [{ long: 'x'.repeat(70_000) }] : []),
    deep((b?.maxDepth ?? JSON_VALUE_MAX_DEPTH) + 2),
    { n: 1e308 },
    [[{ n: -1e308 }]],
    { big: 2 ** 53 + 1 },
    // eslint-disable-next-line no-loss-of-precision -- deliberately beyond 2^53: the server must refuse or round it, not crash
    { list: [1, 2, 9007199254740993] },
  ];
}

/** What no field of a kind may accept, whatever else its rules are (and past its own bounds where it says them). */
function hostileFor(struct: AnyStruct): unknown[] {
  const t = struct.type;
  if (TEXT_KINDS.has(t)) {
    const max = (struct.schema as TextBounds | null)?.max;
    return typeof max === 'number' && (t === 'safeText' || t === 'requiredText') ? [...TEXT_HOSTILE, 'x'.repeat(max + 1)] : TEXT_HOSTILE;
  }
  if (NUMBER_KINDS.has(t)) {
    const b = struct.schema as NumberBounds | null;
    const edges = b && typeof b.min === 'number' ? [b.min - 1, b.max + 1].filter((x) => Number.isFinite(x)) : INT32_PAST;
    return [...NUMBER_HOSTILE, ...edges, ...(INTEGER_KINDS.has(t) ? [1.5] : [])];
  }
  if (FREE_KINDS.has(t)) return jsonHostile(t === 'boundedJson' ? (struct.schema as JsonBounds) : null);
  switch (t) {
    case 'calendarDate':
      return [...TEXT_HOSTILE, '2025-02-30', '2025-13-01', '0000-00-00', '2025-1-1'];
    case 'ianaZone':
    case 'timeZone':
      return [...TEXT_HOSTILE, '', ' ', 'Mars/Phobos', 'europe/london'];
    case 'imageDataUrl':
      return [...TEXT_HOSTILE, 'https://evil.example/p.png', 'data:image/svg+xml;base64,PHN2Zz4=', `data:image/png;base64,${'A'.repeat(2_100_000)}`];
    case 'boolean':
      return ['yes', 1, 'nul\u0000'];
    case 'object':
    case 'type':
    case 'array':
      return ['not an object', 42];
    default:
      return [];
  }
}

/** The most items a list struct takes, as its own refusal of a (sparse) billion-item list says, wrapped or not. */
function listMax(struct: AnyStruct): number | undefined {
  const huge: unknown[] = [];
  huge.length = 1e9;
  const said = [...struct.validator(huge, { branch: [huge], path: [] })].map((f) => f.message).join(' ');
  const m = /at most (\d+) items/.exec(said);
  return m ? Number(m[1]) : listMaxOf(struct);
}

/** Every hostile value a struct's fields (at any depth, free-form fields included) may receive, with its place. */
function cases(struct: AnyStruct, depth = 0): Case[] {
  if (depth > 8) return [];
  const t = struct.type;
  if ((t === 'object' || t === 'type') && struct.schema) {
    const out: Case[] = hostileFor(struct).map((value) => ({ path: [], value }));
    for (const [k, f] of Object.entries(struct.schema as Record<string, AnyStruct>)) {
      for (const c of cases(f, depth + 1)) out.push({ ...c, path: [k, ...c.path] });
    }
    // the other fields an open object checks (an event's payload)
    const extra = extraFieldsOf(struct);
    if (extra) for (const c of cases(extra, depth + 1)) out.push({ ...c, path: ['payload', ...c.path] });
    return out;
  }
  if (t === 'array') {
    const element = struct.schema as AnyStruct | null;
    // one item more than the list takes (its own bound, else more than any list should)
    const out: Case[] = [
      { path: [], value: Array.from({ length: (listMax(struct) ?? 100_000) + 1 }, () => 1) },
      { path: [], value: 'not a list' },
    ];
    // a list of anything (each item checked later, as a device batch's events) gets free-form items
    const inner = element ? cases(element, depth + 1) : jsonHostile(null).map((value) => ({ path: [] as Path, value, free: true }));
    for (const c of inner) out.push({ ...c, path: [0, ...c.path] });
    return out;
  }
  return hostileFor(struct).map((value) => ({ path: [], value, free: FREE_KINDS.has(struct.type) }));
}

/** A value the struct might accept (preferring ones it does), recursing into objects and lists. */
function plausible(struct: AnyStruct, full = false): fc.Arbitrary<unknown> {
  if ((struct.type === 'object' || struct.type === 'type') && struct.schema) {
    const fields = struct.schema as Record<string, AnyStruct>;
    return fc.record(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, plausible(f, full)])), full ? {} : { requiredKeys: [] });
  }
  if (struct.type === 'array' && struct.schema) return fc.array(plausible(struct.schema as AnyStruct, full), { minLength: full ? 1 : 0, maxLength: 2 });
  const own = struct.type === 'enums' ? Object.values(struct.schema as object) : struct.type === 'literal' ? [struct.schema] : [];
  const accepted = [...own, ...PLAUSIBLE].filter((v) => is(v, struct));
  return accepted.length ? fc.constantFrom(...accepted) : fc.constantFrom(...PLAUSIBLE);
}
/** A body the struct accepts when one can be found among plausible ones (so a refusal is the hostile value's doing). */
function validBase(struct: AnyStruct, seed: number): unknown {
  const tries = [...fc.sample(plausible(struct, true), { numRuns: 60, seed }), ...fc.sample(plausible(struct), { numRuns: 60, seed })];
  return tries.find((v) => is(v, struct)) ?? tries[0];
}

/** `base` with `value` put at `path` (lists and objects made on the way). */
function place(base: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(base) ? base.slice() : [];
    list[head] = place(list[head], rest, value);
    return list;
  }
  const obj = base !== null && typeof base === 'object' && !Array.isArray(base) ? { ...(base as object) } : {};
  return { ...obj, [head]: place((obj as Record<string, unknown>)[head], rest, value) };
}

/** A route's probe: the body (JSON value or NDJSON text) and the field a refusal should name. */
interface Probe {
  body?: unknown;
  raw?: string;
  ndjson?: boolean;
  field: string;
  show: string;
}

/** Every probe when the schema is small; else every free-form one (`all`) and a seeded sample of the rest (`arbitrary`). */
function jsonProbes(struct: AnyStruct, seed: number, everyUpTo: number): { all: Probe[]; arbitrary: fc.Arbitrary<Probe> | null } | null {
  const every = cases(struct);
  if (!every.length) return null;
  const small = every.length <= everyUpTo;
  const rest = small ? [] : every.filter((c) => !c.free);
  const toProbe = (base: unknown, c: Case): Probe => {
    const body = place(base, c.path, c.value);
    return { body, field: c.path.join('.') || '(body)', show: `${c.path.join('.') || '(body)'} = ${JSON.stringify(c.value)?.slice(0, 60)}` };
  };
  const base = validBase(struct, seed);
  return {
    all: (small ? every : every.filter((c) => c.free)).map((c) => toProbe(base, c)),
    arbitrary: rest.length ? fc.tuple(plausible(struct), fc.constantFrom(...rest)).map(([b, c]) => toProbe(b, c)) : null,
  };
}

/** NDJSON chunks of valid lines in which one line (the header, or the second entry) holds one hostile value. */
function lineProbes(schemas: { first: AnyStruct; rest: AnyStruct }, seed: number): Probe[] {
  const header = validBase(schemas.first, seed);
  const entry = (seq: number) => ({ ...(validBase(schemas.rest, seed) as object), seq });
  const chunk = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const probes: Probe[] = [];
  for (const c of cases(schemas.first)) {
    const field = `line 1${c.path.length ? `.${c.path.join('.')}` : ''}`;
    probes.push({
      raw: chunk([place(header, c.path, c.value), entry(1), entry(2)]),
      ndjson: true,
      field,
      show: `${field} = ${JSON.stringify(c.value)?.slice(0, 60)}`,
    });
  }
  for (const c of cases(schemas.rest)) {
    const field = `line 3${c.path.length ? `.${c.path.join('.')}` : ''}`;
    probes.push({
      raw: chunk([header, entry(1), place(entry(2), c.path, c.value)]),
      ndjson: true,
      field,
      show: `${field} = ${JSON.stringify(c.value)?.slice(0, 60)}`,
    });
  }
  return probes;
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

const snapshot = () => tablesSnapshot(s.db);

function pathWith(url: string, value: (param: string) => string): string {
  return url.replace(/:(\w+)/g, (_m, p: string) => value(p));
}
const sample = (p: string) => (p === 'id' ? '1' : 'sample');
const journalId = (p: string, url: string) => (url.startsWith(API.sessionJournals) ? 'hostile-recording-1' : sample(p));
const urlOf = (r: { url: string }) => pathWith(r.url, (p) => journalId(p, r.url));

async function send(method: string, path: string, payload: { body?: unknown; raw?: string; ndjson?: boolean }): Promise<Call> {
  if (payload.ndjson) {
    const res = await fetch(`${s.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: payload.raw,
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }
  return s.call(method, path, { token, ...(payload.raw !== undefined ? { raw: payload.raw } : { body: payload.body }) });
}

/** Two fields are the same place, or one is inside the other (`tenants` and `tenants.note`, `line 3` and `line 3.seq`). */
const related = (a: string, b: string) => a === b || a === '(body)' || b === '(body)' || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

function judge(what: string, r: Call, needViolations: boolean, opts: { field?: string; perItem?: (body: any) => boolean } = {}) {
  let ok = r.status >= 400 && r.status < 500 && (!needViolations || r.status !== 400 || (Array.isArray(r.body?.violations) && r.body.violations.length > 0));
  if (ok && opts.field && r.status === 400 && needViolations && !r.body.violations.some((v: { field: string }) => related(v.field, opts.field!))) {
    problems.push(`${what} → 400 without a violation on ${opts.field}: ${JSON.stringify(r.body.violations).slice(0, 200)}`);
    return false;
  }
  if (!ok && r.status === 200 && opts.perItem?.(r.body)) ok = true;
  if (!ok) problems.push(`${what} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  return ok;
}

/** A route's schema as the server noted it, and whether it reads no body. */
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const known = (r: { method: string; url: string }) => routeBodySchemas.has(key(r)) || routeLineSchemas.has(key(r));
const takesNoBody = (r: { method: string; url: string }) => key(r) in NO_BODY || CATALOGUE_NO_BODY.has(key(r));

beforeAll(async () => {
  s = await startTestServer();
  routes = s.app.routes.filter((r) => MUTATING.has(r.method));
  // learn each route's schema with a session of its own, then the probing session; deletions come after the routes
  // that need a row to act on, and a route that answered before reading its body is asked again with the ids of rows
  // that exist. Routes that read no body are not called: there is nothing to learn, and their effects (an output's
  // pulse ends seconds later with an event) would land while the probes watch the tables.
  const select = async (t: string) => {
    const r = await s.call('PUT', API.meClient, { token: t, body: { clientId: 1 } });
    if (r.status !== 200) throw new Error(`select client: ${r.status}`);
    return r.body.token as string;
  };
  const learner = await select(await s.login('admin'));
  // a row for the routes that act on one (the demo data has no web hook; redeliver reads its body after finding it)
  await s.db.query(`insert into web_hooks (client_id, name, url, secret) values (1, 'Hostile-input learner', 'https://hooks.example/learn', 'learner')`);
  const order = (r: { method: string; url: string }) => (r.method === 'DELETE' ? 1 : 0);
  const ordered = routes.filter((r) => !takesNoBody(r)).sort((a, b) => order(a) - order(b));
  for (const r of ordered) await s.call(r.method, urlOf(r), { token: learner, body: {} });
  for (const r of ordered.filter((x) => !known(x) && x.url.includes('/:id'))) {
    const list = await s.call('GET', r.url.slice(0, r.url.indexOf('/:id')), { token: learner });
    const ids = Array.isArray(list.body?.items) ? list.body.items.map((x: { id: unknown }) => x.id).slice(0, 3) : [];
    for (const id of ids) {
      if (known(r)) break;
      await s.call(
        r.method,
        pathWith(r.url, (p) => (p === 'id' ? String(id) : 'sample')),
        { token: learner, body: {} },
      );
    }
  }
  token = await select(await s.login('admin'));
  baseline = await snapshot();
}, 300_000);
afterAll(async () => {
  await s?.close();
});
beforeEach(() => {
  problems.length = 0;
});

/** Row changes since the last look are this route's doing: reported, and the new state becomes the baseline. */
async function unchanged(what: string): Promise<void> {
  const now = await snapshot();
  if (now !== baseline) {
    const was = new Map((JSON.parse(baseline) as Array<{ t: string }>).map((r) => [r.t, JSON.stringify(r)]));
    const tables = (JSON.parse(now) as Array<{ t: string }>).filter((r) => was.get(r.t) !== JSON.stringify(r)).map((r) => r.t);
    problems.push(`${what} changed rows of ${tables.join(', ')}`);
    baseline = now;
  }
}

describe('hostile input on every mutating route', () => {
  it('knows the schema of every mutating route that reads a body (and which read none)', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routeBodySchemas.has(`POST ${API.identities}`)).toBe(true);
    expect(routeBodySchemas.has(`PUT ${API.meSettings}`)).toBe(true);
    expect(routeBodySchemas.has(`PUT ${API.meProfile}`)).toBe(true);
    expect(routeLineSchemas.has(`POST ${API.sessionJournals}/:id`)).toBe(true);
    // a route that reads a body with no contract schema (or whose schema could not be learnt) must say so here
    expect(routes.filter((r) => !known(r) && !takesNoBody(r)).map(key)).toEqual([]);
    // and the list names no route that is gone
    const all = new Set(routes.map(key));
    expect(Object.keys(NO_BODY).filter((k) => !all.has(k))).toEqual([]);
  });

  it("answers hostile values derived from each route's contract schema with 400 and violations, and changes no row", async () => {
    let probed = 0;
    // small schemas get every hostile value at every place; large ones a seeded sample of them
    const EVERY_CASE_UP_TO = 200;
    for (const r of routes) {
      const struct = routeBodySchemas.get(key(r));
      const lines = routeLineSchemas.get(key(r));
      const perItem = PER_ITEM[key(r)];
      const path = urlOf(r);
      if (lines) {
        probed++;
        for (const p of lineProbes(lines, 13)) judge(`${key(r)} ${p.show}`, await send(r.method, path, p), true, { field: p.field });
        await unchanged(key(r));
        continue;
      }
      const probes = struct ? jsonProbes(struct, 13, EVERY_CASE_UP_TO) : null;
      if (!probes) continue;
      probed++;
      const from = NAMED_FROM[key(r)];
      const named = (field: string) => (!from ? field : field === from ? '(body)' : field.startsWith(`${from}.`) ? field.slice(from.length + 1) : field);
      const check = async (p: Probe, exact: boolean) =>
        judge(`${key(r)} ${p.show}`, await send(r.method, path, p), true, {
          field: exact ? named(p.field) : undefined,
          perItem: perItem && ((b) => perItem(b, p.body)),
        });
      for (const p of probes.all) await check(p, !perItem);
      if (probes.arbitrary)
        await fc.assert(
          fc.asyncProperty(probes.arbitrary, (p) => check(p, false)),
          { numRuns: 24, seed: 13, endOnFailure: true },
        );
      await unchanged(key(r));
    }
    expect(probed).toBeGreaterThanOrEqual(12);
    expect(problems).toEqual([]);
  }, 600_000);

  it('refuses bodies too deep, prototype keys and broken JSON on every mutating route before its handler', async () => {
    for (const r of routes) {
      for (const raw of RAW_HOSTILE) {
        judge(`${r.method} ${r.url} raw ${raw.slice(0, 30)}`, await send(r.method, urlOf(r), { raw }), true);
      }
    }
    expect(problems).toEqual([]);
    await unchanged('raw bodies');
    expect(problems).toEqual([]);
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
    await unchanged('ids in the URL');
    expect(problems).toEqual([]);
  }, 180_000);
});
