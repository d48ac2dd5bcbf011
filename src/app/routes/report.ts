// The Report section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// activity, events, alarm handling and the catalogue reports.
import { PRIV } from '../../../contract';
import { r, catalogue, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const REPORT_ROUTES: RouteDef[] = [
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
  // issue 50: a past shift handover found again: who acknowledged it, when, and the note for the next shift
  r('report', '/report/handovers', 'Shift handovers', [PRIV.handover.view], {
    icon: 'exchange',
    screen: 'handoverHistory',
    description: 'Every acknowledged shift handover: the shift, who acknowledged it and when, and the note for the next shift.',
  }),
  ...catalogue(RESOURCE_INDEX.identityReport, 'Identities with their credentials and access groups.'),
  ...catalogue(RESOURCE_INDEX.identityLocations, 'Where each identity was last seen.'),
  ...catalogue(RESOURCE_INDEX.reportJobs, 'Reports made on a schedule for the period just past, kept for download.'),
  // the credential store: derived from its declaration, after this section's last row (src/app/routeTable.ts withDeclaredRoutes)
];
