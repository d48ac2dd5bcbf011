// THE route table of SPEC §2: every path, title, layout and cache flag, privilege list, route type and redirect
// rule, in one place. It drives the router (src/app/App.tsx), the guard (guard.ts) and the sidebar. Data only.
import {
  PRIV,
  logicalBlocksResource,
  floorPlansResource,
  elevatorMasksResource,
  interfacesResource,
  interfaceSettingsResource,
  alarmGroupsResource,
  alarmNotificationsResource,
  divisionsResource,
  doorsResource,
  overridesResource,
  cardReadersResource,
  controllersResource,
  inputsResource,
  outputsResource,
  accessGroupsResource,
  accessZonesResource,
  cardFormatsResource,
  interlocksResource,
  schedulesResource,
  specialDatesResource,
  threatLevelsResource,
  batchTemplatesResource,
  clientsResource,
  identitiesResource,
  licensesResource,
  operatorGroupsResource,
  rolesResource,
  routeRows,
  serviceAccountsResource,
  userFieldsResource,
  visitorsResource,
  webHooksResource,
  visitorTenantsResource,
  visitorCredentialsResource,
  visitTypesResource,
  visitRequestsResource,
  visitorPropertiesResource,
  attendancePropertiesResource,
  centralPropertiesResource,
  floorPlanPropertiesResource,
  companyIdResource,
  autoBackupResource,
  firmwareResource,
  reportJobsResource,
  timesheetResource,
  identityReportResource,
  identityLocationResource,
  alarmSettingsResource,
  shiftSettingsResource,
  workSchedulesResource,
  teamsResource,
  leaveCategoriesResource,
  leaveResource,
  credentialStoreResource,
  type PrivilegeMode,
  type ResourceDeclaration,
  type RouteType,
} from '../../contract';

export type SectionId = 'general' | 'monitor' | 'manage' | 'configure' | 'hardware' | 'report' | 'server' | 'visitor' | 'video' | 'attendance';

/** Which component renders a route; everything not built yet is 'later' (a clear "arrives later" page). */
export type ScreenKey =
  | 'replay'
  | 'activityReport'
  | 'uiErrors'
  | 'alarms'
  | 'events'
  | 'login'
  | 'loginRemake'
  | 'forgotPassword'
  | 'resetPassword'
  | 'dashboard'
  | 'profile'
  | 'forbidden'
  | 'notFound'
  | 'clients'
  | 'clientAdd'
  | 'clientEdit'
  | 'identities'
  | 'identityAdd'
  | 'identityEdit'
  | 'attendance'
  | 'later'
  | 'visitorRegister'
  | 'visitorCredentialBatch'
  | 'visitorList'
  | 'visitorDetails'
  | 'visitorToday'
  | 'visitorUpcoming'
  | 'dailyAttendance'
  | 'attendanceSummaries'
  | 'buildTimesheet'
  | 'printRecord'
  | 'eventReport'
  | 'doors'
  | 'divisions'
  | 'alarmZone'
  | 'doorQr'
  | 'calendar'
  | 'controllerDiagnostic'
  | 'interfacePreAdd'
  | 'privileges'
  | 'privilegesFixed'
  | 'assignPrivileges'
  | 'batchUpload'
  | 'floorPlanMonitor'
  | 'controllerHub'
  | 'accessZones'
  | 'threatLevels'
  | 'backupRestore'
  | 'alarmHandling'
  | 'operatorSessions'
  | 'serviceAccountSessions'
  | 'serviceAccounts'
  | 'serviceAccountForm'
  | 'webHooks'
  | 'webHookForm'
  | 'webHookHistory'
  | 'catalogueList'
  | 'catalogueForm'
  | 'operatorSettings'
  | 'operators';

/** §4 redirect rules: a signed-in user goes elsewhere when the computed path differs. */
export type RedirectRule =
  | { kind: 'clientRequired'; to: string } // §2/§6: the dashboard needs a selected client
  | { kind: 'always'; to: string }; // §2: the video section redirects to the dashboard

