// The screens' calls (issue 48): every typed call of contract/api.ts that no part of the console's start makes, apart
// from ./endpoints.ts (the session's, the alarms', the pickers' and the opening screen's calls, with the helpers both
// use), so that they load with the screens' registry (src/system/screenLogic.ts), not at start. Every response is
// validated with its contract schema: an invalid answer is an error, never half-applied.
import { array, boolean, integer, nullable, number, optional, string, type, unknown, type Infer, type Struct } from 'superstruct';
import type { Explanation } from '../../contract/decision';
import {
  API,
  AuditEntry,
  Client,
  Division,
  Identity,
  Page,
  Visitor,
  WebHookAttemptPage,
  ZoneOccupancy,
  ZoneOccupants,
  ThreatChoices,
  ThreatState,
  LockdownAnswer,
  DoorQrRow,
  DoorQrCode,
  ControllerDiagnostic,
  ControllerHubRow,
  PingAnswer,
  AlarmHistoryEntry,
  AlarmType,
  Event,
  VISITOR_CREDENTIAL_BATCH_API,
  VisitorCredentialBatchResult,
  type VisitorCredentialBatch,
  DAILY_ATTENDANCE_API,
  DailyAttendance,
  type DailyAttendanceQuery,
  ATTENDANCE_SUMMARY_API,
  AttendanceSummary,
  type AttendanceSummaryQuery,
  TimesheetBuildResult,
  type TimesheetBuild,
  BackupInfo,
  BackupList,
  PlatformHistory,
  RestoreStarted,
  type UserFieldDef,
  type DoorCommand,
  type SimulateKind,
  type ClientInput,
  type IdentityInput,
  type PageOf,
  BatchErrorReport,
  BatchRowError,
  SentenceKey,
  SentenceValues,
} from '../../contract';
import { ReportJobRun as ReportJobRunShape, ReportJobRuns as ReportJobRunsShape } from '../../contract/resources/reportJobs';
import { api } from './client';
import { fileAt } from './files';
import { ApiError } from './errors';
import { ALARM_HANDLING_API, AlarmHandlingReport, type AlarmHandlingQuery } from '../../contract/alarmHandling';
import { HANDOVER_API, HandoverHistory } from '../../contract/handover';
import { RESOURCE_INDEX } from '../../contract/resources/catalogueIndex';
import { Anything, checked, getJson, listQuery, send, UiErrorEntry, type ListParams } from './endpoints';

const DivisionPage = Page(Division);
const IdentityPage = Page(Identity);
const AuditPage = Page(AuditEntry);
const UiErrorPage = Page(UiErrorEntry);

export const getClient = (id: number) => getJson(`${API.clients}/${id}`, Client);
export const createClient = (body: ClientInput) => send('post', API.clients, body, Client);
export const updateClient = (id: number, body: ClientInput) => send('put', `${API.clients}/${id}`, body, Client);
/** The selected client's user-defined fields, in their order (identity forms and lists are built from them). */
const UserFieldDefPage = type({
  items: array(
    type({
      key: string(),
      label: string(),
      kind: string(),
      required: boolean(),
      maxLength: nullable(integer()),
      options: nullable(string()),
      position: optional(nullable(integer())),
    }),
  ),
});
export const listUserFieldDefs = (): Promise<UserFieldDef[]> =>
  getJson(API.userFields, UserFieldDefPage, { size: 200, sort: 'position,asc' }).then((p) => p.items as UserFieldDef[]);
export const listDivisions = (p?: ListParams): Promise<PageOf<Division>> => getJson(API.divisions, DivisionPage, listQuery(p));
/** Deletes one division (the server answers 409 naming what still uses it). */
export const deleteDivision = async (id: number): Promise<void> => {
  await api.delete(`${API.divisions}/${id}`);
};

