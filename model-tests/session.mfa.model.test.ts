// Issue 49: model-based tests of the second step of a sign-in (machines/session.mfa.ts), for an account that has a
// factor and for one the client requires to enrol: every step of the paths to every state and over every transition is
// checked against the states' invariants (machines/session.mfa.invariants.ts) and the rules below, written from the
// issue (a session only after a factor; the recovery codes shown once before it; back to the password forgets it all),
// and each path is run on the real actor.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { mfaSignInMachine, type MfaSignInSnapshot } from '../machines/session.mfa';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked, type StepProperties } from './harness';
import { LOGIN_A } from './fixtures';

const ENROLMENT = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Gatehouse:admin?secret=X', qr: '<svg></svg>' };
const CODES = ['abcde-fghij', 'kmnpq-rstuv'];
const events = [
  { type: 'mfa.submitCode', code: '123456' },
  { type: 'mfa.submitCode', code: ' 12 ' },
  { type: 'mfa.usePasskey' },
  { type: 'mfa.enrolApp' },
  { type: 'mfa.codesKept' },
  { type: 'mfa.cancel' },
  { type: 'xstate.done.actor.verifyCode', output: LOGIN_A },
  { type: 'xstate.error.actor.verifyCode', error: new Error('The code is wrong, or was already used') },
  { type: 'xstate.done.actor.signInWithPasskey', output: LOGIN_A },
  { type: 'xstate.error.actor.signInWithPasskey', error: new Error('The passkey was not accepted') },
  { type: 'xstate.done.actor.beginTotp', output: ENROLMENT },
  { type: 'xstate.error.actor.beginTotp', error: new Error('This sign-in has expired or was already used: sign in again') },
  { type: 'xstate.done.actor.confirmTotp', output: { recoveryCodes: CODES, session: LOGIN_A } },
  { type: 'xstate.error.actor.confirmTotp', error: new Error('The code is wrong: check the clock of the device') },
] as any[];

const serialize = (s: MfaSignInSnapshot) =>
  JSON.stringify([s.value, s.context.error !== null, s.context.enrolment !== null, s.context.recoveryCodes !== null, s.context.session !== null]);

const properties: StepProperties<MfaSignInSnapshot> = {
  "a session comes only from the server's acceptance of a factor (a code, a passkey, or a confirmed enrolment)": ({ before, after, event }) =>
    after.context.session !== null && before.context.session === null
      ? ['xstate.done.actor.verifyCode', 'xstate.done.actor.signInWithPasskey', 'xstate.done.actor.confirmTotp'].includes(event.type)
      : undefined,
  'after an enrolment the session is given only once the recovery codes were shown and kept': ({ before, after }) =>
    after.status === 'done' && after.output !== null && before.context.enrol ? before.matches('keepingCodes') : undefined,
  'a code is sent to the server only when six characters or more were typed': ({ before, after, event }) =>
    event.type === 'mfa.submitCode' && !before.hasTag('busy') && after.hasTag('busy') ? event.code.trim().length >= 6 : undefined,
  'a refused factor says why, and asks again': ({ after, event }) =>
    /^xstate\.error\.actor\./.test(event.type) ? after.context.error !== null && !after.hasTag('busy') : undefined,
  'going back to the password ends the step with no session': ({ after, event }) =>
    event.type === 'mfa.cancel' ? after.status === 'done' && after.output === null : undefined,
};

for (const [name, input] of [
  ['an account with a factor', { mfa: 'secondFactor', ticket: 't-verify', methods: ['totp', 'passkey', 'recovery'] }],
  ['an account that must enrol', { mfa: 'enrol', ticket: 't-enrol', methods: ['totp', 'passkey'] }],
] as const) {
  describe(`second step model: ${name}`, () => {
    // a final state ends the actor: nothing more can happen to it
    const possible = (s: MfaSignInSnapshot) => (s.status === 'done' ? [] : onlyInvoked(events)(s));
    const model = new TestModel(mfaSignInMachine as any, { events: possible as any, serializeState: serialize as any, limit: 5000, input } as any);
    const paths = onDemand(() => edgePaths(model, mfaSignInMachine, serialize, [], input));
    // an account with a factor enrols nothing: the rule of the recovery codes has no step to apply to there
    const props = Object.fromEntries(Object.entries(properties).filter(([k]) => input.mfa === 'enrol' || !k.startsWith('after an enrolment')));
    it('holds its invariants and the rules at every step of every generated path', () => {
      expectOracle(paths(), props, input.mfa === 'enrol' ? 4 : 3);
    });
    it(`on the real actor along every generated path`, async () => {
      for (const p of paths()) await drive(model, mfaSignInMachine, input, events, p);
    });
    if (input.mfa === 'enrol')
      it('shows the QR code, then the recovery codes once, then gives the session and forgets the codes', () => {
        const done = paths().find((p) => p.path.state.status === 'done' && p.path.state.output !== null);
        expect(done?.path.steps.map((s) => s.event.type)).toEqual([
          'xstate.init',
          'mfa.enrolApp',
          'xstate.done.actor.beginTotp',
          'mfa.submitCode',
          'xstate.done.actor.confirmTotp',
          'mfa.codesKept',
        ]);
        expect(done?.path.state.output).toEqual(LOGIN_A);
        expect(done?.path.state.context.recoveryCodes).toBeNull();
      });
  });
}
