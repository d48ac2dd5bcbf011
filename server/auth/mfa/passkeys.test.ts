// Issue 49, passkeys (WebAuthn) on the real server and database, checked by @simplewebauthn/server against a software
// authenticator (./testAuthenticator.ts; chromium's virtual authenticator in e2e/mfa.spec.ts): registration from the
// Profile confirmed again, the second step of a sign-in, and the attacks: a replayed or foreign challenge, another
// operator's credential, a counter that does not move on. Each 4xx with violations, nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MFA_API, auditActionWords } from '../../../contract';
import { DEMO_PASSWORD } from '../../db/seed';
import { startTestServer, type TestServer } from '../../testkit';
import { SoftAuthenticator, passwordless, registerPasskey, signInWithPasskey } from './testAuthenticator';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const userId = async (username: string) => Number((await s.db.query<{ id: number }>('select id from users where username = $1', [username])).rows[0].id);
const keysOf = async (username: string) => s.count('select 1 from webauthn_credentials where user_id = $1', [await userId(username)]);
const password = (username: string) => s.call('POST', API.login, { body: { username, password: DEMO_PASSWORD } });
/** What the database holds of the factors, to show nothing was stored. */
const factorTables = async () =>
  JSON.stringify(
    (await s.db.query('select id, user_id, counter::text, name from webauthn_credentials order by id')).rows.concat(
      (await s.db.query('select user_id, count(*)::text n from mfa_recovery_codes group by user_id order by user_id')).rows,
    ),
  );

