// The kinds of a route row (RouteDef, its section, the screen that renders it, its redirect rule) and the helpers the
// section files of src/app/routes/ build their rows with: r() for a hand-written row, fromResource() / catalogue() /
// settings() / attendanceChild() for the rows a catalogue resource's declaration gives (contract/resources). Data only.
import type { PrivilegeMode, RouteType } from '../../../contract';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';
import { routeRows, type ResourceSummary } from '../../../contract/resources/summary';

export type SectionId = 'general' | 'monitor' | 'manage' | 'configure' | 'hardware' | 'report' | 'server' | 'visitor' | 'video' | 'attendance';

/** Which component renders a route; everything not built yet is 'later' (a clear "arrives later" page). */
export type ScreenKey =
  | 'replay'
  | 'activityReport'
  | 'handoverHistory'
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
  /** RESTRICTED: signed-out visitors only (a signed-in one goes back a step, or on from a sign-in screen: `handsOver`);
   *  PUBLIC: everyone; PRIVATE (default): signed-in users. */
  type: RouteType;
  /** not listed in the sidebar (add/edit/detail routes, attendance children). */
  hidden: boolean;
  redirect?: RedirectRule;
  screen: ScreenKey;
  /** A sign-in screen (issue 48): the sign-in page of a cold load mounts the console on it to take its form over, and a
   *  sign-in there hands the console over to the screen it leads to (the `redirect` parameter's, or the dashboard). That
   *  screen is the opening one: its chunk is asked with the console's, and what the console loads later waits for its
   *  answers, not for this screen's. Every path src/signin/variant.ts stands in for has it (src/app/routeTable.test.ts). */
  handsOver?: boolean;
  /** what a not-yet-built screen will do (shown on its "later release" page). */
  description?: string;
}

export type Opt = Partial<Omit<RouteDef, 'path' | 'title' | 'section'>>;
export const r = (section: SectionId, path: string, title: string, privileges: readonly string[] | undefined, opt: Opt = {}): RouteDef => ({
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
export const fromResource = (res: ResourceSummary, kind: 'list' | 'add' | 'edit' | 'settings', screen: ScreenKey, opt: Opt = {}): RouteDef => {
  const row = routeRows(res).find((x) => x.kind === kind)!;
  return r(row.section as SectionId, row.path, row.title, row.privileges, { icon: res.icon, hidden: row.hidden, screen, ...opt });
};
/** The list, add and edit routes of a catalogue resource, on the generated screens (src/screens/catalogue); the
 *  list's description by default the declaration's own. */
export const catalogue = (res: ResourceSummary, description = res.description): RouteDef[] => [
  fromResource(res, 'list', 'catalogueList', { description }),
  ...(res.privileges.add ? [fromResource(res, 'add', 'catalogueForm', { description: `Create a new ${res.label.one.toLowerCase()}.` })] : []),
  ...(res.privileges.edit || res.screens?.editRoute
    ? [fromResource(res, 'edit', 'catalogueForm', { description: res.screens?.editDescription ?? `Change an existing ${res.label.one.toLowerCase()}.` })]
    : []),
];
/** A tenant's settings (a catalogue singleton): its one route is the form. */
export const settings = (res: ResourceSummary, description = res.description, opt: Opt = {}): RouteDef =>
  fromResource(res, 'settings', 'catalogueForm', { description, ...opt });
/**
 * §2 Attendance: the children sit under /attendance and are hidden from the sidebar (the attendance screen links
 * them); their edit/{id} opens to view holders too, read-only (the declarations' `screens.viewersOpen`).
 */
export const attendanceChild = (res: ResourceSummary, description: string): RouteDef[] => catalogue(res, description).map((d) => ({ ...d, hidden: true }));

export const DASHBOARD = '/dashboard';
export const LOGIN = '/login';
export const FORBIDDEN = '/403-access-denied';
export const CLIENTS = RESOURCE_INDEX.clients.route;

/** §2 attendance menu privileges: the attendance entry shows when any is held. */
export const ATTENDANCE_MENU = ['3.0.0', '3.0.1', '3.0.2', '3.1.0', '3.1.1', '3.1.2', '3.2.0', '3.3', '3.4', '3.5.0', '3.6.0', '3.7.0', '3.8.0'] as const;
