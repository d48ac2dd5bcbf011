// Issue 49: multi-factor sign-in (docs/MFA.md). The second step of a sign-in, enrolment and removal of the factors,
// and what the console is told about them. The server validates every request with these schemas; the console
// validates every answer with them.
import { array, boolean, enums, literal, nullable, number, object, optional, string, type, union, type Infer } from './structs';
import { requiredText } from './primitives';
import { LoginResponse } from './schemas';

export const MFA_API = {
  /** POST {ticket, code}: the second step of a sign-in with a TOTP or a recovery code → LoginResponse */
  secondFactor: '/idp/1.0/login/second-factor',
  /** POST {ticket}: a passkey sign-in's options (the second step after a password) */
  assertionInit: '/idp/1.0/login/assertion/init',
  /** POST {ticket?, response}: a passkey sign-in → LoginResponse */
  assertion: '/idp/1.0/login/assertion',
  /** GET: the signed-in operator's factors */
  status: '/idp/1.0/mfa',
  /** POST {ticket?}: a new TOTP secret to show as a QR code (not kept until confirmed) */
  totpInit: '/idp/1.0/mfa/totp/init',
  /** POST {ticket?, code}: confirms the TOTP enrolment → recovery codes (and a session when it came with a ticket) */
  totp: '/idp/1.0/mfa/totp',
  /** POST {password} or {code}: removes the TOTP (and the recovery codes when no factor is left) */
  totpRemove: '/idp/1.0/mfa/totp/remove',
  /** POST {password} or {code}: new recovery codes (the old ones stop working) → RecoveryCodes */
  recoveryCodes: '/idp/1.0/mfa/recovery-codes',
  /** POST {ticket} or {password}/{code} when signed in: a passkey registration's options */
  passkeyInit: '/idp/1.0/mfa/passkeys/init',
  /** POST {ticket?, name, response}: registers the passkey */
  passkeys: '/idp/1.0/mfa/passkeys',
  /** POST {password} or {code}: removes one passkey (`:id` its credential id) */
  passkeyRemove: '/idp/1.0/mfa/passkeys/:id/remove',
  /** POST {client?}: a sign-in with a passkey alone (no password first): the options for navigator.credentials.get */
  passkeySignInInit: '/idp/1.0/login/passkey/init',
  /** POST {client?, response}: a sign-in with a passkey alone → LoginResponse */
  passkeySignIn: '/idp/1.0/login/passkey',
} as const;

/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a sign-in's ticket between the password and its second step (or the enrolment it must make) lives. */
export const MFA_TICKET_MINUTES = 10;
/** operator_settings.mfaRequired: who of the client's operators must use a second factor. */
export const MFA_REQUIRED = { nobody: 0, administrators: 1, everyone: 2 } as const;

export const MfaMethod = enums(['totp', 'recovery', 'passkey']);
export type MfaMethod = Infer<typeof MfaMethod>;

/**
 * The sign-in answer when a password is not enough: `secondFactor` (the account has a factor: ask for it) or `enrol`
 * (the client's rule says this account must use MFA and it has none: enrol before anything else).
 */
export const MfaChallenge = type({
  mfa: enums(['secondFactor', 'enrol']),
  ticket: string(),
  methods: array(MfaMethod),
});
export type MfaChallenge = Infer<typeof MfaChallenge>;
export const SignInAnswer = union([LoginResponse, MfaChallenge]);
export type SignInAnswer = Infer<typeof SignInAnswer>;
export const isMfaChallenge = (a: unknown): a is MfaChallenge => !!a && typeof a === 'object' && 'mfa' in a && 'ticket' in a;

const ticket = requiredText(100);
/** A six-digit TOTP code, or a recovery code (xxxxx-xxxxx). */
export const SecondFactorRequest = object({ ticket, code: requiredText(20, { min: 6 }) });
/**
 * Beginning an enrolment: with the ticket of a sign-in that must enrol, or signed in (from the Profile), confirmed
 * again with a current code of the authenticator app or the password.
 */
export const TicketRequest = object({ ticket: optional(ticket), password: optional(requiredText(200)), code: optional(requiredText(20, { min: 6 })) });
export const TotpConfirmRequest = object({ ticket: optional(ticket), code: requiredText(20, { min: 6 }) });
/** A change of your own factors is confirmed again: a current code of the authenticator app, or the password. */
export const MfaConfirmRequest = object({ password: optional(requiredText(200)), code: optional(requiredText(20, { min: 6 })) });
export const PasswordConfirmRequest = MfaConfirmRequest;

/** New recovery codes are confirmed again by the person: a current code of their authenticator app, or their password. */
export const NewRecoveryCodesRequest = object({ password: optional(requiredText(200)), code: optional(requiredText(20, { min: 6 })) });
export type NewRecoveryCodesRequest = Infer<typeof NewRecoveryCodesRequest>;
/** New recovery codes, shown once. */
export const RecoveryCodes = type({ recoveryCodes: array(string()) });
export type RecoveryCodes = Infer<typeof RecoveryCodes>;

export const TotpEnrolment = type({ secret: string(), uri: string(), qr: string() });
export type TotpEnrolment = Infer<typeof TotpEnrolment>;
/** A confirmed enrolment: the recovery codes, shown once; with a ticket, the session it opens. */
export const EnrolmentDone = type({ recoveryCodes: array(string()), session: optional(LoginResponse) });
export type EnrolmentDone = Infer<typeof EnrolmentDone>;

export const MfaStatus = type({
  totp: boolean(),
  recoveryCodesLeft: number(),
  passkeys: array(type({ id: string(), name: string(), createdAt: string(), lastUsedAt: nullable(string()) })),
  /** The client's rule says this account must use MFA. */
  required: boolean(),
});
export type MfaStatus = Infer<typeof MfaStatus>;

/** The options of a WebAuthn ceremony (@simplewebauthn/server's JSON for navigator.credentials.create / get): its challenge, and the rest as the browser part takes it. */
export const WebAuthnOptions = type({ challenge: string(), timeout: optional(number()) });
export const PasskeyRegisterRequest = object({ ticket: optional(ticket), name: optional(requiredText(100)), response: object() });
export const PasskeyAssertionRequest = object({ ticket: optional(ticket), response: object() });
export const Ok = type({ ok: literal(true) });
/** A sign-in with a passkey alone, on the sign-in page of a client (`/login?client=CODE`) or of the installation. */
export const PasskeySignInStart = object({ client: optional(requiredText(100)) });
export const PasskeySignInRequest = object({ client: optional(requiredText(100)), response: object() });

/** The Profile's factor changes (the console's form of them, issue 49). */
export type MfaChange = 'recovery-codes' | 'add-totp' | 'confirm-totp' | 'remove-totp' | 'add-passkey' | 'remove-passkey';
/** The form's values: what to change, and how it is confirmed (`code` or `password`). */
export interface MfaChangeValues {
  change: MfaChange;
  code?: string;
  password?: string;
  /** The passkey to remove; the name of a new one. */
  id?: string;
  name?: string;
}
