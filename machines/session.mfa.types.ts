// The types of the second step of a sign-in (machines/session.mfa.ts): its context, events, input and what its
// injected actors give.
import type { Sentence } from '../contract/messages';
import type { EnrolmentDone, MfaChallenge, MfaMethod, TotpEnrolment } from '../contract';
import type { Authenticated } from './session.types';

export interface MfaSignInContext {
  ticket: string;
  /** The server asked for an enrolment (the client requires MFA and the account has none). */
  enrol: boolean;
  methods: MfaMethod[];
  error: string | Sentence | null;
  /** The secret and QR code being enrolled (enrol only). */
  enrolment: TotpEnrolment | null;
  /** Shown once, after the enrolment; null otherwise. */
  recoveryCodes: string[] | null;
  /** The session the enrolment opened, given to the session machine once the codes are put away. */
  session: Authenticated | null;
}
export type MfaSignInEvent =
  | { type: 'mfa.submitCode'; code: string }
  | { type: 'mfa.usePasskey' }
  | { type: 'mfa.enrolApp' }
  | { type: 'mfa.enrolPasskey' }
  | { type: 'mfa.codesKept' }
  | { type: 'mfa.cancel' };
/** The server's answer to a password when a second step is needed, with the clock's reading. */
export type MfaAsked = MfaChallenge & { now: number };
export type EnrolmentAnswer = EnrolmentDone & { session?: Authenticated };
