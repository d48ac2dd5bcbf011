// What the routes registered outside server/http validate and answer, for the API description (issue 48): keyed by
// 'METHOD /path' as Fastify registers them, each the contract struct the handler itself validates with (`body()` and
// `query()` of server/http/kit.ts) and the one the console checks the answer with (src/api/endpoints.ts). A route of
// server/http declares the same in its own config; the catalogue's are derived from its declarations (catalogueDocs).
// server/openapi/openapi.test.ts fails when a body here differs from the one the handler validates with, or an answer
// does not pass its struct.
import type { Struct } from 'superstruct';
import { array, boolean, integer, nullable, string, type } from 'superstruct';
import {
  API,
  ATTENDANCE_SUMMARY_API,
  AssignPrivilegesRequest,
  AttendanceSummary,
  AttendanceSummaryQuery,
  DAILY_ATTENDANCE_API,
  DailyAttendance,
  DailyAttendanceQuery,
  TimesheetBuild,
  TimesheetBuildResult,
  BackupInfo,
  BackupList,
  BulkDeleteRequest,
  CATALOGUE,
  CreateOperatorRequest,
  ForgiveBody,
  ForwardAlarmBody,
  ForwardTargets,
  ForwardedAnswer,
  LoginResponse,
  MFA_API,
  OperatorSettingsSchema,
  Page,
  PasswordConfirmRequest,
  PlatformHistory,
  RedeliverRequest,
  ResetPasswordRequest,
  RestoreStarted,
  SecondFactorRequest,
  ShelveAlarmBody,
  ShelvedAnswer,
  ThreatChoices,
  ThreatSetBody,
  ThreatState,
  TicketRequest,
  TotpConfirmRequest,
  VISITOR_CREDENTIAL_BATCH_API,
  VisitorCredentialBatch,
  VisitorCredentialBatchResult,
  WebHookAttemptPage,
  WebHookAttemptQuery,
  ZoneOccupancy,
  ZoneOccupants,
  accessZonesResource,
  apiPaths,
  inputSchema,
  listQuerySchema,
  rowSchema,
  rolesResource,
  threatLevelsResource,
  webHooksResource,
} from '../../contract';
import { BatchErrorReport } from '../../contract/batchUpload';
import { EnrolmentDone, MfaChallenge, MfaStatus, SignInAnswer, TotpEnrolment } from '../../contract/mfa';
import { PreviewRequest } from '../access/routes';
import { LicenseInput } from '../resources/licenses';
import { STRUCT_PARTS } from './jsonSchema';
import { IamExchangeRequest, IamExchangeResponse, IamProviders } from '../../contract/iam';
import { ReportJobRun, ReportJobRuns, reportJobsResource } from '../../contract/resources/reportJobs';
import { ALARM_HANDLING_API, AlarmHandlingQuery, AlarmHandlingReport } from '../../contract/alarmHandling';
import { AcknowledgeHandoverBody, HANDOVER_API, HandoverAcknowledged, HandoverDigest, HandoverHistory, HandoverQuery } from '../../contract/handover';

/** What a route validates and answers: contract structs; `file` for an answer that is a download (CSV, archive, …). */
export interface RouteDoc {
  body?: Struct<any, any>;
  query?: Struct<any, any>;
  response?: Struct<any, any> | 'file';
  /** The status of a success when it is not 200 (201 created, 202 accepted, 204 no content). */
  status?: 201 | 202 | 204;
  summary?: string;
}

STRUCT_PARTS.set(SignInAnswer, [LoginResponse, MfaChallenge]);

const ZONES = accessZonesResource.api;
const THREAT = `${threatLevelsResource.api}/current`;
const JOBS = reportJobsResource.api;
const Changed = type({ id: integer() });
const Deleted = type({ deleted: integer() });
const Ok = type({ ok: boolean() });

/** Routes of server/auth, server/access, server/alarms, server/backup, server/resources, server/webhooks, server/batch,
 *  and those of server/http whose files are being reworked elsewhere (attendance, alarm handling, the shift handover,
 *  device ingest). */
