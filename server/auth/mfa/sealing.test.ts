// Issue 49: TOTP secrets are sealed at rest (migration 166, ./sealing.ts). The database never holds the plain secret,
// of a confirmed enrolment or of one begun; sign-in with a code still works; a sealed secret moved to another account
// does not open; and a secret kept plain before migration 166 is sealed when the server is ready (or when first read),
// without ending the account's sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecret } from 'otplib';
import { API, MFA_API } from '../../../contract';
import { buildServer } from '../../app';
import { DEMO_PASSWORD } from '../../db/seed';
import { hashPassword } from '../passwords';
import { startTestServer, type TestServer } from '../../testkit';
import { codeOf, sendPreviousStepCode, stepNow } from './testkit';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const userId = async (username: string) => Number((await s.db.query<{ id: number }>('select id from users where username = $1', [username])).rows[0].id);
const rowText = async (table: string, id: number) => JSON.stringify((await s.db.query(`select * from ${table} where user_id = $1`, [id])).rows);
const kept = async (id: number) =>
  (
    await s.db.query<{ secret: string | null; sealed: string | null; last_step: string }>(
      'select secret, sealed, last_step::text from mfa_totp where user_id = $1',
      [id],
    )
  ).rows[0];
const meStatus = async (token: string) => (await s.call('GET', API.me, { token })).status;

/** Signs in with the password and the code of the step after the last one accepted; the answer. */
async function signInWithCode(username: string, secret: string) {
  const first = await s.call('POST', API.login, { body: { username, password: DEMO_PASSWORD } });
  expect(first.body).toMatchObject({ mfa: 'secondFactor' });
  const code = await codeOf(secret, Math.max(Number((await kept(await userId(username))).last_step) + 1, stepNow()));
  return s.call('POST', MFA_API.secondFactor, { body: { ticket: first.body.ticket, code } });
}

let operatorSecret = '';
describe('TOTP secrets at rest', () => {
  it('the database never holds the plain secret, begun or confirmed, and a sign-in with a code still works', async () => {
    const id = await userId('operator');
    const token = await s.login('operator');
    const init = await s.call('POST', MFA_API.totpInit, { token, body: { password: DEMO_PASSWORD } });
    expect(init.status).toBe(200);
    const secret = init.body.secret as string;
    operatorSecret = secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const pending = await rowText('mfa_totp_pending', id);
    expect(pending).toContain('v1.');
    expect(pending).not.toContain(secret);

    const done = await sendPreviousStepCode(secret, (code) => s.call('POST', MFA_API.totp, { token, body: { code } }));
    expect(done.status).toBe(200);
    const row = await kept(id);
    expect(row.secret).toBeNull();
    expect(row.sealed).toMatch(/^v1\./);
    expect(await rowText('mfa_totp', id)).not.toContain(secret);

    const signedIn = await signInWithCode('operator', secret);
    expect(signedIn.status).toBe(200);
    expect(await meStatus(signedIn.body.token)).toBe(200);
  });

  it("a sealed secret copied to another account's row does not open there", async () => {
    const from = await kept(await userId('operator'));
    const to = await userId('auditor');
    await s.db.query('insert into mfa_totp (user_id, sealed, last_step) values ($1, $2, $3)', [to, from.sealed, from.last_step]);
    const init = await s.call('POST', API.login, { body: { username: 'auditor', password: DEMO_PASSWORD } });
    // the operator's secret does not make codes for the auditor
    const code = await codeOf(operatorSecret, Math.max(Number(from.last_step) + 1, stepNow()));
    const r = await s.call('POST', MFA_API.secondFactor, { body: { ticket: init.body.ticket, code } });
    expect(r.status).toBe(401);
    await s.db.query('delete from mfa_totp where user_id = $1', [to]);
  });

  it('a secret kept plain before migration 166 is sealed when the server is ready, and the sessions go on', async () => {
    const id = await userId('hr');
    const secret = generateSecret({ length: 20 });
    await s.db.query('insert into mfa_totp (user_id, secret) values ($1, $2)', [id, secret]);
    // a session of the account while its secret is plain: signed in with a recovery code (the secret is not read)
    await s.db.query('insert into mfa_recovery_codes (user_id, code_hash) values ($1, $2)', [id, await hashPassword('seal1-test1')]);
    const first = await s.call('POST', API.login, { body: { username: 'hr', password: DEMO_PASSWORD } });
    const session = await s.call('POST', MFA_API.secondFactor, { body: { ticket: first.body.ticket, code: 'seal1-test1' } });
    expect(session.status).toBe(200);
    expect((await kept(id)).secret).toBe(secret);

    const app = await buildServer({ db: s.db, jwtSecret: 'test-secret-of-enough-length', staticDir: null });
    try {
      await app.ready();
    } finally {
      await app.close();
    }
    const row = await kept(id);
    expect(row.secret).toBeNull();
    expect(row.sealed).toMatch(/^v1\./);
    expect(await rowText('mfa_totp', id)).not.toContain(secret);
    expect(await meStatus(session.body.token), 'sealing the same secret is no factor change').toBe(200);
    expect((await signInWithCode('hr', secret)).status).toBe(200);
  });

  it('a plain secret read before then (a restored backup) is sealed at its first use', async () => {
    const id = await userId('reception');
    const secret = generateSecret({ length: 20 });
    await s.db.query('insert into mfa_totp (user_id, secret) values ($1, $2)', [id, secret]);
    expect((await signInWithCode('reception', secret)).status).toBe(200);
    const row = await kept(id);
    expect(row.secret).toBeNull();
    expect(await rowText('mfa_totp', id)).not.toContain(secret);
    expect((await signInWithCode('reception', secret)).status).toBe(200);
  });
});
