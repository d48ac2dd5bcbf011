// The privilege catalogue (§2, §6). Codes the spec names are kept exactly; every "{ip}" of the spec got a
// code in the same hierarchy (section.group.item.action: .0 view, .1 add, .2 edit, .3 delete unless the
// spec says otherwise). Both the console (menus, guard) and the server (per route, per division) use it.
export interface PrivilegeDef {
  code: string;
  label: string;
}

const P = (code: string, label: string): PrivilegeDef => ({ code, label });
const crud = (base: string, what: string, del = true): PrivilegeDef[] => [
  P(`${base}.0`, `View ${what}`),
  P(`${base}.1`, `Add ${what}`),
  P(`${base}.2`, `Edit ${what}`),
  ...(del ? [P(`${base}.3`, `Delete ${what}`)] : []),
];

/** The specification's privileges (§2, §6), by hand: a catalogue resource's codes that are not here get their entries
 *  from its declaration (../privilegeCatalogue.ts PRIVILEGES, the list everything else reads). */
export const SPEC_PRIVILEGES: PrivilegeDef[] = [
  P('0.1', 'Dashboard'),
  // Monitor
  P('0.2.1.0', 'View alarms'),
  P('0.2.1.1', 'Acknowledge and process alarms'),
  // issue 50 (ISA-18.2): shelving an alarm source for a time, and forwarding an alarm to another operator or group
  P('0.2.1.2', 'Shelve alarm sources'),
  P('0.2.1.3', 'Forward alarms'),
  P('0.2.2.0', 'View live events'),
  P('0.2.3.0', 'View floor plan monitor'),
  P('0.2.4.0', 'View operator sessions'),
  P('0.2.4.1', 'End operator sessions'),
  P('0.2.5.0', 'View service account sessions'),
  P('0.2.5.1', 'End service account sessions'),
  // issue 31: the shift handover, the next monitor item (0.2.6): view .0, acknowledge (with a note for the next
  // shift) .1, and the shift boundaries it is cut at .2 (an administrator's, as the alarm target times are)
  P('0.2.6.0', 'View the shift handover'),
  P('0.2.6.1', 'Acknowledge the shift handover'),
  P('0.2.6.2', 'Shift settings'),
  // Manage
  ...crud('0.3.1', 'identities'),
  P('0.3.1.6', 'View identity batch templates'),
  P('0.3.1.7', 'Add identity batch templates'),
  P('0.3.1.8', 'Edit identity batch templates'),
  P('0.3.1.9', 'Batch upload identities'),
  P('0.3.2.0', 'View licenses'),
  P('0.3.2.2', 'Edit licenses'),
  ...crud('0.3.3', 'operator groups'),
  P('0.3.4.0', 'View user-defined fields'),
  P('0.3.4.1', 'Add user-defined fields'),
  P('0.3.4.2', 'Edit user-defined fields'),
  P('0.3.4.4', 'View web hooks'),
  P('0.3.4.5', 'Add web hooks'),
  P('0.3.4.6', 'Edit web hooks'),
  P('0.3.4.7', 'View web hook histories'),
  ...crud('0.3.5', 'privileges'),
  ...crud('0.3.6', 'roles'),
  P('0.3.6.4', 'Assign privileges to roles'),
  P('0.3.7.0', 'Operator settings'),
  P('0.3.8.0', 'View service accounts'),
  P('0.3.8.1', 'Add service accounts'),
  P('0.3.8.2', 'Edit service accounts'),
  // issue 49: a client's own identity providers (OpenID Connect, SAML 2.0), the next Manage group after service accounts
  ...crud('0.3.9', 'identity providers'),
  // Configure
  P('0.4.1.0', 'Calendar'),
  ...crud('0.4.2', 'access zones'),
  ...crud('0.4.3', 'access groups'),
  ...crud('0.4.4', 'overrides'),
  ...crud('0.4.5', 'doors'),
  P('0.4.5.4', 'Control doors (lock, unlock)'),
  P('0.4.5.5', 'Door QR codes'),
  ...crud('0.4.6', 'elevator masking'),
  ...crud('0.4.7', 'alarm groups'),
  P('0.4.7.4', 'Arm and disarm alarm zones'),
  P('0.4.7.5', 'Alarm notifications'),
  P('0.4.7.6', 'Alarm settings'), // issue 31: the target times per priority the alarm handling report measures against
  P('0.4.9.0', 'View divisions'),
  P('0.4.9.1', 'Add divisions'),
  P('0.4.9.2', 'Edit divisions'),
  P('0.4.9.3', 'Delete divisions'),
  ...crud('0.4.8', 'logical blocks'),
  ...crud('0.4.10', 'interlocking groups'),
  ...crud('0.4.11', 'schedules'),
  ...crud('0.4.13', 'special dates'),
  ...crud('0.4.15', 'floor plans'),
  // Hardware
  ...crud('0.5.1', 'interfaces'),
  ...crud('0.5.2', 'card formats'),
  ...crud('0.5.3', 'inputs'),
  ...crud('0.5.4', 'outputs'),
  ...crud('0.5.5', 'card readers'),
  P('0.5.6.0', 'View controllers'),
  P('0.5.6.2', 'Edit controller settings'),
  P('0.5.6.4', 'Controller diagnostics'),
  P('0.5.6.6', 'Send device events (device interface)'),
  P('0.5.7.0', 'Controller hub'),
  // Report
  P('0.6.1.0', 'Activity report'),
  P('0.6.2.0', 'Event report'),
  P('0.6.3.0', 'Identity report'),
  P('0.6.4.0', 'Identity location report'),
  P('0.6.5.0', 'View scheduled report jobs'),
  P('0.6.5.1', 'Add scheduled report jobs'),
  P('0.6.5.2', 'Edit scheduled report jobs'),
  P('0.6.6.3', 'View credential store'),
  P('0.6.6.4', 'Add credential store'),
  P('0.6.6.5', 'Edit credential store'),
  // issue 31: a report's code is 0.6.<n>.0 (view); the next free report number after 0.6.6 (credential store)
  P('0.6.7.0', 'Alarm handling report'),
  // Server
  P('0.7.1.0', 'Firmware'),
  P('0.7.2.0', 'Backup and restore'),
  P('0.7.2.1', 'Auto-backup settings'),
  P('0.7.3.0', 'Central properties: general'),
  P('0.7.3.1', 'Central properties: floor plan'),
  P('0.7.4.0', 'Company ID'),
  P('0.7.5.0', 'Visitor properties'),
  // Audit
  P('0.8.1.0', 'Export the event journal'),
  P('0.8.2.0', 'View session replays'),
  P('0.8.3.0', 'View the UI error log'),
  // Visitor
  P('1.0.0', 'Visitor management'),
  P('1.0.1', 'Register visitors'),
  P('1.0.2', 'Sign visitors in'),
  P('1.0.3', 'Visitor list'),
  P('1.0.5', 'Visit details'),
  P('1.0.7', 'Sign visitors out'),
  P('1.0.10', 'Print record'),
  P('1.1.0', 'View visitor tenants'),
  P('1.1.1', 'Add visitor tenants'),
  P('1.1.2', 'Edit visitor tenants'),
  P('1.2.0', 'View visitor credentials'),
  P('1.2.1', 'Add visitor credentials'),
  P('1.2.2', 'Edit visitor credentials'),
  P('1.2.4', 'Batch add visitor credentials'),
  P('1.3.0', 'View visit types'),
  P('1.3.1', 'Add visit types'),
  P('1.3.2', 'Edit visit types'),
  P('1.4.0', 'View visit requests'),
  P('1.4.1', 'Approve visit requests'),
  // issue 50: the visitor watchlist (deny and watch entries) and the front desk's decision on a registration it matched
  ...crud('1.5', 'visitor watchlist entries'),
  P('1.5.4', 'Decide visitor watchlist matches'),
  // Video
  P('2.0.0', 'Video'),
  // Attendance
  P('3.0.0', 'View teams'),
  P('3.0.1', 'Add teams'),
  P('3.0.2', 'Edit teams'),
  P('3.1.0', 'View work schedules'),
  P('3.1.1', 'Add work schedules'),
  P('3.1.2', 'Edit work schedules'),
  P('3.2.0', 'Daily attendance'),
  P('3.3', 'Build timesheet'),
  P('3.4', 'Amend timesheet'),
  P('3.5.0', 'Attendance properties'),
  P('3.6.0', 'Attendance summaries'),
  P('3.7.0', 'View leave categories'),
  P('3.7.1', 'Add leave categories'),
  P('3.7.2', 'Edit leave categories'),
  P('3.8.0', 'View leave'),
  P('3.8.1', 'Add leave'),
  P('3.8.2', 'Approve leave'), // issue 50: a team's manager approves or rejects its members' leave (never their own)
  P('3.8.3', 'Request own leave'), // issue 50: a member of staff files and follows their own leave, seeing nobody else's
  P('3.9.0', 'View attendance report jobs'),
  P('3.9.1', 'Add attendance report jobs'),
  P('3.9.2', 'Edit attendance report jobs'),
  // Clients (multi-tenancy)
  P('9.2.0', 'View clients'),
  P('9.2.1', 'Add clients (platform operators)'),
  P('9.2.2', 'Edit clients'),
];

