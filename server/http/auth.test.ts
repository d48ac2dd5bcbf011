import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, trustProxyOf } from '../app';
import { migrate } from '../db/migrate';
import { seed } from '../db/seed';
import { startTestServer, type TestServer } from '../testkit';
import { API } from '../../contract';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ lockout: { attempts: 5, minutes: 15 } });
});
afterAll(async () => {
  await s.close();
});

describe('sign-in', () => {
  it('returns a JWT with exp in seconds, the user and the grant list spelled priviledges', async () => {
    const r = await s.call('POST', '/idp/1.0/login', { body: { username: 'operator', password: 'Gatehouse1!' } });
    expect(r.status).toBe(200);
    const claims = JSON.parse(Buffer.from(r.body.token.split('.')[1], 'base64url').toString());
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims.exp).toBeLessThan(Date.now() / 1000 + 9 * 3600);
    expect(r.body.user).toMatchObject({ username: 'operator', avatarColor: 'blue', multiTenancyEnabled: false });
    expect(r.body.privileges.priviledges[0].privilegeIds).toContain('0.3.1.0');
    expect(r.body.privileges.priviledges[0].divisionIds.length).toBeGreaterThan(1);
  });

  it("tells the server's time with a session (sign-in, /me, a client switch), for the console to measure its clock against", async () => {
    const before = Date.now();
    const r = await s.call('POST', '/idp/1.0/login', { body: { username: 'admin', password: 'Gatehouse1!' } });
    const me = await s.call('GET', API.me, { token: r.body.token });
    const clients = await s.call('GET', `${API.clients}?size=5`, { token: r.body.token });
    const switched = await s.call('PUT', API.meClient, { token: r.body.token, body: { clientId: clients.body.items[0].id } });
    const after = Date.now();
    // as it was: no client selected (the tests below start from that)
    expect((await s.call('PUT', API.meClient, { token: switched.body.token, body: { clientId: null } })).status).toBe(200);
    for (const [what, body] of [
      ['sign-in', r.body],
      ['me', me.body],
      ['switch', switched.body],
    ] as const) {
      expect(body.serverTime, what).toBeGreaterThanOrEqual(before);
      expect(body.serverTime, what).toBeLessThanOrEqual(after);
    }
  });

  it('says the same thing for a wrong password and an unknown user', async () => {
    const a = await s.call('POST', '/idp/1.0/login', { body: { username: 'hr', password: 'nope' } });
    const b = await s.call('POST', '/idp/1.0/login', { body: { username: 'nobody', password: 'nope' } });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body.message).toBe(b.body.message);
    expect(a.body.message).not.toBe('JWT-Invalid');
  });

  it('counts and locks an unknown username like a real one, so the answers never tell which names exist', async () => {
    const locked = await s.call('POST', '/idp/1.0/login', { body: { username: 'hr', password: 'wrong' } });
    for (let i = 0; i < 5; i++) {
      const r = await s.call('POST', '/idp/1.0/login', { body: { username: 'no-such-user', password: 'wrong' } });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe(locked.body.message);
    }
    const sixth = await s.call('POST', '/idp/1.0/login', { body: { username: 'no-such-user', password: 'wrong' } });
    expect(sixth.status).toBe(423);
    expect(sixth.body.message).toMatch(/locked/i);
    // the same words a locked real account gets (the lock test below locks 'auditor')
    expect(sixth.body.message).toBe('Account locked after too many failed sign-ins, try again later');
  });

  it('limits sign-in, reset and registration per address, each route on its own count', async () => {
    const limited = await buildServer({ db: s.db, jwtSecret: 'x'.repeat(32), staticDir: null, rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const login = (remoteAddress: string) =>
        limited.inject({ method: 'POST', url: '/idp/1.0/login', remoteAddress, payload: { username: `guess-${Math.random()}`, password: 'x' } });
      for (let i = 0; i < 3; i++) expect((await login('10.0.0.1')).statusCode).toBe(401);
      const refused = await login('10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ status: 429, error: 'Too Many Requests' });
      // said as a person at the sign-in form reads it, with no violation of a body that was not at fault
      expect(JSON.parse(refused.body).message).toMatch(/^Too many attempts from this computer: try again in \d+ (second|minute)s?$/);
      expect(JSON.parse(refused.body).violations ?? []).toEqual([]);
      // issue 48: with its key, the wait a value (the console says it in zh-CN)
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'signIn.tooManyAttempts', values: { seconds: expect.any(Number) } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await login('10.0.0.2')).statusCode).toBe(401); // another address has its own count
      // a client cannot pick its own address: X-Forwarded-For is not believed unless TRUST_PROXY says whose
      const spoofed = await limited.inject({
        method: 'POST',
        url: '/idp/1.0/login',
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.9' },
        payload: { username: 'guess', password: 'x' },
      });
      expect(spoofed.statusCode).toBe(429);
      const reset = await limited.inject({
        method: 'POST',
        url: '/idp/1.0/operators/reset-password/init',
        remoteAddress: '10.0.0.1',
        payload: { username: 'x' },
      });
      expect(reset.statusCode).toBe(200); // and so has another route
      const rows = await s.count('select 1 from registration_requests');
      for (let i = 0; i < 4; i++) {
        await limited.inject({
          method: 'POST',
          url: '/idp/1.0/registration-requests',
          remoteAddress: '10.0.0.3',
          payload: { username: `spam${i}`, name: 'Spam', email: 'spam@example.com' },
        });
      }
      expect(await s.count('select 1 from registration_requests')).toBe(rows + 3);
    } finally {
      await limited.close();
    }
  });

  it('behind a trusted proxy, the per-address limit counts the forwarded address (TRUST_PROXY)', async () => {
    expect([trustProxyOf(undefined), trustProxyOf('true'), trustProxyOf('1'), trustProxyOf('10.0.0.0/8, 127.0.0.1')]).toEqual([
      false,
      true,
      1,
      '10.0.0.0/8, 127.0.0.1',
    ]);
    const proxied = await buildServer({
      db: s.db,
      jwtSecret: 'x'.repeat(32),
      staticDir: null,
      rateLimit: { max: 2, windowMs: 60_000 },
      trustProxy: '10.0.0.0/8',
    });
    try {
      const login = (client: string) =>
        proxied.inject({
          method: 'POST',
          url: '/idp/1.0/login',
          remoteAddress: '10.1.1.1',
          headers: { 'x-forwarded-for': client },
          payload: { username: 'guess', password: 'x' },
        });
      for (let i = 0; i < 2; i++) expect((await login('198.51.100.1')).statusCode).toBe(401);
      expect((await login('198.51.100.1')).statusCode).toBe(429);
      expect((await login('198.51.100.2')).statusCode).toBe(401); // another client behind the same proxy
    } finally {
      await proxied.close();
    }
  });

  it('rejects a blank form with violations per field', async () => {
    const r = await s.call('POST', '/idp/1.0/login', { body: { username: '', password: '' } });
    expect(r.status).toBe(400);
    expect(r.body.violations.map((v: any) => v.field).sort()).toEqual(['password', 'username']);
  });

  it('locks the account after five bad attempts, even for the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await s.call('POST', '/idp/1.0/login', { body: { username: 'auditor', password: 'bad' } })).status).toBe(401);
    const r = await s.call('POST', '/idp/1.0/login', { body: { username: 'auditor', password: 'Gatehouse1!' } });
    expect(r.status).toBe(423);
    expect(r.body.message).toMatch(/locked/i);
    // the lock is a record of the auditor's client: its activity report shows it (not a record of no client, shown nowhere)
    const rows = await s.db.query<{ client_id: number | null; home: number }>(
      `select a.client_id, u.home_client_id as home from audit_log a join users u on u.username = a.actor where a.action = 'lock' and a.actor = 'auditor'`,
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0].client_id).not.toBeNull();
    expect(rows.rows[0].client_id).toBe(rows.rows[0].home);
  });
});

