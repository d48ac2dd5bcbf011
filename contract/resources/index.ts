// The resource catalogue: every declared resource, by name. Adding a resource is adding its declaration here
// (and its migration); the server, console and generated tests pick it up.
import { clientsResource } from './clients';
import type { ResourceDeclaration } from './define';
import { divisionsResource } from './divisions';
import { identitiesResource } from './identities';
import { operatorGroupsResource } from './operatorGroups';
import { operatorsResource } from './operators';
import { rolesResource } from './roles';
import { visitorsResource } from './visitors';
import { serviceAccountsResource } from './serviceAccounts';
import { webHooksResource } from './webHooks';
import { userFieldsResource } from './userFields';
import { batchTemplatesResource } from './batchTemplates';
import { licensesResource } from './licenses';
import { schedulesResource } from './schedules';
import { specialDatesResource } from './specialDates';
import { accessZonesResource } from './accessZones';
import { accessGroupsResource } from './accessGroups';
import { interlocksResource } from './interlocks';
import { threatLevelsResource } from './threatLevels';
import { overridesResource, OVERRIDE_MODES, OVERRIDE_STATES } from './overrides';
import { alarmGroupsResource, ARM_STATES, type ArmState } from './alarmGroups';
import { alarmNotificationsResource } from './alarmNotifications';
import { cardFormatsResource } from './cardFormats';
import { doorsResource } from './doors';
import { logicalBlocksResource } from './logicalBlocks';
import { floorPlansResource } from './floorPlans';
import { elevatorMasksResource } from './elevatorMasks';
import { cardReadersResource, controllersResource, inputsResource, interfaceSettingsResource, interfacesResource, outputsResource } from './hardware';
import { credentialStoreResource, visitTypesResource, visitorCredentialsResource, visitorTenantsResource } from './visitorSetup';
import { leaveCategoriesResource, leaveResource, teamsResource, timesheetResource, workSchedulesResource } from './attendance';
import { visitRequestsResource } from './visitRequests';
import { reportJobsResource } from './reportJobs';
import { autoBackupResource } from './backups';
import { firmwareResource } from './firmware';
import { attendancePropertiesResource, centralPropertiesResource, companyIdResource, floorPlanPropertiesResource, visitorPropertiesResource } from './settings';
import { identityLocationResource, identityReportResource } from './reports';
import { alarmSettingsResource } from './alarmSettings';
import { shiftSettingsResource } from './shiftSettings';
import { alarmShelvingsResource } from './alarmShelvings';
import { identityProvidersResource } from './identityProviders';
import { visitorWatchlistResource } from './visitorWatchlist';

