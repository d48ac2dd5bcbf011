// Issue 45: sessions follow credentials (OWASP ASVS V3.3). Generated from Fastify's route table: every route that
// declares `credential` (it changes a sign-in credential) is driven for real, with the account signed in in two other
// browsers, and afterwards those sessions are refused at once while the one that made the change (where it is the
// account's own) goes on (REST, downloads and STOMP CONNECT share one check: openSession in server/app.ts). A route whose path speaks of a credential and does not declare it fails the test, and so
// does a declared route nobody wrote a recipe for. The tokens themselves: the subject must be the session's user, and
// a token without exp, or longer-lived than any this server gives, is refused.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { API, MFA_API } from '../../contract';
import { DEMO_PASSWORD } from '../db/seed';
import { hashPassword } from './passwords';
import { registerPasskey, signInWithPasskey, type SoftAuthenticator } from './mfa/testAuthenticator';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

interface RouteRow {
  method: string;
  url: string;
  config?: { credential?: true };
}
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const routes = () => (s.app.routes as RouteRow[]).filter((r) => MUTATING.has(r.method) && r.url !== '/*');
const userId = async (username: string) => Number((await s.db.query<{ id: number }>('select id from users where username = $1', [username])).rows[0].id);
const meStatus = async (token: string) => (await s.call('GET', API.me, { token })).status;

/** How to change the credential of a route: the account it changes, and the token of the session that asked (if it is the account's own). */
interface Recipe {
  username: string;
  change: (asking: string) => Promise<{ status: number; keeps: string | null }>;
  /** What the account holds before (a second factor to remove), and how it signs in then. */
  before?: () => Promise<void>;
  login?: () => Promise<string>;
}
// issue 49: an account with a second factor signs in with its password and one of these recovery codes (one each time)
const RECOVERY = Array.from({ length: 6 }, (_, i) => `rcode-test${i}`);
const signInWithRecovery = async (username: string) => {
  const first = await s.call('POST', API.login, { body: { username, password: DEMO_PASSWORD } });
  const code = RECOVERY.shift()!;
  const r = await s.call('POST', MFA_API.secondFactor, { body: { ticket: first.body.ticket, code } });
  return r.body.token as string;
};
const newOperator = async (username: string) => {
  const admin = await s.loginTo('admin', 'NORTHWIND');
  const made = await s.call('POST', API.operators, { token: admin, body: { username, name: 'Kay Keys', password: DEMO_PASSWORD } });
  expect(made.status).toBe(201);
};
let removable: SoftAuthenticator;
const RECIPES: Record<string, Recipe> = {
  [`POST ${MFA_API.passkeys}`]: {
    username: 'mfa-keys',
    before: () => newOperator('mfa-keys'),
    change: async (asking) => {
      const { done } = await registerPasskey(s, asking, DEMO_PASSWORD);
      return { status: done.status, keeps: asking };
    },
  },
  [`POST ${MFA_API.passkeyRemove}`]: {
    username: 'mfa-keys2',
    before: async () => {
      await newOperator('mfa-keys2');
      removable = (await registerPasskey(s, await s.login('mfa-keys2'), DEMO_PASSWORD)).key;
    },
    login: () => signInWithPasskey(s, 'mfa-keys2', DEMO_PASSWORD, removable),
    change: async (asking) => {
      const r = await s.call('POST', MFA_API.passkeyRemove.replace(':id', removable.credentialId), { token: asking, body: { password: DEMO_PASSWORD } });
      return { status: r.status, keeps: asking };
    },
  },
  [`POST ${API.changePassword}`]: {
    username: 'hr',
    change: async (asking) => {
      const r = await s.call('POST', API.changePassword, {
        token: asking,
        body: { username: 'hr', oldPassword: DEMO_PASSWORD, newPassword: 'Changed-by-hr-1' },
      });
      return { status: r.status, keeps: asking };
    },
  },
  [`POST ${API.resetFinish}`]: {
    username: 'reception',
    change: async () => {
      await s.call('POST', API.resetInit, { body: { username: 'reception' } });
      const link = s.app.resetTokens!.filter((t) => t.username === 'reception').at(-1)!;
      const r = await s.call('POST', API.resetFinish, { body: { token: link.token, newPassword: 'Reset-by-link-1' } });
      return { status: r.status, keeps: null }; // whoever holds the link is no session of the account
    },
  },
  [`POST ${API.operators}/:id/reset-password`]: {
    username: 'operator',
    change: async () => {
      const admin = await s.loginTo('admin', 'NORTHWIND');
      const r = await s.call('POST', `${API.operators}/${await userId('operator')}/reset-password`, { token: admin, body: { password: 'Reset-by-admin-1' } });
      expect(await meStatus(admin), "the administrator's own session goes on").toBe(200);
      return { status: r.status, keeps: null };
    },
  },
  [`POST ${MFA_API.totp}`]: {
    username: 'auditor',
    change: async (asking) => {
      const init = await s.call('POST', MFA_API.totpInit, { token: asking, body: { password: DEMO_PASSWORD } });
      const code = await generate({ secret: init.body.secret, epoch: Math.floor(Date.now() / 1000) });
      const r = await s.call('POST', MFA_API.totp, { token: asking, body: { code } });
      return { status: r.status, keeps: asking };
    },
  },
  [`POST ${MFA_API.totpRemove}`]: {
    username: 'harbour',
    before: async () => {
      const id = await userId('harbour');
      await s.db.query(`insert into mfa_totp (user_id, secret) values ($1, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')`, [id]);
      for (const c of RECOVERY) await s.db.query('insert into mfa_recovery_codes (user_id, code_hash) values ($1, $2)', [id, await hashPassword(c)]);
    },
    login: () => signInWithRecovery('harbour'),
    change: async (asking) => {
      const r = await s.call('POST', MFA_API.totpRemove, { token: asking, body: { password: DEMO_PASSWORD } });
      return { status: r.status, keeps: asking };
    },
  },
  [`POST ${MFA_API.recoveryCodes}`]: {
    username: 'mfa-codes',
    before: async () => {
      const admin = await s.loginTo('admin', 'NORTHWIND');
      const made = await s.call('POST', API.operators, { token: admin, body: { username: 'mfa-codes', name: 'Cody Codes', password: DEMO_PASSWORD } });
      expect(made.status).toBe(201);
      const id = await userId('mfa-codes');
      await s.db.query(`insert into mfa_totp (user_id, secret) values ($1, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')`, [id]);
      for (const c of RECOVERY) await s.db.query('insert into mfa_recovery_codes (user_id, code_hash) values ($1, $2)', [id, await hashPassword(c)]);
    },
    login: () => signInWithRecovery('mfa-codes'),
    change: async (asking) => {
      const r = await s.call('POST', MFA_API.recoveryCodes, { token: asking, body: { password: DEMO_PASSWORD } });
      return { status: r.status, keeps: asking };
    },
  },
};

