// Test data for the session: fake JWTs (header.payload.signature, exp in seconds), a user, grants, settings.
import { DEFAULT_SETTINGS } from '../machines/session';
import type { LoginResponse, MeResponse, Settings, User } from '../contract';

export const NOW = 1_700_000_000_000;
/** How far the server's clock of LOGIN_A is ahead of the browser's. */
export const SERVER_AHEAD_MS = 600_000;

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
export function fakeJwt(expSeconds: number, sub = 'admin', clientId: number | null = 1): string {
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub, clientId, exp: expSeconds })}.c2lnbmF0dXJl`;
}

export const TOKEN_A = fakeJwt(NOW / 1000 + 3600);
export const TOKEN_B = fakeJwt(NOW / 1000 + 7200, 'admin', 2);
export const TOKEN_EXPIRED = fakeJwt(NOW / 1000 - 1);

export const USER: User = {
  id: 1,
  username: 'admin',
  name: 'Ada Admin',
  avatar: null,
  roles: ['administrator'],
  dashboardPages: [],
  multiTenancyEnabled: true,
  clientId: 1,
  timezone: 'Asia/Kuala_Lumpur',
  avatarColor: 'blue',
};
export const USER_B: User = { ...USER, clientId: 2 };
export const GRANTS = [{ privilegeIds: ['0.1', '9.2.0'], divisionIds: [1], firstParentDivisionIds: [1] }];
export const GRANTS_B = [{ privilegeIds: ['0.1'], divisionIds: [7], firstParentDivisionIds: [7] }];

export const LOGIN_A: LoginResponse & { now: number } = {
  token: TOKEN_A,
  user: USER,
  privileges: { priviledges: GRANTS },
  settings: { tagsView: true },
  // the server's clock runs ten minutes ahead of the browser's
  serverTime: NOW + SERVER_AHEAD_MS,
  now: NOW,
};
export const LOGIN_B: LoginResponse & { now: number } = { token: TOKEN_B, user: USER_B, privileges: { priviledges: GRANTS_B }, settings: {}, now: NOW + 1000 };
export const ME: MeResponse = { user: USER, privileges: { priviledges: GRANTS }, settings: { fixedHeader: false } };
export const SAVED_SETTINGS: Settings = { ...DEFAULT_SETTINGS, tagsView: false };
