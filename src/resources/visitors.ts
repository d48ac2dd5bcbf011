import { VISIT_PURPOSES, VISITOR_STATUSES, visitorsResource, type Visitor } from '../../contract';
import { fromDeclaration } from './defineResource';
import { systemActor } from '../system/browser';

export const PURPOSES = VISIT_PURPOSES;
export const purposeLabel = (v: string) => PURPOSES.find((p) => p.value === v)?.label ?? v;
export const visitorStatusLabel = (v: string) => VISITOR_STATUSES.find((p) => p.value === v)?.label ?? v;

/**
 * Today as the front desk's date input wants it: the day of the signed-in user's time zone (the client's day for a
 * front desk), not the browser's — after 16:00 UTC a Kuala Lumpur desk is already on the next day.
 */
export const today = () => {
  const zone = systemActor('session').getSnapshot().context.user?.timezone;
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
  try { return new Intl.DateTimeFormat('en-CA', { ...opts, timeZone: zone || undefined }).format(new Date()); } catch {
    return new Intl.DateTimeFormat('en-CA', opts).format(new Date());
  }
};

/**
 * Visitors [1.0.x]: the declaration (contract/resources/visitors.ts) — list at /visitor/list, registration at
 * /visitor/register, a saved registration opens the visitor's details — plus the console-only touches.
 */
export const visitors = fromDeclaration<Visitor>(visitorsResource, {
  primary: { title: 'Visitor', value: (r) => `${r.firstName} ${r.lastName}`, width: 240 },
  columns: {
    company: { width: 180 }, hostName: { title: 'Visiting', width: 180 }, purpose: { width: 110 }, visitDate: { title: 'Date', width: 110 },
    status: { width: 100 }, badgePrintedAt: { title: 'Badge', width: 90, value: (r) => (r.badgePrintedAt ? 'Printed' : '—') }, idNumber: { width: 150 },
  },
  filterPlaceholder: 'Search name, company, host, ID number…',
  devices: { purpose: 'visitor' },
  initial: () => ({ visitDate: today(), purpose: 'meeting' }),
});
