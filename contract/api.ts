// REST paths: one base URL serves all services (§7). Both sides import these.
export const API = {
  login: '/idp/1.0/login',
  me: '/idp/1.0/me',
  meSettings: '/idp/1.0/me/settings',
  meProfile: '/idp/1.0/me/profile',
  meClient: '/idp/1.0/me/client', // select the working client (multi-tenant users)
  logout: '/idp/1.0/logout',
  // issue 49, IAM mode: the identity providers offered on the sign-in page, a sign-in's start and return, and the
  // one-time ticket the console exchanges for its session (contract/iam.ts)
  iamProviders: '/idp/1.0/iam/providers',
  oidcStart: '/idp/1.0/oidc/start',
  oidcCallback: '/idp/1.0/oidc/callback',
  iamExchange: '/idp/1.0/iam/exchange',
  // a client's SAML 2.0 provider: its start (an AuthnRequest by HTTP-Redirect), the assertion consumer service (HTTP-POST)
  // and Gatehouse's service provider metadata (`?provider=idp-<id>`)
  samlStart: '/idp/1.0/saml/start',
  samlAcs: '/idp/1.0/saml/acs',
  samlMetadata: '/idp/1.0/saml/metadata',
  samlSlo: '/idp/1.0/saml/slo',
  resetInit: '/idp/1.0/operators/reset-password/init',
  resetFinish: '/idp/1.0/operators/reset-password/finish',
  registration: '/idp/1.0/registration-requests',
  changePassword: '/event/manage/identity/change-password',
  clients: '/central/1.0/clients',
  divisions: '/event/manage/divisions',
  identities: '/event/manage/identities',
  identitiesBulkDelete: '/event/manage/identities/bulk-delete',
  // issue 11: user-defined fields, identity batch templates and upload (`/preview`, `/import`), licenses
  userFields: '/event/manage/user-fields',
  batchTemplates: '/event/manage/identity-batch-templates',
  batchUpload: '/event/manage/identity-batch-upload',
  /** issue 12: who gains and loses which doors if a form's access group, schedule or special date were saved */
  accessPreview: '/event/manage/access-preview',
  licenses: '/event/manage/licenses',
  dashboard: '/event/manage/dashboard',
  audit: '/event/manage/audit',
  uiErrors: '/central/1.0/ui-errors',
  health: '/api/health',
  // monitor (issue 4): open alarms, acknowledge/process (`/:id/acknowledge`, `/:id/process`), history (`/:id/history`)
  alarms: '/event/manage/alarms',
  alarmTypes: '/event/manage/alarm-types',
  events: '/event/manage/events',
  // history export (issue 4): ?format=csv|ndjson and the list's filters; `/progress` is the same as a text/event-stream
  eventsExport: '/event/manage/events/export',
  eventsExportProgress: '/event/manage/events/export/progress',
  doors: '/event/manage/doors',
  interfaces: '/event/manage/interfaces', // `/:id/commands` {command}
  // visitors (issue 5): register (POST), list, one (`/:id`), badge printed (`/:id/badge-printed`)
  visitors: '/visitor/1.0/visitors',
  /** Scheduled report jobs (contract/resources/reportJobs.ts); `/:id/runs` their reports. */
  reportJobs: '/report/1.0/scheduled-jobs',
  /** Backups of the whole installation (platform, 0.7.2.0): list, take, download, delete, restore, upload. */
  backups: '/central/1.0/backups',
  /** The backups' history (audit rows of no client): backups taken, deleted, uploaded, restored, and the auto-backup
   *  settings changed; newest first (platform, 0.7.2.0). */
  platformHistory: '/central/1.0/backups/history',
  /** Auto-backup settings (platform singleton, 0.7.2.1). */
  autoBackup: '/central/1.0/auto-backup',
  // session replay (issue 4): POST `/:recording` appends an NDJSON chunk; GET lists [0.8.2.0]; GET `/:id` the NDJSON
  sessionJournals: '/central/1.0/session-journals',
  // Monitor sessions (issue 4): GET lists [0.2.4.0 / 0.2.5.0], POST `/end` {ids} ends them [0.2.4.1 / 0.2.5.1]
  operatorSessions: '/idp/1.0/operator-sessions',
  serviceAccountSessions: '/idp/1.0/service-account-sessions',
  // Manage: access administration (issue 11). Roles: `/:id/assign-privileges` {privileges:[{code, divisionId}]} [0.3.6.4];
  // privileges: the catalogue with the roles holding each code [0.3.5.0]; operators: create, `/:id/disable|enable|
  // reset-password` [0.3.3.x]; operator settings GET/PUT [0.3.7.0].
  roles: '/event/manage/roles',
  privileges: '/event/manage/privileges',
  operatorGroups: '/event/manage/operator-groups',
  operators: '/event/manage/operators',
  operatorSettings: '/event/manage/operator-settings',
  /** The device interface (issue 13): POST a batch of controller events with the ingest token (contract/ingest.ts). */
  deviceEvents: '/api/devices/events',
  /** GET with the ingest token: the controllers the device interface knows ({id, name}), for a device simulator. */
  deviceControllers: '/api/devices/controllers',
  /** Batch add of visitor credentials [1.2.4] (contract/resources/visitorSetup.ts). */
  visitorCredentialBatch: '/visitor/1.0/credentials/batch-add',
  /** Time and attendance (contract/attendanceDaily.ts): a day [3.2.0], a period's summary [3.6.0], building the
   *  timesheet of a period [3.3] (its days are then the timesheet resource, amended at [3.4]). */
  dailyAttendance: '/event/attendance/daily',
  attendanceSummaries: '/event/attendance/summaries',
  timesheetBuild: '/event/attendance/timesheet-build',
  /** Test-only (E2E=1 or NODE_ENV=test): force a simulator event. */
  testSimulate: '/api/test/simulate',
  /** Test-only: the door relocks due within {ms} happen now (end-to-end tests do not wait for a momentary unlock). */
  testDoorsFastForward: '/api/test/doors/fast-forward',
} as const;

/** §7: sort parameters are field,asc or field,desc joined by commas. */
export type SortSpec = { field: string; dir: 'asc' | 'desc' };
export function buildSort(sorts: SortSpec[]): string {
  return sorts.map((s) => `${s.field},${s.dir}`).join(',');
}
export function parseSort(sort: string | undefined, allowed: readonly string[]): SortSpec[] {
  if (!sort) return [];
  const parts = sort.split(',');
  const out: SortSpec[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const field = parts[i].trim();
    const dir = parts[i + 1].trim().toLowerCase();
    if (!allowed.includes(field) || (dir !== 'asc' && dir !== 'desc')) throw new Error(`cannot sort by ${field},${dir}`);
    out.push({ field, dir });
  }
  if (parts.length % 2 !== 0) throw new Error('sort must be field,asc|desc pairs');
  return out;
}
