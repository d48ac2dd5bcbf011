import { API, PRIV, Visitor, VisitorInput, todayInZone } from '../../contract';
import { defineResource } from './defineResource';
import { getDisplayZone, showDate } from '../ui/time';

export const PURPOSES = [
  { label: 'Meeting', value: 'meeting' }, { label: 'Delivery', value: 'delivery' }, { label: 'Contractor', value: 'contractor' },
  { label: 'Interview', value: 'interview' }, { label: 'Other', value: 'other' },
] as const;
export const purposeLabel = (v: string) => PURPOSES.find((p) => p.value === v)?.label ?? v;
const STATUS: Record<string, string> = { expected: 'Expected', 'on-site': 'On site', left: 'Left' };
export const visitorStatusLabel = (v: string) => STATUS[v] ?? v;

/** Today as the front desk's date input wants it: the day in the user's zone (issue 10), not the browser's. */
export const today = () => todayInZone(getDisplayZone(), Date.now());

/**
 * Visitors [1.0.x]: the list at /visitor/list, registration at /visitor/register (not `/add`), and a saved
 * registration opens the visitor's details, where the badge is printed.
 */
export const visitors = defineResource<Visitor>({
  name: 'visitors',
  title: 'Visitors',
  singular: 'Visitor',
  path: '/visitor/list',
  addPath: '/visitor/register',
  addLabel: 'Register visitor',
  rowPath: (id) => `/visitor/details/${id}`,
  savedPath: (id) => `/visitor/details/${id}`,
  privileges: { view: PRIV.visitors.view, add: PRIV.visitors.add },
  schema: Visitor,
  input: VisitorInput,
  api: API.visitors,
  primary: { title: 'Visitor', field: 'lastName', value: (r) => `${r.firstName} ${r.lastName}`, width: 240 },
  columns: [
    { field: 'company', title: 'Company', width: 180, sortable: true, value: (r) => r.company ?? '' },
    { field: 'hostName', title: 'Visiting', width: 180, sortable: true },
    { field: 'purpose', title: 'Purpose', width: 110, sortable: false, value: (r) => purposeLabel(r.purpose) },
    { field: 'visitDate', title: 'Date', width: 120, sortable: true, value: (r) => showDate(r.visitDate) },
    { field: 'status', title: 'Status', width: 100, sortable: true, value: (r) => visitorStatusLabel(r.status) },
    { field: 'badgePrintedAt', title: 'Badge', width: 90, sortable: false, value: (r) => (r.badgePrintedAt ? 'Printed' : '—') },
    { field: 'idNumber', title: 'ID number', width: 150, sortable: false, value: (r) => r.idNumber ?? '' },
  ],
  defaultSort: [{ field: 'visitDate', dir: 'desc' }],
  filterPlaceholder: 'Search name, company, host, ID number…',
  devices: { purpose: 'visitor' },
  initial: () => ({ visitDate: today(), purpose: 'meeting' }),
  form: [
    {
      title: 'Visitor',
      description: 'Read the visitor\u2019s identity card to fill name, ID number and photo, or type them.',
      fields: [
        { name: 'firstName', label: 'First name', required: true },
        { name: 'lastName', label: 'Last name', required: true },
        { name: 'idNumber', label: 'ID number' },
        { name: 'company', label: 'Company' },
        { name: 'email', label: 'Email', kind: 'email' },
        { name: 'phone', label: 'Phone', placeholder: '+60 3 555 0100' },
        { name: 'photo', label: 'Photo', kind: 'hidden' },
      ],
    },
    {
      title: 'Visit',
      fields: [
        { name: 'hostName', label: 'Visiting (host)', required: true, placeholder: 'Who they came to see' },
        { name: 'purpose', label: 'Purpose', kind: 'select', options: PURPOSES, required: true },
        { name: 'visitDate', label: 'Date of visit', kind: 'date', required: true, help: 'The badge is valid until the end of this day.' },
      ],
    },
  ],
});
