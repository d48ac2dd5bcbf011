// The session machine's pure helpers (tested): the jwt's expiry, settings checked against the contract, the actors
// that hear a session start, end or change client, and what the machine assigns and stores on a sign-in
// (machines/session.ts).
import { jwtDecode } from 'jwt-decode';
import { Settings, validate, type PrivilegeEntry } from '../contract';
import type { Authenticated, SessionContext, SettingsPatch, StoredSession } from './session.types';

/** The largest delay a browser timer keeps; a longer one fires at once, so the machine re-checks instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Epoch ms of the jwt's exp claim (seconds, §3), or null when it does not decode or has no numeric exp. */
export function tokenExpiresAt(token: string | null | undefined): number | null {
  if (!token) return null;
  try {
    const { exp } = jwtDecode<{ exp?: unknown }>(token);
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** §5: a session is valid only if the jwt decodes and its exp is later than now. */
export function isTokenLive(token: string | null | undefined, now: number): boolean {
  const at = tokenExpiresAt(token);
  return at !== null && at > now;
}

export const DEFAULT_SETTINGS: Settings = Settings.create({});

/** Settings from the server are validated; anything invalid falls back to the defaults rather than half-applying. */
export function normaliseSettings(raw: unknown): Settings {
  const r = validate(raw ?? {}, Settings);
  return r.ok ? r.value : DEFAULT_SETTINGS;
}

/** Actors that hear `session.ended`. Add a systemId here when a new long-lived actor must clean up on sign-out. */
export const SESSION_LISTENERS = ['tabs', 'tour', 'alarms', 'hardwareStatus', 'options', 'socket.events', 'socket.central', 'socket.visitor'] as const;
/** Actors that hear `session.started` (sign-in, or a restored session): the real-time connections. */
export const SESSION_START_LISTENERS = ['socket.events', 'socket.central', 'socket.visitor'] as const;
/** A client switch is a new tenant: these forget the old one and the sockets reconnect with the new token. */
export const CLIENT_SWITCH_LISTENERS = ['alarms', 'hardwareStatus', 'options', ...SESSION_START_LISTENERS] as const;

export const signedOutContext = {
  token: null,
  user: null,
  privileges: [] as PrivilegeEntry[],
  settings: DEFAULT_SETTINGS,
  expiresAt: null,
  observedAt: null,
  settingsBeforeSave: null,
} satisfies Partial<SessionContext>;

export function storedSessionOf(context: SessionContext): StoredSession {
  const user = context.user!;
  return { token: context.token!, privileges: context.privileges, roles: user.roles, username: user.username, clientId: user.clientId, user };
}

/** The server's clock minus the browser's, from an answer carrying the server's time; `previous` when it does not. */
export function clockOffsetOf(serverTime: unknown, now: unknown, previous = 0): number {
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  return finite(serverTime) && finite(now) ? Math.round(serverTime - now) : previous;
}

export function authenticated(out: Authenticated) {
  return {
    token: out.token,
    user: out.user,
    privileges: out.privileges.priviledges,
    settings: normaliseSettings(out.settings),
    expiresAt: tokenExpiresAt(out.token),
    observedAt: out.now,
    clockOffset: clockOffsetOf(out.serverTime, out.now),
    error: null,
  };
}

export function firstViolation(violations: { field: string; message: string }[]): string {
  const v = violations[0];
  return v ? `${v.field} ${v.message}` : 'Invalid input';
}

export function mergedSettings(context: SessionContext, patch: SettingsPatch): ReturnType<typeof validate<Settings>> {
  return validate({ ...context.settings, ...patch }, Settings);
}
