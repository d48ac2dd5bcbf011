// What holds in each state of the second step of a sign-in (machines/session.mfa.ts), written apart from its
// transitions; the model tests check them at every step of every generated path (model-tests/session.mfa.model.test.ts).
import type { MfaSignInContext } from './session.mfa.types';

type Held = { context: MfaSignInContext };

/** Asking for a factor the account has: a ticket, and nothing of an enrolment. */
export const askingInvariants = {
  'a ticket of the password step': ({ context: c }: Held) => c.ticket !== '',
  'the account has a factor: nothing is being enrolled': ({ context: c }: Held) => !c.enrol && c.enrolment === null && c.recoveryCodes === null,
  'no session before the factor is accepted': ({ context: c }: Held) => c.session === null,
};
/** Enrolling because the client requires it: no session until a factor is enrolled and its recovery codes kept. */
export const enrollingInvariants = {
  'the server asked for an enrolment': ({ context: c }: Held) => c.enrol,
  'no session and no recovery codes before the factor is confirmed': ({ context: c }: Held) => c.session === null && c.recoveryCodes === null,
};
/** The QR code is shown (or its code is being checked): its secret is held. */
export const scanningInvariants = {
  'the secret and QR code to scan are held': ({ context: c }: Held) => c.enrolment !== null && c.enrolment.qr !== '',
};
/** The recovery codes are shown once, with the session they wait to start. */
export const keepingCodesInvariants = {
  'the recovery codes, and the session the enrolment opened': ({ context: c }: Held) =>
    (c.recoveryCodes?.length ?? 0) > 0 && c.session !== null && c.enrolment === null,
};
/** Done: the session is given to the session machine; the codes are no longer held. */
export const doneInvariants = {
  'a session, and no secret or recovery code left in memory': ({ context: c }: Held) => c.session !== null && c.recoveryCodes === null && c.enrolment === null,
};
export const cancelledInvariants = {
  'back to the password: no session, secret or code': ({ context: c }: Held) => c.session === null && c.recoveryCodes === null && c.enrolment === null,
};
