// Outbound calls cannot reach the inside (issue 27): a web hook's target is checked when it is saved AND when the
// delivery's socket connects — the host is looked up once, every address is checked (ipaddr.js ranges), and the
// socket connects only to a checked address, with no redirect followed. These servers run WITHOUT
// WEBHOOK_PRIVATE_TARGETS=allow (except the one that proves the socket uses the checked lookup), with their own
// resolver so no name goes to real DNS. No test here sends anything to an address off this machine.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, webHooksResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { PRIVATE_TARGET, RefusedTarget, checkedAddresses, type Resolve } from './targets';

const HOOKS = webHooksResource.api;
const SECRET = 'a-secret-of-some-length-1234';

/** A resolver the test controls: each name answers its queue of address lists in turn (the last one stays); every question is logged. */
function testResolver() {
  const answers = new Map<string, string[][]>();
  const asked: string[] = [];
  const resolve: Resolve = async (host) => {
    asked.push(host);
    const queue = answers.get(host.toLowerCase());
    if (!queue?.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const list = queue.length > 1 ? queue.shift()! : queue[0];
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { answers, asked, resolve, times: (host: string) => asked.filter((h) => h === host).length };
}

/** A listener on 127.0.0.1 that counts connections as well as requests. */
async function listener() {
  const got: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    got.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => (req.url === '/redirect' ? res.writeHead(302, { location: '/landed' }).end() : res.end('thanks')));
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    got,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function until<T>(fact: () => Promise<T | undefined | null | false>, what: string, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fact();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for: ${what}`);
}

const dns = testResolver();
// Names the table looks up through the server's resolver: one public, one inside, one that answers both.
dns.answers.set('hooks.partner-example.com', [['93.184.216.34', '2606:2800:220:1::']]);
dns.answers.set('inside.partner-example.com', [['10.0.0.7']]);
dns.answers.set('mixed.partner-example.com', [['93.184.216.34', '127.0.0.1']]);
dns.answers.set('nat64-inside.partner-example.com', [['64:ff9b::a9fe:a9fe']]);

let s: TestServer, rx: Awaited<ReturnType<typeof listener>>;
let nw: string, northwind: number;
beforeAll(async () => {
  rx = await listener();
  s = await startTestServer({
    allowPrivateWebhookTargets: false,
    webhooks: { pollMs: 30, backoffMs: () => 60, timeoutMs: 1500, maxAttempts: 2, resolve: dns.resolve },
  });
  const admin = await s.login('admin');
  northwind = (await s.call('GET', API.clients, { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
});

type Verdict = 'refused' | 'passes' | 'not a URL';
// [what is typed, the host the server's URL parser makes of it (what the connect sees), verdict]
const TABLE: Array<[string, string | null, Verdict]> = [
  // IPv4 in every spelling WHATWG URL accepts
  ['http://127.0.0.1/', '127.0.0.1', 'refused'],
  ['http://2130706433/', '127.0.0.1', 'refused'],
  ['http://0177.0.0.1/', '127.0.0.1', 'refused'],
  ['http://0x7f.1/', '127.0.0.1', 'refused'],
  ['http://127.1/', '127.0.0.1', 'refused'],
  ['http://0x7f000001/', '127.0.0.1', 'refused'],
  ['http://127.000.000.001/', '127.0.0.1', 'refused'],
  ['http://127.0.0.1./', '127.0.0.1', 'refused'],
  ['http://①②⑦.0.0.1/', '127.0.0.1', 'refused'],
  ['http://127.255.255.254:8080/', '127.255.255.254', 'refused'],
  ['http://0/', '0.0.0.0', 'refused'],
  ['http://0.0.0.0/', '0.0.0.0', 'refused'],
  ['http://10.0.0.1/', '10.0.0.1', 'refused'],
  ['http://172.16.0.1/', '172.16.0.1', 'refused'],
  ['http://172.31.255.255/', '172.31.255.255', 'refused'],
  ['http://192.168.0.1/', '192.168.0.1', 'refused'],
  ['http://169.254.169.254/latest/meta-data', '169.254.169.254', 'refused'],
  ['http://0xa9fea9fe/', '169.254.169.254', 'refused'],
  ['http://100.64.0.1/', '100.64.0.1', 'refused'],
  ['http://100.127.255.254/', '100.127.255.254', 'refused'],
  ['http://192.0.0.1/', '192.0.0.1', 'refused'],
  ['http://192.0.2.1/', '192.0.2.1', 'refused'],
  ['http://198.18.0.1/', '198.18.0.1', 'refused'],
  ['http://240.0.0.1/', '240.0.0.1', 'refused'],
  ['http://255.255.255.255/', '255.255.255.255', 'refused'],
  ['http://224.0.0.1/', '224.0.0.1', 'refused'],
  ['http://239.255.255.250/', '239.255.255.250', 'refused'],
  // IPv6, and IPv4 carried inside IPv6
  ['http://[::1]/', '[::1]', 'refused'],
  ['http://[0:0:0:0:0:0:0:1]/', '[::1]', 'refused'],
  ['http://[::]/', '[::]', 'refused'],
  ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', 'refused'],
  ['http://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]', 'refused'],
  ['http://[::ffff:7f00:1]:9/', '[::ffff:7f00:1]', 'refused'],
  ['http://[::ffff:93.184.216.34]/', '[::ffff:5db8:d822]', 'refused'],
  ['http://[::ffff:0:7f00:1]/', '[::ffff:0:7f00:1]', 'refused'],
  ['http://[::127.0.0.1]/', '[::7f00:1]', 'refused'],
  ['http://[64:ff9b::a9fe:a9fe]/', '[64:ff9b::a9fe:a9fe]', 'refused'],
  ['http://[64:ff9b::127.0.0.1]/', '[64:ff9b::7f00:1]', 'refused'],
  ['http://[64:ff9b::10.0.0.1]/', '[64:ff9b::a00:1]', 'refused'],
  ['http://[64:ff9b:1::a00:1]/', '[64:ff9b:1::a00:1]', 'refused'],
  ['http://[2002:7f00:1::1]/', '[2002:7f00:1::1]', 'refused'],
  ['http://[2002:a9fe:a9fe::]/', '[2002:a9fe:a9fe::]', 'refused'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', '[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'refused'], // Teredo, client 127.0.0.1
  ['http://[fe80::1]/', '[fe80::1]', 'refused'],
  ['http://[fe80::1%25eth0]/', null, 'not a URL'],
  ['http://[fc00::1]/', '[fc00::1]', 'refused'],
  ['http://[fd00:ec2::254]/', '[fd00:ec2::254]', 'refused'],
  ['http://[fec0::1]/', '[fec0::1]', 'refused'],
  ['http://[ff02::1]/', '[ff02::1]', 'refused'],
  ['http://[2001:db8::1]/', '[2001:db8::1]', 'refused'],
  ['http://[100::1]/', '[100::1]', 'refused'],
  // names that only mean the inside, refused without a lookup; names that resolve inside
  ['http://localhost/', 'localhost', 'refused'],
  ['http://localhost./', 'localhost.', 'refused'],
  ['http://LOCALHOST:8080/', 'localhost', 'refused'],
  ['http://%6c%6f%63%61%6c%68%6f%73%74/', 'localhost', 'refused'],
  ['http://hooks.localhost/', 'hooks.localhost', 'refused'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal', 'refused'],
  ['http://metadata.google.internal./', 'metadata.google.internal.', 'refused'],
  ['http://vault.internal/', 'vault.internal', 'refused'],
  ['http://metadata/', 'metadata', 'refused'],
  ['http://printer.local/', 'printer.local', 'refused'],
  ['http://router.home.arpa/', 'router.home.arpa', 'refused'],
  ['http://inside.partner-example.com/', 'inside.partner-example.com', 'refused'],
  ['http://mixed.partner-example.com/', 'mixed.partner-example.com', 'refused'],
  ['http://nat64-inside.partner-example.com/', 'nat64-inside.partner-example.com', 'refused'],
  // public addresses and names pass
  ['http://93.184.216.34/', '93.184.216.34', 'passes'],
  ['http://1572395042/', '93.184.216.34', 'passes'],
  ['https://1.1.1.1/hook', '1.1.1.1', 'passes'],
  ['http://172.32.0.1/', '172.32.0.1', 'passes'],
  ['http://100.128.0.1/', '100.128.0.1', 'passes'],
  ['http://[2606:2800:220:1::]/', '[2606:2800:220:1::]', 'passes'],
  ['http://[64:ff9b::5db8:d822]/', '[64:ff9b::5db8:d822]', 'passes'], // NAT64 of a public address (DNS64 networks)
  ['http://[2002:5db8:d822::1]/', '[2002:5db8:d822::1]', 'passes'], // 6to4 of a public address
  ['https://hooks.partner-example.com/gatehouse', 'hooks.partner-example.com', 'passes'],
];

describe('the address table, as the server parses, saves and connects (WEBHOOK_PRIVATE_TARGETS off)', () => {
  it(`has ${TABLE.length} forms, at least 40`, () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)('%s → host %s: %s', async (raw, host, verdict) => {
    // What the server's URL parser makes of it (the saved URL is parsed the same way at delivery)
    if (host === null) expect(() => new URL(raw)).toThrow();
    else expect(new URL(raw).host.replace(/:\d+$/, '')).toBe(host);

    // Saved through the API: refused with the field named and nothing written, or saved (disabled, no events: nothing is ever sent)
    const before = await s.count('select 1 from web_hooks');
    const r = await s.call('POST', HOOKS, { token: nw, body: { name: `Table ${raw}`, url: raw, secret: SECRET, active: false } });
    if (verdict === 'passes') {
      expect([raw, r.status]).toEqual([raw, 201]);
      expect((await s.db.query<{ url: string }>('select url from web_hooks where id = $1', [r.body.id])).rows[0].url).toBe(raw);
    } else {
      expect([raw, r.status, r.body.violations]).toEqual([
        raw,
        400,
        [{ field: 'url', message: verdict === 'not a URL' ? 'is not a valid URL' : PRIVATE_TARGET }],
      ]);
      expect(await s.count('select 1 from web_hooks')).toBe(before);
    }

    // The connect-time check on the same URL (the one delivery runs before it opens a socket): the same verdict
    if (host === null) return;
    const connect = checkedAddresses(new URL(raw), dns.resolve);
    if (verdict === 'passes') expect((await connect).length).toBeGreaterThan(0);
    else await expect(connect).rejects.toBeInstanceOf(RefusedTarget);
  });
});

async function attemptsOf(hookId: number, n: number) {
  return until(async () => {
    const { rows } = await s.db.query<{ error: string; ok: boolean; status: number | null }>(
      'select error, ok, status from webhook_attempts where hook_id = $1 order by id',
      [hookId],
    );
    return rows.length >= n && rows;
  }, `${n} attempt(s) of hook ${hookId}`);
}
const alarm = (point: string) =>
  s.app.pipeline.record(northwind, {
    eventCode: EVENT_CODES.doorForcedOpen,
    sourceId: point,
    sourceName: 'Server Room',
    pointId: point,
    message: 'Door forced open',
  });

describe('a delivery to the inside (the real worker, the real socket path)', () => {
  it('never reaches a listener on 127.0.0.1, whatever the saved URL says, and records why it was refused', async () => {
    dns.answers.set('receiver.partner-example.com', [['127.0.0.1']]);
    // Hooks that got in another way (saved while the switch was on, or written to the database directly)
    const urls = {
      [`http://[::ffff:127.0.0.1]:${rx.port}/mapped`]: `::ffff:7f00:1 is an IPv4-mapped address (IPv4 written as IPv6)`,
      [`http://127.1:${rx.port}/short`]: '127.0.0.1 is a loopback address',
      [`http://localhost:${rx.port}/local`]: 'localhost names this machine or a private network',
      [`http://localhost.:${rx.port}/dot`]: 'localhost. names this machine or a private network',
      [`http://receiver.partner-example.com:${rx.port}/named`]: 'receiver.partner-example.com: 127.0.0.1 is a loopback address',
    };
    const ids: Array<[number, string]> = [];
    for (const [url, reason] of Object.entries(urls)) {
      const { rows } = await s.db.query<{ id: number }>(
        `insert into web_hooks (client_id, name, url, secret, active, alarm_raised)
        values ($1, $2, $3, $4, true, true) returning id`,
        [northwind, `Inside ${url}`, url, SECRET],
      );
      ids.push([rows[0].id, reason]);
    }
    const askedBefore = dns.times('receiver.partner-example.com');
    await alarm('door-out-1');
    for (const [id, reason] of ids) {
      const attempts = await attemptsOf(id, 2); // both attempts (maxAttempts 2), then the delivery is failed
      expect(attempts.map((a) => [a.ok, a.status, a.error])).toEqual([1, 2].map(() => [false, null, `Not sent: the target ${PRIVATE_TARGET} (${reason})`]));
    }
    expect(rx.got).toEqual([]);
    expect(rx.connections()).toBe(0);
    // the name was looked up once per attempt, by the guard (the socket asked no one else)
    expect(dns.times('receiver.partner-example.com') - askedBefore).toBe(2);
    const states = await s.db.query<{ state: string }>(`select state from webhook_outbox where hook_id = any($1::int[])`, [ids.map(([id]) => id)]);
    expect(states.rows.map((r) => r.state)).toEqual(ids.map(() => 'failed'));
  });

  it('defeats DNS rebinding: public when the hook is saved, 127.0.0.1 when it is delivered — the connect goes nowhere private', async () => {
    const host = 'rebind.partner-example.com';
    dns.answers.set(host, [['93.184.216.34'], ['127.0.0.1']]);
    const saved = await s.call('POST', HOOKS, {
      token: nw,
      body: { name: 'Rebinding', url: `http://${host}:${rx.port}/rebind`, secret: SECRET, active: true, alarmRaised: true },
    });
    expect(saved.status).toBe(201);
    // the first answer (public) went to the check on save — before any delivery exists
    expect(dns.times(host)).toBe(1);
    await alarm('door-out-2');
    const attempts = await attemptsOf(saved.body.id, 2);
    expect(attempts.map((a) => a.error)).toEqual([1, 2].map(() => `Not sent: the target ${PRIVATE_TARGET} (${host}: 127.0.0.1 is a loopback address)`));
    expect(dns.times(host)).toBe(3); // save + one per attempt: the socket never looked the name up again
    expect(rx.got).toEqual([]);
    expect(rx.connections()).toBe(0);
  });

  it('refuses a name whose one answer mixes a public and a private address, on save and at connect', async () => {
    const r = await s.call('POST', HOOKS, {
      token: nw,
      body: { name: 'Mixed', url: 'http://mixed.partner-example.com/x', secret: SECRET, active: true, alarmRaised: true },
    });
    expect([r.status, r.body.violations]).toEqual([400, [{ field: 'url', message: PRIVATE_TARGET }]]);
    await expect(checkedAddresses(new URL('http://mixed.partner-example.com/x'), dns.resolve)).rejects.toThrow(
      `the target ${PRIVATE_TARGET} (mixed.partner-example.com: 127.0.0.1 is a loopback address)`,
    );
  });
});