/** Named codes used by code (not only by the route table). */
export const PRIV = {
  dashboard: '0.1',
  alarms: { view: '0.2.1.0', act: '0.2.1.1', shelve: '0.2.1.2', forward: '0.2.1.3' },
  events: { view: '0.2.2.0' },
  operatorSessions: { view: '0.2.4.0', end: '0.2.4.1' },
  serviceSessions: { view: '0.2.5.0', end: '0.2.5.1' },
  doors: { view: '0.4.5.0', add: '0.4.5.1', edit: '0.4.5.2', delete: '0.4.5.3', control: '0.4.5.4', qr: '0.4.5.5' },
  identities: { view: '0.3.1.0', add: '0.3.1.1', edit: '0.3.1.2', delete: '0.3.1.3' },
  clients: { view: '9.2.0', add: '9.2.1', edit: '9.2.2' },
  divisions: { view: '0.4.9.0', add: '0.4.9.1', edit: '0.4.9.2', delete: '0.4.9.3' },
  serviceAccounts: { view: '0.3.8.0', add: '0.3.8.1', edit: '0.3.8.2' },
  webHooks: { view: '0.3.4.4', add: '0.3.4.5', edit: '0.3.4.6', histories: '0.3.4.7' },
  /** Issue 49: a client's identity providers (contract/resources/identityProviders.ts, server/auth/iam). */
  identityProviders: { view: '0.3.9.0', add: '0.3.9.1', edit: '0.3.9.2', delete: '0.3.9.3' },
  /** The device interface (issue 13): a service account's key whose role holds it may post its client's controller events. */
  deviceIngest: '0.5.6.6',
  operatorGroups: { view: '0.3.3.0', add: '0.3.3.1', edit: '0.3.3.2', delete: '0.3.3.3' },
  privileges: { view: '0.3.5.0' },
  roles: { view: '0.3.6.0', add: '0.3.6.1', edit: '0.3.6.2', delete: '0.3.6.3', assign: '0.3.6.4' },
  operatorSettings: '0.3.7.0',
  activityReport: '0.6.1.0',
  eventReport: '0.6.2.0',
  identityReport: '0.6.3.0',
  identityLocationReport: '0.6.4.0',
  /** Issue 31: alarm handling measured (server/http/alarmHandling.ts), division-scoped like the alarms. */
  alarmHandlingReport: '0.6.7.0',
  /** Issue 31: the alarm settings singleton (target times per priority). */
  alarmSettings: '0.4.7.6',
  /** Issue 31: the shift handover (server/http/handover.ts) and the shift boundaries (contract/resources/shiftSettings.ts). */
  handover: { view: '0.2.6.0', acknowledge: '0.2.6.1', settings: '0.2.6.2' },
  journalExport: '0.8.1.0',
  sessionReplays: '0.8.2.0',
  errorLog: '0.8.3.0',
  printRecord: '1.0.10',
  /** Visitor management's main screen: today's visits [1.0.0]. */
  visitorsToday: '1.0.0',
  visitors: { view: '1.0.3', add: '1.0.1', details: '1.0.5', signIn: '1.0.2', signOut: '1.0.7' },
  // issue 12: access configuration
  accessZones: { view: '0.4.2.0', add: '0.4.2.1', edit: '0.4.2.2', delete: '0.4.2.3' },
  accessGroups: { view: '0.4.3.0', add: '0.4.3.1', edit: '0.4.3.2', delete: '0.4.3.3' },
  interlocks: { view: '0.4.10.0', add: '0.4.10.1', edit: '0.4.10.2', delete: '0.4.10.3' },
  overrides: { view: '0.4.4.0', add: '0.4.4.1', edit: '0.4.4.2', delete: '0.4.4.3' },
  calendar: '0.4.1.0',
  alarmGroups: { view: '0.4.7.0', add: '0.4.7.1', edit: '0.4.7.2', delete: '0.4.7.3', arm: '0.4.7.4', notifications: '0.4.7.5' },
  schedules: { view: '0.4.11.0', add: '0.4.11.1', edit: '0.4.11.2', delete: '0.4.11.3' },
  specialDates: { view: '0.4.13.0', add: '0.4.13.1', edit: '0.4.13.2', delete: '0.4.13.3' },
  cardFormats: { view: '0.5.2.0', add: '0.5.2.1', edit: '0.5.2.2', delete: '0.5.2.3' },
  // issue 12: hardware
  controllers: { view: '0.5.6.0', edit: '0.5.6.2', diagnostics: '0.5.6.4' },
  cardReaders: { view: '0.5.5.0', add: '0.5.5.1', edit: '0.5.5.2', delete: '0.5.5.3' },
  inputs: { view: '0.5.3.0', add: '0.5.3.1', edit: '0.5.3.2', delete: '0.5.3.3' },
  outputs: { view: '0.5.4.0', add: '0.5.4.1', edit: '0.5.4.2', delete: '0.5.4.3' },
  interfaces: { view: '0.5.1.0', add: '0.5.1.1', edit: '0.5.1.2', delete: '0.5.1.3' },
  // the visitor section's set-up lists and the attendance set-up (no delete codes: rows are switched off)
  visitorTenants: { view: '1.1.0', add: '1.1.1', edit: '1.1.2' },
  visitorCredentials: { view: '1.2.0', add: '1.2.1', edit: '1.2.2', batchAdd: '1.2.4' },
  visitTypes: { view: '1.3.0', add: '1.3.1', edit: '1.3.2' },
  visitRequests: { view: '1.4.0', approve: '1.4.1' },
  visitorWatchlist: { view: '1.5.0', add: '1.5.1', edit: '1.5.2', delete: '1.5.3', decide: '1.5.4' },
  teams: { view: '3.0.0', add: '3.0.1', edit: '3.0.2' },
  workSchedules: { view: '3.1.0', add: '3.1.1', edit: '3.1.2' },
  leaveCategories: { view: '3.7.0', add: '3.7.1', edit: '3.7.2' },
  leave: { view: '3.8.0', add: '3.8.1', approve: '3.8.2', request: '3.8.3' },
  dailyAttendance: '3.2.0',
  attendanceSummaries: '3.6.0',
  buildTimesheet: '3.3',
  amendTimesheet: '3.4',
  attendanceProperties: '3.5.0',
  visitorProperties: '0.7.5.0',
  centralProperties: '0.7.3.0',
  floorPlanProperties: '0.7.3.1',
  companyId: '0.7.4.0',
  firmware: '0.7.1.0',
  /** platform privileges (PLATFORM_PRIVILEGES): a backup is the whole installation's, every client's */
  backups: '0.7.2.0',
  autoBackup: '0.7.2.1',
  reportJobs: { view: '0.6.5.0', add: '0.6.5.1', edit: '0.6.5.2' },
  attendanceReportJobs: { view: '3.9.0', add: '3.9.1', edit: '3.9.2' },
  credentialStore: { view: '0.6.6.3', add: '0.6.6.4', edit: '0.6.6.5' },
} as const;