// ---------- identities ----------
export const listIdentities = (p?: ListParams): Promise<PageOf<Identity>> => getJson(API.identities, IdentityPage, listQuery(p));
export const getIdentity = (id: number) => getJson(`${API.identities}/${id}`, Identity);
export const createIdentity = (body: IdentityInput) => send('post', API.identities, body, Identity);
export const updateIdentity = (id: number, body: IdentityInput) => send('put', `${API.identities}/${id}`, body, Identity);
export const bulkDeleteIdentities = (ids: number[]) => send('post', API.identitiesBulkDelete, { ids }, Anything);

export const listAudit = (p?: ListParams): Promise<PageOf<AuditEntry>> => getJson(API.audit, AuditPage, listQuery(p));
export const listUiErrors = (p?: ListParams): Promise<PageOf<UiErrorEntry>> => getJson(API.uiErrors, UiErrorPage, listQuery(p));

// ---------- monitor: alarms, events, doors ----------
const EventPage = Page(Event);
export const alarmHistory = (id: Event['id']) => getJson(`${API.alarms}/${id}/history`, array(AlarmHistoryEntry));
export const alarmTypes = () => getJson(API.alarmTypes, array(AlarmType));
/** Event history; filters: eventCode (comma list), eventPointId, alert, from, to, afterId, q. */
export const listEvents = (p?: ListParams): Promise<PageOf<Event>> => getJson(API.events, EventPage, listQuery(p));
/** The selected client's operator settings (password policy, lockout, sessions). */
const OperatorSettingsAnswer = type({
  passwordMinLength: integer(),
  passwordClasses: integer(),
  passwordHistory: integer(),
  passwordExpiryDays: integer(),
  lockoutAttempts: integer(),
  lockoutMinutes: integer(),
  sessionLifetimeMinutes: integer(),
  idleTimeoutMinutes: integer(),
  mfaRequired: integer(),
});
export type OperatorSettingsValues = Infer<typeof OperatorSettingsAnswer>;
export const getOperatorSettings = () => getJson(API.operatorSettings, OperatorSettingsAnswer);
export const saveOperatorSettings = (body: OperatorSettingsValues) => send('put', API.operatorSettings, body, OperatorSettingsAnswer);
/** Lock down every door the caller controls, or release them (issue 12). */
export const lockdown = (on: boolean, divisionId: number | null = null) => send('post', `${API.doors}/lockdown`, { on, divisionId }, LockdownAnswer);
export const doorCommand = (id: number, command: DoorCommand, force = false) =>
  send('post', `${API.doors}/${id}/commands`, force ? { command, force } : { command }, Event);
/** Test-only hook (server with E2E=1). */
export const simulate = (kind: SimulateKind, doorId?: number) => send('post', API.testSimulate, { kind, doorId }, Event);

// ---------- visitors ----------
export const getVisitor = (id: number) => getJson(`${API.visitors}/${id}`, Visitor);
/** The companion printed the visit's badge: the server records when (and audits it). */
export const recordBadgePrinted = (id: number) => send('post', `${API.visitors}/${id}/badge-printed`, {}, Visitor);
/** Arrival and departure at the front desk: expected → on site → left. */
/** A front-desk action on a visitor: sign in or out, or decide a watchlist match with its reason (issue 50). */
export const moveVisitor = (id: number, move: 'sign-in' | 'sign-out' | 'watchlist-admit' | 'watchlist-refuse', reason?: string) =>
  send('post', `${API.visitors}/${id}/${move}`, reason === undefined ? {} : { reason }, Visitor);

// ---------- attendance (§2 Attendance) ----------
const TeamChoice = type({ id: integer(), name: string(), active: boolean() });
/** The client's teams, by name, for the daily attendance's team filter. */
export const listTeamChoices = () => getJson(RESOURCE_INDEX.teams.api, Page(TeamChoice), listQuery({ size: 1000, sort: [{ field: 'name', dir: 'asc' }] }));
/** Daily Attendance [3.2.0]: one day of the client's teams. */
/** Attendance Summaries [3.6.0]: each member's days of a period. */
export const getAttendanceSummary = (q: AttendanceSummaryQuery) =>
  getJson(ATTENDANCE_SUMMARY_API, AttendanceSummary, q.teamId ? { from: q.from, to: q.to, teamId: q.teamId } : { from: q.from, to: q.to });