export * from './define';
export * from './derive';
export {
  clientsResource,
  divisionsResource,
  identitiesResource,
  visitorsResource,
  serviceAccountsResource,
  webHooksResource,
  userFieldsResource,
  batchTemplatesResource,
  licensesResource,
  operatorGroupsResource,
  operatorsResource,
  rolesResource,
};
export * from './serviceAccounts';
export * from './webHooks';
export { USER_FIELD_KINDS } from './userFields';
export { BATCH_TARGETS } from './batchTemplates';
export { SEATS, type Seat } from './licenses';
export {
  ROLE_CODE,
  AssignPrivilegesRequest,
  CreateOperatorRequest,
  ResetPasswordRequest,
  OperatorSettingsSchema,
  passwordProblems,
  type RolePrivilege,
  type PrivilegeHolders,
  type OperatorSettings,
} from './roles';
export { IDENTITY_STATUSES, CREDENTIAL_TYPES, CREDENTIAL_STATUSES } from './identities';
export { VISIT_PURPOSES, VISITOR_STATUSES } from './visitors';
export { schedulesResource, specialDatesResource, accessZonesResource, accessGroupsResource, interlocksResource, cardFormatsResource, doorsResource };
export { WEEKDAYS, SPECIAL_DAY_KINDS, TIME_OF_DAY } from './schedules';
export { ANTI_PASSBACK, ZoneOccupancy, ZoneOccupants, ForgiveBody } from './accessZones';
export { DOOR_MODES } from './doors';
export { overridesResource, OVERRIDE_MODES, OVERRIDE_STATES, alarmGroupsResource, ARM_STATES, type ArmState, alarmNotificationsResource };
export { PARITY_TYPES } from './cardFormats';
export { elevatorMasksResource, parseFloors, FLOOR_LIST, MAX_FLOOR } from './elevatorMasks';
export { threatLevelsResource, THREAT_MODES, type ThreatMode } from './threatLevels';
export { floorPlansResource, FLOOR_PLAN_MAX_BYTES, FLOOR_PLAN_MONITOR } from './floorPlans';
export {
  logicalBlocksResource,
  LOGIC_TRIGGERS,
  LOGIC_TRIGGER_CODES,
  LOGIC_ACTIONS,
  INPUT_TRIGGERS,
  type LogicTrigger,
  type LogicAction,
} from './logicalBlocks';
export {
  controllersResource,
  cardReadersResource,
  inputsResource,
  outputsResource,
  READER_DIRECTIONS,
  INPUT_KINDS,
  OUTPUT_KINDS,
  IPV4,
  interfacesResource,
  interfaceSettingsResource,
  INTERFACE_KINDS,
} from './hardware';
export {
  visitTypesResource,
  visitorCredentialsResource,
  visitorTenantsResource,
  credentialStoreResource,
  VISITOR_CREDENTIAL_BATCH_API,
  VISITOR_CREDENTIAL_BATCH_MAX,
  VisitorCredentialBatch,
  batchNumbers,
  VisitorCredentialBatchResult,
  VISITOR_CREDENTIAL_KINDS,
  VISITOR_CREDENTIAL_STATES,
  STOCK_CREDENTIAL_TYPES,
  PHONE,
} from './visitorSetup';
export { leaveCategoriesResource, leaveResource, teamsResource, timesheetResource, workSchedulesResource, TEAM_MEMBERS } from './attendance';
export { visitRequestsResource, VISIT_REQUEST_STATUSES } from './visitRequests';
export { REPORT_JOB_KINDS, REPORT_JOB_FREQUENCIES, REPORT_JOB_MAX_ROWS, reportJobsResource, type ReportJobKind } from './reportJobs';
export { AUTO_BACKUP_FREQUENCIES, autoBackupResource } from './backups';
export { FIRMWARE_INSTALL_MS, FIRMWARE_MAX_BYTES, FIRMWARE_VERSION, firmwareResource } from './firmware';
export {
  attendancePropertiesResource,
  centralPropertiesResource,
  companyIdResource,
  floorPlanPropertiesResource,
  PIN_SIZES,
  visitorPropertiesResource,
} from './settings';
export { identityLocationResource, identityReportResource } from './reports';
export { alarmSettingsResource } from './alarmSettings';
export { shiftSettingsResource } from './shiftSettings';
export { alarmShelvingsResource, SHELVING_STATES } from './alarmShelvings';
export { identityProvidersResource, IDENTITY_PROVIDER_KINDS, DEFAULT_GROUPS_ATTRIBUTE } from './identityProviders';
export { visitorWatchlistResource } from './visitorWatchlist';

export const CATALOGUE: readonly ResourceDeclaration<any>[] = [
  clientsResource,
  divisionsResource,
  identitiesResource,
  visitorsResource,
  serviceAccountsResource,
  webHooksResource,
  userFieldsResource,
  batchTemplatesResource,
  licensesResource,
  rolesResource,
  operatorsResource,
  operatorGroupsResource,
  doorsResource,
  schedulesResource,
  specialDatesResource,
  accessZonesResource,
  accessGroupsResource,
  interlocksResource,
  cardFormatsResource,
  controllersResource,
  cardReadersResource,
  inputsResource,
  outputsResource,
  overridesResource,
  alarmGroupsResource,
  alarmNotificationsResource,
  interfacesResource,
  interfaceSettingsResource,
  logicalBlocksResource,
  floorPlansResource,
  elevatorMasksResource,
  threatLevelsResource,
  visitorTenantsResource,
  visitorCredentialsResource,
  visitTypesResource,
  workSchedulesResource,
  teamsResource,
  leaveCategoriesResource,
  leaveResource,
  credentialStoreResource,
  visitRequestsResource,
  attendancePropertiesResource,
  visitorPropertiesResource,
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
  alarmShelvingsResource,
  identityProvidersResource,
  visitorWatchlistResource,
];
export const resourceByName = (name: string) => CATALOGUE.find((r) => r.name === name);
