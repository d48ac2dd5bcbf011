// One superstruct schema per entity and message, shared by server (request validation) and console
// (response validation). A failure becomes a `violations` list naming field and message (see validate()).
import {
  array, assign, boolean, defaulted, enums, integer, min, nullable, object, optional, pattern,
  refine, size, string, type, unknown, type Infer, type Struct, StructError, assert as ssAssert,
} from 'superstruct';
import { DISPLAY_LOCALES, isTimeZone } from './format';

// ---------- helpers ----------
export interface Violation { field: string; message: string }
export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  detail?: string;
  violations?: Violation[];
}

const nonBlank = (max: number) => refine(size(string(), 1, max), 'nonBlank', (v) => v.trim().length > 0 || 'must not be blank');
const Email = pattern(size(string(), 3, 254), /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
const IsoDate = pattern(string(), /^\d{4}-\d{2}-\d{2}$/);
export const Id = min(integer(), 1);

/** Human messages for superstruct failure kinds: the rule → message map of §5. */
const MESSAGES: Record<string, string> = {
  string: 'must be text',
  integer: 'must be a whole number',
  number: 'must be a number',
  boolean: 'must be yes or no',
  object: 'must be an object',
  array: 'must be a list',
  nonBlank: 'is required',
  enums: 'is not one of the allowed values',
  literal: 'has the wrong value',
  pattern: 'has the wrong format',
  size: 'has the wrong length',
  min: 'is too small',
  max: 'is too large',
  never: 'is not allowed',
  timeZone: 'is not a known time zone',
};

export function messageFor(refinement: string | undefined, type: string, value: unknown, custom?: string): string {
  if (value === undefined && type !== 'never') return 'is required';
  if (custom && !custom.startsWith('Expected')) return custom;
  return MESSAGES[refinement ?? type] ?? MESSAGES[type] ?? 'is invalid';
}

/** Validate `value`; returns either the coerced value or the list of violations (field + message). */
export function validate<T>(value: unknown, struct: Struct<T, any>): { ok: true; value: T } | { ok: false; violations: Violation[] } {
  try {
    const v = struct.create(value);
    return { ok: true, value: v };
  } catch (e) {
    if (!(e instanceof StructError)) throw e;
    const seen = new Set<string>();
    const violations: Violation[] = [];
    for (const f of e.failures()) {
      const field = f.path.join('.') || '(body)';
      if (seen.has(field)) continue;
      seen.add(field);
      violations.push({ field, message: messageFor(f.refinement, f.type, f.value, f.message) });
    }
    return { ok: false, violations };
  }
}
export const assert = ssAssert;

// ---------- pages and lists ----------
export function Page<T>(item: Struct<T, any>) {
  return type({ items: array(item), total: integer(), page: integer(), size: integer() });
}
export interface PageOf<T> { items: T[]; total: number; page: number; size: number }
export const ListQuery = type({
  page: optional(min(integer(), 0)),
  size: optional(size(integer(), 1, 1000)),
  sort: optional(string()), // field,asc|desc joined by commas (§7)
  q: optional(string()),
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
  timezone: string(),
  /** The selected client's time zone: where times are shown when the profile has none (issue 10). */
  clientTimezone: optional(nullable(string())),
  avatarColor: defaulted(AvatarColor, 'blue'),
});
export type User = Infer<typeof User>;

export const LoginRequest = object({ username: nonBlank(100), password: nonBlank(200) });
export type LoginRequest = Infer<typeof LoginRequest>;
export const LoginResponse = type({ token: string(), user: User, privileges: StoredPrivileges, settings: optional(unknown()) });
export type LoginResponse = Infer<typeof LoginResponse>;
/** GET /idp/1.0/me */
export const MeResponse = type({ user: User, privileges: StoredPrivileges, settings: unknown() });
export type MeResponse = Infer<typeof MeResponse>;

export const ResetInitRequest = object({ username: nonBlank(100) });
export const ResetFinishRequest = object({ token: nonBlank(200), newPassword: size(string(), 8, 200) });
export const RegistrationRequest = object({ username: nonBlank(100), name: nonBlank(200), email: Email, clientCode: optional(string()) });
export const ChangePasswordRequest = object({ username: nonBlank(100), oldPassword: nonBlank(200), newPassword: size(string(), 8, 200) });
/** An IANA time zone name, or '' for none (times then follow the client's zone, else the browser's). */
export const ProfileTimeZone = refine(size(string(), 0, 64), 'timeZone', (v) => v === '' || isTimeZone(v));
export const ProfileUpdate = object({ name: optional(nonBlank(200)), avatarColor: optional(AvatarColor), timezone: optional(ProfileTimeZone) });
export const SelectClientRequest = object({ clientId: nullable(Id) });

// ---------- settings (§3) ----------
export const Settings = type({
  theme: defaulted(string(), '#2d72d2'),
  showSettings: defaulted(boolean(), true),
  tagsView: defaulted(boolean(), true),
  fixedHeader: defaulted(boolean(), true),
  sidebarLogo: defaulted(boolean(), true),
  dashboard: defaulted(unknown(), null),
  security: defaulted(unknown(), null),
  signInEntryDoorIds: defaulted(array(integer()), []),
  signOutExitDoorIds: defaulted(array(integer()), []),
  visitors: defaulted(unknown(), null),
  workDays: defaulted(array(integer()), [1, 2, 3, 4, 5]),
  tourView: defaulted(boolean(), true),
  tenants: defaulted(unknown(), null),
  /** The console's language (issue 10): English or Chinese. */
  locale: defaulted(enums(DISPLAY_LOCALES), 'en'),
});
export type Settings = Infer<typeof Settings>;

// ---------- clients (tenants) ----------
export const ClientInput = object({
  name: nonBlank(200),
  code: pattern(size(string(), 2, 20), /^[A-Z0-9_-]+$/), // auto-uppercase in the form
  timezone: nonBlank(64),
  contactEmail: optional(nullable(Email)),
  address: optional(nullable(size(string(), 0, 500))),
  active: defaulted(boolean(), true),
});
export type ClientInput = Infer<typeof ClientInput>;
export const Client = type({
  id: integer(), name: string(), code: string(), timezone: string(),
  contactEmail: nullable(string()), address: nullable(string()), active: boolean(),
  createdAt: string(), updatedAt: string(),
});
export type Client = Infer<typeof Client>;

// ---------- divisions ----------
export const Division = type({ id: integer(), clientId: integer(), name: string(), parentId: nullable(integer()) });
export type Division = Infer<typeof Division>;

// ---------- identities ----------
export const CredentialType = enums(['card', 'pin', 'qr', 'mobile']);
export const CredentialInput = object({
  id: optional(integer()),
  type: CredentialType,
  number: pattern(size(string(), 1, 64), /^[A-Z0-9-]+$/),
  facilityCode: optional(nullable(min(integer(), 0))),
  validFrom: optional(nullable(IsoDate)),
  validTo: optional(nullable(IsoDate)),
  status: defaulted(enums(['active', 'suspended', 'lost']), 'active'),
});
export type CredentialInput = Infer<typeof CredentialInput>;
export const IdentityStatus = enums(['active', 'inactive', 'suspended']);
export const IdentityInput = object({
  firstName: nonBlank(100),
  lastName: nonBlank(100),
  employeeNo: pattern(size(string(), 1, 32), /^[A-Z0-9-]+$/), // auto-uppercase in the form
  email: optional(nullable(Email)),
  phone: optional(nullable(pattern(size(string(), 0, 32), /^[+0-9 ()-]*$/))),
  divisionId: Id,
  status: defaulted(IdentityStatus, 'active'),
  validFrom: optional(nullable(IsoDate)),
  validTo: optional(nullable(IsoDate)),
  idNumber: optional(nullable(size(string(), 0, 32))),
  photo: optional(nullable(string())),
  credentials: defaulted(array(CredentialInput), []),
});
export type IdentityInput = Infer<typeof IdentityInput>;
export const Credential = type({
  id: integer(), type: string(), number: string(), facilityCode: nullable(integer()),
  validFrom: nullable(string()), validTo: nullable(string()), status: string(),
});
export type Credential = Infer<typeof Credential>;
export const Identity = type({
  id: integer(), clientId: integer(), firstName: string(), lastName: string(), employeeNo: string(),
  email: nullable(string()), phone: nullable(string()), divisionId: integer(), divisionName: optional(nullable(string())),
  status: string(), validFrom: nullable(string()), validTo: nullable(string()), idNumber: nullable(string()),
  photo: nullable(string()), credentials: array(Credential), createdAt: string(), updatedAt: string(),
});
export type Identity = Infer<typeof Identity>;
export const BulkDeleteRequest = object({ ids: size(array(Id), 1, 1000) });
/** GET identities: the list query plus filters by status and division. */
export const IdentityListQuery = assign(ListQuery, type({ status: optional(IdentityStatus), divisionId: optional(Id) }));
export type IdentityListQuery = Infer<typeof IdentityListQuery>;

// ---------- visitors (issue 5) ----------
/** A photo kept with a record: a base64 data URL of an image, at most about 1.5 MB. */
const PhotoDataUrl = pattern(size(string(), 0, 2_000_000), /^(data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=]+)?$/);
export const VisitPurpose = enums(['meeting', 'delivery', 'contractor', 'interview', 'other']);
export const VisitorStatus = enums(['expected', 'on-site', 'left']);
/** POST register: who came, whom they visit, for what and on which day (the badge is valid until its end). */
export const VisitorInput = object({
  firstName: nonBlank(100),
  lastName: nonBlank(100),
  idNumber: optional(nullable(size(string(), 0, 32))),
  company: optional(nullable(size(string(), 0, 200))),
  email: optional(nullable(Email)),
  phone: optional(nullable(pattern(size(string(), 0, 32), /^[+0-9 ()-]*$/))),
  photo: optional(nullable(PhotoDataUrl)),
  hostName: nonBlank(200),
  purpose: defaulted(VisitPurpose, 'meeting'),
  visitDate: IsoDate,
});
export type VisitorInput = Infer<typeof VisitorInput>;
export const Visitor = type({
  id: integer(), clientId: integer(), firstName: string(), lastName: string(), idNumber: nullable(string()),
  company: nullable(string()), email: nullable(string()), phone: nullable(string()), photo: nullable(string()),
  hostName: string(), purpose: string(), visitDate: string(), validUntil: string(), status: string(),
  badgePrintedAt: nullable(string()), createdBy: nullable(string()), signedInAt: defaulted(nullable(string()), null),
  signedOutAt: defaulted(nullable(string()), null), createdAt: string(), updatedAt: string(),
});
export type Visitor = Infer<typeof Visitor>;
export const VisitorListQuery = assign(ListQuery, type({ status: optional(VisitorStatus), visitDate: optional(IsoDate) }));
export type VisitorListQuery = Infer<typeof VisitorListQuery>;