/** Build Timesheet [3.3]: the period's days written into the timesheet. */
export const buildTimesheet = (b: TimesheetBuild) => send('post', API.timesheetBuild, b, TimesheetBuildResult);
export const getDailyAttendance = (q: DailyAttendanceQuery) =>
  getJson(DAILY_ATTENDANCE_API, DailyAttendance, q.teamId ? { date: q.date, teamId: q.teamId } : { date: q.date });

/** A scheduled report job's history (newest first) with how the server delivers, one report's file, and Retry of a
 *  failed run (server/resources/reportJobs.ts; the shapes are the contract's). */
export type { ReportJobRun, ReportJobRuns } from '../../contract/resources/reportJobs';
export const listReportJobRuns = (jobId: number) => getJson(`${API.reportJobs}/${jobId}/runs`, ReportJobRunsShape);
export const reportJobFile = (jobId: number, runId: number) => fileAt(`${API.reportJobs}/${jobId}/runs/${runId}/file`);
export const retryReportJobRun = (jobId: number, runId: number) => send('post', `${API.reportJobs}/${jobId}/runs/${runId}/retry`, {}, ReportJobRunShape);

/** Backup and restore (server/backup): the stored backups, take one, delete, restore, upload, download one's file. */
export const listBackups = () => getJson(API.backups, BackupList);
export const platformHistory = () => getJson(API.platformHistory, PlatformHistory);
export const takeBackup = () => send('post', API.backups, {}, BackupInfo);
export const deleteBackup = async (id: string) => {
  await api.delete(`${API.backups}/${encodeURIComponent(id)}`);
  return id;
};
export const restoreBackup = (id: string) => send('post', `${API.backups}/${encodeURIComponent(id)}/restore`, {}, RestoreStarted);
export const uploadBackup = async (file: Blob) =>
  checked((await api.post(`${API.backups}/upload`, file, { headers: { 'content-type': 'application/gzip' } })).data, BackupInfo, API.backups);
export const backupFile = (id: string) => fileAt(`${API.backups}/${encodeURIComponent(id)}/file`);

// ---------- generic resource calls for the catalogue ----------
export function resourceApi<T>(path: string, schema: Struct<T, any>, bulkDeletePath?: string) {
  const PageSchema = Page(schema);
  return {
    list: (p?: ListParams): Promise<PageOf<T>> => getJson(path, PageSchema, listQuery(p)),
    get: (id: number) => getJson(`${path}/${id}`, schema),
    /** A singleton (a tenant's settings): its one row, and a change to it. */
    getOne: () => getJson(path, schema),
    updateOne: (body: unknown) => send('put', path, body, schema),
    create: (body: unknown) => send('post', path, body, schema),
    update: (id: number, body: unknown) => send('put', `${path}/${id}`, body, schema),
    /** The server's streamed CSV of the rows these filters find (`…/export`, column titles as the screens name them). */
    exportCsv: async (filters: Record<string, string> = {}, format: 'csv' | 'xlsx' = 'csv'): Promise<Blob> =>
      (await api.get(`${path}/export`, { params: { ...listQuery({ filters }), format, titles: 1 }, responseType: 'blob' })).data as Blob,
    /** A named action of one row (`POST …/:id/<name>`): the row as it is after it. */
    action: (id: number, name: string, input: Record<string, unknown> = {}) => send('post', `${path}/${id}/${encodeURIComponent(name)}`, input, schema),
    bulkDelete: (ids: number[]) => {
      if (!bulkDeletePath) return Promise.reject(new ApiError({ status: 405, message: `${path} has no bulk delete`, path }));
      return send('post', bulkDeletePath, { ids }, Anything);
    },
  };
}

