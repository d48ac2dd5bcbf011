// Issue 51: what the views read from the session and its second step (machines/session.selectors.ts,
// session.mfa.selectors.ts), on snapshots resolved by hand in a given state with a given context: each selector's
// answer is written down from what the screen needs, not read back from the machine.
import { describe, expect, it } from 'vitest';
import { sessionMachine, type SessionContext, type SessionSnapshot } from '../machines/session';
import { mfaSignInMachine, type MfaSignInContext } from '../machines/session.mfa';
import {
  selectClientId,
  selectClientZone,
  selectHeldPrivileges,
  selectDisplayZone,
  selectIamProviders,
  selectIsBusy,
  selectIsRestoring,
  selectIsSignedIn,
  selectLoginMode,
  selectOwnIdentity,
  selectSignedOutOnPurpose,
  selectToken,
} from '../machines/session.selectors';
import {
  selectMfaActor,
  selectMfaBusy,
  selectMfaEnrolment,
  selectMfaError,
  selectMfaMethods,
  selectMfaView,
  selectRecoveryCodes,
} from '../machines/session.mfa.selectors';
import { DEFAULT_SETTINGS } from '../machines/session.helpers';
import { NOW, TOKEN_A, USER } from './fixtures';

const CTX: SessionContext = {
  token: TOKEN_A,
  user: { ...USER, identityId: 42, clientTimezone: 'Europe/Paris', timezone: null } as SessionContext['user'],
  privileges: [],
  settings: DEFAULT_SETTINGS,
  error: null,
  notice: null,
  redirect: null,
  returnFor: null,
  endedBy: null,
  loginMode: 'IAM',
  expiresAt: NOW + 3_600_000,
  observedAt: NOW,
  clockOffset: 0,
  settingsBeforeSave: null,
  iamProviders: null,
};
const at = (value: any, c: Partial<SessionContext> = {}) => sessionMachine.resolveState({ value, context: { ...CTX, ...c } }) as SessionSnapshot;

describe('session selectors on hand-made snapshots', () => {
  it('the signed-in operator: own identity, client zone, display zone, token and login mode', () => {
    const s = at({ signedIn: 'active' });
    expect([selectOwnIdentity(s), selectClientZone(s), selectDisplayZone(s, 'Asia/Tokyo'), selectToken(s), selectLoginMode(s)]).toEqual([
      42,
      'Europe/Paris',
      'Europe/Paris',
      TOKEN_A,
      'IAM',
    ]);
    expect([selectIsSignedIn(s), selectIsRestoring(s), selectIsBusy(s), selectSignedOutOnPurpose(s)]).toEqual([true, false, false, false]);
    const noUser = at({ signedOut: 'idle' }, { user: null, token: null });
    expect([selectOwnIdentity(noUser), selectClientZone(noUser), selectDisplayZone(noUser, 'Asia/Tokyo')]).toEqual([null, null, 'Asia/Tokyo']);
    const noIdentity = at({ signedIn: 'active' }, { user: { ...USER } as SessionContext['user'] });
    expect([selectOwnIdentity(noIdentity), selectClientZone(noIdentity)]).toEqual([null, null]);
  });

  it('restoring and busy while the stored session is read; the client and the held privilege ids, the same set for the same grants', () => {
    const r = at({ restoring: 'fetchingMe' });
    expect([selectIsRestoring(r), selectIsBusy(r), selectIsSignedIn(r)]).toEqual([true, true, false]);
    expect(selectIsBusy(at({ signedIn: 'savingSettings' }, { settingsBeforeSave: DEFAULT_SETTINGS }))).toBe(true);
    const grants = [{ privilegeIds: ['0.1', '9.2.0'], divisionIds: [1], firstParentDivisionIds: [1] }];
    const s = at({ signedIn: 'active' }, { privileges: grants });
    expect(selectClientId(s)).toBe(1);
    expect(selectClientId(at({ signedOut: 'idle' }, { user: null }))).toBeNull();
    const held = selectHeldPrivileges(s);
    expect(held.has('0.1') && held.has('9.2.0')).toBe(true);
    expect(selectHeldPrivileges(at({ signedIn: 'refreshingGrants' }, { privileges: grants }))).toBe(held);
    expect(selectHeldPrivileges(at({ signedIn: 'active' }, { privileges: [...grants] }))).not.toBe(held);
  });

  it('signed out on purpose only when signed out by the operator; expiry or signed in is not', () => {
    expect(selectSignedOutOnPurpose(at({ signedOut: 'idle' }, { endedBy: 'signOut' }))).toBe(true);
    expect(selectSignedOutOnPurpose(at({ signedOut: 'idle' }, { endedBy: 'expiry' }))).toBe(false);
    expect(selectSignedOutOnPurpose(at({ signedOut: 'idle' }, { endedBy: null }))).toBe(false);
    expect(selectSignedOutOnPurpose(at({ signedIn: 'active' }, { endedBy: 'signOut' }))).toBe(false);
  });

  it('the identity providers: none until the server said, then its list', () => {
    const none = selectIamProviders(at({ signedOut: 'idle' }));
    expect(none).toEqual([]);
    expect(selectIamProviders(at({ signedOut: 'idle' }, { iamProviders: null }))).toBe(none);
    const list = [{ key: 'corp', name: 'Corp', start: '/s' }];
    expect(selectIamProviders(at({ signedOut: 'idle' }, { iamProviders: list as any }))).toBe(list);
  });

  it("the second step's actor only while the session waits for it", () => {
    const child = { id: 'mfa' };
    const fake = (waiting: boolean) =>
      ({
        matches: (v: unknown) => waiting && JSON.stringify(v) === JSON.stringify({ signedOut: 'secondStep' }),
        children: { mfa: child },
      }) as unknown as SessionSnapshot;
    expect(selectMfaActor(fake(true))).toBe(child);
    expect(selectMfaActor(fake(false))).toBeUndefined();
  });
});

describe('second step selectors on hand-made snapshots', () => {
  const MCTX: MfaSignInContext = {
    ticket: 't',
    enrol: false,
    methods: ['totp', 'passkey'],
    error: 'Wrong code',
    enrolment: { secret: 'S', uri: 'u', qr: 'q' },
    recoveryCodes: ['a-b'],
    session: null,
  };
  const m = (value: any) => mfaSignInMachine.resolveState({ value, context: MCTX });
  it('which screen is up for each state', () => {
    const views = (
      [
        'asking',
        'verifying',
        'passkey',
        { enrolling: 'choosing' },
        { enrolling: 'registering' },
        { enrolling: 'beginning' },
        { enrolling: 'scanning' },
        { enrolling: 'confirming' },
        'keepingCodes',
        'done',
        'cancelled',
      ] as const
    ).map((v) => selectMfaView(m(v)));
    expect(views).toEqual(['asking', 'asking', 'asking', 'choosing', 'choosing', 'waiting', 'scanning', 'scanning', 'keepingCodes', 'waiting', 'waiting']);
  });
  it('busy while the server or the browser is asked; the error, enrolment, codes and methods as held', () => {
    expect(['asking', 'verifying', 'passkey', 'keepingCodes'].map((v) => selectMfaBusy(m(v)))).toEqual([false, true, true, false]);
    const s = m('asking');
    expect([selectMfaError(s), selectMfaEnrolment(s), selectRecoveryCodes(s), selectMfaMethods(s)]).toEqual([
      'Wrong code',
      { secret: 'S', uri: 'u', qr: 'q' },
      ['a-b'],
      ['totp', 'passkey'],
    ]);
  });
});