export const DECLARED: Record<string, RouteDoc> = {
  // reports: attendance [3.2.0, 3.6.0, 3.3] and alarm handling [0.6.7.0] (a file when `format` asks for one)
  [`GET ${DAILY_ATTENDANCE_API}`]: { query: DailyAttendanceQuery, response: DailyAttendance, summary: "One day of the client's teams" },
  [`GET ${ATTENDANCE_SUMMARY_API}`]: { query: AttendanceSummaryQuery, response: AttendanceSummary, summary: "Each member's days of a period" },
  [`POST ${API.timesheetBuild}`]: { body: TimesheetBuild, response: TimesheetBuildResult, summary: "Writes a period's days into the timesheet" },
  // the shift handover [0.2.6.0, 0.2.6.1]
  [`GET ${HANDOVER_API}/latest`]: { response: HandoverDigest, summary: 'The digest of the shift that ended last' },
  [`GET ${HANDOVER_API}`]: { query: HandoverQuery, response: HandoverDigest, summary: 'The digest of the shift ending at `end`' },
  [`GET ${HANDOVER_API}/history`]: { response: HandoverHistory, summary: 'The acknowledged handovers, newest first' },
  [`GET ${HANDOVER_API}/:id`]: { response: HandoverDigest, summary: 'One acknowledged handover' },
  [`POST ${HANDOVER_API}/acknowledge`]: {
    body: AcknowledgeHandoverBody,
    response: HandoverAcknowledged,
    summary: 'Acknowledges a shift, with a note for the next',
  },
  [`GET ${ALARM_HANDLING_API}`]: { query: AlarmHandlingQuery, response: AlarmHandlingReport, summary: 'How alarms were handled over a period' },
  // server/auth: the second step of a sign-in, TOTP enrolment, single sign-on
  [`POST ${MFA_API.secondFactor}`]: { body: SecondFactorRequest, response: LoginResponse, summary: 'The second step of a sign-in' },
  [`GET ${MFA_API.status}`]: { response: MfaStatus, summary: "The signed-in operator's second factors" },
  [`POST ${MFA_API.totpInit}`]: { body: TicketRequest, response: TotpEnrolment, summary: 'A new TOTP secret to enrol' },
  [`POST ${MFA_API.totp}`]: { body: TotpConfirmRequest, response: EnrolmentDone, summary: 'Confirms a TOTP enrolment' },
  [`POST ${MFA_API.totpRemove}`]: { body: PasswordConfirmRequest, response: MfaStatus, summary: 'Removes TOTP' },
  [`GET ${API.iamProviders}`]: { response: IamProviders, summary: 'The identity providers a sign-in may use' },
  [`POST ${API.iamExchange}`]: { body: IamExchangeRequest, response: IamExchangeResponse, summary: "An identity provider's ticket for a session" },
  // server/access: who is inside, what a change would do, threat levels in force
  [`GET ${ZONES}/occupancy`]: { response: ZoneOccupancy, summary: 'How many are inside each access zone' },
  [`GET ${ZONES}/:id/occupants`]: { response: ZoneOccupants, summary: 'Who is inside an access zone' },
  [`POST ${ZONES}/:id/forgive`]: {
    body: ForgiveBody,
    response: type({ identityId: integer(), name: string(), zone: string() }),
    summary: "Forgives an identity's anti-passback in a zone",
  },
  [`POST ${API.accessPreview}`]: { body: PreviewRequest, summary: 'Who would gain and lose which doors if these values were saved (nothing is saved)' },
  [`GET ${THREAT}`]: { response: ThreatState, summary: 'The threat level in force' },
  [`GET ${THREAT}/choices`]: { response: ThreatChoices, summary: 'The levels and sites a caller may set' },
  [`POST ${THREAT}`]: { body: ThreatSetBody, response: ThreatState, summary: 'Sets the threat level' },
  // server/alarms: alarm management
  [`POST ${API.alarms}/shelve`]: { body: ShelveAlarmBody, response: ShelvedAnswer, summary: "Shelves an alarm's source for a while" },
  [`POST ${API.alarms}/:id/forward`]: { body: ForwardAlarmBody, response: ForwardedAnswer, summary: 'Forwards an alarm to an operator or group' },
  [`GET ${API.alarms}/forward-targets`]: { response: ForwardTargets, summary: 'Who an alarm may be forwarded to' },
  // server/backup
  [`GET ${API.backups}`]: { response: BackupList, summary: 'The stored backups' },
  [`GET ${API.platformHistory}`]: { response: PlatformHistory, summary: 'Backups and restores, newest first' },
  [`POST ${API.backups}`]: { status: 201, response: BackupInfo, summary: 'Takes a backup now' },
  [`DELETE ${API.backups}/:id`]: { status: 204, summary: 'Deletes a backup' },
  [`GET ${API.backups}/:id/file`]: { response: 'file', summary: "A backup's archive" },
  [`POST ${API.backups}/:id/restore`]: { status: 202, response: RestoreStarted, summary: 'Restores a backup' },
  [`POST ${API.backups}/upload`]: { status: 201, response: BackupInfo, summary: 'Uploads a backup archive (the body is the file)' },
  // server/resources: operators, roles' privileges, report jobs, web hooks, visitor credentials
  [`POST ${API.operators}`]: { body: CreateOperatorRequest, status: 201, summary: 'Adds an operator to the client' },
  [`POST ${API.operators}/:id/disable`]: { response: Changed, summary: "Disables an operator's account" },
  [`POST ${API.operators}/:id/enable`]: { response: Changed, summary: "Enables an operator's account" },
  [`POST ${API.operators}/:id/remove`]: { response: Changed, summary: 'Removes an operator from the client' },
  [`POST ${API.operators}/:id/reset-password`]: { body: ResetPasswordRequest, response: Ok, summary: "Sets an operator's password" },
  [`GET ${API.privileges}`]: {
    response: array(
      type({ code: string(), label: string(), platform: boolean(), roles: array(type({ id: integer(), name: string(), divisionId: nullable(integer()) })) }),
    ),
    summary: 'Every privilege and the roles that hold it',
  },
  [`GET ${rolesResource.api}/:id/privileges`]: {
    response: type({ privileges: array(type({ code: string(), divisionId: nullable(integer()) })) }),
    summary: "A role's privileges",
  },
  [`GET ${API.operatorSettings}`]: { response: OperatorSettingsSchema, summary: "The client's operator settings" },
  [`PUT ${API.operatorSettings}`]: { body: OperatorSettingsSchema, response: OperatorSettingsSchema, summary: "Changes the client's operator settings" },
  [`POST ${rolesResource.api}/:id/assign-privileges`]: {
    body: AssignPrivilegesRequest,
    response: type({ id: integer(), name: string() }),
    summary: "Sets a role's privileges",
  },
  [`GET ${JOBS}/:id/runs`]: { response: ReportJobRuns, summary: "A report job's runs" },
  [`POST ${JOBS}/:id/runs/:runId/retry`]: { response: ReportJobRun, summary: 'Makes a failed run again' },
  [`GET ${JOBS}/:id/runs/:runId/file`]: { response: 'file', summary: "A run's report file" },
  [`GET ${webHooksResource.api}/:id/attempts`]: { query: WebHookAttemptQuery, response: WebHookAttemptPage, summary: "A web hook's delivery attempts" },
  [`POST ${webHooksResource.api}/:id/redeliver`]: { body: RedeliverRequest, response: Ok, summary: 'Delivers a past event again' },
  [`POST ${VISITOR_CREDENTIAL_BATCH_API}`]: {
    body: VisitorCredentialBatch,
    status: 201,
    response: VisitorCredentialBatchResult,
    summary: 'Adds a box of visitor cards',
  },
  [`PUT ${API.licenses}/:id`]: { body: LicenseInput, summary: 'Applies a license key' },
  // server/batch, server/audit: files
  [`POST ${API.batchUpload}`]: { status: 201, summary: 'A dry run of an identity file (CSV or XLSX as the body, ?templateId=)' },
  [`GET ${API.batchUpload}/:id/errors`]: { response: BatchErrorReport, summary: "An upload's rows in error, each problem with its key" },
  [`GET ${API.batchUpload}/:id/errors.csv`]: { response: 'file', summary: "An upload's rows in error, as a CSV file (English)" },
  [`GET ${API.audit}/export`]: { response: 'file', summary: 'The audit chain, to verify offline' },
  [`GET ${API.audit}/public-key`]: { response: 'file', summary: 'The public key the audit chain is signed with (PEM)' },
};

