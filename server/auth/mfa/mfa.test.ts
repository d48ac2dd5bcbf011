// Issue 49, TOTP and recovery codes on the real server and database: enrolment with a QR code, the second step of a
// sign-in, a code never accepted twice, wrong codes towards the lockout, one-time recovery codes, the client's rule
// that leads an account to enrol before anything else, removal; and bad input: 4xx naming what is wrong, nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MFA_API } from '../../../contract';
import { DEMO_PASSWORD } from '../../db/seed';
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
/** The code of the step after the last one accepted (within the one step of drift the server allows). */
const nextCode = async (username: string, secret: string) => {
  const { rows } = await s.db.query<{ last_step: string }>('select last_step::text from mfa_totp where user_id = $1', [await userId(username)]);
  return codeOf(secret, Number(rows[0].last_step) + 1);
};
const password = (username: string) => s.call('POST', API.login, { body: { username, password: DEMO_PASSWORD } });
const meStatus = async (token: string) => (await s.call('GET', API.me, { token })).status;
const setRule = async (code: string, rule: number, extra: Record<string, number> = {}, token?: string) => {
  const admin = token ?? (await s.loginTo('admin', code));
  const now = (await s.call('GET', API.operatorSettings, { token: admin })).body as Record<string, number>;
  const r = await s.call('PUT', API.operatorSettings, { token: admin, body: { ...now, mfaRequired: rule, ...extra } });
  expect(r.status).toBe(200);
};

/** Enrols TOTP for a signed-in account (the enrolment's code is of the step before now); its secret and recovery codes. */
async function enrol(username: string): Promise<{ secret: string; codes: string[]; token: string }> {
  const token = await s.login(username);
  const init = await s.call('POST', MFA_API.totpInit, { token, body: { password: DEMO_PASSWORD } });
  expect(init.status).toBe(200);
  const secret = init.body.secret as string;
  const done = await sendPreviousStepCode(secret, (code) => s.call('POST', MFA_API.totp, { token, body: { code } }));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { secret, codes: done.body.recoveryCodes, token };
}