export interface RouteDef {
  /** react-router pattern; matched case-sensitively and to the end. */
  path: string;
  title: string;
  section: SectionId;
  /** Blueprint icon name (sidebar, breadcrumbs). */
  icon?: string;
  /** false for sign-in, reset, forgot, print, 403 and 404 (§2). */
  layout: boolean;
  /** kept alive between visits (§2 default true; reset/forgot/print not). */
  cache: boolean;
  /** undefined: no privilege needed; []: nobody may open it (→ 403); else any/all of these codes. */
  privileges?: readonly string[];
  mode?: PrivilegeMode;
  /** RESTRICTED: signed-out visitors only; PUBLIC: everyone; PRIVATE (default): signed-in users. */
  type: RouteType;
  /** not listed in the sidebar (add/edit/detail routes, attendance children). */
  hidden: boolean;
  redirect?: RedirectRule;
  screen: ScreenKey;
  /** what a not-yet-built screen will do (shown on its "later release" page). */
  description?: string;
}

export const SECTIONS: { id: SectionId; title: string; icon: string }[] = [
  { id: 'general', title: 'General', icon: 'home' },
  { id: 'monitor', title: 'Monitor', icon: 'eye-open' },
  { id: 'manage', title: 'Manage', icon: 'people' },
  { id: 'configure', title: 'Configure', icon: 'cog' },
  { id: 'hardware', title: 'Hardware', icon: 'desktop' },
  { id: 'report', title: 'Report', icon: 'document' },
  { id: 'server', title: 'Server', icon: 'database' },
  { id: 'visitor', title: 'Visitor', icon: 'id-number' },
  { id: 'video', title: 'Video', icon: 'video' },
  { id: 'attendance', title: 'Attendance', icon: 'time' },
];

type Opt = Partial<Omit<RouteDef, 'path' | 'title' | 'section'>>;
const r = (section: SectionId, path: string, title: string, privileges: readonly string[] | undefined, opt: Opt = {}): RouteDef => ({
  path,
  title,
  section,
  privileges,
  layout: true,
  cache: true,
  type: 'PRIVATE',
  hidden: false,
  screen: 'later',
  ...opt,
});
/** One route row of a catalogue resource (contract/resources): path, title, privileges and icon come from its declaration. */
const fromResource = (res: ResourceDeclaration<any>, kind: 'list' | 'add' | 'edit' | 'settings', screen: ScreenKey, opt: Opt = {}): RouteDef => {
  const row = routeRows(res).find((x) => x.kind === kind)!;
  return r(row.section as SectionId, row.path, row.title, row.privileges, { icon: res.icon, hidden: row.hidden, screen, ...opt });
};
/** The list, add and edit routes of a catalogue resource, on the generated screens (src/screens/catalogue). */
const catalogue = (res: ResourceDeclaration<any>, description: string): RouteDef[] => [
  fromResource(res, 'list', 'catalogueList', { description }),
  ...(res.privileges.add ? [fromResource(res, 'add', 'catalogueForm', { description: `Create a new ${res.label.one.toLowerCase()}.` })] : []),
  ...(res.privileges.edit || res.screens?.editRoute
    ? [fromResource(res, 'edit', 'catalogueForm', { description: res.screens?.editDescription ?? `Change an existing ${res.label.one.toLowerCase()}.` })]
    : []),
];
/** A tenant's settings (a catalogue singleton): its one route is the form. */
const settings = (res: ResourceDeclaration<any>, description: string, opt: Opt = {}): RouteDef =>
  fromResource(res, 'settings', 'catalogueForm', { description, ...opt });
/**
 * §2 Attendance: the children sit under /attendance and are hidden from the sidebar (the attendance screen links
 * them); their edit/{id} opens to view holders too, read-only (the declarations' `screens.viewersOpen`).
 */
const attendanceChild = (res: ResourceDeclaration<any>, description: string): RouteDef[] => catalogue(res, description).map((d) => ({ ...d, hidden: true }));

export const DASHBOARD = '/dashboard';
export const LOGIN = '/login';
export const FORBIDDEN = '/403-access-denied';
export const CLIENTS = clientsResource.route;