// ---------- privileges and roles' ticks (issue 11) ----------
const Holder = type({ id: integer(), name: string(), divisionId: nullable(integer()) });
const PrivilegeHoldersRow = type({ code: string(), label: string(), platform: boolean(), roles: array(Holder) });
export type PrivilegeHoldersRow = Infer<typeof PrivilegeHoldersRow>;
export const listPrivilegeHolders = () => getJson(API.privileges, array(PrivilegeHoldersRow));
const Tick = type({ code: string(), divisionId: nullable(integer()) });
export type Tick = Infer<typeof Tick>;
export const roleTicks = (id: number) => getJson(`${API.roles}/${id}/privileges`, type({ privileges: array(Tick) }));
export const roleName = (id: number) => getJson(`${API.roles}/${id}`, type({ id: integer(), name: string() }));
export const assignPrivileges = (id: number, privileges: Tick[]) =>
  send('post', `${API.roles}/${id}/assign-privileges`, { privileges }, type({ id: integer(), name: string() }));

// ---------- interfaces (issue 12): what the controllers find on their buses ----------
const DiscoveredBoard = type({ controllerId: integer(), controllerName: string(), busAddress: integer(), kind: string(), serialNumber: string() });
export type DiscoveredBoard = Infer<typeof DiscoveredBoard>;
export const discoverInterfaces = () => getJson(`${API.interfaces}/discover`, type({ items: array(DiscoveredBoard) }));

// ---------- controller diagnostics (issue 12) ----------
export const controllerDiagnostic = (ip: string) => getJson(`${RESOURCE_INDEX.controllers.api}/diagnostic/${encodeURIComponent(ip)}`, ControllerDiagnostic);
export const controllerHub = () => getJson(`${RESOURCE_INDEX.controllers.api}/hub`, type({ items: array(ControllerHubRow) }));
export const pingController = (ip: string) => send('post', `${RESOURCE_INDEX.controllers.api}/diagnostic/${encodeURIComponent(ip)}/ping`, {}, PingAnswer);

// ---------- the calendar (issue 12): a client's special dates ----------
const SpecialDateRow = type({ id: integer(), name: string(), date: string(), yearly: boolean(), kind: string() });
export type SpecialDateRow = Infer<typeof SpecialDateRow>;
export const listSpecialDates = () => getJson(RESOURCE_INDEX.specialDates.api, Page(SpecialDateRow), { size: 1000, sort: 'date,asc' });

// ---------- door QR codes (issue 12) ----------
export const listDoorQr = () => getJson(`${API.doors}/qr`, type({ items: array(DoorQrRow) }));
export const setDoorQr = (id: number, on: boolean) => send('post', `${API.doors}/${id}/qr`, { on }, Anything);
export const doorQrCode = (id: number, credential: string) => getJson(`${API.doors}/${id}/qr/code`, DoorQrCode, { credential });

// ---------- alarm zones (issue 12): an alarm group, armed and disarmed by its named actions ----------
const AlarmGroupRow = type({
  id: integer(),
  name: string(),
  description: nullable(string()),
  state: string(),
  stateChangedAt: nullable(string()),
  stateChangedBy: nullable(string()),
  inputIds: array(integer()),
});
export type AlarmGroupRow = Infer<typeof AlarmGroupRow>;
export const getAlarmGroup = (id: number) => getJson(`${RESOURCE_INDEX.alarmGroups.api}/${id}`, AlarmGroupRow);
export const armAlarmGroup = (id: number, arm: boolean) => send('post', `${RESOURCE_INDEX.alarmGroups.api}/${id}/${arm ? 'arm' : 'disarm'}`, {}, AlarmGroupRow);