describe('TOTP', () => {
  it('enrols with a QR code, then a sign-in needs the password and a code, and a code is never accepted twice', async () => {
    const token = await s.login('operator');
    const other = await s.login('operator');
    const init = await s.call('POST', MFA_API.totpInit, { token, body: { password: DEMO_PASSWORD } });
    expect(init.status).toBe(200);
    expect(init.body.uri).toMatch(/^otpauth:\/\/totp\/Gatehouse:operator\?/);
    expect(init.body.qr).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // nothing is kept as a factor until a code confirms it
    expect(await s.count('select 1 from mfa_totp where user_id = $1', [await userId('operator')])).toBe(0);
    expect((await password('operator')).body.token).toBeTruthy();

    const wrong = await s.call('POST', MFA_API.totp, { token, body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.violations).toEqual([{ field: 'code', message: 'is wrong', code: 'mfa.codeIsWrong', values: {} }]);
    expect(await s.count('select 1 from mfa_totp where user_id = $1', [await userId('operator')])).toBe(0);

    const done = await sendPreviousStepCode(init.body.secret, (code) => s.call('POST', MFA_API.totp, { token, body: { code } }));
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    // recovery codes are kept hashed only
    const kept = await s.db.query<{ code_hash: string }>('select code_hash from mfa_recovery_codes where user_id = $1', [await userId('operator')]);
    expect(kept.rows).toHaveLength(10);
    for (const r of kept.rows) expect(done.body.recoveryCodes).not.toContain(r.code_hash);
    expect(kept.rows[0].code_hash).toMatch(/^scrypt\$/);
    // a credential change: the other session ended, the one that enrolled goes on; audited
    expect(await meStatus(other)).toBe(401);
    expect(await meStatus(token)).toBe(200);
    expect(await s.count(`select 1 from audit_log where action = 'enrol-mfa' and entity_id = $1::text`, [await userId('operator')])).toBe(1);

    const first = await password('operator');
    expect(first.status).toBe(200);
    expect(first.body.token).toBeUndefined();
    expect(first.body).toMatchObject({ mfa: 'secondFactor', methods: ['totp', 'recovery'] });
    // the ticket is no session
    expect(await meStatus(first.body.ticket)).toBe(401);
    const code = await nextCode('operator', init.body.secret);
    const signedIn = await s.call('POST', MFA_API.secondFactor, { body: { ticket: first.body.ticket, code } });
    expect(signedIn.status).toBe(200);
    expect(await meStatus(signedIn.body.token)).toBe(200);
    const method = await s.db.query<{ sign_in_method: string }>(`select sign_in_method from sessions where user_id = $1 order by id desc limit 1`, [
      await userId('operator'),
    ]);
    expect(method.rows[0].sign_in_method).toBe('password+totp');
    // the same ticket again, and the same code with a new ticket: refused
    expect((await s.call('POST', MFA_API.secondFactor, { body: { ticket: first.body.ticket, code } })).status).toBe(400);
    const again = await password('operator');
    const replay = await s.call('POST', MFA_API.secondFactor, { body: { ticket: again.body.ticket, code } });
    expect(replay.status).toBe(401);
    expect(replay.body.violations).toEqual([{ field: 'code', message: 'is wrong or was already used', code: 'mfa.codeIsWrongOrUsed', values: {} }]);
  });

  it('wrong codes count towards the lockout, and the password alone does not start the count again', async () => {
    await setRule('NORTHWIND', 0, { lockoutAttempts: 3, lockoutMinutes: 15 });
    const { secret } = await enrol('auditor');
    for (let i = 0; i < 2; i++) {
      const t = await password('auditor');
      expect((await s.call('POST', MFA_API.secondFactor, { body: { ticket: t.body.ticket, code: '999999' } })).status).toBe(401);
    }
    const t = await password('auditor');
    expect((await s.call('POST', MFA_API.secondFactor, { body: { ticket: t.body.ticket, code: 'aaaaa-bbbbb' } })).status).toBe(401);
    // locked: even the right code is refused, and so is the password
    const locked = await s.call('POST', MFA_API.secondFactor, { body: { ticket: t.body.ticket, code: await nextCode('auditor', secret) } });
    expect(locked.status).toBe(423);
    expect((await password('auditor')).status).toBe(423);
    expect(await s.count(`select 1 from audit_log where action = 'lock' and entity_id = $1::text`, [await userId('auditor')])).toBe(1);
    await setRule('NORTHWIND', 0, { lockoutAttempts: 5 });
  });

  it('a recovery code signs in once, and says so in the session and the audit trail', async () => {
    const { codes } = await enrol('hr');
    const t = await password('hr');
    const r = await s.call('POST', MFA_API.secondFactor, { body: { ticket: t.body.ticket, code: ` ${codes[3].toUpperCase()} ` } });
    expect(r.status).toBe(200);
    const m = await s.db.query<{ sign_in_method: string }>(`select sign_in_method from sessions where user_id = $1 order by id desc limit 1`, [
      await userId('hr'),
    ]);
    expect(m.rows[0].sign_in_method).toBe('password+recovery');
    const t2 = await password('hr');
    expect((await s.call('POST', MFA_API.secondFactor, { body: { ticket: t2.body.ticket, code: codes[3] } })).status).toBe(401);
    expect(await s.count(`select 1 from audit_log where action = 'use-recovery-code' and entity_id = $1::text`, [await userId('hr')])).toBe(1);
  });

  it('an enrolment begun in one session cannot be finished from another, nor with a forged or spent ticket: nothing is stored', async () => {
    const a = await s.login('reception');
    const b = await s.login('reception');
    const init = await s.call('POST', MFA_API.totpInit, { token: a, body: { password: DEMO_PASSWORD } });
    const code = await codeOf(init.body.secret, stepNow());
    const replayed = await s.call('POST', MFA_API.totp, { token: b, body: { code } });
    expect(replayed.status).toBe(400);
    expect(replayed.body.violations[0].field).toBe('code');
    for (const ticket of ['forged-ticket', 'x'.repeat(100)]) {
      const r = await s.call('POST', MFA_API.totp, { body: { ticket, code } });
      expect(r.status).toBe(400);
      expect(r.body.violations[0].field).toBe('ticket');
    }
    for (const body of [{}, { code: 12 }, { code: '1'.repeat(21) }, { code: '123456', ticket: 5 }, { code: '123456', extra: 1 }]) {
      const r = await s.call('POST', MFA_API.totp, { token: a, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.violations.length).toBeGreaterThan(0);
    }
    expect((await s.call('POST', MFA_API.totp, { body: { code } })).status).toBe(401);
    expect(await s.count('select 1 from mfa_totp where user_id = $1', [await userId('reception')])).toBe(0);
    expect(await meStatus(b)).toBe(200);
  });

  it('an account the client requires to use MFA is led to enrol before anything else; administrators only, or everyone', async () => {
    const nw = await s.loginTo('admin', 'NORTHWIND');
    await setRule('NORTHWIND', 1, {}, nw);
    expect((await password('reception')).body.token, 'a receptionist is no administrator').toBeTruthy();
    await setRule('NORTHWIND', 2, {}, nw);
    expect((await password('reception')).body).toMatchObject({ mfa: 'enrol' });
    await setRule('NORTHWIND', 0, {}, nw);
    await setRule('HARBOUR', 1);
    const admin = await password('harbour');
    expect(admin.body).toMatchObject({ mfa: 'enrol', methods: ['totp', 'passkey'] });
    // the enrolment ticket opens nothing else
    expect(await meStatus(admin.body.ticket)).toBe(401);
    expect((await s.call('POST', MFA_API.secondFactor, { body: { ticket: admin.body.ticket, code: '123456' } })).status).toBe(400);
    const init = await s.call('POST', MFA_API.totpInit, { body: { ticket: admin.body.ticket } });
    expect(init.status).toBe(200);
    const done = await sendPreviousStepCode(init.body.secret, (code) => s.call('POST', MFA_API.totp, { body: { ticket: admin.body.ticket, code } }));
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(await meStatus(done.body.session.token)).toBe(200);
    // the ticket is spent
    expect((await s.call('POST', MFA_API.totpInit, { body: { ticket: admin.body.ticket } })).status).toBe(400);
    // every operator: Harbour's other operators too (the installation's administrator, whose client it is, among them)
    await setRule('HARBOUR', 2, {}, done.body.session.token);
    expect((await password('admin')).body).toMatchObject({ mfa: 'enrol' });
    await setRule('HARBOUR', 0, {}, done.body.session.token);
    expect((await password('admin')).body.token).toBeTruthy();
  });

  it('removing the authenticator app asks for the password, ends the other sessions, and is audited', async () => {
    const admin = await s.loginTo('admin', 'NORTHWIND');
    const made = await s.call('POST', API.operators, { token: admin, body: { username: 'mfa-remove', name: 'Remo Ve', password: DEMO_PASSWORD } });
    expect(made.status).toBe(201);
    const { token, codes } = await enrol('mfa-remove');
    const other = await s.call('POST', MFA_API.secondFactor, { body: { ticket: (await password('mfa-remove')).body.ticket, code: codes[0] } });
    expect(other.status).toBe(200);
    const wrong = await s.call('POST', MFA_API.totpRemove, { token, body: { password: 'not-it' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.violations).toEqual([{ field: 'password', message: 'is not the current password', code: 'password.isNotCurrent', values: {} }]);
    const r = await s.call('POST', MFA_API.totpRemove, { token, body: { password: DEMO_PASSWORD } });
    expect(r.status).toBe(200);
    expect(await meStatus(other.body.token)).toBe(401);
    expect(await meStatus(token)).toBe(200);
    expect(await s.count('select 1 from mfa_recovery_codes where user_id = $1', [await userId('mfa-remove')])).toBe(0);
    expect((await password('mfa-remove')).body.token).toBeTruthy();
    expect(await s.count(`select 1 from audit_log where action = 'remove-mfa' and entity_id = $1::text`, [await userId('mfa-remove')])).toBe(1);
  });

  it('new recovery codes need a current code or the password, are shown once, and the old ones stop working', async () => {
    const admin = await s.loginTo('admin', 'NORTHWIND');
    const made = await s.call('POST', API.operators, { token: admin, body: { username: 'mfa-codes', name: 'Cody Codes', password: DEMO_PASSWORD } });
    expect(made.status).toBe(201);
    const plain = await s.login('mfa-codes');
    const noFactor = await s.call('POST', MFA_API.recoveryCodes, { token: plain, body: { password: DEMO_PASSWORD } });
    expect(noFactor.status).toBe(409);
    expect(noFactor.body.violations[0].field).toBe('mfa');

    const { token, secret, codes } = await enrol('mfa-codes');
    const other = await s.call('POST', MFA_API.secondFactor, { body: { ticket: (await password('mfa-codes')).body.ticket, code: codes[0] } });
    expect(other.status).toBe(200);
    const id = await userId('mfa-codes');
    const failed = async () => Number((await s.db.query<{ n: number }>('select failed_attempts n from users where id = $1', [id])).rows[0].n);

    // bad input and wrong confirmations: 4xx naming the field, nothing changed
    const refusals: [unknown, number, string][] = [
      [{}, 400, 'password'],
      [{ password: 'not-it' }, 400, 'password'],
      [{ code: '000000' }, 400, 'code'],
      [{ code: 5 }, 400, 'code'],
      [{ password: DEMO_PASSWORD, extra: 1 }, 400, 'extra'],
    ];
    for (const [body, status, field] of refusals) {
      const r = await s.call('POST', MFA_API.recoveryCodes, { token, body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.violations[0].field, JSON.stringify(body)).toBe(field);
    }
    expect(await failed(), 'the wrong code counts towards the lockout').toBe(1);
    expect((await s.call('POST', MFA_API.recoveryCodes, { body: { password: DEMO_PASSWORD } })).status).toBe(401);
    expect(await s.count(`select 1 from audit_log where action = 'new-recovery-codes' and entity_id = $1::text`, [id])).toBe(0);
    expect(await meStatus(other.body.token)).toBe(200);

    const code = await nextCode('mfa-codes', secret);
    const fresh = await s.call('POST', MFA_API.recoveryCodes, { token, body: { code } });
    expect(fresh.status).toBe(200);
    const newCodes = fresh.body.recoveryCodes as string[];
    expect(newCodes).toHaveLength(10);
    expect(newCodes.filter((c) => codes.includes(c))).toEqual([]);
    // a credential change: the other session ended, the asking one goes on; audited with how it was confirmed
    expect(await meStatus(other.body.token)).toBe(401);
    expect(await meStatus(token)).toBe(200);
    const row = await s.db.query<{ after: unknown }>(`select after from audit_log where action = 'new-recovery-codes' and entity_id = $1::text`, [id]);
    expect(row.rows).toHaveLength(1);
    expect(JSON.stringify(row.rows[0].after)).toContain('totp');
    // the same code is never accepted twice
    const replay = await s.call('POST', MFA_API.recoveryCodes, { token, body: { code } });
    expect(replay.status).toBe(400);
    expect(replay.body.violations).toEqual([{ field: 'code', message: 'is wrong or was already used', code: 'mfa.codeIsWrongOrUsed', values: {} }]);

    // the old codes stop working, the new ones sign in
    const old = await s.call('POST', MFA_API.secondFactor, { body: { ticket: (await password('mfa-codes')).body.ticket, code: codes[1] } });
    expect(old.status).toBe(401);
    const signedIn = await s.call('POST', MFA_API.secondFactor, { body: { ticket: (await password('mfa-codes')).body.ticket, code: newCodes[0] } });
    expect(signedIn.status).toBe(200);

    // the password confirms too
    const byPassword = await s.call('POST', MFA_API.recoveryCodes, { token: signedIn.body.token, body: { password: DEMO_PASSWORD } });
    expect(byPassword.status).toBe(200);
    expect(byPassword.body.recoveryCodes).toHaveLength(10);
    expect(await s.count('select 1 from mfa_recovery_codes where user_id = $1 and used_at is null', [id])).toBe(10);
  });
});
