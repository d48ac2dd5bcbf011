// One superstruct schema per entity and message, shared by server (request validation) and console
// (response validation). A failure becomes a `violations` list naming field and message (see validate()).
import {
  array,
  boolean,
  defaulted,
  define,
  enums,
  integer,
  nullable,
  number,
  object,
  optional,
  refine,
  string,
  type,
  unknown,
  type Infer,
  type Struct,
  StructError,
  assert as ssAssert,
} from './structs';
import { DISPLAY_LOCALES } from './format';
import { FIXED_SAID, boundedJson, boundedList, emailAddress, idInt, isIanaZone, int32, requiredText, safeText } from './primitives';
import { fill, type Sentence } from './messages';

export * from './primitives';
import { quickCheck } from './quickCheck';
import { clientsResource, inputSchema, rowSchema } from './resources';

// ---------- helpers ----------
export type { Violation } from './violation';
import type { Violation } from './violation';
export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  detail?: string;
  violations?: Violation[];
}

// issue 13: every string bounded and free of control characters, every id and integer an int32, every date a
// real calendar date, time zones IANA names, settings bounded in size and count, photos image data URLs
const nonBlank = (max: number) => requiredText(max);
const Email = emailAddress();
export const Id = idInt();
/** Largest photo kept with a record (decoded bytes). */
export const PHOTO_MAX_BYTES = 1_500_000;
/** A free-form settings value (dashboard layout, security, visitors, tenants): JSON of at most this many characters. */
export const SETTINGS_VALUE_MAX_CHARS = 16_384;
/** How many doors a sign-in or sign-out door list may name. */
export const SETTINGS_DOORS_MAX = 500;

/** Human messages for superstruct failure kinds: the rule → message map of §5, each a sentence with its key (issue 48). */
const MESSAGES: Record<string, Sentence> = {
  string: FIXED_SAID.notText,
  integer: FIXED_SAID.notWhole,
  number: FIXED_SAID.notNumber,
  boolean: fill('value.notYesNo', 'must be yes or no', {}),
  object: fill('value.notObject', 'must be an object', {}),
  array: FIXED_SAID.notList,
  nonBlank: FIXED_SAID.required,
  enums: fill('value.notAllowed', 'is not one of the allowed values', {}),
  literal: fill('value.wrongValue', 'has the wrong value', {}),
  pattern: FIXED_SAID.wrongFormat,
  size: fill('value.wrongLength', 'has the wrong length', {}),
  min: fill('value.tooSmall', 'is too small', {}),
  max: fill('value.tooLarge', 'is too large', {}),
  never: fill('value.notAllowedHere', 'is not allowed', {}),
  timeZone: fill('timeZone.unknownShort', 'is not a known time zone', {}),
};
const INVALID = fill('value.invalid', 'is invalid', {});
const UNCHECKABLE = fill('value.uncheckable', 'could not be checked: it is nested too deeply or too large', {});

/** What a failure says: its own problem (with its key and values when it has them), else the rule's sentence. */
function saidFor(refinement: string | undefined, type: string, value: unknown, custom?: string): Sentence | { message: string } {
  if (value === undefined && type !== 'never') return FIXED_SAID.required;
  if (custom && !custom.startsWith('Expected')) return { message: custom };
  return MESSAGES[refinement ?? type] ?? MESSAGES[type] ?? INVALID;
}
export function messageFor(refinement: string | undefined, type: string, value: unknown, custom?: string): string {
  return saidFor(refinement, type, value, custom).message;
}