/** The catalogue's routes (server/crud), from its declarations: the row, a page of rows, the input and the list query. */
export function catalogueDocs(): Record<string, RouteDoc> {
  const out: Record<string, RouteDoc> = {};
  for (const d of CATALOGUE) {
    const p = apiPaths(d);
    const Row = rowSchema(d);
    const label = d.label.one.toLowerCase();
    out[`GET ${p.list}`] = { query: listQuerySchema(d), response: d.singleton ? Row : Page(Row), summary: d.label.many };
    out[`GET ${p.one}`] = { response: Row, summary: `One ${label}` };
    out[`POST ${p.list}`] = { body: inputSchema(d), status: 201, response: Row, summary: `Adds a ${label}` };
    out[`PUT ${p.one}`] = { body: inputSchema(d), response: Row, summary: `Changes a ${label}` };
    out[`PUT ${p.list}`] = { body: inputSchema(d), response: Row, summary: `Changes the ${label}` };
    out[`DELETE ${p.one}`] = { response: Deleted, summary: `Deletes a ${label}` };
    out[`POST ${p.bulkDelete}`] = { body: BulkDeleteRequest, response: Deleted, summary: `Deletes ${d.label.many.toLowerCase()}` };
    out[`GET ${p.options}`] = {
      response: type({ items: array(type({ id: integer(), label: string() })) }),
      summary: `A picker's ${d.label.many.toLowerCase()}`,
    };
    out[`GET ${p.export}`] = { response: 'file', summary: `${d.label.many} as CSV or XLSX` };
    for (const a of d.screens?.rowActions ?? []) out[`POST ${p.action(a.action)}`] = { response: Row, summary: a.label };
  }
  return out;
}

/** A catalogue resource's named action (`POST …/:id/<name>`, server/resources hooks) answers the row as it is after it. */
export function actionDoc(method: string, url: string, docs: Record<string, RouteDoc>): RouteDoc | undefined {
  const one = /^(.+\/:id)\/[A-Za-z-]+$/.exec(url)?.[1];
  const row = one && method === 'POST' ? docs[`GET ${one}`]?.response : undefined;
  return row ? { response: row } : undefined;
}