// ---------- dashboard ----------
export const DashboardSummary = type({
  identities: integer(), activeCredentials: integer(), divisions: integer(), doors: integer(),
  controllers: integer(), openAlarms: integer(), recentChanges: array(type({ at: string(), actor: string(), action: string(), entity: string() })),
});
export type DashboardSummary = Infer<typeof DashboardSummary>;

// ---------- audit ----------
export const AuditEntry = type({
  id: integer(), clientId: nullable(integer()), actor: string(), action: string(), entity: string(),
  entityId: nullable(string()), before: unknown(), after: unknown(), at: string(),
});
export type AuditEntry = Infer<typeof AuditEntry>;

// ---------- UI error log (§8) ----------
export const UiErrorReport = object({
  message: size(string(), 1, 2000),
  stack: optional(nullable(size(string(), 0, 20000))),
  url: size(string(), 0, 2000),
  userAgent: optional(size(string(), 0, 500)),
});
export type UiErrorReport = Infer<typeof UiErrorReport>;

// ---------- file payload, card reader message (§3) ----------
export const FilePayload = object({ name: size(string(), 1, 255), mimeType: pattern(string(), /^[\w.+-]+\/[\w.+-]+$/), data: pattern(string(), /^[A-Za-z0-9+/=]*$/) });
export type FilePayload = Infer<typeof FilePayload>;
export const CardReaderMessage = object({ type: size(string(), 1, 64), version: string(), data: optional(unknown()) });
export type CardReaderMessage = Infer<typeof CardReaderMessage>;

