// The Monitor section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// alarms, events, the floor plan, sessions and the journal replay.

import { catalogue, r, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const MONITOR_ROUTES: RouteDef[] = [
  r('monitor', '/monitor/alarms', 'Alarms', ['0.2.1.0'], {
    icon: 'warning-sign',
    screen: 'alarms',
    description: 'Live alarms from doors and inputs: acknowledge and process them as they arrive.',
  }),
  // issue 50: every shelving of an alarm source, running and ended (shelved from the Alarms screen)
  ...catalogue(RESOURCE_INDEX.alarmShelvings, 'Alarm sources kept off the consoles for a time, why, by whom and until when.'),
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
];
