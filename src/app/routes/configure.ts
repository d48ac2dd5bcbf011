// The Configure section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// access groups and zones, alarms, divisions, doors, schedules and the other site settings.
import { PRIV } from '../../../contract';
import { r, fromResource, catalogue, settings, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const CONFIGURE_ROUTES: RouteDef[] = [
  ...catalogue(RESOURCE_INDEX.accessGroups, 'Which identities may pass which doors, and when.'),
  // the list shows who is inside each zone (src/screens/configure/AccessZonesScreen.tsx); add and edit are generated
  fromResource(RESOURCE_INDEX.accessZones, 'list', 'accessZones', { description: 'Areas made of doors, for anti-passback and occupancy.' }),
  ...catalogue(RESOURCE_INDEX.accessZones, 'Areas made of doors, for anti-passback and occupancy.').slice(1),
  ...catalogue(RESOURCE_INDEX.alarmGroups, 'Inputs grouped into alarm zones that are armed together.'),
  r('configure', '/configure/alarm-group/:id/:armDisarmStatus/alarm-zone', 'Alarm zone', ['0.4.7.4'], {
    icon: 'notifications',
    hidden: true,
    screen: 'alarmZone',
    description: 'Arm and disarm the zones of an alarm group.',
  }),
  ...catalogue(RESOURCE_INDEX.alarmNotifications, 'Who is told of which alarms, and how.'),
  // issue 31: the target times the alarm handling report measures against
  settings(RESOURCE_INDEX.alarmSettings, 'How soon alarms of each priority should be acknowledged and processed.'),
  // issue 31: when the shifts end, and so when the handover is cut
  settings(RESOURCE_INDEX.shiftSettings, 'When shifts end and are handed over to the next operator.'),
  r('configure', '/configure/calendar', 'Calendar', ['0.4.1.0'], {
    icon: 'calendar',
    screen: 'calendar',
    description: 'Holidays and special days across schedules.',
  }),
  // the tree is its own screen (the whole visible tree at once); add and edit (rename, move) are the generated forms
  fromResource(RESOURCE_INDEX.divisions, 'list', 'divisions', { description: 'The division tree that scopes identities, doors and privileges.' }),
  fromResource(RESOURCE_INDEX.divisions, 'add', 'catalogueForm', { description: 'Create a new division.' }),
  fromResource(RESOURCE_INDEX.divisions, 'edit', 'catalogueForm', { description: 'Change an existing division.' }),
  r('configure', '/configure/doors', 'Doors', [PRIV.doors.view], {
    icon: 'key-enter',
    screen: 'doors',
    description: 'Doors with their live state: lock, unlock or open them for a moment.',
  }),
  fromResource(RESOURCE_INDEX.doors, 'add', 'catalogueForm', { description: 'Create a new door.' }),
  fromResource(RESOURCE_INDEX.doors, 'edit', 'catalogueForm', { description: 'Change an existing door.' }),
  r('configure', '/configure/door-qr', 'Door QR', ['0.4.5.5'], {
    icon: 'barcode',
    screen: 'doorQr',
    description: 'Doors that take rotating QR codes, and the code a credential shows at one now.',
  }),
  ...catalogue(RESOURCE_INDEX.elevatorMasks, 'Floors of an elevator that need no card while a schedule is open.'),
  ...catalogue(RESOURCE_INDEX.floorPlans, 'Upload floor plans and pin the doors on them.'),
  ...catalogue(RESOURCE_INDEX.interlocks, 'Doors of which only one may be open at a time.'),
  ...catalogue(
    RESOURCE_INDEX.logicalBlocks,
    'When an input, door or card event happens (while a schedule is open), pulse an output, move a door or raise an alarm.',
  ),
  ...catalogue(RESOURCE_INDEX.overrides, 'Doors held unlocked or locked for a while, then back to normal by themselves.'),
  ...catalogue(RESOURCE_INDEX.schedules, 'Weekly time windows used by access groups and doors.'),
  ...catalogue(RESOURCE_INDEX.specialDates, 'Dates on which schedules follow holiday rules.'),
  // the level in force, set and lowered above the generated list (src/screens/configure/ThreatLevelsScreen.tsx)
  fromResource(RESOURCE_INDEX.threatLevels, 'list', 'threatLevels', {
    description: 'Ranked threat levels: what the doors do while one is in force, and who still passes.',
  }),
  ...catalogue(RESOURCE_INDEX.threatLevels, 'Ranked threat levels: what the doors do while one is in force, and who still passes.').slice(1),
];