// ---------- operators (issues 11, 27): an account's state and password, and leaving this client ----------
const OperatorChanged = type({ id: integer() });
/** Disable or enable the account (everywhere it works), or remove it from this client only. */
export const operatorAction = (id: number, action: 'disable' | 'enable' | 'remove') => send('post', `${API.operators}/${id}/${action}`, {}, OperatorChanged);
export const resetOperatorPassword = (id: number, password: string) => send('post', `${API.operators}/${id}/reset-password`, { password }, Anything);

// ---------- integrations (issue 11): service accounts' keys, web hook histories ----------
const ServiceAccountWithKey = type({
  id: integer(),
  name: string(),
  apiKey: optional(string()),
  keyPrefix: nullable(string()),
  keyRevokedAt: nullable(string()),
});
/** A new key for the account (the old one stops working); the answer holds it once. */
export const rotateApiKey = (id: number) => send('post', `${RESOURCE_INDEX.serviceAccounts.api}/${id}/rotate-key`, {}, ServiceAccountWithKey);
export const revokeApiKey = (id: number) => send('post', `${RESOURCE_INDEX.serviceAccounts.api}/${id}/revoke-key`, {}, ServiceAccountWithKey);
export const webHookAttempts = (id: number, p: { page?: number; size?: number; outcome?: 'ok' | 'failed'; eventType?: string }) =>
  getJson(
    `${RESOURCE_INDEX.webHooks.api}/${id}/attempts`,
    WebHookAttemptPage,
    Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>,
  );
export const redeliverWebHook = (id: number, deliveryId: number) => send('post', `${RESOURCE_INDEX.webHooks.api}/${id}/redeliver`, { deliveryId }, Anything);

// ---------- access decisions (issue 12) ----------
const ExplanationShape = type({
  eventId: integer(),
  now: type({ granted: unknown(), reason: string(), label: string(), steps: array(type({ check: string(), ok: unknown(), detail: string() })) }),
});
/** "Why?": the chain that decided a stored swipe event, re-run against today's configuration. */
export const explainEvent = (id: number) => getJson(`${API.events}/${id}/explain`, ExplanationShape) as Promise<Explanation>;