describe('passkeys', () => {
  it('registers from a signed-in session confirmed again, then a sign-in asks for it and the session says so', async () => {
    const token = await s.login('operator');
    const unconfirmed = await s.call('POST', MFA_API.passkeyInit, { token, body: {} });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.violations).toEqual([
      { field: 'password', message: 'or a code of the authenticator app is required', code: 'mfa.passwordOrCodeRequired', values: {} },
    ]);
    const wrong = await s.call('POST', MFA_API.passkeyInit, { token, body: { password: 'not-it' } });
    expect(wrong.body.violations).toEqual([{ field: 'password', message: 'is not the current password', code: 'password.isNotCurrent', values: {} }]);

    const { key, done } = await registerPasskey(s, token, DEMO_PASSWORD, 'Desk key');
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10); // the first factor brings them
    expect(await keysOf('operator')).toBe(1);
    const status = await s.call('GET', MFA_API.status, { token });
    expect(status.body.passkeys).toMatchObject([{ id: key.credentialId, name: 'Desk key', lastUsedAt: null }]);
    expect(await s.count(`select 1 from audit_log where action = 'enrol-mfa' and entity_id = $1::text`, [await userId('operator')])).toBe(1);

    const first = await password('operator');
    expect(first.body).toMatchObject({ mfa: 'secondFactor', methods: ['passkey', 'recovery'] });
    const signedIn = await signInWithPasskey(s, 'operator', DEMO_PASSWORD, key);
    expect((await s.call('GET', API.me, { token: signedIn })).status).toBe(200);
    const method = await s.db.query<{ sign_in_method: string }>('select sign_in_method from sessions where user_id = $1 order by id desc limit 1', [
      await userId('operator'),
    ]);
    expect(method.rows[0].sign_in_method).toBe('password+passkey');
    const counter = await s.db.query<{ counter: string }>('select counter::text from webauthn_credentials where id = $1', [key.credentialId]);
    expect(counter.rows[0].counter).toBe(String(key.counter));
  });

  it('refuses a replayed answer, a counter that does not move on, and an answer to another session’s challenge; nothing stored', async () => {
    const token = await s.login('hr');
    const { key } = await registerPasskey(s, token, DEMO_PASSWORD);
    // a sign-in answered, then the same answer again with a new ticket: its challenge was used
    const t1 = await password('hr');
    const o1 = await s.call('POST', MFA_API.assertionInit, { body: { ticket: t1.body.ticket } });
    const answer = key.assert(o1.body);
    expect((await s.call('POST', MFA_API.assertion, { body: { ticket: t1.body.ticket, response: answer } })).status).toBe(200);
    const before = await factorTables();
    const t2 = await password('hr');
    await s.call('POST', MFA_API.assertionInit, { body: { ticket: t2.body.ticket } });
    const replay = await s.call('POST', MFA_API.assertion, { body: { ticket: t2.body.ticket, response: answer } });
    expect(replay.status).toBe(400);
    expect(replay.body.violations).toEqual([
      { field: 'response', message: 'answers no challenge given to this session, or one already used', code: 'passkey.answersNoChallenge', values: {} },
    ]);
    // the same challenge answered twice (the second time with the counter held back): the challenge is gone
    const o2 = await s.call('POST', MFA_API.assertionInit, { body: { ticket: t2.body.ticket } });
    const held = key.assert(o2.body, true);
    const again = await s.call('POST', MFA_API.assertion, { body: { ticket: t2.body.ticket, response: held } });
    expect(again.status).toBe(400);
    expect(again.body.violations).toEqual([
      {
        field: 'response',
        message: 'has a signature counter that did not move on (a copied authenticator, or a replay)',
        code: 'passkey.counterDidNotMove',
        values: {},
      },
    ]);
    expect(await factorTables()).toBe(before);

    // a registration answering a challenge another session of the account was given
    const other = await signInWithPasskey(s, 'hr', DEMO_PASSWORD, key);
    const init = await s.call('POST', MFA_API.passkeyInit, { token: other, body: { password: DEMO_PASSWORD } });
    expect(init.status).toBe(200);
    const stranger = new SoftAuthenticator(s.base);
    const foreign = await s.call('POST', MFA_API.passkeys, { token, body: { response: stranger.register(init.body) } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.violations).toEqual([
      { field: 'response', message: 'answers no challenge given to this session, or one already used', code: 'passkey.answersNoChallenge', values: {} },
    ]);
    // and the one that was given it, once: the second time the challenge is gone
    const own = await s.call('POST', MFA_API.passkeys, { token: other, body: { response: stranger.register(init.body) } });
    expect(own.status).toBe(200);
    const twice = await s.call('POST', MFA_API.passkeys, { token: other, body: { response: new SoftAuthenticator(s.base).register(init.body) } });
    expect(twice.status).toBe(400);
    expect(await keysOf('hr')).toBe(2);
    // an answer made for another origin (a look-alike site)
    const init2 = await s.call('POST', MFA_API.passkeyInit, { token: other, body: { password: DEMO_PASSWORD } });
    const phished = await s.call('POST', MFA_API.passkeys, {
      token: other,
      body: { response: new SoftAuthenticator('http://localhost:1').register(init2.body) },
    });
    expect(phished.status).toBe(400);
    expect(phished.body.violations).toEqual([{ field: 'response', message: 'was not accepted', code: 'passkey.wasNotAccepted', values: {} }]);
    expect(await keysOf('hr')).toBe(2);
  });

  it("refuses another operator's passkey at the second step, counted towards the lockout; nothing stored", async () => {
    const { key: auditorKey } = await registerPasskey(s, await s.login('auditor'), DEMO_PASSWORD);
    await registerPasskey(s, await s.login('reception'), DEMO_PASSWORD);
    const before = await factorTables();
    const t = await password('reception');
    const o = await s.call('POST', MFA_API.assertionInit, { body: { ticket: t.body.ticket } });
    expect(o.body.allowCredentials.map((c: { id: string }) => c.id)).not.toContain(auditorKey.credentialId);
    const r = await s.call('POST', MFA_API.assertion, { body: { ticket: t.body.ticket, response: auditorKey.assert(o.body) } });
    expect(r.status).toBe(400);
    expect(r.body.violations).toEqual([{ field: 'response', message: 'is not a passkey of this account', code: 'passkey.isNotOfAccount', values: {} }]);
    expect(await factorTables()).toBe(before);
    const failed = await s.db.query<{ failed_attempts: number }>('select failed_attempts from users where username = $1', ['reception']);
    expect(failed.rows[0].failed_attempts).toBe(1);
    // and removing it as someone else: no such passkey of theirs
    const removal = await s.call('POST', MFA_API.passkeyRemove.replace(':id', auditorKey.credentialId), {
      token: await s.login('harbour'),
      body: { password: DEMO_PASSWORD },
    });
    expect(removal.status).toBe(404);
    expect(await factorTables()).toBe(before);
  });

  it('removal is confirmed again and refused where the client requires MFA and it is the last factor', async () => {
    const admin = await s.loginTo('admin', 'NORTHWIND');
    const { key } = await registerPasskey(s, admin, DEMO_PASSWORD);
    const settings = (await s.call('GET', API.operatorSettings, { token: admin })).body as Record<string, number>;
    expect((await s.call('PUT', API.operatorSettings, { token: admin, body: { ...settings, mfaRequired: 1 } })).status).toBe(200);
    const path = MFA_API.passkeyRemove.replace(':id', key.credentialId);
    const wrong = await s.call('POST', path, { token: admin, body: { password: 'not-it' } });
    expect(wrong.body.violations).toEqual([{ field: 'password', message: 'is not the current password', code: 'password.isNotCurrent', values: {} }]);
    const last = await s.call('POST', path, { token: admin, body: { password: DEMO_PASSWORD } });
    expect(last.status).toBe(409);
    expect(last.body.violations).toEqual([
      { field: 'passkey', message: 'is the only second factor, and the client requires one', code: 'mfa.isOnlyFactor', values: {} },
    ]);
    expect(await keysOf('admin')).toBe(1);
    expect((await s.call('PUT', API.operatorSettings, { token: admin, body: settings })).status).toBe(200);
    const removed = await s.call('POST', path, { token: admin, body: { password: DEMO_PASSWORD } });
    expect(removed.status).toBe(200);
    expect(await keysOf('admin')).toBe(0);
    expect(await s.count('select 1 from mfa_recovery_codes where user_id = $1', [await userId('admin')])).toBe(0);
    expect(await s.count(`select 1 from audit_log where action = 'remove-mfa' and entity_id = $1::text`, [await userId('admin')])).toBe(1);
  });
  it("a client's administrator changes no factor of a shared (platform) account, whatever factor route they call", async () => {
    // admin is the platform's operator, shared by every client; harbour administers one client
    const platform = await userId('admin');
    const { key } = await registerPasskey(s, await s.loginTo('admin', 'NORTHWIND'), DEMO_PASSWORD, 'Platform key');
    const platformFactors = async () =>
      JSON.stringify([
        (await s.db.query('select id, counter::text, name from webauthn_credentials where user_id = $1 order by id', [platform])).rows,
        (await s.db.query('select code_hash, used_at from mfa_recovery_codes where user_id = $1 order by code_hash', [platform])).rows,
        (await s.db.query('select user_id from mfa_totp where user_id = $1', [platform])).rows,
      ]);
    const before = await platformFactors();
    const harbour = await s.login('harbour');
    const bodies = [{ password: DEMO_PASSWORD }, { password: DEMO_PASSWORD, userId: platform, username: 'admin' }, { ticket: 'x'.repeat(43) }];
    // every factor route (generated from the contract's list): the platform's passkey named where a route takes an id
    for (const path of Object.values(MFA_API)) {
      for (const body of bodies) {
        const r = await s.call('POST', path.replace(':id', key.credentialId), { token: harbour, body });
        if (path === MFA_API.passkeyRemove) expect(r.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(await platformFactors()).toBe(before);
    // the platform account signs in with its password again in the tests below
    await s.db.query('delete from webauthn_credentials where user_id = $1', [platform]);
    await s.db.query('delete from mfa_recovery_codes where user_id = $1', [platform]);
  });
});

describe('a sign-in with a passkey alone', () => {
  const failures = async (username: string) =>
    Number((await s.db.query<{ n: number }>('select failed_attempts n from users where username = $1', [username])).rows[0].n);
  const NOT_HERE = [{ field: 'response', message: 'is not a passkey of an operator who may sign in here', code: 'passkey.isNotForSignIn', values: {} }];

  it('signs in with user verification, records the method and audits; a replay, an unverified answer and an unknown passkey are refused', async () => {
    const { key } = await registerPasskey(s, await s.login('harbour'), DEMO_PASSWORD, 'Harbour key');
    const { options, answer, r } = await passwordless(s, key);
    expect(options).toMatchObject({ userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]); // the authenticator offers the passkeys it keeps
    expect(r.status).toBe(200);
    expect((await s.call('GET', API.me, { token: r.body.token })).body.user.username).toBe('harbour');
    const method = await s.db.query<{ m: string }>('select sign_in_method m from sessions where user_id = $1 order by id desc limit 1', [
      await userId('harbour'),
    ]);
    expect(method.rows[0].m).toBe('passkey');
    expect(await s.count(`select 1 from audit_log where action = 'passkey-sign-in' and entity_id = $1::text`, [await userId('harbour')])).toBe(1);
    // the activity report says each of the account's factor rows in words (in zh-CN too: src/i18n/i18n.test.ts)
    const actions = await s.db.query<{ action: string }>('select distinct action from audit_log where entity_id = $1::text order by action', [
      await userId('harbour'),
    ]);
    expect(actions.rows.map((a) => [a.action, auditActionWords(a.action)])).toEqual([
      ['enrol-mfa', 'Added a second factor'],
      ['passkey-sign-in', 'Signed in with a passkey'],
    ]);

    const before = await factorTables();
    const sessions = await s.count('select 1 from sessions');
    // the same answer again: its challenge was used
    const replay = await s.call('POST', MFA_API.passkeySignIn, { body: { response: answer } });
    expect(replay.status).toBe(400);
    expect(replay.body.violations).toEqual([
      { field: 'response', message: 'answers no challenge given to this session, or one already used', code: 'passkey.answersNoChallenge', values: {} },
    ]);
    // an authenticator that did not verify the person (no PIN, no fingerprint): the passkey alone is not enough
    key.verifies = false;
    const unverified = await passwordless(s, key);
    key.verifies = true;
    expect(unverified.r.status).toBe(400);
    expect(unverified.r.body.violations).toEqual([{ field: 'response', message: 'was not accepted', code: 'passkey.wasNotAccepted', values: {} }]);
    expect(await failures('harbour')).toBe(1);
    // a passkey this installation never registered
    const stranger = new SoftAuthenticator(s.base);
    stranger.register({ challenge: 'x', user: { id: 'Z2F0ZWhvdXNlOjE' } });
    const unknown = await passwordless(s, stranger);
    expect(unknown.r.status).toBe(400);
    expect(unknown.r.body.violations).toEqual(NOT_HERE);
    expect(await factorTables()).toBe(before);
    expect(await s.count('select 1 from sessions')).toBe(sessions);
  });

  it('keeps the rules of a password sign-in: another client’s page, a disabled operator, a locked account', async () => {
    const admin = await s.loginTo('admin', 'NORTHWIND');
    const made = await s.call('POST', API.operators, { token: admin, body: { username: 'passkey-only', name: 'Penny Passkey', password: DEMO_PASSWORD } });
    expect(made.status).toBe(201);
    const { key } = await registerPasskey(s, await s.login('passkey-only'), DEMO_PASSWORD, 'Penny key');
    const hr = await userId('passkey-only');
    const sessions = async () => s.count('select 1 from sessions where user_id = $1', [hr]);
    const n = await sessions();
    // made in Northwind: Harbour's sign-in page (/login?client=HARBOUR) does not sign them in; Northwind's does
    const elsewhere = await passwordless(s, key, 'HARBOUR');
    expect(elsewhere.r.status).toBe(400);
    expect(elsewhere.r.body.violations).toEqual(NOT_HERE);
    expect(await sessions()).toBe(n);
    expect((await passwordless(s, key, 'NORTHWIND')).r.status).toBe(200);
    expect(await sessions()).toBe(n + 1);
    // a disabled operator: the same words as an unknown passkey, no session
    await s.db.query('update users set disabled = true where id = $1', [hr]);
    const disabled = await passwordless(s, key);
    expect(disabled.r.status).toBe(400);
    expect(disabled.r.body.violations).toEqual(NOT_HERE);
    await s.db.query('update users set disabled = false where id = $1', [hr]);
    // locked after too many failed sign-ins (a wrong password counts too): 423, no session
    await s.db.query(`update users set locked_until = now() + interval '10 minutes' where id = $1`, [hr]);
    const locked = await passwordless(s, key);
    expect(locked.r.status).toBe(423);
    await s.db.query('update users set locked_until = null, failed_attempts = 0 where id = $1', [hr]);
    expect(await sessions()).toBe(n + 1);
    expect((await passwordless(s, key)).r.status).toBe(200);
  });
  it('signs in past an expired password (it is not used), and the password stays expired until it is changed', async () => {
    const nw = await s.loginTo('admin', 'NORTHWIND');
    const made = await s.call('POST', API.operators, { token: nw, body: { username: 'expiring', name: 'Ed Expiring', password: DEMO_PASSWORD } });
    expect(made.status).toBe(201);
    const { key } = await registerPasskey(s, await s.login('expiring'), DEMO_PASSWORD, 'Ed key');
    const settings = (await s.call('GET', API.operatorSettings, { token: nw })).body;
    expect((await s.call('PUT', API.operatorSettings, { token: nw, body: { ...settings, passwordExpiryDays: 30 } })).status).toBe(200);
    try {
      const id = await userId('expiring');
      await s.db.query(`update users set password_changed_at = now() - interval '60 days' where id = $1`, [id]);
      // the password sign-in leads to the change, as before
      const byPassword = await password('expiring');
      expect(byPassword.status).toBe(403);
      expect(byPassword.body.violations).toEqual([{ field: 'password', message: 'has expired', code: 'password.hasExpired', values: {} }]);
      // a passkey alone does not use the password: it signs in
      const alone = await passwordless(s, key, 'NORTHWIND');
      expect(alone.r.status).toBe(200);
      // and the expired password confirms nothing in that session: the next use of the password asks for the change
      const factors = await factorTables();
      const confirm = await s.call('POST', MFA_API.passkeyInit, { token: alone.r.body.token, body: { password: DEMO_PASSWORD } });
      expect(confirm.status).toBe(403);
      expect(confirm.body.violations).toEqual([{ field: 'password', message: 'has expired', code: 'password.hasExpired', values: {} }]);
      expect(await factorTables()).toBe(factors);
      // changed (the sign-in page's step for an expired password), the password works again, with its second step
      const changed = await s.call('POST', API.changePassword, {
        body: { username: 'expiring', oldPassword: DEMO_PASSWORD, newPassword: 'Renewed-pass-49' },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const again = await s.call('POST', API.login, { body: { username: 'expiring', password: 'Renewed-pass-49' } });
      expect(again.status).toBe(200);
      expect(again.body.mfa).toBe('secondFactor');
    } finally {
      await s.call('PUT', API.operatorSettings, { token: nw, body: settings });
    }
  });
});