describe('the socket connects to the address the guard looked up', () => {
  // WEBHOOK_PRIVATE_TARGETS=allow here, only so that a connection can be made on this machine: the name exists only in
  // the test's resolver (.invalid never resolves in DNS), so a request arriving proves the socket used that answer.
  let a: TestServer;
  const pinDns = testResolver();
  beforeAll(async () => {
    pinDns.answers.set('pinned.gatehouse.invalid', [['127.0.0.1']]);
    a = await startTestServer({ allowPrivateWebhookTargets: true, webhooks: { pollMs: 30, backoffMs: () => 60, timeoutMs: 1500, resolve: pinDns.resolve } });
  });
  afterAll(async () => {
    await a?.close();
  });

  it("delivers to the resolver's answer with the name as Host, looking the name up once, and follows no redirect", async () => {
    const admin = await a.login('admin');
    const clientId = (await a.call('GET', API.clients, { token: admin })).body.items.find((c: any) => c.code === 'NORTHWIND').id;
    const token = (await a.call('PUT', API.meClient, { token: admin, body: { clientId } })).body.token;
    const r = await a.call('POST', HOOKS, {
      token,
      body: { name: 'Pinned', url: `http://pinned.gatehouse.invalid:${rx.port}/pinned`, secret: SECRET, active: true, alarmRaised: true },
    });
    expect(r.status).toBe(201);
    const gotBefore = rx.got.length;
    await a.app.pipeline.record(clientId, {
      eventCode: EVENT_CODES.doorForcedOpen,
      sourceId: 'door-pin',
      sourceName: 'Server Room',
      pointId: 'door-pin',
      message: 'Door forced open',
    });
    const { rows } = await until(async () => {
      const q = await a.db.query<{ ok: boolean; status: number }>('select ok, status from webhook_attempts where hook_id = $1', [r.body.id]);
      return q.rows.length > 0 && q;
    }, 'the pinned delivery');
    expect(rows).toEqual([{ ok: true, status: 200 }]);
    expect(rx.got.slice(gotBefore).map((g) => [g.path, g.headers.host])).toEqual([['/pinned', `pinned.gatehouse.invalid:${rx.port}`]]);
    expect(pinDns.times('pinned.gatehouse.invalid')).toBe(1);

    // a receiver that answers with a redirect gets no second request: the 302 is the answer, recorded as a failure
    const redirect = await a.call('POST', HOOKS, {
      token,
      body: { name: 'Redirecting', url: `http://pinned.gatehouse.invalid:${rx.port}/redirect`, secret: SECRET, active: true, alarmRaised: true },
    });
    expect(redirect.status).toBe(201);
    await a.app.pipeline.record(clientId, {
      eventCode: EVENT_CODES.doorForcedOpen,
      sourceId: 'door-pin-2',
      sourceName: 'Server Room',
      pointId: 'door-pin-2',
      message: 'Door forced open',
    });
    const first = await until(
      async () =>
        (
          await a.db.query<{ ok: boolean; status: number; error: string }>(
            'select ok, status, error from webhook_attempts where hook_id = $1 order by id limit 1',
            [redirect.body.id],
          )
        ).rows[0],
      'the redirect attempt',
    );
    expect(first).toEqual({ ok: false, status: 302, error: 'The receiver answered 302' });
    expect(rx.got.filter((g) => g.path === '/landed')).toEqual([]);
  });
});
