// A tenant's settings, each one catalogue singleton (one row per client, made with its defaults when first read; its
// one route is the form). The spec names the screens and their codes, not their fields; each field here is one the
// server acts on, named in its comment.
import { PRIV } from '../privileges';
import { defineResource, number, refs, switchField } from './define';

/** Attendance properties [3.5.0] (§2 Attendance "/properties"): what daily attendance counts (server/http/attendance.ts). */
export const attendancePropertiesResource = defineResource({
  name: 'attendanceProperties', table: 'attendance_properties', api: '/event/attendance/properties', route: '/attendance/properties', section: 'attendance',
  label: { one: 'Attendance properties', many: 'Attendance properties' }, icon: 'settings',
  privileges: { view: PRIV.attendanceProperties, edit: PRIV.attendanceProperties },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    // only badge-ins at these doors are comings and goings (none: every door's)
    clockDoors: refs('doors', { label: 'Clocking doors', through: { table: 'attendance_clock_doors', from: 'properties_id', to: 'door_id' }, onDelete: 'cascade',
      help: 'Only badge-ins at these doors count as coming in and going out. None chosen: every door.' }),
    // worked time is rounded down to a multiple of this
    roundMinutes: number({ label: 'Round worked time down to (minutes)', min: 1, max: 60, required: true, default: 1, help: 'From 1 (no rounding) to 60' }),
  },
  list: { title: ['roundMinutes'], columns: [], sort: ['roundMinutes', 'asc'] },
  form: [{ title: 'Attendance properties', description: 'What daily attendance counts as coming in, going out and time worked.', fields: ['clockDoors', 'roundMinutes'] }],
});

/** Visitor properties [0.7.5.0] (§2 Server): what a visitor's registration needs (server/resources/visitors.ts). */
export const visitorPropertiesResource = defineResource({
  name: 'visitorProperties', table: 'visitor_properties', api: '/central/1.0/visitor-properties', route: '/server/visitor-properties', section: 'server',
  label: { one: 'Visitor properties', many: 'Visitor properties' }, icon: 'id-number',
  privileges: { view: PRIV.visitorProperties, edit: PRIV.visitorProperties },
  scope: { tenant: true },
  singleton: true,
  timestamps: true,
  fields: {
    requirePhoto: switchField({ label: 'A photo is needed', default: false, wide: true, help: 'A registration without the visitor\u2019s photo is refused.' }),
    requireIdNumber: switchField({ label: 'An ID number is needed', default: false, wide: true, help: 'A registration without the visitor\u2019s ID number is refused.' }),
    requireHostIdentity: switchField({ label: 'The host must be one of our identities', default: false, wide: true, help: 'The host is picked from the identities, not only typed.' }),
    daysAhead: number({ label: 'Registered at most this many days ahead', min: 0, max: 366, required: true, default: 366, help: 'From 0 (today only) to 366' }),
  },
  list: { title: ['daysAhead'], columns: [], sort: ['daysAhead', 'asc'] },
  form: [{ title: 'Visitor properties', description: 'What the front desk must have before a visitor is registered.', fields: ['requirePhoto', 'requireIdNumber', 'requireHostIdentity', 'daysAhead'] }],
});
