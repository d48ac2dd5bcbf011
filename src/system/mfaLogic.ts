// Issue 49: the second step of a sign-in (machines/session.mfa.ts) as the browser runs it: the server's calls
// (src/api/mfa.ts) and, for passkeys, the browser's WebAuthn ceremony (@simplewebauthn/browser).
import { fromPromise } from 'xstate';
import { mfaSignInMachine, type EnrolmentAnswer } from '../../machines/session.mfa';
import type { Authenticated } from '../../machines/session.types';
import * as mfa from '../api/mfa';

export function mfaSignInLogic(clock: () => number) {
  const withNow = (a: Omit<Authenticated, 'now'>): Authenticated => ({ ...a, now: clock() });
  return mfaSignInMachine.provide({
    actors: {
      verifyCode: fromPromise(async ({ input }: { input: { ticket: string; code: string } }) => withNow(await mfa.secondFactor(input.ticket, input.code))),
      beginTotp: fromPromise(({ input }: { input: { ticket: string } }) => mfa.beginTotp(input.ticket)),
      confirmTotp: fromPromise(async ({ input }: { input: { ticket: string; code: string } }): Promise<EnrolmentAnswer> => {
        const done = await mfa.confirmTotp(input.code, input.ticket);
        return { recoveryCodes: done.recoveryCodes, ...(done.session ? { session: withNow(done.session) } : {}) };
      }),
    },
  });
}
