// The identity reports (§2 Report): read-only catalogue lists over the identities — searchable, filtered by division
// and status, paged at 200,000 rows, exported as CSV — each with the columns of its report, worked out by the server
// (server/resources/reports.ts). Nothing is added or changed here: identities are kept under Manage → Identities.
import { PRIV } from '../privileges';
import { choice, date, defineResource, ref, text, timestamp } from './define';
import { IDENTITY_STATUSES } from './identities';

const person = {
  firstName: text({ max: 100, required: true, search: true, sort: true }),
  lastName: text({ max: 100, required: true, search: true, sort: true }),
  employeeNo: text({ label: 'Employee no.', max: 32, required: true, search: true, sort: true }),
  divisionId: ref('divisions', { label: 'Division', required: true, filter: true }),
  divisionName: text({ label: 'Division', max: 200, virtual: true, readOnly: true, from: 'divisionId', sort: true }),
} as const;

/** Identity report [0.6.3.0]: who, in which division, in what status, with which credentials and access groups. */
export const identityReportResource = defineResource({
  name: 'identityReport',
  table: 'identities',
  api: '/report/1.0/identities',
  route: '/report/identity',
  section: 'report',
  label: { one: 'Identity', many: 'Identity report' },
  icon: 'people',
  privileges: { view: PRIV.identityReport },
  scope: { tenant: true, division: 'divisionId' },
  timestamps: true,
  fields: {
    ...person,
    status: choice(IDENTITY_STATUSES, { required: true, filter: true, sort: true }),
    validTo: date({ label: 'Valid to', sort: true }),
    credentialNumbers: text({ label: 'Credentials', max: 10_000, virtual: true, readOnly: true }),
    accessGroupNames: text({ label: 'Access groups', max: 10_000, virtual: true, readOnly: true }),
  },
  list: {
    title: ['lastName', 'firstName'],
    columns: ['employeeNo', 'divisionName', 'status', 'credentialNumbers', 'accessGroupNames', 'validTo'],
    sort: ['lastName', 'asc'],
  },
  form: [],
  export: ['csv', 'ndjson'],
});

/** Identity location report [0.6.4.0]: where each identity was last seen — the access zone they are in, and their
 *  last granted badge-in (door and time) — for a roll call. */
export const identityLocationResource = defineResource({
  name: 'identityLocations',
  table: 'identities',
  api: '/report/1.0/identity-locations',
  route: '/report/identity-location',
  section: 'report',
  label: { one: 'Identity location', many: 'Identity location report' },
  icon: 'geolocation',
  privileges: { view: PRIV.identityLocationReport },
  scope: { tenant: true, division: 'divisionId' },
  timestamps: true,
  fields: {
    ...person,
    zone: text({ label: 'In zone', max: 200, virtual: true, readOnly: true }),
    zoneSince: timestamp({ label: 'Since', virtual: true }),
    lastDoor: text({ label: 'Last door', max: 200, virtual: true, readOnly: true }),
    lastSeenAt: timestamp({ label: 'Last seen', virtual: true }),
  },
  list: { title: ['lastName', 'firstName'], columns: ['employeeNo', 'divisionName', 'zone', 'zoneSince', 'lastDoor', 'lastSeenAt'], sort: ['lastName', 'asc'] },
  form: [],
  export: ['csv', 'ndjson'],
});
