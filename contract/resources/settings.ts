// A tenant's settings, each one catalogue singleton (one row per client, made with its defaults when first read; its
// one route is the form). The spec names the screens and their codes, not their fields; each field here is one the
// server acts on, named in its comment.
import { EDGE_MAX_OFFLINE_DAYS } from '../edge';
import { PRIV } from '../privileges';
import { FLOOR_PLAN_MONITOR } from './floorPlans';
import { choice, defineResource, number, ref, refs, switchField, text } from './define';

/** Attendance properties [3.5.0] (§2 Attendance "/properties"): what daily attendance counts (server/http/attendance.ts). */
export const attendancePropertiesResource = defineResource({
  name: 'attendanceProperties',
  table: 'attendance_properties',
  api: '/event/attendance/properties',
  route: '/attendance/properties',
  section: 'attendance',
  label: { one: 'Attendance properties', many: 'Attendance properties' },
  icon: 'settings',
  privileges: { view: PRIV.attendanceProperties, edit: PRIV.attendanceProperties },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    // only badge-ins at these doors are comings and goings (none: every door's)
    clockDoors: refs('doors', {
      label: 'Clocking doors',
      through: { table: 'attendance_clock_doors', from: 'properties_id', to: 'door_id' },
      onDelete: 'cascade',
      help: 'Only badge-ins at these doors count as coming in and going out. None chosen: every door.',
    }),
    // worked time is rounded down to a multiple of this
    roundMinutes: number({ label: 'Round worked time down to (minutes)', min: 1, max: 60, required: true, default: 1, help: 'From 1 (no rounding) to 60' }),
  },
  list: { title: ['roundMinutes'], columns: [], sort: ['roundMinutes', 'asc'] },
  form: [
    {
      title: 'Attendance properties',
      description: 'What daily attendance counts as coming in, going out and time worked.',
      fields: ['clockDoors', 'roundMinutes'],
    },
  ],
});

/** Visitor properties [0.7.5.0] (§2 Server): what a visitor's registration needs (server/resources/visitors.ts). */
export const visitorPropertiesResource = defineResource({
  name: 'visitorProperties',
  table: 'visitor_properties',
  api: '/central/1.0/visitor-properties',
  route: '/server/visitor-properties',
  section: 'server',
  label: { one: 'Visitor properties', many: 'Visitor properties' },
  icon: 'id-number',
  privileges: { view: PRIV.visitorProperties, edit: PRIV.visitorProperties },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    requirePhoto: switchField({ label: 'A photo is needed', default: false, wide: true, help: 'A registration without the visitor\u2019s photo is refused.' }),
    requireIdNumber: switchField({
      label: 'An ID number is needed',
      default: false,
      wide: true,
      help: 'A registration without the visitor\u2019s ID number is refused.',
    }),
    requireHostIdentity: switchField({
      label: 'The host must be one of our identities',
      default: false,
      wide: true,
      help: 'The host is picked from the identities, not only typed.',
    }),
    daysAhead: number({ label: 'Registered at most this many days ahead', min: 0, max: 366, required: true, default: 366, help: 'From 0 (today only) to 366' }),
  },
  list: { title: ['daysAhead'], columns: [], sort: ['daysAhead', 'asc'] },
  form: [
    {
      title: 'Visitor properties',
      description: 'What the front desk must have before a visitor is registered.',
      fields: ['requirePhoto', 'requireIdNumber', 'requireHostIdentity', 'daysAhead'],
    },
  ],
});

/**
 * Central properties, general [0.7.3.0] (§2 Server): how long the tenant's records are kept. Each hour the server deletes
 * what is older (server/db/maintenance.ts `pruneByRetention`): events no alarm refers to, and visitors whose visit day
 * is that many days past and who are not signed in. 0 keeps them for ever (the default).
 */