describe('tokens', () => {
  it('answers 401 JWT-Invalid without, with a tampered and with an expired token', async () => {
    const token = await s.login('operator');
    expect((await s.call('GET', '/idp/1.0/me', { token })).status).toBe(200);
    const none = await s.call('GET', '/idp/1.0/me');
    expect(none).toMatchObject({ status: 401, body: { message: 'JWT-Invalid' } });
    const [h, p, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, clientId: 2 })).toString('base64url')}.${sig}`;
    expect(await s.call('GET', '/idp/1.0/me', { token: forged })).toMatchObject({ status: 401, body: { message: 'JWT-Invalid' } });
    const expired = await new SignJWT({ username: 'operator', clientId: payload.clientId, roles: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(payload.sub)
      .setJti(payload.jti)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 5)
      .sign(new TextEncoder().encode('test-secret-of-enough-length'));
    expect(await s.call('GET', '/idp/1.0/me', { token: expired })).toMatchObject({ status: 401, body: { message: 'JWT-Invalid' } });
  });

  it('ends the session on logout: the token no longer works', async () => {
    const token = await s.login('hr');
    expect((await s.call('POST', '/idp/1.0/logout', { token })).status).toBe(200);
    expect(await s.call('GET', '/idp/1.0/me', { token })).toMatchObject({ status: 401, body: { message: 'JWT-Invalid' } });
  });
});

describe('privileges and clients', () => {
  it('answers 403 when the privilege is missing', async () => {
    const token = await s.login('reception');
    const r = await s.call('POST', '/event/manage/identities', { token, body: {} });
    expect(r.status).toBe(403);
    expect((await s.call('GET', '/central/1.0/clients', { token })).status).toBe(403);
  });

  it('lets a multi-tenant admin select only a client they hold grants in', async () => {
    const token = await s.login('admin');
    const me = await s.call('GET', '/idp/1.0/me', { token });
    expect(me.body.user.clientId).toBeNull();
    expect((await s.call('GET', '/event/manage/identities', { token })).status).toBe(403);
    const clients = await s.call('GET', '/central/1.0/clients', { token });
    expect(clients.body.items.map((c: any) => c.code).sort()).toEqual(['HARBOUR', 'NORTHWIND']);
    const picked = await s.call('PUT', '/idp/1.0/me/client', { token, body: { clientId: clients.body.items[0].id } });
    expect(picked.status).toBe(200);
    expect(picked.body.user.clientId).toBe(clients.body.items[0].id);
    expect((await s.call('GET', '/event/manage/identities', { token: picked.body.token })).status).toBe(200);
    const harbourAdmin = await s.login('harbour');
    const northwind = clients.body.items.find((c: any) => c.code === 'NORTHWIND').id;
    expect((await s.call('PUT', '/idp/1.0/me/client', { token: harbourAdmin, body: { clientId: northwind } })).status).toBe(403);
  });

  it('refuses an x-tenant-id of a client without grants (IAM mode)', async () => {
    const token = await s.login('harbour');
    const r = await s.call('GET', '/event/manage/identities', { token, headers: { 'x-tenant-id': '1' } });
    expect(r.status).toBe(403);
  });
});

describe('settings, profile and passwords', () => {
  it('merges settings and keeps tourView false once skipped', async () => {
    const token = await s.login('operator');
    const r = await s.call('PUT', '/idp/1.0/me/settings', { token, body: { tourView: false } });
    expect(r.body).toMatchObject({ tourView: false, tagsView: true });
    await s.call('PUT', '/idp/1.0/me/settings', { token, body: { theme: '#111111' } });
    const me = await s.call('GET', '/idp/1.0/me', { token });
    expect(me.body.settings).toMatchObject({ tourView: false, theme: '#111111' });
  });

  it('keeps the console language in the settings and refuses a language it does not have', async () => {
    const token = await s.login('harbour');
    expect((await s.call('GET', '/idp/1.0/me', { token })).body.settings.locale).toBe('en');
    expect((await s.call('PUT', '/idp/1.0/me/settings', { token, body: { locale: 'zh-CN' } })).body.locale).toBe('zh-CN');
    expect((await s.call('PUT', '/idp/1.0/me/settings', { token, body: { locale: 'fr' } })).status).toBe(400);
    expect((await s.call('GET', '/idp/1.0/me', { token })).body.settings.locale).toBe('zh-CN');
  });

  it('tells the console the client’s time zone, and lets a profile have no zone of its own but not an unknown one', async () => {
    const token = await s.login('harbour');
    const me = await s.call('GET', '/idp/1.0/me', { token });
    expect(me.body.user).toMatchObject({ timezone: 'Europe/London', clientTimezone: 'Europe/London' });
    const bad = await s.call('PUT', '/idp/1.0/me/profile', { token, body: { timezone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations[0]).toEqual({ field: 'timezone', message: 'is not a known time zone', code: 'timeZone.unknownShort', values: {} });
    expect((await s.call('PUT', '/idp/1.0/me/profile', { token, body: { timezone: 'Asia/Kolkata' } })).body.timezone).toBe('Asia/Kolkata');
    // none of its own is said with null (and read back as null)
    const none = await s.call('PUT', '/idp/1.0/me/profile', { token, body: { timezone: null } });
    expect(none.body).toMatchObject({ timezone: null, clientTimezone: 'Europe/London' });
    expect((await s.call('GET', '/idp/1.0/me', { token })).body.user.timezone).toBeNull();
    await s.call('PUT', '/idp/1.0/me/profile', { token, body: { timezone: 'Europe/London' } });
  });

  it('refuses an empty time zone on the profile with a violation, and keeps the zone it had (issue 27)', async () => {
    const token = await s.login('harbour');
    for (const timezone of ['', '   ', 'UTC\u0000', 'Europe/London\uD800']) {
      const r = await s.call('PUT', '/idp/1.0/me/profile', { token, body: { timezone } });
      expect(r.status, JSON.stringify(timezone)).toBe(400);
      expect(r.body.violations.map((v: { field: string }) => v.field)).toEqual(['timezone']);
    }
    expect((await s.call('PUT', '/idp/1.0/me/profile', { token, body: { timezone: '' } })).body.violations[0].message).toMatch(/null for none/);
    expect((await s.call('GET', '/idp/1.0/me', { token })).body.user.timezone).toBe('Europe/London');
  });

  it('refuses NUL, lone surrogates, long text, deep nesting and huge numbers anywhere in free-form settings, naming the place (issue 27)', async () => {
    const token = await s.login('reception');
    await s.call('PUT', '/idp/1.0/me/settings', { token, body: { tenants: { floors: [{ name: 'Lobby' }] } } });
    const before = (await s.call('GET', '/idp/1.0/me', { token })).body.settings;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tenants: 'nul\u0000' }, 'tenants'],
      [{ tenants: { floors: [{ name: 'Lobby' }, { name: 'bad\u0000' }] } }, 'tenants.floors.1.name'],
      [{ tenants: ['lone \uD800'] }, 'tenants.0'],
      [{ visitors: { note: '\uDC00' } }, 'visitors.note'],
      [{ dashboard: { ['key\u0000']: 1 } }, 'dashboard'],
      [{ security: { deep: JSON.parse('['.repeat(30) + ']'.repeat(30)) } }, 'security.deep'],
      [{ tenants: 'x'.repeat(70_000) }, 'tenants'],
      [{ tenants: { n: 1e308 } }, 'tenants.n'],
      [{ tenants: [[{ n: -1e308 }]] }, 'tenants.0.0.n'],
      [{ dashboard: { big: 2 ** 53 + 1 } }, 'dashboard.big'],
      [{ workDays: [1, 2 ** 31] }, 'workDays.1'],
      [{ signInEntryDoorIds: [1e308] }, 'signInEntryDoorIds.0'],
    ];
    for (const [body, field] of cases) {
      const r = await s.call('PUT', '/idp/1.0/me/settings', { token, body });
      expect(r.status, field).toBe(400);
      const fields: string[] = r.body.violations.map((v: { field: string }) => v.field);
      expect(
        fields.some((f) => f === field || f.startsWith(`${field}.`)),
        `${field}: ${fields.join(', ')}`,
      ).toBe(true);
    }
    expect((await s.call('GET', '/idp/1.0/me', { token })).body.settings).toEqual(before);
    // plain data at any depth is kept as sent
    const fine = { tenants: { floors: [{ name: 'Lobby\tEast 😀', rooms: [1, 2.5, -3, null, true] }] } };
    expect((await s.call('PUT', '/idp/1.0/me/settings', { token, body: fine })).body.tenants).toEqual(fine.tenants);
  });

  it('resets a password with the emailed token once, and never tells whether a user exists', async () => {
    const unknown = await s.call('POST', '/idp/1.0/operators/reset-password/init', { body: { username: 'ghost' } });
    const known = await s.call('POST', '/idp/1.0/operators/reset-password/init', { body: { username: 'reception' } });
    expect(unknown.body).toEqual(known.body);
    const token = s.app.resetTokens!.find((t) => t.username === 'reception')!.token;
    expect((await s.call('POST', '/idp/1.0/operators/reset-password/finish', { body: { token, newPassword: 'short' } })).status).toBe(400);
    expect((await s.call('POST', '/idp/1.0/operators/reset-password/finish', { body: { token, newPassword: 'N3w-password!' } })).status).toBe(200);
    expect((await s.call('POST', '/idp/1.0/operators/reset-password/finish', { body: { token, newPassword: 'Another-1!' } })).status).toBe(400);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: 'reception', password: 'N3w-password!' } })).status).toBe(200);
  });

  it('changes a password only with the current one', async () => {
    const bad = await s.call('POST', '/event/manage/identity/change-password', {
      body: { username: 'hr', oldPassword: 'wrong', newPassword: 'Changed-pass1' },
    });
    expect(bad.status).toBe(400);
    const ok = await s.call('POST', '/event/manage/identity/change-password', {
      body: { username: 'hr', oldPassword: 'Gatehouse1!', newPassword: 'Changed-pass1' },
    });
    expect(ok.status).toBe(200);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: 'hr', password: 'Changed-pass1' } })).status).toBe(200);
  });

  it('stores registration requests and rejects a bad email', async () => {
    expect(
      (await s.call('POST', '/idp/1.0/registration-requests', { body: { username: 'new', name: 'New Person', email: 'nope' } })).body.violations[0].field,
    ).toBe('email');
    expect((await s.call('POST', '/idp/1.0/registration-requests', { body: { username: 'new', name: 'New Person', email: 'new@x.example' } })).status).toBe(
      201,
    );
  });
});

describe('the server around the API', () => {
  it('answers health without a token and 404 JSON for an unknown API path', async () => {
    expect(await s.call('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const token = await s.login('operator');
    expect(await s.call('GET', '/event/manage/nothing-here', { token })).toMatchObject({ status: 404, body: { status: 404, error: 'Not Found' } });
  });

  it('serves the built console with a history-mode fallback, and says to build it when it is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    const built = await buildServer({ db: s.db, jwtSecret: 'x'.repeat(32), staticDir: dir });
    const bare = await buildServer({ db: s.db, jwtSecret: 'x'.repeat(32), staticDir: join(dir, 'missing') });
    try {
      const page = await built.inject({ url: '/identities/edit/3?tab=1' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>console</title>');
      expect((await built.inject({ url: '/assets/app.js' })).body).toBe('console.log(1)');
      expect((await built.inject({ url: '/assets' })).body).toContain('<title>console</title>'); // a folder is not a file
      expect((await built.inject({ url: '/../../etc/passwd' })).body).not.toContain('root:');
      expect((await built.inject({ url: '/event/manage/identities' })).statusCode).toBe(401);
      expect(JSON.parse((await built.inject({ url: '/api/health' })).body)).toMatchObject({ status: 'ok' });
      const missing = await bare.inject({ url: '/dashboard' });
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toMatch(/run `npm run build`/);
    } finally {
      await built.close();
      await bare.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates and seeds only once: running both again changes nothing', async () => {
    const counts = async () => [
      await s.count('select * from clients'),
      await s.count('select * from identities'),
      await s.count('select * from schema_migrations'),
    ];
    const before = await counts();
    expect(before[0]).toBeGreaterThanOrEqual(2);
    expect(await migrate(s.db)).toEqual([]);
    expect(await seed(s.db, { identitiesPerClient: 3 })).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it('lets the x-tenant-id header pick a client the user holds grants in', async () => {
    const token = await s.login('admin');
    const clients = (await s.call('GET', '/central/1.0/clients', { token })).body.items;
    const harbour = clients.find((c: any) => c.code === 'HARBOUR').id;
    const r = await s.call('GET', '/event/manage/identities?size=1', { token, headers: { 'x-tenant-id': String(harbour) } });
    expect(r.status).toBe(200);
    expect(r.body.items[0].clientId).toBe(harbour);
    expect((await s.call('GET', '/event/manage/identities', { token, headers: { 'x-tenant-id': 'abc' } })).status).toBe(403);
  });

  it('replaces the token on client selection: the old one stops working, the new one carries the client', async () => {
    const token = await s.login('admin');
    const clients = (await s.call('GET', '/central/1.0/clients', { token })).body.items;
    const picked = await s.call('PUT', '/idp/1.0/me/client', { token, body: { clientId: clients[1].id } });
    const claims = JSON.parse(Buffer.from(picked.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ clientId: clients[1].id, username: 'admin', roles: ['administrator'] });
    expect(picked.body.privileges.priviledges[0].divisionIds.length).toBeGreaterThan(1);
    expect((await s.call('GET', '/idp/1.0/me', { token })).status).toBe(401);
    expect((await s.call('PUT', '/idp/1.0/me/client', { token: picked.body.token, body: { clientId: 0 } })).status).toBe(400);
    await s.call('PUT', '/idp/1.0/me/client', { token: picked.body.token, body: { clientId: null } });
  });

  it('validates list queries with the contract and refuses bad ones with violations', async () => {
    const token = await s.login('operator');
    const bad = await s.call('GET', '/event/manage/identities?page=-1&size=0&status=gone', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: any) => v.field).sort()).toEqual(['page', 'size', 'status']);
    expect((await s.call('GET', '/event/manage/identities?size=abc', { token })).body.violations[0].field).toBe('size');
    expect((await s.call('GET', '/event/manage/identities?sort=lastName', { token })).body.violations[0].field).toBe('sort');
    const suspended = await s.call('GET', '/event/manage/identities?status=active&size=2', { token });
    expect(suspended.status).toBe(200);
    expect(suspended.body.items.every((i: any) => i.status === 'active')).toBe(true);
  });

  it('counts wrong current passwords on change-password towards the lock too', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await s.call('POST', '/event/manage/identity/change-password', {
        body: { username: 'operator', oldPassword: 'guess', newPassword: 'Whatever-123' },
      });
      expect(r.status).toBe(400);
    }
    const r = await s.call('POST', '/event/manage/identity/change-password', {
      body: { username: 'operator', oldPassword: 'Gatehouse1!', newPassword: 'Whatever-123' },
    });
    expect(r.status).toBe(423);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: 'operator', password: 'Gatehouse1!' } })).status).toBe(423);
  });

  it('audits a profile change with before and after, and keeps the session seen', async () => {
    const token = await s.login('harbour');
    const r = await s.call('PUT', '/idp/1.0/me/profile', { token, body: { avatarColor: 'green' } });
    expect(r.body.avatarColor).toBe('green');
    const audit = await s.call('GET', '/event/manage/audit?size=1&q=profile', { token });
    expect(audit.body.items[0]).toMatchObject({
      actor: 'harbour',
      action: 'update',
      entity: 'profile',
      before: { avatarColor: 'blue' },
      after: { avatarColor: 'green' },
    });
    expect((await s.call('PUT', '/idp/1.0/me/profile', { token, body: { avatarColor: 'pink' } })).status).toBe(400);
    expect(
      await s.count(
        `select * from sessions where user_id = (select id from users where username = 'harbour') and ended_at is null and last_seen_at >= started_at`,
      ),
    ).toBeGreaterThan(0);
  });
});