/**
 * Platform-level privileges: held only through a platform grant (a platform operator), never through a role
 * granted inside a client. Creating a tenant is one: a tenant administrator manages their tenant, not the platform.
 * Backup and restore [0.7.2.0] and its auto-backup settings [0.7.2.1] are others: a backup holds every client's data
 * and a restore puts every client back, so no one client's administrator may take or restore one.
 */
export const PLATFORM_PRIVILEGES: readonly string[] = [PRIV.clients.add, PRIV.backups, PRIV.autoBackup];
export const PLATFORM_ROLE = 'platform-operator';

/**
 * Issue 10: a dashboard part is answered only to holders of the privilege of the screen that owns its data (any one
 * of the list). The server filters by it, the console draws what arrives.
 */
export const DASHBOARD_WIDGET_PRIVILEGES = {
  identities: [PRIV.identities.view], // the identities screen
  activeCredentials: [PRIV.identities.view], // credentials live on the identity's form
  divisions: [PRIV.divisions.view],
  doors: [PRIV.doors.view, PRIV.doors.control],
  doorsByState: [PRIV.doors.view, PRIV.doors.control],
  controllers: ['0.5.6.0'],
  openAlarms: [PRIV.alarms.view],
  alarmsByPriority: [PRIV.alarms.view],
  alarmsPerHour: [PRIV.alarms.view],
  eventsPerHour: [PRIV.events.view, PRIV.eventReport], // the live events screen, or the stored history
  visitorsToday: [PRIV.visitorsToday], // visitor management: today's visits
  recentChanges: [PRIV.activityReport],
  attendanceToday: [PRIV.dailyAttendance], // issue 50: HR's figure of the day, from Daily Attendance
} as const satisfies Record<string, readonly string[]>;
export type DashboardPart = keyof typeof DASHBOARD_WIDGET_PRIVILEGES;
