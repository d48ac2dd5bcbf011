// Issue 51: the invariants of the session machines (machines/session.invariants.ts, session.mfa.invariants.ts,
// sessionEnd.invariants.ts) are the model tests' oracle, checked there on correct machines only: an invariant weakened
// to `true` would pass them all. Each one here must accept a state worked out by hand that keeps it and reject, one
// field at a time, each state that breaks it.
import { describe, expect, it } from 'vitest';
import * as session from '../machines/session.invariants';
import * as mfa from '../machines/session.mfa.invariants';
import { invariants as end } from '../machines/sessionEnd.invariants';
import type { SessionContext } from '../machines/session.types';
import type { MfaSignInContext } from '../machines/session.mfa.types';
import { DEFAULT_SETTINGS } from '../machines/session.helpers';
import { GRANTS, LOGIN_A, NOW, TOKEN_A, TOKEN_EXPIRED, USER } from './fixtures';

type Inv<S> = Record<string, (s: S) => boolean>;
/** [invariants, its name, the state, holds?] */
type Case<S> = [Inv<S>, string, S, boolean];

function check<S>(cases: Array<Case<S>>) {
  const wrong = cases.filter(([inv, name, s, holds]) => {
    expect(inv[name], name).toBeTypeOf('function');
    return inv[name](s) !== holds;
  });
  expect(wrong.map(([, name, s, holds]) => `${name} should ${holds ? 'hold' : 'fail'} on ${JSON.stringify(s)}`)).toEqual([]);
}

const EXP_A = NOW + 3_600_000;
/** A signed-in context: TOKEN_A (exp NOW + 3600 s), read at NOW on a server clock 600 s ahead. */
const IN: SessionContext = {
  token: TOKEN_A,
  user: USER,
  privileges: GRANTS,
  settings: DEFAULT_SETTINGS,
  error: null,
  notice: null,
  redirect: null,
  returnFor: null,
  endedBy: null,
  loginMode: 'STANDARD',
  expiresAt: EXP_A,
  observedAt: NOW,
  clockOffset: 600_000,
  settingsBeforeSave: null,
  iamProviders: null,
};
const OUT: SessionContext = { ...IN, token: null, user: null, privileges: [], expiresAt: null, observedAt: null };
const s = (c: Partial<SessionContext>, base = IN) => ({ context: { ...base, ...c } });

