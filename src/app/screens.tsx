// Which component renders each ScreenKey of the route table; split per section so the first load stays small.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenKey } from './routeTable';
import { wiring } from '../hooks/wiring';

/** Issue 48: a screen's chunk comes with the screens' view-actor logic (src/system/screenLogic.ts, not loaded at start),
 *  asked for at once, so the screen does not wait for it after its own chunk (the dashboard and the sign-in screens
 *  need none of it: `pick`'s `logic` false). */
const withLogic =
  <M,>(load: () => Promise<M>) =>
  (): Promise<M> =>
    Promise.all([load(), wiring().loadScreenLogic()]).then(([m]) => m);

const auth = () => import('../screens/auth/index');
const general = () => import('../screens/general/index');
const manage = () => import('../screens/manage/index');
const catalogue = () => import('../screens/catalogue/index');
const audit = () => import('../screens/audit/ReplayScreen');
const report = () => import('../screens/report/index');
const monitor = () => import('../screens/monitor/index');
const visitor = () => import('../screens/visitor/index');
const configure = () => import('../screens/configure/index');

/** A screen's component, and a way to ask for its chunk before it is first rendered. */
export type LazyScreen = LazyExoticComponent<ComponentType> & { preload(): Promise<unknown> };

const pick = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K, logic = true): LazyScreen => {
  let loading: Promise<{ default: ComponentType }> | null = null;
  // asked for once; a failed fetch is asked for again next time (by a later preload, or by React.lazy)
  const get = () =>
    (loading ??= (logic ? withLogic(load) : load)().then(
      (m) => ({ default: m[name] }),
      (e: unknown) => {
        loading = null;
        throw e;
      },
    ));
  return Object.assign(lazy(get), { preload: get });
};

export const SCREENS: Record<ScreenKey, LazyScreen> = {
  login: pick(auth, 'LoginScreen', false),
  loginRemake: pick(auth, 'LoginRemakeScreen', false),
  forgotPassword: pick(auth, 'ForgotPasswordScreen', false),
  resetPassword: pick(auth, 'ResetPasswordScreen', false),
  // the landing screen is a chunk of its own: the rest of the general section (profile, backups) brings forms
  dashboard: pick(() => import('../screens/general/DashboardScreen'), 'DashboardScreen', false),
  profile: pick(general, 'ProfileScreen'),
  forbidden: pick(general, 'ForbiddenScreen'),
  notFound: pick(general, 'NotFoundScreen'),
  attendance: pick(general, 'AttendanceScreen'),
  later: pick(general, 'LaterReleaseScreen'),
  backupRestore: pick(general, 'BackupRestoreScreen'),
  clients: pick(manage, 'ClientsScreen'),
  clientAdd: pick(manage, 'ClientFormScreen'),
  clientEdit: pick(manage, 'ClientFormScreen'),
  identities: pick(manage, 'IdentitiesScreen'),
  identityAdd: pick(manage, 'IdentityFormScreen'),
  identityEdit: pick(manage, 'IdentityFormScreen'),
  serviceAccounts: pick(manage, 'ServiceAccountsScreen'),
  operators: pick(manage, 'OperatorsScreen'),
  serviceAccountForm: pick(manage, 'ServiceAccountFormScreen'),
  webHooks: pick(manage, 'WebHooksScreen'),
  webHookForm: pick(manage, 'WebHookFormScreen'),
  webHookHistory: pick(manage, 'WebHookHistoryScreen'),
  replay: pick(audit, 'ReplayScreen'),
  activityReport: pick(report, 'ActivityReportScreen'),
  uiErrors: pick(report, 'UiErrorsScreen'),
  eventReport: pick(report, 'EventReportScreen'),
  handoverHistory: pick(() => import('../screens/report/HandoverHistoryScreen'), 'HandoverHistoryScreen'),
  alarmHandling: pick(() => import('../screens/report/AlarmHandlingScreen'), 'AlarmHandlingScreen'),
  alarms: pick(monitor, 'AlarmsScreen'),
  events: pick(monitor, 'EventsScreen'),
  operatorSessions: pick(monitor, 'OperatorSessionsScreen'),
  serviceAccountSessions: pick(monitor, 'ServiceAccountSessionsScreen'),
  visitorRegister: pick(visitor, 'VisitorRegisterScreen'),
  visitorList: pick(visitor, 'VisitorListScreen'),
  visitorDetails: pick(visitor, 'VisitorDetailsScreen'),
  visitorToday: pick(visitor, 'VisitorTodayScreen'),
  visitorUpcoming: pick(visitor, 'VisitorUpcomingScreen'),
  printRecord: pick(() => import('../screens/visitor/PrintRecordScreen'), 'PrintRecordScreen'),
  dailyAttendance: pick(() => import('../screens/attendance/DailyAttendanceScreen'), 'DailyAttendanceScreen'),
  buildTimesheet: pick(() => import('../screens/attendance/BuildTimesheetScreen'), 'BuildTimesheetScreen'),
  attendanceSummaries: pick(() => import('../screens/attendance/AttendanceSummariesScreen'), 'AttendanceSummariesScreen'),
  visitorCredentialBatch: pick(visitor, 'VisitorCredentialBatchScreen'),
  doors: pick(configure, 'DoorsScreen'),
  divisions: pick(configure, 'DivisionsScreen'),
  alarmZone: pick(configure, 'AlarmZoneScreen'),
  doorQr: pick(configure, 'DoorQrScreen'),
  calendar: pick(configure, 'CalendarScreen'),
  controllerDiagnostic: pick(configure, 'ControllerDiagnosticScreen'),
  interfacePreAdd: pick(configure, 'InterfacePreAddScreen'),
  privileges: pick(() => import('../screens/manage/PrivilegesScreens'), 'PrivilegesScreen'),
  privilegesFixed: pick(() => import('../screens/manage/PrivilegesScreens'), 'PrivilegesFixedScreen'),
  assignPrivileges: pick(() => import('../screens/manage/PrivilegesScreens'), 'AssignPrivilegesScreen'),
  accessZones: pick(() => import('../screens/configure/AccessZonesScreen'), 'AccessZonesScreen'),
  threatLevels: pick(() => import('../screens/configure/ThreatLevelsScreen'), 'ThreatLevelsScreen'),
  controllerHub: pick(() => import('../screens/configure/ControllerHubScreen'), 'ControllerHubScreen'),
  floorPlanMonitor: pick(() => import('../screens/monitor/FloorPlanScreen'), 'FloorPlanScreen'),
  batchUpload: pick(() => import('../screens/manage/BatchUploadScreen'), 'BatchUploadScreen'),
  catalogueList: pick(catalogue, 'CatalogueListScreen'),
  operatorSettings: pick(() => import('../screens/manage/OperatorSettingsScreen'), 'OperatorSettingsScreen'),
  catalogueForm: pick(catalogue, 'CatalogueFormScreen'),
};
