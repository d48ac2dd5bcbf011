// The early reads of a cold console (issue 48, ./early.ts) against a real HTTP server: an early answer is the
// console's own answer once, with its token only; anything else is asked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API, GRANTS_HEADER, PRIV } from '../../contract';
import { HANDOVER_API } from '../../contract/handover';
import { createApiClient, type ApiDeps } from './client';
import { EARLY_MS, EARLY_PATHS, EARLY_PRIVILEGES, readEarly, takeEarly } from './early';

let server: Server;
let base = '';
const seen: { path: string; authorization?: string; tenant?: string }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, tenant: req.headers['x-tenant-id'] as string | undefined });
    if (req.headers.authorization !== 'Bearer good' && req.headers.authorization !== 'Bearer other') {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Sign in again' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', [GRANTS_HEADER]: 'g1' }).end(JSON.stringify({ path: req.url, n: seen.length }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (token: string, over: Partial<ApiDeps> = {}) =>
  createApiClient(() => ({ getToken: () => token, getClientId: () => '7', loginMode: () => 'STANDARD', report: () => {}, ...over }));
const asked = (path: string) => seen.filter((s) => s.path === path).length;

describe('early reads', () => {
  it('name the contract’s paths and privileges', () => {
    expect(EARLY_PATHS).toEqual({ me: API.me, dashboard: API.dashboard, handover: `${HANDOVER_API}/latest` });
    expect(EARLY_PRIVILEGES).toEqual({ dashboard: PRIV.dashboard, handoverView: PRIV.handover.view });
  });

  it('answer the console’s GET with the same token once, as its own answer (parsed, its grants header seen)', async () => {
    const url = `${base}/a`;
    await readEarly(url, 'good');
    const grants: string[] = [];
    const api = client('good', { grants: (t) => grants.push(t) });
    const first = await api.get(url);
    expect(first.data).toEqual({ path: '/a', n: expect.any(Number) });
    expect(grants).toEqual(['g1']);
    expect(asked('/a')).toBe(1);
    // once: the next read is the console's own
    await api.get(url);
    expect(asked('/a')).toBe(2);
    expect(takeEarly(url, 'Bearer good')).toBeNull();
  });

  it('are asked again under another token, with a tenant header, when refused, or when too old', async () => {
    await readEarly(`${base}/b`, 'good');
    await client('other').get(`${base}/b`);
    expect(seen.filter((s) => s.path === '/b').map((s) => s.authorization)).toEqual(['Bearer good', 'Bearer other']);

    await readEarly(`${base}/c`, 'good');
    await client('good', { loginMode: () => 'IAM' }).get(`${base}/c`);
    expect(seen.filter((s) => s.path === '/c').map((s) => s.tenant)).toEqual([undefined, '7']);

    expect(await readEarly(`${base}/d`, 'expired')).toBeNull(); // a refusal is not kept as an answer
    await expect(client('expired').get(`${base}/d`)).rejects.toMatchObject({ status: 401 });
    expect(asked('/d')).toBe(2);

    await readEarly(`${base}/e`, 'good', () => Date.now() - EARLY_MS - 1);
    await client('good').get(`${base}/e`);
    expect(asked('/e')).toBe(2);
  });
});
