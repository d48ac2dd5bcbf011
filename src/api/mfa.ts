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