describe('the session invariants reject the states that break them', () => {
  it('signed in: a token, its user and expiry; the token live on the last reading moved by the clock offset', () => {
    const WHO = 'a token and the user it was issued to';
    const LIVE = "the token is live on the session's last clock reading (the server's time)";
    const inv = session.signedInInvariants as Inv<{ context: SessionContext }>;
    check([
      [inv, WHO, s({}), true],
      [inv, WHO, s({ token: null }), false],
      [inv, WHO, s({ user: null }), false],
      [inv, WHO, s({ expiresAt: null }), false],
      [inv, LIVE, s({}), true],
      [inv, LIVE, s({ observedAt: null }), false],
      [inv, LIVE, s({ token: TOKEN_EXPIRED }), false],
      // NOW + 3000 s of the browser is exp on the server's clock (600 s ahead): dead; a second before: live
      [inv, LIVE, s({ observedAt: EXP_A - 600_000 }), false],
      [inv, LIVE, s({ observedAt: EXP_A - 600_001 }), true],
      [inv, LIVE, s({ observedAt: EXP_A - 1, clockOffset: 0 }), true],
    ]);
  });

  it('signed out: nothing of a session, and no settings waiting for a save', () => {
    const NONE = 'no token, user, grants or expiry';
    const SAVE = 'no settings wait for a save';
    const inv = session.signedOutInvariants as Inv<{ context: SessionContext }>;
    check([
      [inv, NONE, s({}, OUT), true],
      [inv, NONE, s({ token: TOKEN_A }, OUT), false],
      [inv, NONE, s({ user: USER }, OUT), false],
      [inv, NONE, s({ privileges: GRANTS }, OUT), false],
      [inv, NONE, s({ expiresAt: EXP_A }, OUT), false],
      [inv, NONE, s({ observedAt: NOW }, OUT), false],
      [inv, SAVE, s({}, OUT), true],
      [inv, SAVE, s({ settingsBeforeSave: DEFAULT_SETTINGS }, OUT), false],
    ]);
  });

  it('reading the user, saving settings, on the way to a provider, at the second step', () => {
    const fetching = session.fetchingMeInvariants as Inv<{ context: SessionContext }>;
    const saving = session.savingSettingsInvariants as Inv<{ context: SessionContext }>;
    const notSaving = session.notSavingSettingsInvariants as Inv<{ context: SessionContext }>;
    const iam = session.iamRoundTripInvariants as Inv<{ context: SessionContext }>;
    const second = session.secondStepInvariants as Inv<{ context: SessionContext }>;
    const F = 'a token to read the user of, and its expiry';
    const KEPT = 'the settings before the change are kept until the save ends';
    const NO = 'no settings wait for a save';
    const QUIET = 'no error or notice of an earlier try is shown';
    const NOSESSION = 'no session is held until the second step gives one';
    const NOERR = 'the password step left no error shown';
    check([
      [fetching, F, s({ user: null }), true],
      [fetching, F, s({ token: null }), false],
      [fetching, F, s({ expiresAt: null }), false],
      [saving, KEPT, s({ settingsBeforeSave: DEFAULT_SETTINGS }), true],
      [saving, KEPT, s({}), false],
      [notSaving, NO, s({}), true],
      [notSaving, NO, s({ settingsBeforeSave: DEFAULT_SETTINGS }), false],
      [iam, QUIET, s({}, OUT), true],
      [iam, QUIET, s({ error: 'x' }, OUT), false],
      [iam, QUIET, s({ notice: 'x' }, OUT), false],
      [second, NOSESSION, s({}, OUT), true],
      [second, NOSESSION, s({ token: TOKEN_A }, OUT), false],
      [second, NOSESSION, s({ user: USER }, OUT), false],
      [second, NOERR, s({}, OUT), true],
      [second, NOERR, s({ error: 'x' }, OUT), false],
    ]);
  });
});

describe('the second step invariants reject the states that break them', () => {
  const ENROLMENT = { secret: 'S', uri: 'otpauth://x', qr: '<svg></svg>' };
  const ASK: MfaSignInContext = { ticket: 't', enrol: false, methods: ['totp'], error: null, enrolment: null, recoveryCodes: null, session: null };
  const m = (c: Partial<MfaSignInContext>) => ({ context: { ...ASK, ...c } });
  type I = Inv<{ context: MfaSignInContext }>;
  it('asking, enrolling, scanning, keeping the codes, done and cancelled', () => {
    const a = mfa.askingInvariants as I;
    const e = mfa.enrollingInvariants as I;
    const sc = mfa.scanningInvariants as I;
    const k = mfa.keepingCodesInvariants as I;
    const d = mfa.doneInvariants as I;
    const c = mfa.cancelledInvariants as I;
    const TICKET = 'a ticket of the password step';
    const NOENROL = 'the account has a factor: nothing is being enrolled';
    const NOSESS = 'no session before the factor is accepted';
    const ASKED = 'the server asked for an enrolment';
    const BEFORE = 'no session and no recovery codes before the factor is confirmed';
    const QR = 'the secret and QR code to scan are held';
    const CODES = 'the recovery codes, and the session the enrolment opened';
    const DONE = 'a session, and no secret or recovery code left in memory';
    const BACK = 'back to the password: no session, secret or code';
    check([
      [a, TICKET, m({}), true],
      [a, TICKET, m({ ticket: '' }), false],
      [a, NOENROL, m({}), true],
      [a, NOENROL, m({ enrol: true }), false],
      [a, NOENROL, m({ enrolment: ENROLMENT }), false],
      [a, NOENROL, m({ recoveryCodes: ['c'] }), false],
      [a, NOSESS, m({}), true],
      [a, NOSESS, m({ session: LOGIN_A }), false],
      [e, ASKED, m({ enrol: true }), true],
      [e, ASKED, m({}), false],
      [e, BEFORE, m({ enrol: true }), true],
      [e, BEFORE, m({ enrol: true, session: LOGIN_A }), false],
      [e, BEFORE, m({ enrol: true, recoveryCodes: ['c'] }), false],
      [sc, QR, m({ enrolment: ENROLMENT }), true],
      [sc, QR, m({}), false],
      [sc, QR, m({ enrolment: { ...ENROLMENT, qr: '' } }), false],
      [k, CODES, m({ recoveryCodes: ['c'], session: LOGIN_A }), true],
      [k, CODES, m({ recoveryCodes: [], session: LOGIN_A }), false],
      [k, CODES, m({ session: LOGIN_A }), false],
      [k, CODES, m({ recoveryCodes: ['c'] }), false],
      [k, CODES, m({ recoveryCodes: ['c'], session: LOGIN_A, enrolment: ENROLMENT }), false],
      [d, DONE, m({ session: LOGIN_A }), true],
      [d, DONE, m({}), false],
      [d, DONE, m({ session: LOGIN_A, recoveryCodes: ['c'] }), false],
      [d, DONE, m({ session: LOGIN_A, enrolment: ENROLMENT }), false],
      [c, BACK, m({}), true],
      [c, BACK, m({ session: LOGIN_A }), false],
      [c, BACK, m({ recoveryCodes: ['c'] }), false],
      [c, BACK, m({ enrolment: ENROLMENT }), false],
    ]);
  });
});