/** §2 attendance menu privileges: the attendance entry shows when any is held. */
export const ATTENDANCE_MENU = ['3.0.0', '3.0.1', '3.0.2', '3.1.0', '3.1.1', '3.1.2', '3.2.0', '3.3', '3.4', '3.5.0', '3.6.0', '3.7.0', '3.8.0'] as const;

export const ROUTES: RouteDef[] = [
  // ---------- General ----------
  r('general', '/', 'Home', undefined, { type: 'PUBLIC', hidden: true, cache: false, layout: false, redirect: { kind: 'always', to: DASHBOARD } }),
  r('general', LOGIN, 'Sign in', undefined, { type: 'PUBLIC', layout: false, cache: false, hidden: true, screen: 'login' }),
  r('general', '/login-remake', 'Sign in', undefined, { type: 'RESTRICTED', layout: false, cache: false, hidden: true, screen: 'loginRemake' }),
  r('general', DASHBOARD, 'Dashboard', ['0.1'], { icon: 'dashboard', screen: 'dashboard', redirect: { kind: 'clientRequired', to: CLIENTS } }),
  r('general', '/profile', 'Profile', undefined, { icon: 'user', hidden: true, screen: 'profile' }),
  r('general', '/reset-password', 'Reset password', undefined, { type: 'RESTRICTED', layout: false, cache: false, hidden: true, screen: 'resetPassword' }),
  r('general', '/forgot-password', 'Forgot password', undefined, { type: 'RESTRICTED', layout: false, cache: false, hidden: true, screen: 'forgotPassword' }),
  r('general', '/print-record', 'Print record', [PRIV.printRecord], {
    layout: false,
    cache: false,
    hidden: true,
    screen: 'printRecord',
    description: 'A printable record of a visit for the visitor and the front desk.',
  }),
  r('general', FORBIDDEN, 'Access denied', undefined, { type: 'PUBLIC', layout: false, cache: false, hidden: true, screen: 'forbidden' }),

  // ---------- Monitor ----------
  r('monitor', '/monitor/alarms', 'Alarms', ['0.2.1.0'], {
    icon: 'warning-sign',
    screen: 'alarms',
    description: 'Live alarms from doors and inputs: acknowledge and process them as they arrive.',
  }),
  r('monitor', '/monitor/events', 'Events', ['0.2.2.0'], {
    icon: 'pulse',
    screen: 'events',
    description: 'The live event stream of every controller, door and reader.',
  }),
  r('monitor', '/monitor/floor-plan', 'Floor plan', ['0.2.3.0'], {
    icon: 'map',
    screen: 'floorPlanMonitor',
    description: 'The doors on the floor plans, coloured by their live state.',
  }),
  r('monitor', '/monitor/operator-sessions', 'Operator sessions', ['0.2.4.0'], {
    icon: 'person',
    screen: 'operatorSessions',
    description: 'Who is signed in to the console, from where, and since when.',
  }),
  r('monitor', '/monitor/replay', 'Journal replay', ['0.8.1.0'], {
    icon: 'history',
    screen: 'replay',
    description: 'Export the event journal of this console, or load one and step through it machine by machine.',
  }),
  r('monitor', '/monitor/service-account-sessions', 'Service account sessions', ['0.2.5.0'], {
    icon: 'key',
    screen: 'serviceAccountSessions',
    description: 'Sessions opened by integrations through service accounts.',
  }),

  // ---------- Manage ----------
  fromResource(clientsResource, 'list', 'clients'),
  fromResource(clientsResource, 'add', 'clientAdd'),
  fromResource(clientsResource, 'edit', 'clientEdit'),
  fromResource(identitiesResource, 'list', 'identities'),
  fromResource(identitiesResource, 'add', 'identityAdd'),
  fromResource(identitiesResource, 'edit', 'identityEdit'),
  r('manage', '/manage/identities/batch-upload', 'Batch upload', ['0.3.1.9'], {
    icon: 'upload',
    hidden: true,
    screen: 'batchUpload',
    description: 'Upload a spreadsheet of identities through a batch template.',
  }),
  fromResource(batchTemplatesResource, 'list', 'catalogueList', { description: 'Column mappings for uploading identities in bulk.' }),
  fromResource(batchTemplatesResource, 'add', 'catalogueForm', { description: 'Create a new batch template.' }),
  fromResource(batchTemplatesResource, 'edit', 'catalogueForm', { description: 'Change an existing batch template.' }),
  fromResource(licensesResource, 'list', 'catalogueList', { description: 'Licensed modules, seats and their expiry.' }),
  fromResource(licensesResource, 'edit', 'catalogueForm', { description: 'Apply a new license key.' }),
  fromResource(operatorGroupsResource, 'list', 'catalogueList', { description: 'Groups of operators sharing roles and divisions.' }),
  fromResource(operatorGroupsResource, 'add', 'catalogueForm'),
  fromResource(operatorGroupsResource, 'edit', 'catalogueForm'),
  r('manage', '/manage/operators', 'Operators', [PRIV.operatorGroups.view], {
    icon: 'person',
    screen: 'operators',
    description: 'The people who sign in to this client: reset a password, disable, or remove an account that also works elsewhere.',
  }),
  r('manage', '/manage/operator-settings', 'Operator settings', ['0.3.7.0'], {
    icon: 'settings',
    screen: 'operatorSettings',
    description: 'Password policy, lockout and session settings for operators.',
  }),
  // privileges are the product's (read-only catalogue); add and edit say so and lead to the roles that grant them
  r('manage', '/manage/privileges', 'Privileges', ['0.3.5.0'], {
    icon: 'lock',
    screen: 'privileges',
    description: 'The privilege catalogue and what each code allows.',
  }),
  r('manage', '/manage/privileges/add', 'Add Privilege', ['0.3.5.1'], {
    icon: 'lock',
    hidden: true,
    screen: 'privilegesFixed',
    description: 'Privileges come with Gatehouse: they are granted through roles.',
  }),
  r('manage', '/manage/privileges/edit/:id', 'Edit Privilege', ['0.3.5.2'], {
    icon: 'lock',
    hidden: true,
    screen: 'privilegesFixed',
    description: 'Privileges come with Gatehouse: they are granted through roles.',
  }),
  fromResource(rolesResource, 'list', 'catalogueList', { description: 'Roles bundle privileges per division.' }),
  fromResource(rolesResource, 'add', 'catalogueForm'),
  fromResource(rolesResource, 'edit', 'catalogueForm'),
  r('manage', '/manage/roles/assign-privileges/:id', 'Assign privileges', ['0.3.6.4'], {
    icon: 'shield',
    hidden: true,
    screen: 'assignPrivileges',
    description: 'Tick the privileges a role holds in each division.',
  }),
  fromResource(serviceAccountsResource, 'list', 'serviceAccounts'),
  fromResource(serviceAccountsResource, 'add', 'serviceAccountForm'),
  fromResource(serviceAccountsResource, 'edit', 'serviceAccountForm'),
  fromResource(userFieldsResource, 'list', 'catalogueList', { description: 'Extra fields on identities, defined per client.' }),
  fromResource(userFieldsResource, 'add', 'catalogueForm', { description: 'Create a new user-defined field.' }),
  fromResource(userFieldsResource, 'edit', 'catalogueForm', { description: 'Change an existing user-defined field.' }),
  fromResource(webHooksResource, 'list', 'webHooks'),
  fromResource(webHooksResource, 'add', 'webHookForm'),
  fromResource(webHooksResource, 'edit', 'webHookForm'),
  r('manage', '/manage/web-hooks/histories/:id', 'Web hook histories', ['0.3.4.7'], {
    icon: 'history',
    hidden: true,
    screen: 'webHookHistory',
    description: 'Every delivery of a web hook with status and response.',
  }),

  // ---------- Configure ----------
  ...catalogue(accessGroupsResource, 'Which identities may pass which doors, and when.'),
  // the list shows who is inside each zone (src/screens/configure/AccessZonesScreen.tsx); add and edit are generated
  fromResource(accessZonesResource, 'list', 'accessZones', { description: 'Areas made of doors, for anti-passback and occupancy.' }),
  ...catalogue(accessZonesResource, 'Areas made of doors, for anti-passback and occupancy.').slice(1),
  ...catalogue(alarmGroupsResource, 'Inputs grouped into alarm zones that are armed together.'),
  r('configure', '/configure/alarm-group/:id/:armDisarmStatus/alarm-zone', 'Alarm zone', ['0.4.7.4'], {
    icon: 'notifications',
    hidden: true,
    screen: 'alarmZone',
    description: 'Arm and disarm the zones of an alarm group.',
  }),
  ...catalogue(alarmNotificationsResource, 'Who is told of which alarms, and how.'),
  // issue 31: the target times the alarm handling report measures against
  settings(alarmSettingsResource, 'How soon alarms of each priority should be acknowledged and processed.'),
  // issue 31: when the shifts end, and so when the handover is cut
  settings(shiftSettingsResource, 'When shifts end and are handed over to the next operator.'),
  r('configure', '/configure/calendar', 'Calendar', ['0.4.1.0'], {
    icon: 'calendar',
    screen: 'calendar',
    description: 'Holidays and special days across schedules.',
  }),
  // the tree is its own screen (the whole visible tree at once); add and edit (rename, move) are the generated forms
  fromResource(divisionsResource, 'list', 'divisions', { description: 'The division tree that scopes identities, doors and privileges.' }),
  fromResource(divisionsResource, 'add', 'catalogueForm', { description: 'Create a new division.' }),
  fromResource(divisionsResource, 'edit', 'catalogueForm', { description: 'Change an existing division.' }),
  r('configure', '/configure/doors', 'Doors', [PRIV.doors.view], {
    icon: 'key-enter',
    screen: 'doors',
    description: 'Doors with their live state: lock, unlock or open them for a moment.',
  }),
  fromResource(doorsResource, 'add', 'catalogueForm', { description: 'Create a new door.' }),
  fromResource(doorsResource, 'edit', 'catalogueForm', { description: 'Change an existing door.' }),
  r('configure', '/configure/door-qr', 'Door QR', ['0.4.5.5'], {
    icon: 'barcode',
    screen: 'doorQr',
    description: 'Doors that take rotating QR codes, and the code a credential shows at one now.',
  }),
  ...catalogue(elevatorMasksResource, 'Floors of an elevator that need no card while a schedule is open.'),
  ...catalogue(floorPlansResource, 'Upload floor plans and pin the doors on them.'),
  ...catalogue(interlocksResource, 'Doors of which only one may be open at a time.'),
  ...catalogue(logicalBlocksResource, 'When an input, door or card event happens (while a schedule is open), pulse an output, move a door or raise an alarm.'),
  ...catalogue(overridesResource, 'Doors held unlocked or locked for a while, then back to normal by themselves.'),
  ...catalogue(schedulesResource, 'Weekly time windows used by access groups and doors.'),
  ...catalogue(specialDatesResource, 'Dates on which schedules follow holiday rules.'),
  // the level in force, set and lowered above the generated list (src/screens/configure/ThreatLevelsScreen.tsx)
  fromResource(threatLevelsResource, 'list', 'threatLevels', {
    description: 'Ranked threat levels: what the doors do while one is in force, and who still passes.',
  }),
  ...catalogue(threatLevelsResource, 'Ranked threat levels: what the doors do while one is in force, and who still passes.').slice(1),

  // ---------- Hardware ----------
  ...catalogue(cardFormatsResource, 'Wiegand and smart-card formats the readers decode.'),
  ...catalogue(cardReadersResource, 'Readers and their doors, with live status.'),
  fromResource(controllersResource, 'list', 'catalogueList', { description: 'Door controllers with heartbeat, firmware and status.' }),
  r('hardware', '/hardware/controllers/diagnostic/:ipAddress', 'Controller diagnostic', ['0.5.6.4'], {
    icon: 'desktop',
    hidden: true,
    screen: 'controllerDiagnostic',
    description: 'A controller as it reports itself: status, uptime, firmware, wiring, latest events and a ping.',
  }),
  fromResource(controllersResource, 'edit', 'catalogueForm', { description: 'Network, time and security settings of a controller.' }),
  r('hardware', '/hardware/controller-hub', 'Controller hub', ['0.5.7.0'], {
    screen: 'controllerHub',
    icon: 'data-connection',
    description: 'Every controller at a glance: live status, firmware and what is wired to it.',
  }),
  ...catalogue(inputsResource, 'Door contacts, buttons and sensors.'),
  fromResource(interfacesResource, 'list', 'catalogueList', { description: 'Interface boards and their bus addresses.' }),
  fromResource(interfacesResource, 'add', 'interfacePreAdd', { hidden: true, description: 'Discover and add an interface board.' }),
  fromResource(interfacesResource, 'edit', 'catalogueForm', { description: 'Change an interface board.' }),
  fromResource(interfaceSettingsResource, 'edit', 'catalogueForm', { description: 'Timing and supervision settings of an interface.' }),
  ...catalogue(outputsResource, 'Relays, locks and sounders.'),

  // ---------- Report ----------
  r('report', '/report/activity', 'Activity report', ['0.6.1.0'], {
    icon: 'history',
    screen: 'activityReport',
    description: 'Every change an operator made: who, when, what, before and after.',
  }),
  r('report', '/report/event', 'Event report', ['0.6.2.0'], {
    icon: 'list',
    screen: 'eventReport',
    description: 'Access events filtered by time, door, identity and code.',
  }),
  // issue 31 [0.6.7.0]: alarms raised, times to acknowledge and process, open, without a note and past the targets
  r('report', '/report/alarm-handling', 'Alarm handling', [PRIV.alarmHandlingReport], {
    icon: 'stopwatch',
    screen: 'alarmHandling',
    description: 'How fast alarms were acknowledged and processed, against the target times.',
  }),
  ...catalogue(identityReportResource, 'Identities with their credentials and access groups.'),
  ...catalogue(identityLocationResource, 'Where each identity was last seen.'),
  ...catalogue(reportJobsResource, 'Reports made on a schedule for the period just past, kept for download.'),
  ...catalogue(credentialStoreResource, 'Unassigned credentials held in stock.'),

  // ---------- Server ----------
  r('server', '/server/ui-errors', 'UI error log', ['0.8.3.0'], {
    icon: 'error',
    screen: 'uiErrors',
    description: "Errors the console caught in operators' browsers.",
  }),
  ...catalogue(firmwareResource, 'Upload firmware and roll it out to controllers.'),
  r('server', '/server/backup-restore', 'Backup and restore', [PRIV.backups], {
    icon: 'archive',
    screen: 'backupRestore',
    description: 'Back up the whole installation and restore a backup.',
  }),
  settings(autoBackupResource, 'When automatic backups are taken and how many are kept.', { hidden: true }),
  settings(centralPropertiesResource, 'How long events and visitor records are kept.'),
  settings(floorPlanPropertiesResource, 'Defaults of the floor plan monitor.'),
  settings(companyIdResource, 'The site code printed on credentials.'),
  settings(visitorPropertiesResource, 'What a visitor\u2019s registration needs, and how far ahead.'),

  // ---------- Visitor ----------
  r('visitor', '/visitor', 'Visitor management', ['1.0.0'], {
    icon: 'id-number',
    screen: 'visitorToday',
    description: 'Today\u2019s visits: who is expected, on site and gone.',
  }),
  fromResource(visitorsResource, 'add', 'visitorRegister', { icon: 'new-person', description: 'Register a visitor and issue a credential.' }),
  r('visitor', '/visitor/visit-details/:id/:bucketStartDate', 'Visit details', ['1.0.5'], {
    icon: 'id-number',
    hidden: true,
    screen: 'visitorDetails',
    description: 'One visit with its clocking history.',
  }),
  r('visitor', '/visitor/sign-in/:id/:bucketStartDate', 'Sign visitor in', ['1.0.2'], {
    icon: 'log-in',
    hidden: true,
    screen: 'visitorDetails',
    description: 'Sign a visitor in at an entry door.',
  }),
  r('visitor', '/visitor/sign-out/:id/:bucketStartDate', 'Sign visitor out', ['1.0.7'], {
    icon: 'log-out',
    hidden: true,
    screen: 'visitorDetails',
    description: 'Sign a visitor out at an exit door.',
  }),
  fromResource(visitorsResource, 'list', 'visitorList', { description: 'Every registered visitor.' }),
  r('visitor', '/visitor/details/:id', 'Visitor details', ['1.0.3'], {
    icon: 'person',
    hidden: true,
    screen: 'visitorDetails',
    description: 'A visitor and their visits.',
  }),
  ...catalogue(visitorTenantsResource, 'Tenants of the building whom visitors come to see.'),
  ...catalogue(visitorCredentialsResource, 'Cards and QR codes lent to visitors.'),
  r('visitor', '/visitor/credentials/batch-add', 'Batch add visitor credentials', [PRIV.visitorCredentials.batchAdd], {
    icon: 'credit-card',
    hidden: true,
    screen: 'visitorCredentialBatch',
    description: 'Add a range of visitor cards at once.',
  }),
  ...catalogue(visitTypesResource, 'Kinds of visit, how long they last and what they need.'),
  // details/{id} [1.4.0]: the request read-only, with Approve and Decline for 1.4.1 holders (its record actions)
  ...catalogue(visitRequestsResource, 'Requests from hosts, waiting for approval.'),
  r('visitor', '/visitor/upcoming-visits', 'Upcoming visits', ['1.0.0'], {
    icon: 'calendar',
    screen: 'visitorUpcoming',
    description: 'Visits booked for the coming days.',
  }),

  // ---------- Video (§2: redirects to the dashboard) ----------
  r('video', '/video', 'Video', ['2.0.0'], { icon: 'video', hidden: true, redirect: { kind: 'always', to: DASHBOARD } }),

  // ---------- Attendance (§2: children under the parent prefix, hidden from the sidebar) ----------
  r('attendance', '/attendance', 'Time and attendance', [...ATTENDANCE_MENU], { icon: 'time', screen: 'attendance' }),
  // the timesheet's list is Amend timesheet [3.4]; a day opens at /attendance/amend-timesheet/edit/{id}
  ...attendanceChild(timesheetResource, 'Correct clock-ins and clock-outs of a timesheet.'),
  r('attendance', '/attendance/summaries', 'Attendance Summaries', [PRIV.attendanceSummaries], {
    icon: 'timeline-bar-chart',
    hidden: true,
    screen: 'attendanceSummaries',
    description: 'Days present, late, absent and on leave, and hours worked, per period.',
  }),
  r('attendance', '/attendance/build/timesheet', 'Build Timesheet', [PRIV.buildTimesheet], {
    icon: 'build',
    hidden: true,
    screen: 'buildTimesheet',
    description: 'Compute timesheets from clocking events and work schedules.',
  }),
  r('attendance', '/attendance/daily-attendance', 'Daily Attendance', [PRIV.dailyAttendance], {
    icon: 'calendar',
    hidden: true,
    screen: 'dailyAttendance',
    description: 'Who came in, late or not at all, day by day.',
  }),
  ...attendanceChild(leaveCategoriesResource, 'Kinds of leave and their allowances.'),
  // view/{id} [3.8.0]: a 3.8.0 holder sees the record; one who may add leave (3.8.1) corrects it there too
  ...attendanceChild(leaveResource, 'Leave taken and requested by staff.'),
  settings(attendancePropertiesResource, 'Which doors clock staff in and out, and how worked time is rounded.', { hidden: true }),
  ...attendanceChild(teamsResource, 'Teams of staff sharing a work schedule.'),
  ...attendanceChild(workSchedulesResource, 'Shifts and working days.'),
];

/** §2: any unknown path shows 404 Page Not Found, open to everyone. */
export const NOT_FOUND_ROUTE: RouteDef = {
  path: '*',
  title: 'Page Not Found',
  section: 'general',
  layout: false,
  cache: false,
  type: 'PUBLIC',
  hidden: true,
  screen: 'notFound',
};