// ---------- identity batch upload (server/batch/routes.ts) ----------
const BatchPreviewShape = type({
  id: integer(),
  fileName: string(),
  template: string(),
  total: integer(),
  valid: integer(),
  creates: integer(),
  updates: integer(),
  invalidRows: integer(),
  errors: array(BatchRowError),
});
/** The dry run: the file is the body itself (CSV or XLSX), the template in the query; nothing is imported. */
export async function previewBatchUpload(templateId: number, file: Blob, fileName: string) {
  const xlsx = /\.xlsx$/i.test(fileName);
  const r = await api.post(API.batchUpload, file, {
    params: { templateId },
    headers: { 'content-type': xlsx ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv', 'x-file-name': fileName },
  });
  return checked(r.data, BatchPreviewShape, API.batchUpload);
}
export const batchImportPath = (uploadId: number) => `${API.batchUpload}/${uploadId}/import`;
/** The per-row error report of an upload: every problem with its key (the screen writes the file in the reader's language). */
export async function batchErrorReport(uploadId: number): Promise<BatchRowError[]> {
  const path = `${API.batchUpload}/${uploadId}/errors`;
  return (await getJson(path, BatchErrorReport)).items;
}

// ---------- what-if preview of access (issue 12, server/access/preview.ts) ----------
const PreviewPair = type({ identityId: integer(), identityName: string(), doorId: integer(), doorName: string(), hoursBefore: number(), hoursAfter: number() });
const AccessPreviewShape = type({
  from: string(),
  to: string(),
  days: integer(),
  gains: array(PreviewPair),
  losses: array(PreviewPair),
  gained: integer(),
  lost: integer(),
  identitiesGaining: integer(),
  identitiesLosing: integer(),
  doorsGaining: integer(),
  doorsLosing: integer(),
});
export type AccessPreview = Infer<typeof AccessPreviewShape>;
/** Who would gain and lose which doors over the next 7 days if these form values were saved (nothing is saved). */
export const previewAccessChange = (resource: string, id: number | null, values: Record<string, unknown>) =>
  send('post', API.accessPreview, { resource, id, values }, AccessPreviewShape);

// ---------- who is inside an access zone (issue 12) ----------
export const zoneOccupancy = () => getJson(`${RESOURCE_INDEX.accessZones.api}/occupancy`, ZoneOccupancy);
export const zoneOccupants = (id: number) => getJson(`${RESOURCE_INDEX.accessZones.api}/${id}/occupants`, ZoneOccupants);
export const forgiveInZone = (id: number, identityId: number) => send('post', `${RESOURCE_INDEX.accessZones.api}/${id}/forgive`, { identityId }, Anything);

// ---------- threat levels in force (issue 12) ----------
const ThreatLevelPage = type({ items: array(type({ id: integer(), name: string(), rank: integer(), mode: string() })) });
export const threatLevelChoices = () => getJson(RESOURCE_INDEX.threatLevels.api, ThreatLevelPage, { size: 100, sort: 'rank,asc' });
export const threatCurrent = () => getJson(`${RESOURCE_INDEX.threatLevels.api}/current`, ThreatState);
export const setThreatLevel = (levelId: number | null, divisionId: number | null, minutes: number | null) =>
  send('post', `${RESOURCE_INDEX.threatLevels.api}/current`, { levelId, divisionId, minutes }, ThreatState);
/** What a holder of door control may set (0.4.5.4): the levels, their sites, whether the whole client. */
export const threatSetChoices = () => getJson(`${RESOURCE_INDEX.threatLevels.api}/current/choices`, ThreatChoices);

/** Batch add visitor credentials [1.2.4]: a numbered box of cards, all or none. */
export const addVisitorCredentials = (b: VisitorCredentialBatch) => send('post', VISITOR_CREDENTIAL_BATCH_API, b, VisitorCredentialBatchResult);

/** Issue 31: the client's audit chain walked now (the activity report's "chain verified up to …"). */
export const AuditChainReport = type({
  ok: boolean(),
  chains: integer(),
  records: integer(),
  upTo: nullable(type({ seq: integer(), id: integer(), at: string() })),
  head: nullable(type({ seq: integer(), signedAt: string() })),
  /** what is wrong, with its sentence's key and values (issue 48: said in the auditor's language) */
  problem: nullable(type({ message: string(), code: optional(SentenceKey), values: optional(SentenceValues) })),
  /** issue 45: the last head written to the witness outside the database (null: none, or no witness configured) */
  witnessed: optional(nullable(type({ seq: integer(), signedAt: string() }))),
  /** whether the installation keeps a witness at all (AUDIT_WITNESS_DIR) */
  witnessing: optional(boolean()),
});
export type AuditChainReport = Infer<typeof AuditChainReport>;
export const auditChainVerify = () => getJson(`${API.audit}/verify`, AuditChainReport);
/** The chain as a file an auditor checks offline (`npm run audit -- verify-export FILE`). */
export const auditChainExport = () => fileAt(`${API.audit}/export`);

// ---------- issue 31: alarm handling, measured [0.6.7.0] ----------
/** The figures of a period of days (the client's zone). */
export const getAlarmHandling = (q: { from: string; to: string }) => getJson(ALARM_HANDLING_API, AlarmHandlingReport, { from: q.from, to: q.to });
/** The same as a CSV or XLSX file (the server's tabular writer). */
export const alarmHandlingFile = (q: Required<AlarmHandlingQuery>) =>
  fileAt(`${ALARM_HANDLING_API}?${new URLSearchParams({ from: q.from, to: q.to, format: q.format })}`);
export type { AlarmHandlingReport };

/** Issue 50: the acknowledged handovers, newest first (who, when, the note for the next shift). */
export const listHandovers = () => getJson(`${HANDOVER_API}/history`, HandoverHistory);
