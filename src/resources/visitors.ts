import { VISIT_PURPOSES, VISITOR_STATUSES, visitorsResource, type Visitor } from '../../contract';
import { fromDeclaration } from './consoleResource';
import { getClientToday } from '../ui/time';
import { tx } from '../i18n';

export const PURPOSES = VISIT_PURPOSES;
export const purposeLabel = (v: string) => PURPOSES.find((p) => p.value === v)?.label ?? v;
export const visitorStatusLabel = (v: string) => VISITOR_STATUSES.find((p) => p.value === v)?.label ?? v;

/** Today as the front desk's date input wants it: the client's day, the one a visit's day is counted in (its rule on
 *  the server, its badge's end), not the viewer's or the browser's (issue 29). */
export const today = () => getClientToday();

/**
 * Visitors [1.0.x]: the declaration (contract/resources/visitors.ts) — list at /visitor/list, registration at
 * /visitor/register, a saved registration opens the visitor's details — plus the console-only touches.
 */
export const visitors = fromDeclaration<Visitor>(visitorsResource, {
  primary: { title: 'Visitor', value: (r) => `${r.firstName} ${r.lastName}`, width: 240 },
  columns: {
    company: { width: 180 },
    hostName: { title: 'Visiting', width: 180 },
    purpose: { width: 110 },
    visitDate: { title: 'Date', width: 110 },
    status: { width: 100 },
    badgePrintedAt: { title: 'Badge', width: 90, value: (r) => (r.badgePrintedAt ? tx('Printed') : '—') },
    idNumber: { width: 150 },
  },
  filterPlaceholder: 'Search name, company, host, ID number…',
  devices: { purpose: 'visitor' },
  initial: () => ({ visitDate: today(), purpose: 'meeting' }),
});
