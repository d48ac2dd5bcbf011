// Business constants of SPEC §9 (and the few of §4/§7 that are numbers). Import them; never retype them.
export const APP_VERSION = '1.22.2';
export const BUILD_MODE = 'ON_CLOUD' as const;
export type LoginMode = 'STANDARD' | 'IAM';
export const LOGIN_MODE: LoginMode = 'STANDARD';

export const PAGE_SIZE = 100; // request auto-load page size
/** A catalogue list counts at most this many matching rows; beyond, its total is a lower bound ("of 10,000+", issue 11). */
export const LIST_COUNT_CAP = 10_000;
/** A q search counts at most this many matches first ("of 1,000+"); a broader one is paged by walking the asked
 *  order, not by reading 10,000 matches to count them (issue 13). Its last page still tells the exact total. */
export const SEARCH_COUNT_CAP = 1_000;
export const MAX_TABS = 10; // visited views
export const MAX_CACHED_VIEWS = 10; // kept-alive views
export const MOBILE_BREAKPOINT_PX = 992;
export const TABLE_MAX_HEIGHT_VH = 61;
export const SIDEBAR_WIDTH_PX = 230;
export const TOAST_MS = 3000;
export const NOTIFICATION_MS = 5000;
/** Issue 10: alarms raised within this window are noticed together (most urgent first; a flood as one summary). */
export const ALARM_NOTICE_GATHER_MS = 300;
/** Issue 10: at most this many alarm notices on screen; more collapse into one summary notice. */
export const MAX_ALARM_NOTICES = 3;
/** Issue 10: the dashboard re-reads its figures at most this often while real-time messages say something changed. */
export const DASHBOARD_LIVE_MS = 3000;
export const SLEEP_WAKE_TICK_MS = 1000;
export const SLEEP_WAKE_GAP_MS = 3000;
export const ERROR_SAMPLE_RATE = 1;
export const SESSION_REPLAY_RATE = 0.1;

export const SOCKET_RECONNECT_MS = 5000;
export const CONNECTOR_DELAY_MS = 500;
export const CONNECTOR_PORTS = [51379, 24680, 18365] as const;
export const CONNECTOR_VERSION = 'v1.0.0';
export const STREAM_RETRY_MS = 1000;
export const STREAM_RETRIES = 5;

/** Reference pickers (issue 11): the most ids one `<api>/options?ids=` request names (the server's bound on `ids`). */
export const OPTION_IDS_MAX = 200;
/** Reference pickers: ids asked for within this long are asked for together (0: one tick of the event loop). */
export const OPTION_BATCH_MS = 0;
/** Reference pickers: a search is sent once typing pauses this long. */
export const OPTION_SEARCH_PAUSE_MS = 200;
/** Reference pickers: labels kept per catalogue resource for the signed-in client (a bound, not a page's lifetime). */
export const OPTION_LABELS_MAX = 5000;

export const COMPANION_PROBE_TIMEOUT_MS = 10_000;
export const COMPANION_BACKOFF_START_MS = 1000;
export const COMPANION_BACKOFF_MAX_MS = 30_000;
/** The 10 fixed candidate ports of the desktop companion (§7), probed in shuffled order. */
export const COMPANION_PORTS = [47810, 47811, 47812, 47813, 47814, 47815, 47816, 47817, 47818, 47819] as const;

/** §4: exponential backoff from 1 s, doubling, capped at 30 s. attempt 0 → 1 s. */
export function backoffMs(attempt: number): number {
  return Math.min(COMPANION_BACKOFF_START_MS * 2 ** Math.max(0, attempt), COMPANION_BACKOFF_MAX_MS);
}

/** §7: these paths carry no bearer token and their failures are silent. */
export const NO_TOKEN_PATHS = [
  '/MyKad/getReaderList',
  '/MyKad/myKad',
  '/idp/1.0/login',
  '/event/manage/identity/change-password',
  '/api/v1/upload/',
  '/idp/1.0/registration-requests',
  '/idp/1.0/operators/reset-password/init',
  '/idp/1.0/operators/reset-password/finish',
  // issue 49: IAM sign-in (the providers offered, the ticket exchanged for a session)
  '/idp/1.0/iam/providers',
  '/idp/1.0/iam/exchange',
] as const;

export function isNoTokenPath(url: string): boolean {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0];
  return NO_TOKEN_PATHS.some((p) => path === p || (p.endsWith('/') && path.startsWith(p)));
}

/** Browser storage keys (§3). */
export const STORAGE = {
  jwt: 'jwt',
  privileges: 'privileges',
  roles: 'roles',
  username: 'username',
  clientId: 'clientId',
  user: 'user',
  visitedViews: 'visitedViews',
  redirect: 'redirect',
} as const;
/** Persisted state is keyed by version; older keys are cleared (§9). */
export const SETTINGS_KEY = `gatehouse-settings-${APP_VERSION}`;
export const SETTINGS_KEY_PREFIX = 'gatehouse-settings-';
export const SIDEBAR_COOKIE = 'sidebarStatus'; // 1 open, 0 closed
export const SIZE_COOKIE = 'size';

export const TENANT_HEADER = 'x-tenant-id';
export const JWT_INVALID = 'JWT-Invalid';
export const SESSION_EXPIRED_MESSAGE = 'Session expired, please relogin.';
/** The sign-in page's notice when another tab of the same browser signed out (the session is one per browser). */
export const SIGNED_OUT_ELSEWHERE_MESSAGE = 'You signed out in another tab.';
/** …and when another tab's new session (a client switch there) could not be read here (the network, the server). */
export const SESSION_CHANGED_ELSEWHERE_MESSAGE = 'Your session changed in another tab and could not be opened here. Sign in again.';

/** §2 route types. */
export type RouteType = 'RESTRICTED' | 'PUBLIC' | 'PRIVATE';
/** §5 privilege check modes. */
export type PrivilegeMode = 'ONLY_ONE' | 'ALL';
