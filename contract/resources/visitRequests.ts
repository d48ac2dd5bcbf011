// Visit requests [1.4.0 view, 1.4.1 approve] (§2 Visitor "visit requests and details/{id} [1.4.x]"): a host asks for
// a visitor to be let in on a day; whoever holds 1.4.1 approves it — which registers the visitor for that day, as
// the front desk would (Visitors, status expected) — or declines it with a reason the host is told. The spec names
// no fields and no add route: requests are filed by whoever may register visitors (1.0.1) — a host portal's service
// account through this API, or the front desk taking a host's call at /visitor/visit-requests/add. Nothing is
// deleted or edited afterwards: a request is a record of who asked and who decided.
import { PRIV } from '../privileges';
import { WATCHLIST_STATES } from '../watchlist';
import { choice, date, defineResource, fromToday, email, ref, text, timestamp } from './define';
import { PHONE } from './visitorSetup';
import { VISIT_PURPOSES } from './visitors';

export const VISIT_REQUEST_STATUSES = [
  { value: 'pending', label: 'Waiting' },
  { value: 'approved', label: 'Approved' },
  { value: 'declined', label: 'Declined' },
] as const;

export const visitRequestsResource = defineResource({
  name: 'visitRequests',
  table: 'visit_requests',
  api: '/visitor/1.0/visit-requests',
  route: '/visitor/visit-requests',
  section: 'visitor',
  label: { one: 'Visit request', many: 'Visit requests' },
  icon: 'inbox',
  privileges: { view: PRIV.visitRequests.view, add: PRIV.visitors.add },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    firstName: text({ max: 100, required: true, search: true, sort: true }),
    lastName: text({ max: 100, required: true, search: true, sort: true }),
    company: text({ max: 200, search: true, sort: true }),
    email: email(),
    phone: text({ max: 40, pattern: PHONE, help: 'Digits, spaces and + - ( )', phone: true }),
    hostName: text({ label: 'Visiting (host)', max: 200, required: true, search: true, sort: true, placeholder: 'Who asked for the visit' }),
    hostId: ref('identities', { label: 'Host identity' }),
    visitTypeId: ref('visitTypes', { label: 'Visit type' }),
    purpose: choice(VISIT_PURPOSES, { required: true, default: 'meeting' }),
    visitDate: date({ label: 'Date of visit', required: true, sort: true, filter: true, help: 'Today or later, within a year.' }),
    note: text({
      label: 'Message from the host',
      max: 1000,
      widget: 'textarea',
      wide: true,
      search: true,
      placeholder: 'Parking needed; meets the board at 10:00',
    }),
    status: choice(VISIT_REQUEST_STATUSES, { required: true, readOnly: true, sort: true, filter: true }),
    requestedBy: text({ label: 'Filed by', max: 200, readOnly: true, virtual: true }),
    decidedBy: text({ label: 'Decided by', max: 200, readOnly: true, virtual: true }),
    decidedAt: timestamp({ label: 'Decided' }),
    decisionNote: text({ label: 'Reason', max: 500, readOnly: true }),
    // the registration an approval made (Visitors); deleting a visitor never happens (no delete code)
    visitorId: ref('visitors', { label: 'Registration', readOnly: true }),
    // issue 50: a match of the visitor watchlist; approving the request lets the visitor in, declining refuses them
    watchlist: choice(WATCHLIST_STATES, { label: 'Watchlist', readOnly: true, virtual: true }),
    watchlistReason: text({ label: 'Watchlist match', max: 4000, readOnly: true, virtual: true, inList: false }),
  },
  list: { title: ['lastName', 'firstName'], columns: ['company', 'hostName', 'visitDate', 'status', 'createdAt', 'decidedBy'], sort: ['visitDate', 'asc'] },
  // a visit's day is today or later (the client's reach from its visitor properties on the server): one rule, both forms
  rules: [fromToday('visitDate')],
  form: [
    { title: 'Visitor', description: 'Who is coming, as the host gave it.', fields: ['firstName', 'lastName', 'company', 'email', 'phone'] },
    { title: 'Visit', fields: ['hostName', 'hostId', 'visitTypeId', 'purpose', 'visitDate', 'note'] },
  ],
  export: ['csv', 'ndjson'],
  screens: {
    editDescription: 'One request with its approval trail.',
    addTitle: 'File a visit request',
    addLabel: 'File a request',
    editRoute: '/visitor/visit-requests/details/:id',
    editTitle: 'Visit request',
    recordSummary: ['watchlist', 'watchlistReason', 'status', 'requestedBy', 'createdAt', 'decidedBy', 'decidedAt', 'decisionNote', 'visitorId'],
    recordActions: [
      {
        action: 'approve',
        label: 'Approve',
        privilege: PRIV.visitRequests.approve,
        icon: 'tick',
        intent: 'success',
        when: { field: 'status', values: ['pending'] },
        done: 'Approved: {name} is registered for the day',
      },
      {
        action: 'decline',
        label: 'Decline',
        privilege: PRIV.visitRequests.approve,
        icon: 'cross',
        intent: 'danger',
        when: { field: 'status', values: ['pending'] },
        reason: { label: 'Why (the host is told)', required: true, max: 500, placeholder: 'The site is closed that day' },
        done: 'Declined: {name}’s request',
      },
    ],
  },
});