/** Validate `value`; returns either the coerced value or the list of violations (field + message, key and values). */
export function validate<T>(value: unknown, struct: Struct<T, any>): { ok: true; value: T } | { ok: false; violations: Violation[] } {
  try {
    const v = struct.create(value);
    return { ok: true, value: v };
  } catch (e) {
    // a value the validator itself cannot walk (a stack overflow on absurd nesting) is the sender's fault, not ours
    if (!(e instanceof StructError)) return { ok: false, violations: [{ field: '(body)', ...UNCHECKABLE }] };
    const seen = new Set<string>();
    const violations: Violation[] = [];
    for (const f of e.failures()) {
      const field = f.path.join('.') || '(body)';
      if (seen.has(field)) continue;
      seen.add(field);
      // a problem said with values (contract/primitives.ts Problem) keeps its key and values beside its English
      const own = f as typeof f & { code?: string; values?: Violation['values'] };
      const said = saidFor(f.refinement, f.type, f.value, f.message);
      violations.push(
        'code' in said
          ? { field, message: said.message, code: said.code, values: said.values }
          : own.code && own.values
            ? { field, message: said.message, code: own.code, values: own.values }
            : { field, message: said.message },
      );
    }
    return { ok: false, violations };
  }
}
export const assert = ssAssert;

/**
 * `validate` for the hot paths (the device interface's thousands of messages a request): the quick check first
 * (quickCheck.ts), so a value superstruct accepts as it is skips superstruct's walk and is answered as itself; any
 * other value gets `validate`'s verdict and violations.
 */
export function validateQuickly<T>(value: unknown, struct: Struct<T, any>): { ok: true; value: T } | { ok: false; violations: Violation[] } {
  return quickCheck(struct)(value) ? { ok: true, value: value as T } : validate(value, struct);
}

// ---------- pages and lists ----------
export function Page<T>(item: Struct<T, any>) {
  return type({ items: array(item), total: integer(), totalIsAtLeast: optional(boolean()), page: integer(), size: integer() });
}
/** A page of a list. `totalIsAtLeast`: the list stopped counting (LIST_COUNT_CAP) and `total` is a lower bound. */
export interface PageOf<T> {
  items: T[];
  total: number;
  totalIsAtLeast?: boolean;
  page: number;
  size: number;
}
export const ListQuery = type({
  page: optional(int32(0, 10_000_000)),
  size: optional(int32(1, 1000)),
  sort: optional(safeText(200)), // field,asc|desc joined by commas (§7)
  q: optional(safeText(200)),
});
export type ListQuery = Infer<typeof ListQuery>;

// ---------- privileges (§3) ----------
export const PrivilegeEntry = object({
  privilegeIds: array(string()),
  divisionIds: array(integer()),
  firstParentDivisionIds: array(integer()),
});
export type PrivilegeEntry = Infer<typeof PrivilegeEntry>;
/** Stored under the `privileges` key, spelled `priviledges` exactly as §3 says. */
export const StoredPrivileges = object({ priviledges: array(PrivilegeEntry) });
export type StoredPrivileges = Infer<typeof StoredPrivileges>;

// ---------- session (§3) ----------
export const DashboardPage = object({ pageNum: integer(), widgets: array(object({ id: string() })) });
export type DashboardPage = Infer<typeof DashboardPage>;
export const AvatarColor = enums(['blue', 'green', 'orange', 'red', 'violet', 'turquoise', 'gold', 'gray']);
export type AvatarColor = Infer<typeof AvatarColor>;

export const User = type({
  id: integer(),
  username: string(),
  name: string(),
  avatar: nullable(string()),
  roles: array(string()),
  dashboardPages: array(DashboardPage),
  multiTenancyEnabled: boolean(),
  clientId: nullable(integer()),
  /** The profile's own time zone; null: none (times follow the client's zone, else the browser's). */
  timezone: nullable(string()),
  /** The selected client's time zone: where times are shown when the profile has none (issue 10). */
  clientTimezone: optional(nullable(string())),
  avatarColor: defaulted(AvatarColor, 'blue'),
  /** Issue 50: the member of staff this operator is in the selected client (the identity with their e-mail), or null:
   *  a form whose `mine` person is theirs alone (3.8.3 Request own leave) starts with it. */
  identityId: optional(nullable(integer())),
});
export type User = Infer<typeof User>;

export const LoginRequest = object({ username: nonBlank(100), password: nonBlank(200) });
export type LoginRequest = Infer<typeof LoginRequest>;
/**
 * `serverTime`: the server's clock when it answered (ms since the epoch). The console measures its own clock against it,
 * so the times it compares with the server's (a token's expiry, alarms raised since the session began) are the server's.
 */
