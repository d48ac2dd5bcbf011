// Server hooks per catalogue resource (the declaration in contract/resources never imports these).
import type { ResourceHooks } from '../crud/hooks';
import { cardFormatHooks, scheduleHooks } from './access';
import { clientHooks } from './clients';
import { identityHooks } from './identities';
import { operatorGroupHooks } from './operatorGroups';
import { roleHooks } from './roles';
import { visitorHooks } from './visitors';
import { visitRequestHooks } from './visitRequests';
import { timesheetHooks } from './timesheet';
import { identityLocationHooks, identityReportHooks } from './reports';
import { serviceAccountHooks } from './serviceAccounts';
import { webHookHooks } from './webHooks';
import { userFieldHooks } from './userFields';
import { batchTemplateHooks } from './batchTemplates';
import { divisionHooks } from './divisions';
import { overrideHooks } from './overrides';
import { alarmGroupHooks } from './alarmGroups';
import { interfaceHooks } from './interfaces';
import { outputHooks, type Pulse } from './outputs';
import { boardPointHooks } from './boardPoints';
import { elevatorMaskHooks } from './elevatorMasks';
import { credentialStoreHooks } from './settings';
import { reportJobHooks } from '../reports/hooks';
import { firmwareHooks } from './firmware';
import { controllerHooks, zoneHooks } from '../edge/keys';
import { alarmShelvingHooks } from '../alarms/hooks';
import { watchlistEntryHooks } from './watchlist';
import { leaveHooks } from './leave';
import { identityProviderHooks } from '../auth/iam/providers';

type Publish = (clientId: number, destination: string, body: unknown) => void;

export const resourceHooks = (
  publish?: Publish,
  opts: { allowPrivateWebhookTargets?: boolean; pulse?: Pulse; log?: (m: string) => void; disconnect?: (jtis: string[]) => void } = {},
): Record<string, ResourceHooks> => ({
  clients: clientHooks,
  identities: identityHooks,
  visitors: visitorHooks(publish),
  visitRequests: visitRequestHooks(publish),
  timesheet: timesheetHooks,
  identityReport: identityReportHooks,
  identityLocations: identityLocationHooks,
  serviceAccounts: serviceAccountHooks(opts.disconnect),
  webHooks: webHookHooks(opts.allowPrivateWebhookTargets),
  userFields: userFieldHooks,
  batchTemplates: batchTemplateHooks,
  roles: roleHooks(),
  operatorGroups: operatorGroupHooks,
  schedules: scheduleHooks,
  cardFormats: cardFormatHooks,
  divisions: divisionHooks,
  overrides: overrideHooks,
  alarmGroups: alarmGroupHooks,
  interfaces: interfaceHooks,
  outputs: { ...outputHooks(opts.pulse, opts.log), ...boardPointHooks('output') },
  inputs: boardPointHooks('input'),
  elevatorMasks: elevatorMaskHooks,
  credentialStore: credentialStoreHooks,
  reportJobs: reportJobHooks,
  firmware: firmwareHooks,
  controllers: controllerHooks(),
  accessZones: zoneHooks,
  alarmShelvings: alarmShelvingHooks(publish),
  visitorWatchlist: watchlistEntryHooks,
  leave: leaveHooks(publish, { log: opts.log }),
  identityProviders: identityProviderHooks(),
});