describe('sessions follow credentials', () => {
  it('every route that changes a credential declares it, and each has a recipe below', () => {
    const declared = routes().filter((r) => r.config?.credential);
    expect(declared.length).toBeGreaterThanOrEqual(3);
    // a sign-in with a credential uses it and changes none (its sign counter is the authenticator's, not a credential)
    const SIGNS_IN = new Set([`POST ${MFA_API.passkeySignIn}`]);
    const speaking = routes().filter(
      (r) => /password|passkey|webauthn|totp|mfa|sign-in-factor/i.test(r.url) && !/\/init$/.test(r.url) && !SIGNS_IN.has(`${r.method} ${r.url}`),
    );
    expect(speaking.filter((r) => !r.config?.credential).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(declared.map((r) => `${r.method} ${r.url}`).sort()).toEqual(Object.keys(RECIPES).sort());
  });

  const declaredNow = Object.keys(RECIPES);
  for (const key of declaredNow) {
    it(`${key}: the account's other sessions end at once,`, async () => {
      const { username, change, before, login = () => s.login(username) } = RECIPES[key];
      await before?.();
      const asking = await login();
      const other = await login();
      const third = await login();
      for (const t of [asking, other, third]) expect(await meStatus(t)).toBe(200);
      const { status, keeps } = await change(asking);
      expect(status).toBe(200);
      expect(await meStatus(other)).toBe(401);
      expect(await meStatus(third)).toBe(401);
      expect(await meStatus(asking)).toBe(keeps === asking ? 200 : 401);
      const ended = await s.db.query<{ ended_by: string }>(
        `select ended_by from sessions where user_id = $1 and ended_at is not null and ended_by = 'credential change'`,
        [await userId(username)],
      );
      expect(ended.rows.length).toBeGreaterThanOrEqual(2);
    });
  }

  it('a change of the password hash by any other path ends the sessions too (the database does it)', async () => {
    const t = await s.login('auditor');
    await s.db.query(`update users set password_hash = password_hash || 'x' where username = 'auditor'`);
    expect(await meStatus(t)).toBe(401);
  });
});

describe('session tokens', () => {
  const key = new TextEncoder().encode('test-secret-of-enough-length'); // the test server's JWT_SECRET (server/testkit.ts)
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
  const forge = (c: Record<string, unknown>, build: (j: SignJWT) => SignJWT) => build(new SignJWT(c).setProtectedHeader({ alg: 'HS256' })).sign(key);

  it("a token whose subject is not its session's user is refused", async () => {
    const real = claimsOf(await s.login('harbour'));
    const adminId = await userId('admin');
    const now = Math.floor(Date.now() / 1000);
    const asAdmin = await forge({ username: 'admin', clientId: real.clientId, roles: [] }, (j) =>
      j
        .setSubject(String(adminId))
        .setJti(String(real.jti))
        .setIssuedAt(now)
        .setExpirationTime(now + 600),
    );
    expect(await meStatus(asAdmin)).toBe(401);
    // the same forged claims with the session's own user pass: what is refused above is the subject alone
    const same = await forge({ username: real.username, clientId: real.clientId, roles: [] }, (j) =>
      j
        .setSubject(String(real.sub))
        .setJti(String(real.jti))
        .setIssuedAt(now)
        .setExpirationTime(now + 600),
    );
    expect(await meStatus(same)).toBe(200);
  });

  it('a token without exp, or living longer than any session may, is refused', async () => {
    const real = claimsOf(await s.login('harbour'));
    const now = Math.floor(Date.now() / 1000);
    const base = { username: real.username, clientId: real.clientId, roles: [] };
    const noExp = await forge(base, (j) => j.setSubject(String(real.sub)).setJti(String(real.jti)).setIssuedAt(now));
    const noIat = await forge(base, (j) =>
      j
        .setSubject(String(real.sub))
        .setJti(String(real.jti))
        .setExpirationTime(now + 600),
    );
    const forever = await forge(base, (j) =>
      j
        .setSubject(String(real.sub))
        .setJti(String(real.jti))
        .setIssuedAt(now)
        .setExpirationTime(now + 31 * 24 * 3600),
    );
    for (const t of [noExp, noIat, forever]) expect(await meStatus(t)).toBe(401);
  });
});