export const LoginResponse = type({ token: string(), user: User, privileges: StoredPrivileges, settings: optional(unknown()), serverTime: optional(number()) });
export type LoginResponse = Infer<typeof LoginResponse>;
/** GET /idp/1.0/me */
export const MeResponse = type({ user: User, privileges: StoredPrivileges, settings: unknown(), serverTime: optional(number()) });
export type MeResponse = Infer<typeof MeResponse>;

export const ResetInitRequest = object({ username: nonBlank(100) });
const NewPassword = safeText(200, { min: 8 });
export const ResetFinishRequest = object({ token: nonBlank(200), newPassword: NewPassword });
export const RegistrationRequest = object({ username: nonBlank(100), name: nonBlank(200), email: Email, clientCode: optional(safeText(20)) });
export const ChangePasswordRequest = object({ username: nonBlank(100), oldPassword: nonBlank(200), newPassword: NewPassword });
/**
 * An IANA time zone name, or null for none of the profile's own (times then follow the client's zone, else the
 * browser's). '' is refused: it is no zone, and "none" is said with null.
 */
export const ProfileTimeZone = nullable(
  define<string>('timeZone', (v) => {
    if (typeof v !== 'string') return fill('timeZone.notZoneOrNull', 'must be a time zone (or null for none of your own)', {});
    if (v.trim() === '') return fill('timeZone.blank', 'must be a time zone (send null for none of your own)', {});
    return (v.length <= 64 && isIanaZone(v)) || MESSAGES.timeZone;
  }),
);
export const ProfileUpdate = object({ name: optional(nonBlank(200)), avatarColor: optional(AvatarColor), timezone: optional(ProfileTimeZone) });
export const SelectClientRequest = object({ clientId: nullable(Id) });

