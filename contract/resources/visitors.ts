// Visitors [1.0.x]: one row per registration at the front desk. Registered at /visitor/register; a saved
// registration opens the visitor's details. Status, badge and sign-in times are the server's (named actions).
import { API } from '../api';
import { PRIV } from '../privileges';
import { WATCHLIST_STATES } from '../watchlist';
import { choice, date, defineResource, fromToday, email, image, number, ref, text, timestamp } from './define';

export const VISIT_PURPOSES = [
  { value: 'meeting', label: 'Meeting' },
  { value: 'delivery', label: 'Delivery' },
  { value: 'contractor', label: 'Contractor' },
  { value: 'interview', label: 'Interview' },
  { value: 'other', label: 'Other' },
] as const;
export const VISITOR_STATUSES = [
  { value: 'expected', label: 'Expected' },
  { value: 'on-site', label: 'On site' },
  { value: 'left', label: 'Left' },
] as const;

export const visitorsResource = defineResource({
  name: 'visitors',
  table: 'visitors',
  api: API.visitors,
  route: '/visitor/list',
  section: 'visitor',
  label: { one: 'Visitor', many: 'Visitors' },
  icon: 'people',
  privileges: { view: PRIV.visitors.view, add: PRIV.visitors.add, read: [PRIV.visitors.details, PRIV.visitors.add] },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    firstName: text({ max: 100, required: true, search: true, sort: true }),
    lastName: text({ max: 100, required: true, search: true, sort: true }),
    idNumber: text({ label: 'ID number', max: 32, search: true }),
    company: text({ max: 200, search: true, sort: true }),
    email: email(),
    phone: text({ max: 32, pattern: /^[+0-9 ()-]*$/, phone: true }),
    photo: image({ maxBytes: 1_500_000, inList: false }),
    hostName: text({ label: 'Visiting (host)', max: 200, required: true, search: true, sort: true, placeholder: 'Who they came to see' }),
    // the host as an identity of the client, when they are one (deleting that identity is refused while named here)
    hostId: ref('identities', { label: 'Host identity' }),
    purpose: choice(VISIT_PURPOSES, { required: true, default: 'meeting' }),
    visitDate: date({ label: 'Date of visit', required: true, sort: true, filter: true, help: 'The badge is valid until the end of this day.' }),
    validUntil: timestamp({ required: true }),
    status: choice(VISITOR_STATUSES, { required: true, readOnly: true, sort: true, filter: true }),
    badgePrintedAt: timestamp(),
    createdBy: text({ max: 200, readOnly: true, virtual: true }),
    // what the badge and the visit record print at their top (company ID [0.7.4.0], server/resources/settings.ts)
    issuer: text({ label: 'Printed for', max: 200, readOnly: true, virtual: true }),
    siteCode: number({ label: 'Site code', min: 0, max: 65535, readOnly: true, virtual: true }),
    signedInAt: timestamp(),
    signedOutAt: timestamp(),
    // issue 50: a match of the visitor watchlist (contract/resources/visitorWatchlist.ts), its entries' reasons, and
    // the front desk's decision (Let in / Refuse below); a visitor with an undecided or refused match is not signed in
    watchlist: choice(WATCHLIST_STATES, { label: 'Watchlist', readOnly: true, virtual: true }),
    watchlistReason: text({ label: 'Watchlist match', max: 4000, readOnly: true, virtual: true, inList: false }),
    // the photo of the matched entry (the first that has one), shown beside the visitor's own to compare
    watchlistPhoto: image({ maxBytes: 1_500_000, inList: false, readOnly: true, virtual: true }),
  },
  list: {
    title: ['firstName', 'lastName'],
    columns: ['company', 'hostName', 'purpose', 'visitDate', 'status', 'badgePrintedAt', 'idNumber'],
    sort: ['visitDate', 'desc'],
  },
  // a visit's day is today or later (the client's reach from its visitor properties on the server): one rule, both forms
  rules: [fromToday('visitDate')],
  form: [
    {
      title: 'Visitor',
      description: 'Read the visitor\u2019s identity card to fill name, ID number and photo, or type them.',
      fields: ['firstName', 'lastName', 'idNumber', 'company', 'email', 'phone', 'photo'],
    },
    { title: 'Visit', fields: ['hostName', 'hostId', 'purpose', 'visitDate'] },
  ],
  export: ['csv', 'ndjson'],
  audit: { omit: ['photo', 'watchlistPhoto'] },
  screens: {
    addRoute: '/visitor/register',
    addLabel: 'Register visitor',
    addTitle: 'Register visitor',
    detailsRoute: '/visitor/details',
    // shown on the visitor's details (src/screens/visitor/WatchlistCallout.tsx) while a watchlist match waits
    recordActions: [
      {
        action: 'watchlist-admit',
        label: 'Let in',
        privilege: PRIV.visitorWatchlist.decide,
        icon: 'tick',
        intent: 'success',
        when: { field: 'watchlist', values: ['open'] },
        reason: {
          label: 'Why they may come in (kept in the audit trail)',
          required: true,
          max: 500,
          placeholder: 'Not the listed person: other date of birth',
        },
        done: '{name} may be signed in',
      },
      {
        action: 'watchlist-refuse',
        label: 'Refuse',
        privilege: PRIV.visitorWatchlist.decide,
        icon: 'cross',
        intent: 'danger',
        when: { field: 'watchlist', values: ['open'] },
        reason: { label: 'Why (kept in the audit trail)', required: true, max: 500, placeholder: 'The listed person: sent away at the desk' },
        done: '{name} is refused',
      },
    ],
  },
});
