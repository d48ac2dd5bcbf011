// The Visitor section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// today’s and upcoming visits, visitors, their tenants, credentials, visit types and requests.
import { PRIV } from '../../../contract';
import { r, fromResource, catalogue, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const VISITOR_ROUTES: RouteDef[] = [
  r('visitor', '/visitor', 'Visitor management', ['1.0.0'], {
    icon: 'id-number',
    screen: 'visitorToday',
    description: 'Today\u2019s visits: who is expected, on site and gone.',
  }),
  fromResource(RESOURCE_INDEX.visitors, 'add', 'visitorRegister', { icon: 'new-person', description: 'Register a visitor and issue a credential.' }),
  r('visitor', '/visitor/visit-details/:id/:bucketStartDate', 'Visit details', ['1.0.5'], {
    icon: 'id-number',
    hidden: true,
    screen: 'visitorDetails',
    description: 'One visit with its clocking history.',
  }),
  r('visitor', '/visitor/sign-in/:id/:bucketStartDate', 'Sign visitor in', ['1.0.2'], {
    icon: 'log-in',
    hidden: true,
    screen: 'visitorDetails',
    description: 'Sign a visitor in at an entry door.',
  }),
  r('visitor', '/visitor/sign-out/:id/:bucketStartDate', 'Sign visitor out', ['1.0.7'], {
    icon: 'log-out',
    hidden: true,
    screen: 'visitorDetails',
    description: 'Sign a visitor out at an exit door.',
  }),
  fromResource(RESOURCE_INDEX.visitors, 'list', 'visitorList', { description: 'Every registered visitor.' }),
  r('visitor', '/visitor/details/:id', 'Visitor details', ['1.0.3'], {
    icon: 'person',
    hidden: true,
    screen: 'visitorDetails',
    description: 'A visitor and their visits.',
  }),
  ...catalogue(RESOURCE_INDEX.visitorTenants, 'Tenants of the building whom visitors come to see.'),
  ...catalogue(RESOURCE_INDEX.visitorCredentials, 'Cards and QR codes lent to visitors.'),
  r('visitor', '/visitor/credentials/batch-add', 'Batch add visitor credentials', [PRIV.visitorCredentials.batchAdd], {
    icon: 'credit-card',
    hidden: true,
    screen: 'visitorCredentialBatch',
    description: 'Add a range of visitor cards at once.',
  }),
  ...catalogue(RESOURCE_INDEX.visitTypes, 'Kinds of visit, how long they last and what they need.'),
  // details/{id} [1.4.0]: the request read-only, with Approve and Decline for 1.4.1 holders (its record actions)
  ...catalogue(RESOURCE_INDEX.visitRequests, 'Requests from hosts, waiting for approval.'),
  // issue 50: who is not let in or watched; registrations and requests that match warn the front desk
  ...catalogue(RESOURCE_INDEX.visitorWatchlist, 'People not let in or kept an eye on: registrations and visit requests that match warn the front desk.'),
  r('visitor', '/visitor/upcoming-visits', 'Upcoming visits', ['1.0.0'], {
    icon: 'calendar',
    screen: 'visitorUpcoming',
    description: 'Visits booked for the coming days.',
  }),
];
