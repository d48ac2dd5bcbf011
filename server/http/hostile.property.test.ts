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
import { API, CATALOGUE, apiPaths } from '../../contract';
import { jsonProbes, lineProbes, type Probe } from './hostileProbes';
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
