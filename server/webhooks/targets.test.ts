// Web hook targets (issue 11, server-side request forgery): without WEBHOOK_PRIVATE_TARGETS=allow a hook may not
// point to this machine, the site network or a link-local (cloud metadata) address — refused on save with the field
// named, and refused again at delivery (the attempt says why) if such a target got in another way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, webHooksResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { PRIVATE_TARGET, addressProblem, targetProblem } from './targets';

describe('private addresses', () => {
  it('knows loopback, private, link-local, unspecified and multicast addresses, in IPv4, IPv6 and mapped form', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect([ip, addressProblem(ip) !== null]).toEqual([ip, true]);
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2001:4860:4860::8888']) expect([ip, addressProblem(ip)]).toEqual([ip, null]);
  });
  it('checks the host of a URL, names like localhost too, and lets everything through when allowed', async () => {
    expect(await targetProblem('http://127.0.0.1:9/x', false)).toBe(PRIVATE_TARGET);
    expect(await targetProblem('http://[::1]/x', false)).toBe(PRIVATE_TARGET);
    expect(await targetProblem('http://localhost:8080/', false)).toBe(PRIVATE_TARGET);
    expect(await targetProblem('https://receiver.example/hook', false)).toBeNull();
    expect(await targetProblem('http://127.0.0.1:9/x', true)).toBeNull();
  });
});

let s: TestServer;
let nw: string, northwind: number;
beforeAll(async () => {
  s = await startTestServer({ allowPrivateWebhookTargets: false, webhooks: { pollMs: 30, backoffMs: () => 60, timeoutMs: 1500 } });
  const admin = await s.login('admin');
  northwind = (await s.call('GET', API.clients, { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
});
afterAll(async () => {
  await s?.close();
});

describe('a server that does not allow private targets', () => {
  it('refuses to save a hook to this machine, the site network or the metadata address, naming the field; a public name is fine', async () => {
    const before = await s.count('select 1 from web_hooks');
    for (const url of ['http://127.0.0.1:8080/x', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost/', 'http://[::1]:9/']) {
      const r = await s.call('POST', webHooksResource.api, {
        token: nw,
        body: { name: `Inside ${url}`, url, secret: 'a-secret-of-some-length-1234', active: true, alarmRaised: true },
      });
      expect([url, r.status, r.body.violations]).toEqual([url, 400, [{ field: 'url', message: PRIVATE_TARGET }]]);
    }
    expect(await s.count('select 1 from web_hooks')).toBe(before);
    const ok = await s.call('POST', webHooksResource.api, {
      token: nw,
      body: { name: 'Outside', url: 'https://receiver.example/hook', secret: 'a-secret-of-some-length-1234', active: true },
    });
    expect(ok.status).toBe(201);
  });

  it('does not deliver to such a target that got in another way, and the attempt says why', async () => {
    const { rows } = await s.db.query<{ id: number }>(
      `insert into web_hooks (client_id, name, url, secret, active, alarm_raised)
      values ($1, 'Sneaked in', 'http://127.0.0.1:9/x', 'a-secret-of-some-length-1234', true, true) returning id`,
      [northwind],
    );
    await s.app.pipeline.record(northwind, {
      eventCode: EVENT_CODES.doorForcedOpen,
      sourceId: 'door-ssrf',
      sourceName: 'Server Room',
      pointId: 'door-ssrf',
      message: 'Door forced open',
    });
    let attempt: { error: string } | undefined;
    for (let i = 0; i < 100 && !attempt; i++) {
      attempt = (await s.db.query<{ error: string }>('select error from webhook_attempts where hook_id = $1', [rows[0].id])).rows[0];
      if (!attempt) await new Promise((r) => setTimeout(r, 50));
    }
    expect(attempt?.error).toBe(`Not sent: the target ${PRIVATE_TARGET} (127.0.0.1 is a loopback address)`);
  });
});