describe('the session-ending invariants reject the states that break them', () => {
  type Held = { context: { ids: number[]; error: string | null; result: unknown }; children: Record<string, unknown>; hasTag: (t: string) => boolean };
  const h = (c: Partial<Held['context']>, opts: { ending?: boolean; busy?: boolean } = {}): Held => ({
    context: { ids: [], error: null, result: null, ...c },
    children: opts.ending ? { endSessions: {} } : {},
    hasTag: (t) => t === 'busy' && !!opts.busy,
  });
  type I = Inv<Held>;
  it('the ids held, busy while ending, and each state', () => {
    const IDS = 'the ids held are positive whole numbers, each once';
    const BUSY = 'busy exactly while the end is asked';
    const IDLE = 'nothing waits for a confirmation';
    const CONF = 'the sessions to end wait for the confirmation; no error from before';
    const END = 'the confirmed sessions are being ended';
    const FAIL = 'why it failed is said; nothing waits';
    check<Held>([
      [end.machine as I, IDS, h({ ids: [1, 2] }), true],
      [end.machine as I, IDS, h({ ids: [0] }), false],
      [end.machine as I, IDS, h({ ids: [1.5] }), false],
      [end.machine as I, IDS, h({ ids: [2, 2] }), false],
      [end.machine as I, IDS, h({ ids: [3, 0] }), false],
      [end.machine as I, BUSY, h({}), true],
      [end.machine as I, BUSY, h({}, { ending: true, busy: true }), true],
      [end.machine as I, BUSY, h({}, { busy: true }), false],
      [end.machine as I, BUSY, h({}, { ending: true }), false],
      [end.idle as I, IDLE, h({}), true],
      [end.idle as I, IDLE, h({ ids: [1] }), false],
      [end.confirming as I, CONF, h({ ids: [1] }), true],
      [end.confirming as I, CONF, h({}), false],
      [end.confirming as I, CONF, h({ ids: [1], error: 'x' }), false],
      [end.ending as I, END, h({ ids: [1] }, { ending: true }), true],
      [end.ending as I, END, h({ ids: [1] }), false],
      [end.ending as I, END, h({}, { ending: true }), false],
      [end.ending as I, END, h({ ids: [1], error: 'x' }, { ending: true }), false],
      [end.failed as I, FAIL, h({ error: 'Not yours' }), true],
      [end.failed as I, FAIL, h({}), false],
      [end.failed as I, FAIL, h({ error: '  ' }), false],
      [end.failed as I, FAIL, h({ error: 'x', ids: [1] }), false],
    ]);
  });
});
