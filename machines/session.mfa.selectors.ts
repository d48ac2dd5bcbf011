// What the sign-in's second step shows (src/screens/auth/SecondStep.tsx), read from the session and its invoked
// second-step actor (machines/session.mfa.ts).
import type { SessionSnapshot } from './session';
import type { MfaSignInActor, MfaSignInSnapshot } from './session.mfa';

/** The second step's actor while the session waits for it; undefined otherwise. */
export const selectMfaActor = (s: SessionSnapshot): MfaSignInActor | undefined =>
  s.matches({ signedOut: 'secondStep' }) ? ((s.children as Record<string, unknown>).mfa as MfaSignInActor | undefined) : undefined;

export type MfaView = 'asking' | 'choosing' | 'scanning' | 'keepingCodes' | 'waiting';
/** Which of the second step's screens is up. */
export const selectMfaView = (s: MfaSignInSnapshot): MfaView => {
  if (s.matches('asking') || s.matches('verifying') || s.matches('passkey')) return 'asking';
  if (s.matches({ enrolling: 'choosing' }) || s.matches({ enrolling: 'registering' })) return 'choosing';
  if (s.matches({ enrolling: 'scanning' }) || s.matches({ enrolling: 'confirming' })) return 'scanning';
  if (s.matches('keepingCodes')) return 'keepingCodes';
  return 'waiting';
};
export const selectMfaBusy = (s: MfaSignInSnapshot) => s.hasTag('busy');
export const selectMfaError = (s: MfaSignInSnapshot) => s.context.error;
export const selectMfaEnrolment = (s: MfaSignInSnapshot) => s.context.enrolment;
export const selectRecoveryCodes = (s: MfaSignInSnapshot) => s.context.recoveryCodes;
export const selectMfaMethods = (s: MfaSignInSnapshot) => s.context.methods;
