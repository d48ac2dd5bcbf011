import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ lockout: { attempts: 5, minutes: 15 } }); });
afterAll(async () => { await s.close(); });

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

  it('says the same thing for a wrong password and an unknown user', async () => {
    const a = await s.call('POST', '/idp/1.0/login', { body: { username: 'hr', password: 'nope' } });
    const b = await s.call('POST', '/idp/1.0/login', { body: { username: 'nobody', password: 'nope' } });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body.message).toBe(b.body.message);
    expect(a.body.message).not.toBe('JWT-Invalid');
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
      .setProtectedHeader({ alg: 'HS256' }).setSubject(payload.sub).setJti(payload.jti)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 5).sign(new TextEncoder().encode('test-secret-of-enough-length'));
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
    const bad = await s.call('POST', '/event/manage/identity/change-password', { body: { username: 'hr', oldPassword: 'wrong', newPassword: 'Changed-pass1' } });
    expect(bad.status).toBe(400);
    const ok = await s.call('POST', '/event/manage/identity/change-password', { body: { username: 'hr', oldPassword: 'Gatehouse1!', newPassword: 'Changed-pass1' } });
    expect(ok.status).toBe(200);
    expect((await s.call('POST', '/idp/1.0/login', { body: { username: 'hr', password: 'Changed-pass1' } })).status).toBe(200);
  });

  it('stores registration requests and rejects a bad email', async () => {
    expect((await s.call('POST', '/idp/1.0/registration-requests', { body: { username: 'new', name: 'New Person', email: 'nope' } })).body.violations[0].field).toBe('email');
    expect((await s.call('POST', '/idp/1.0/registration-requests', { body: { username: 'new', name: 'New Person', email: 'new@x.example' } })).status).toBe(201);
  });
});
