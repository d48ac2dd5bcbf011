// Issue 49: the console's calls of multi-factor sign-in (contract/mfa.ts), each answer checked with the contract.
import type { Struct } from 'superstruct';
import { EnrolmentDone, LoginResponse, MFA_API, MfaStatus, Ok, RecoveryCodes, TotpEnrolment } from '../../contract';
import { api } from './client';
import { checked } from './endpoints';

const post = async <T>(path: string, body: unknown, schema: Struct<T, any>): Promise<T> => checked((await api.post(path, body)).data, schema, path);

export const secondFactor = (ticket: string, code: string) => post(MFA_API.secondFactor, { ticket, code }, LoginResponse);
export const beginTotp = (ticket?: string) => post(MFA_API.totpInit, ticket ? { ticket } : {}, TotpEnrolment);
export const confirmTotp = (code: string, ticket?: string) => post(MFA_API.totp, ticket ? { ticket, code } : { code }, EnrolmentDone);
export const removeTotp = (password: string) => post(MFA_API.totpRemove, { password }, Ok);
export const mfaStatus = async () => checked((await api.get(MFA_API.status)).data, MfaStatus, MFA_API.status);
/** New recovery codes, confirmed with a current code of the authenticator app or the password. */
export const newRecoveryCodes = (confirm: { code: string } | { password: string }) => post(MFA_API.recoveryCodes, confirm, RecoveryCodes);

/** How a change of your own factors is confirmed again: a current code of the authenticator app, or the password. */
export type Confirmation = { code: string } | { password: string };
export const beginTotpConfirmed = (confirm: Confirmation) => post(MFA_API.totpInit, confirm, TotpEnrolment);
export const removeTotpConfirmed = (confirm: Confirmation) => post(MFA_API.totpRemove, confirm, Ok);
/** Options for navigator.credentials.create (@simplewebauthn/browser's startRegistration). */
export const passkeyOptions = async (body: { ticket: string } | Confirmation) => (await api.post(MFA_API.passkeyInit, body)).data;
export const registerPasskey = (response: unknown, ticket?: string, name?: string) =>
  post(MFA_API.passkeys, { response, ...(ticket ? { ticket } : {}), ...(name ? { name } : {}) }, EnrolmentDone);
export const removePasskey = (id: string, confirm: Confirmation) => post(MFA_API.passkeyRemove.replace(':id', encodeURIComponent(id)), confirm, Ok);
/** Options for navigator.credentials.get (@simplewebauthn/browser's startAuthentication), for a sign-in's ticket. */
export const assertionOptions = async (ticket: string) => (await api.post(MFA_API.assertionInit, { ticket })).data;
export const signInWithPasskey = (ticket: string, response: unknown) => post(MFA_API.assertion, { ticket, response }, LoginResponse);
/** Issue 49: a sign-in with a passkey alone (on the sign-in page of `client`, a code, when it names one). */
export const passkeySignInOptions = async (client?: string) => (await api.post(MFA_API.passkeySignInInit, client ? { client } : {})).data;
export const signInWithPasskeyAlone = (response: unknown, client?: string) =>
  post(MFA_API.passkeySignIn, { response, ...(client ? { client } : {}) }, LoginResponse);
