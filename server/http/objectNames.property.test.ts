// The names every JavaScript object answers to (`constructor`, `__proto__`, `toString`, …) as what a client writes in a
// URL: a lookup of a plain object by a name a client sends finds Object's own members there, not undefined (the edge's
// link looked a message type up so: `constructor` found a function and went unanswered, 2026-12-04). Generated from the
// route table (every route the app registers, every method, so a new route is covered without touching this file):
// each path parameter set to each such name, and every list asked to sort and filter by them, answers 2xx–4xx and
// never 500, and nothing changes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CATALOGUE, apiPaths } from '../../contract';
import { startTestServer, tablesSnapshot, type TestServer } from '../testkit';

const OBJECT_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
/** Routes that end the caller's session or restart the server: asked last, or not at all. */
const LEFT_OUT = new Set(['POST /idp/1.0/logout', 'POST /central/1.0/backups/:id/restore']);

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.loginTo('admin', 'NORTHWIND');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

it('answers every route with an object member’s name for each path parameter 2xx–4xx, never 500, and changes no row', async () => {
  const before = await tablesSnapshot(s.db);
  const problems: string[] = [];
  const routes = s.app.routes.filter((r) => r.url.includes('/:') && !LEFT_OUT.has(`${r.method} ${r.url}`) && r.method !== 'HEAD');
  expect(routes.length).toBeGreaterThan(100);
  for (const r of routes)
    for (const name of OBJECT_NAMES) {
      const path = r.url.replace(/:(\w+)/g, () => encodeURIComponent(name));
      const a = await s.call(r.method, path, { token, ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { body: {} }) });
      if (a.status >= 500) problems.push(`${r.method} ${path} → ${a.status} ${JSON.stringify(a.body).slice(0, 160)}`);
    }
  expect(problems).toEqual([]);
  expect(await tablesSnapshot(s.db)).toBe(before);
}, 300_000);

it('answers every catalogue list sorted, filtered and searched by an object member’s name 2xx–4xx, never 500', async () => {
  const problems: string[] = [];
  for (const r of CATALOGUE) {
    const list = apiPaths(r).list;
    for (const name of OBJECT_NAMES) {
      const n = encodeURIComponent(name);
      for (const q of [`sort=${n},asc`, `sort=name,${n}`, `${n}=1`, `q=${n}`, `${n}[${n}]=1`]) {
        const a = await s.call('GET', `${list}?${q}`, { token });
        if (a.status >= 500) problems.push(`GET ${list}?${q} → ${a.status} ${JSON.stringify(a.body).slice(0, 160)}`);
      }
    }
  }
  expect(problems).toEqual([]);
}, 300_000);