// ---------- settings (§3) ----------
export const Settings = type({
  theme: defaulted(safeText(7, { pattern: /^#[0-9a-fA-F]{6}$/, patternMessage: fill('theme.notColour', 'must be a colour such as #2d72d2', {}) }), '#2d72d2'),
  showSettings: defaulted(boolean(), true),
  tagsView: defaulted(boolean(), true),
  fixedHeader: defaulted(boolean(), true),
  sidebarLogo: defaulted(boolean(), true),
  dashboard: defaulted(boundedJson(SETTINGS_VALUE_MAX_CHARS), null),
  security: defaulted(boundedJson(SETTINGS_VALUE_MAX_CHARS), null),
  signInEntryDoorIds: defaulted(boundedList(idInt(), SETTINGS_DOORS_MAX), []),
  signOutExitDoorIds: defaulted(boundedList(idInt(), SETTINGS_DOORS_MAX), []),
  visitors: defaulted(boundedJson(SETTINGS_VALUE_MAX_CHARS), null),
  workDays: defaulted(boundedList(int32(0, 7), 7), [1, 2, 3, 4, 5]), // ISO weekdays (0 and 7 both Sunday)
  tourView: defaulted(boolean(), true),
  tenants: defaulted(boundedJson(SETTINGS_VALUE_MAX_CHARS), null),
  /** The console's language (issue 10): English or Chinese. */
  locale: defaulted(enums(DISPLAY_LOCALES), 'en'),
});
export type Settings = Infer<typeof Settings>;

// ---------- clients (tenants): derived from contract/resources/clients.ts ----------
export const ClientInput = inputSchema(clientsResource);
export type ClientInput = Infer<typeof ClientInput>;
export const Client = rowSchema(clientsResource);
export type Client = Infer<typeof Client>;

// ---------- divisions ----------
export const Division = type({ id: integer(), clientId: integer(), name: string(), parentId: nullable(integer()) });
export type Division = Infer<typeof Division>;

export const BulkDeleteRequest = object({
  ids: refine(boundedList(Id, 1000), 'nonEmpty', (v) => v.length > 0 || fill('list.empty', 'must name at least one', {})),
});

// ---------- dashboard ----------
/** One hour of a 24-hour series: the hour's start (ISO, UTC) and how many. */
export const HourCount = type({ hour: string(), count: integer() });
export type HourCount = Infer<typeof HourCount>;
/**
 * The dashboard of the selected client (issue 10). Each part is present only when the user holds the privilege of the
 * screen that owns its data (DASHBOARD_WIDGET_PRIVILEGES), and counts cover the user's divisions where the data has them.
 */
export const DashboardSummary = type({
  identities: optional(integer()),
  activeCredentials: optional(integer()),
  divisions: optional(integer()),
  doors: optional(integer()),
  controllers: optional(integer()),
  openAlarms: optional(integer()),
  alarmsByPriority: optional(array(type({ priority: integer(), count: integer() }))),
  /** Alarms raised per hour over the last 24 hours, oldest first (24 entries). */
  alarmsPerHour: optional(array(HourCount)),
  eventsPerHour: optional(array(HourCount)),
  doorsByState: optional(array(type({ status: string(), count: integer() }))),
  /** Today's visits in the client's time zone, by where the visitor is. */
  visitorsToday: optional(type({ day: string(), expected: integer(), onSite: integer(), left: integer() })),
  /** issue 50: today's attendance in the client's zone (Daily Attendance's statuses, the user's divisions), counted */
  attendanceToday: optional(
    type({ day: string(), expected: integer(), present: integer(), late: integer(), absent: integer(), onLeave: integer(), notYet: integer() }),
  ),
  recentChanges: optional(
    array(
      type({
        at: string(),
        actor: string(),
        action: string(),
        entity: string(),
        actorName: optional(nullable(string())),
        entityName: optional(nullable(string())),
      }),
    ),
  ),
});
export type DashboardSummary = Infer<typeof DashboardSummary>;

// ---------- audit ----------
export const AuditEntry = type({
  id: integer(),
  clientId: nullable(integer()),
  actor: string(),
  action: string(),
  entity: string(),
  entityId: nullable(string()),
  before: unknown(),
  after: unknown(),
  at: string(),
  /** issue 50: the operator's name (the activity report shows people, not usernames), where the user still exists */
  actorName: optional(nullable(string())),
  /** issue 50: the name of what was changed, from its values (contract/activity.ts) */
  entityName: optional(nullable(string())),
});
export type AuditEntry = Infer<typeof AuditEntry>;
/** The fields a change changed (its row before and after; none for a creation or a deletion), `updatedAt` aside. */
export function auditChangedFields(r: Pick<AuditEntry, 'before' | 'after'>): string[] {
  if (r.before === null || r.after === null || typeof r.before !== 'object' || typeof r.after !== 'object') return [];
  const before = r.before as Record<string, unknown>;
  const after = r.after as Record<string, unknown>;
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => k !== 'updatedAt' && JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
}

// ---------- UI error log (§8) ----------
export const UiErrorReport = object({
  message: safeText(2000, { min: 1 }),
  stack: optional(nullable(safeText(20000))),
  url: safeText(2000),
  userAgent: optional(safeText(500)),
});
export type UiErrorReport = Infer<typeof UiErrorReport>;
/** A row of the UI error log as the list reads it. */
export const UiErrorRow = type({ id: integer(), message: string(), url: string(), stack: optional(nullable(string())), at: optional(nullable(string())) });
export type UiErrorRow = { id: number; message: string; url: string; stack?: string | null; at?: string | null };

// ---------- file payload, card reader message (§3) ----------
export const FilePayload = object({
  name: safeText(255, { min: 1 }),
  mimeType: safeText(100, { pattern: /^[\w.+-]+\/[\w.+-]+$/, patternMessage: fill('file.notMediaType', 'must be a media type such as image/png', {}) }),
  data: safeText(2_800_000, { pattern: /^[A-Za-z0-9+/=]*$/, patternMessage: fill('file.notBase64', 'must be base64', {}) }),
});
export type FilePayload = Infer<typeof FilePayload>;
export const CardReaderMessage = object({ type: safeText(64, { min: 1 }), version: safeText(32), data: optional(unknown()) });
export type CardReaderMessage = Infer<typeof CardReaderMessage>;
