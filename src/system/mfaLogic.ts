// Issue 49: the second step of a sign-in (machines/session.mfa.ts) as the browser runs it: the server's calls
// (src/api/mfa.ts) and, for passkeys, the browser's WebAuthn ceremony (@simplewebauthn/browser): the server's options
// go to navigator.credentials.create / get, and what the authenticator answers goes back to the server to check.
import { fromPromise } from 'xstate';
import { mfaSignInMachine, type EnrolmentAnswer } from '../../machines/session.mfa';
import type { Authenticated } from '../../machines/session.types';
import * as mfa from '../api/mfa';

/** The WebAuthn ceremony's library, fetched when a passkey is first used (issue 48: not with the console's first load). */
const webauthn = () => import('@simplewebauthn/browser');

/** Registers a passkey: the server's options (for a sign-in's ticket, or confirmed again), the browser's ceremony, the server's check. */
export async function makePasskey(body: { ticket: string } | mfa.Confirmation, name?: string) {
  const optionsJSON = await mfa.passkeyOptions(body);
  const response = await (await webauthn()).startRegistration({ optionsJSON });
  return mfa.registerPasskey(response, 'ticket' in body ? body.ticket : undefined, name);
}

/**
 * Issue 49: a sign-in with a passkey alone: the server's options (no credentials listed: the authenticator offers the
 * passkeys it keeps for this site, and verifies the person), the browser's ceremony, the server's session. A ceremony the
 * person cancelled (or the browser refused) is said in words the console translates.
 */
export const passkeySignInLogic = (clock: () => number) =>
  fromPromise<Authenticated>(async () => {
    const client = new URLSearchParams(window.location.search).get('client') ?? undefined;
    const optionsJSON = await mfa.passkeySignInOptions(client);
    let response;
    try {
      response = await (await webauthn()).startAuthentication({ optionsJSON });
    } catch {
      throw new Error('No passkey was given: try again, or sign in with your password');
    }
    return { ...(await mfa.signInWithPasskeyAlone(response, client)), now: clock() };
  });

export function mfaSignInLogic(clock: () => number) {
  const withNow = (a: Omit<Authenticated, 'now'>): Authenticated => ({ ...a, now: clock() });
  const enrolled = (done: { recoveryCodes: string[]; session?: Omit<Authenticated, 'now'> }): EnrolmentAnswer => ({
    recoveryCodes: done.recoveryCodes,
    ...(done.session ? { session: withNow(done.session) } : {}),
  });
  return mfaSignInMachine.provide({
    actors: {
      verifyCode: fromPromise(async ({ input }: { input: { ticket: string; code: string } }) => withNow(await mfa.secondFactor(input.ticket, input.code))),
      signInWithPasskey: fromPromise(async ({ input }: { input: { ticket: string } }) => {
        const optionsJSON = await mfa.assertionOptions(input.ticket);
        const response = await (await webauthn()).startAuthentication({ optionsJSON });
        return withNow(await mfa.signInWithPasskey(input.ticket, response));
      }),
      beginTotp: fromPromise(({ input }: { input: { ticket: string } }) => mfa.beginTotp(input.ticket)),
      confirmTotp: fromPromise(async ({ input }: { input: { ticket: string; code: string } }) => enrolled(await mfa.confirmTotp(input.code, input.ticket))),
      registerPasskey: fromPromise(async ({ input }: { input: { ticket: string } }) => enrolled(await makePasskey({ ticket: input.ticket }))),
    },
  });
}
