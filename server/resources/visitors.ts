// Visitors on the server, beyond the declaration: a visit is today or later (within a year) in the client's time
// zone and its badge is valid to the end of that day; who registered it; the search finds a full name; and the
// named actions of the front desk — badge printed, sign in on arrival, sign out on leaving — each once, in order,
// with sign-ins and sign-outs sent to the client's front desks (`/clocking`) after the commit.
import { DAYS_AHEAD_MAX, DESTINATIONS, FIXED_SAID, PRIV, clientToday, dayFromTodayViolation, visitorsResource, type Violation } from '../../contract';
import type { CrudContext, NamedAction, ResourceHooks, Row } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { companyNameSql, siteCodeSql } from './settings';
import { clientTimezone, endOfVisitDay, markBadgePrinted, moveVisitor, visitorPropertiesRow } from '../db/queries/visitors';
import { watchlistOf } from './watchlist';

type Publish = (clientId: number, destination: string, body: unknown) => void;

/** Today in the client's zone: the form's day of the rule too (contract clientToday). */
async function todayOfClient(ctx: CrudContext): Promise<string> {
  return clientToday(await clientTimezone(ctx.tx, ctx.clientId), Date.now());
}

/** The client's visitor properties [0.7.5.0] (contract/resources/settings.ts), their defaults while none are saved. */
export async function visitorProperties(ctx: CrudContext) {
  const p = await visitorPropertiesRow(ctx.tx, ctx.clientId);
  return {
    requirePhoto: !!p?.require_photo,
    requireIdNumber: !!p?.require_id_number,
    requireHostIdentity: !!p?.require_host_identity,
    daysAhead: p ? Number(p.days_ahead) : DAYS_AHEAD_MAX,
  };
}

/** A visit's day (a registration's, a request's): today or later in the client's zone, at most `daysAhead` days on
 *  (the visitor properties'; a year when none are set). The rule and its words are the forms' (contract fromToday). */
export async function visitDateProblems(ctx: CrudContext, visitDate: unknown, daysAhead = DAYS_AHEAD_MAX): Promise<Violation[]> {
  if (typeof visitDate !== 'string') return [];
  const v = dayFromTodayViolation('visitDate', visitDate, await todayOfClient(ctx), daysAhead);
  return v ? [v] : [];
}

function move(to: 'on-site' | 'left', privilege: string, publish?: Publish): NamedAction {
  const from = to === 'on-site' ? 'expected' : 'on-site';
  const done = to === 'left' ? 'signed out' : 'signed in';
  return {
    privilege,
    async run(ctx, before) {
      // issue 50: a watchlist match is decided at the front desk before the visitor comes in
      if (to === 'on-site' && (before.watchlist === 'open' || before.watchlist === 'refused')) {
        throw new HttpError(
          409,
          before.watchlist === 'open'
            ? fill('visitor.onWatchlist', '{name} matches the visitor watchlist: let them in or refuse them first', {
                name: `${before.firstName} ${before.lastName}`,
              })
            : fill('visitor.refusedByWatchlist', '{name} was refused after the watchlist check', { name: `${before.firstName} ${before.lastName}` }),
        );
      }
      if (await moveVisitor(ctx.tx, ctx.clientId, before.id, to, ctx.userId)) return;
      throw new HttpError(
        409,
        before.status === to
          ? fill('record.alreadyInState', '{name} is already {state}', { name: `${before.firstName} ${before.lastName}`, state: done })
          : fill('visitor.onlyFromState', 'Only a visitor who is {state} can be {done}', { state: from === 'expected' ? 'expected' : 'on site', done }),
      );
    },
    audit: (before, after) => ({ before: { status: before.status }, after: { status: after.status } }),
    afterCommit(clientId, after: Row) {
      publish?.(clientId, DESTINATIONS.clocking, {
        id: after.id,
        name: `${after.firstName} ${after.lastName}`,
        direction: to === 'left' ? 'out' : 'in',
        time: String((to === 'left' ? after.signedOutAt : after.signedInAt) ?? new Date().toISOString()),
      });
    },
  };
}

export function visitorHooks(publish?: Publish): ResourceHooks {
  const watchlist = watchlistOf('visitor_id', visitorsResource.label.one.toLowerCase(), publish);
  return {
    select: {
      createdBy: '(select u.name from users u where u.id = t.created_by)',
      issuer: companyNameSql('t.client_id'),
      siteCode: siteCodeSql('t.client_id'),
      ...watchlist.select,
    },
    afterInsert: watchlist.afterInsert,
    afterCommit: watchlist.afterCommit,
    search: (n) => `(t.first_name || ' ' || t.last_name) ilike ${n}`,
    // a registration needs what the client's visitor properties say, and a day within their reach
    async validate(ctx, input, before) {
      if (before) return [];
      const p = await visitorProperties(ctx);
      const missing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && !v.trim());
      return [
        ...(p.requirePhoto && missing(input.photo) ? [{ field: 'photo', ...fill('visitor.photoRequired', 'is required: take the visitor’s photo', {}) }] : []),
        ...(p.requireIdNumber && missing(input.idNumber) ? [{ field: 'idNumber', ...FIXED_SAID.required }] : []),
        ...(p.requireHostIdentity && missing(input.hostId)
          ? [{ field: 'hostId', ...fill('visitor.hostRequired', 'is required: pick the host from the identities', {}) }]
          : []),
        ...(await visitDateProblems(ctx, input.visitDate, p.daysAhead)),
      ];
    },
    async beforeInsert(ctx, input) {
      return { valid_until: await endOfVisitDay(ctx.tx, ctx.clientId, input.visitDate), created_by: ctx.userId };
    },
    actions: {
      'badge-printed': {
        privilege: PRIV.visitors.add,
        async run(ctx, before) {
          await markBadgePrinted(ctx.tx, ctx.clientId, before.id);
        },
        audit: (_before, after) => ({ before: null, after: { badgePrintedAt: after.badgePrintedAt } }),
      },
      'sign-in': move('on-site', PRIV.visitors.signIn, publish),
      'sign-out': move('left', PRIV.visitors.signOut, publish),
      ...watchlist.actions,
    },
  };
}