export const centralPropertiesResource = defineResource({
  name: 'centralProperties',
  table: 'central_properties',
  api: '/central/1.0/central-properties/general',
  route: '/server/central-properties/general',
  section: 'server',
  label: { one: 'Central properties', many: 'Central properties' },
  icon: 'settings',
  privileges: { view: PRIV.centralProperties, edit: PRIV.centralProperties },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    eventRetentionDays: number({
      label: 'Keep events for (days)',
      min: 0,
      max: 3650,
      required: true,
      default: 0,
      help: '0 keeps them for ever. Older events are deleted each hour, except those an alarm refers to.',
    }),
    visitorRetentionDays: number({
      label: 'Keep visitor records for (days after the visit)',
      min: 0,
      max: 3650,
      required: true,
      default: 0,
      help: '0 keeps them for ever. A visitor still signed in is kept.',
    }),
    // issue 47: sent in each Gatehouse Edge controller's snapshot (server/edge/snapshot.ts, edge/doors.ts)
    edgeMaxOfflineDays: number({
      label: 'Edge controllers decide offline for at most (days)',
      min: 0,
      max: 365,
      required: true,
      default: EDGE_MAX_OFFLINE_DAYS,
      help: 'From 0 to 365. An edge controller cut off from the server longer than this: each door follows its Offline too long policy.',
    }),
  },
  list: { title: ['eventRetentionDays'], columns: [], sort: ['eventRetentionDays', 'asc'] },
  form: [
    {
      title: 'Record keeping',
      description: 'How long events and visitors\u2019 personal details are kept before the server deletes them.',
      fields: ['eventRetentionDays', 'visitorRetentionDays'],
    },
    {
      title: 'Gatehouse Edge',
      description: 'How long the doors of an edge controller trust their last rules while the server is out of reach.',
      fields: ['edgeMaxOfflineDays'],
    },
  ],
});

export const PIN_SIZES = [
  { value: 'small', label: 'Small' },
  { value: 'medium', label: 'Medium' },
  { value: 'large', label: 'Large' },
] as const;

/**
 * Central properties, floor plan [0.7.3.1] (§2 Server): how the floor plan monitor [0.2.3.0] shows the plans — the one it
 * opens with, whether pins carry the door's name, and how big they are. Read by the monitor (its code reads them).
 */
export const floorPlanPropertiesResource = defineResource({
  name: 'floorPlanProperties',
  table: 'floor_plan_properties',
  api: '/central/1.0/central-properties/floor-plan',
  route: '/server/central-properties/floor-plan',
  section: 'server',
  label: { one: 'Floor plan properties', many: 'Floor plan properties' },
  icon: 'map',
  privileges: { view: PRIV.floorPlanProperties, edit: PRIV.floorPlanProperties, read: [FLOOR_PLAN_MONITOR] },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    defaultPlanId: ref('floorPlans', { label: 'Opens with', onDelete: 'set-null', help: 'The plan the monitor shows first. None: the first by name.' }),
    showDoorNames: switchField({
      label: 'Door names on the pins',
      default: true,
      wide: true,
      help: 'Off: only the coloured pin; the name shows on hover and in the list below the plan.',
    }),
    pinSize: choice(PIN_SIZES, { label: 'Pin size', required: true, default: 'medium' }),
  },
  list: { title: ['pinSize'], columns: [], sort: ['pinSize', 'asc'] },
  form: [
    {
      title: 'Floor plan monitor',
      description: 'How the floor plan monitor shows the plans to every operator of this client.',
      fields: ['defaultPlanId', 'showDoorNames', 'pinSize'],
    },
  ],
});

/**
 * Company ID [0.7.4.0] (§2 Server: "the site code printed on credentials"): the name and site (facility) code printed on
 * visitor badges and visit records; a card or fob added to the credential store without a facility code gets the
 * site code (server/resources/settings.ts). Read by the visitor screens that print.
 */
export const companyIdResource = defineResource({
  name: 'companyId',
  table: 'company_identity',
  api: '/central/1.0/company-id',
  route: '/server/company-id',
  section: 'server',
  label: { one: 'Company ID', many: 'Company ID' },
  icon: 'id-number',
  privileges: { view: PRIV.companyId, edit: PRIV.companyId, read: [PRIV.visitors.view, PRIV.visitors.add, PRIV.printRecord, PRIV.visitorsToday] },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    companyName: text({ label: 'Company name', max: 100, help: 'Printed at the top of badges and visit records. Empty: the client\u2019s name.' }),
    siteCode: number({
      label: 'Site code',
      min: 0,
      max: 65535,
      help: 'The facility code printed on credentials, from 0 to 65535; given to new cards in the credential store that have none.',
    }),
  },
  list: { title: ['companyName'], columns: [], sort: ['companyName', 'asc'] },
  form: [{ title: 'Company ID', description: 'What this site prints on its credentials.', fields: ['companyName', 'siteCode'] }],
});
