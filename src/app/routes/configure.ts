// The Configure section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// access groups and zones, alarms, divisions, doors, schedules and the other site settings.
import {
  PRIV,
  logicalBlocksResource,
  floorPlansResource,
  elevatorMasksResource,
  alarmGroupsResource,
  alarmNotificationsResource,
  divisionsResource,
  doorsResource,
  overridesResource,
  accessGroupsResource,
  accessZonesResource,
  interlocksResource,
  schedulesResource,
  specialDatesResource,
  threatLevelsResource,
  alarmSettingsResource,
  shiftSettingsResource,
} from '../../../contract';
import { r, fromResource, catalogue, settings, type RouteDef } from './define';

export const CONFIGURE_ROUTES: RouteDef[] = [
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
];
