// Operator and service-account sessions (issue 4, Monitor [0.2.4.x], [0.2.5.x]): who is signed in, from where,
// since when; ending one kills its token at once. The list rows, the list query and the end request.
import { assign, boolean, enums, integer, nullable, object, optional, refine, string, type, type Infer } from './structs';
import { ListQuery } from './schemas';
import { boundedList, idInt } from './primitives';

export const SESSION_KINDS = ['operator', 'service'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** open: the token works; ended: ended by its owner (sign-out), by another operator, or replaced; expired: its token timed out unended. */
export const SessionState = enums(['open', 'ended', 'expired']);
export type SessionState = Infer<typeof SessionState>;
/** The list's filter: open (default), ended (ended or expired) or all. */
export const SessionStateFilter = enums(['open', 'ended', 'all']);
export type SessionStateFilter = Infer<typeof SessionStateFilter>;

export const SessionSummary = type({
  id: integer(),
  userId: integer(),
  username: string(),
  name: string(),
  kind: enums(SESSION_KINDS),
  ip: nullable(string()),
  userAgent: nullable(string()),
  startedAt: string(),
  lastSeenAt: string(),
  endedAt: nullable(string()),
  /** Who ended it from the sessions screen; null when its owner signed out (or it is still open). */
  endedBy: nullable(string()),
  state: SessionState,
  /** The session of the request that listed it: the console marks it "This session" and cannot end it here. */
  current: boolean(),
  /** Issue 49: how it signed in (migration 134): password, password+totp, password+recovery, password+passkey, passkey, oidc, saml, api-key. */
  signInMethod: optional(string()),
  /** The identity provider of an OIDC or SAML sign-in. */
  signInProvider: optional(nullable(string())),
});
export type SessionSummary = Infer<typeof SessionSummary>;

export const SessionListQuery = assign(ListQuery, type({ state: optional(SessionStateFilter) }));
export type SessionListQuery = Infer<typeof SessionListQuery>;

/** POST …/end: all or nothing; a session already ended counts as done. */
export const EndSessionsRequest = object({ ids: refine(boundedList(idInt(), 500), 'nonEmpty', (v) => v.length > 0 || 'must name at least one') });
export type EndSessionsRequest = Infer<typeof EndSessionsRequest>;
export const EndSessionsResult = type({ ended: integer(), alreadyEnded: integer() });
export type EndSessionsResult = Infer<typeof EndSessionsResult>;

/** Issue 49: how a session signed in, in words (the console translates them). */
export const SIGN_IN_METHOD_LABELS: Record<string, string> = {
  password: 'Password',
  'password+totp': 'Password + authenticator app',
  'password+recovery': 'Password + recovery code',
  'password+passkey': 'Password + passkey',
  passkey: 'Passkey',
  oidc: 'OpenID Connect',
  saml: 'SAML',
  'api-key': 'API key',
};
export const signInMethodLabel = (method: string | undefined): string => SIGN_IN_METHOD_LABELS[method ?? 'password'] ?? method ?? 'Password';

/** A user agent as a person would say it: "Chrome 126 on Linux"; other clients (integrations) keep their first word. */
export function shortUserAgent(ua: string | null | undefined): string {
  if (!ua || !ua.trim()) return '—';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  const browsers: [RegExp, string][] = [
    [/Edg\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
    [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari/, 'Safari'],
  ];
  for (const [re, name] of browsers) {
    const m = re.exec(ua);
    if (m) return `${name} ${m[1]}${os ? ` on ${os}` : ''}`;
  }
  return ua.trim().split(/\s+/)[0].slice(0, 60);
}
