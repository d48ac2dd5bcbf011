// Visit requests on the server, beyond the declaration (contract/resources/visitRequests.ts): the day is today or
// later within a year in the client's zone (as a registration's), who filed it, and the two decisions. Approve
// registers the visitor for the day — the same row the front desk's registration makes (status expected, badge
// valid to the end of that day in the client's zone) — in the same transaction; decline keeps the reason. The
// declaration's `when` lets either happen only while the request waits (409 after, whoever decided first).
import { PRIV, visitRequestsResource, visitorsResource } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { visitDateProblems, visitorProperties } from './visitors';
import { approveVisitRequest, carryWatchlistMatches, declineVisitRequest, visitorFromRequest } from '../db/queries/visitRequests';
import { decideMatches, watchlistOf } from './watchlist';

type Publish = (clientId: number, destination: string, body: unknown) => void;

export function visitRequestHooks(publish?: Publish): ResourceHooks {
  // issue 50: a request is held against the visitor watchlist as a registration is; the approval or decline decides it
  const watchlist = watchlistOf('visit_request_id', visitRequestsResource.label.one.toLowerCase(), publish);
  return {
    select: {
      requestedBy: '(select u.name from users u where u.id = t.requested_by)',
      decidedBy: '(select u.name from users u where u.id = t.decided_by)',
      ...watchlist.select,
    },
    afterInsert: watchlist.afterInsert,
    afterCommit: watchlist.afterCommit,
    search: (n) => `(t.first_name || ' ' || t.last_name) ilike ${n}`,
    validate: async (ctx, input, before) => (before ? [] : visitDateProblems(ctx, input.visitDate, (await visitorProperties(ctx)).daysAhead)),
    beforeInsert: async (ctx) => ({ requested_by: ctx.userId }),
    actions: {
      approve: {
        privilege: PRIV.visitRequests.approve,
        async run(ctx, before) {
          // a request left waiting past its day cannot become a registration for a day gone by
          if ((await visitDateProblems(ctx, before.visitDate)).length) {
            throw new HttpError(
              409,
              fill('visitRequest.dayPassed', 'The day of this visit ({day}) has passed: decline the request, and the host may ask again.', {
                day: String(before.visitDate),
              }),
            );
          }
          const visitorId = await visitorFromRequest(ctx.tx, ctx.clientId, before.id, ctx.userId);
          await approveVisitRequest(ctx.tx, ctx.clientId, before.id, ctx.userId, visitorId);
          await decideMatches(ctx, 'visit_request_id', before.id, 'admitted', 'The visit request was approved');
          // the registration carries the request's decided match, so its sign-in is not held up again
          await carryWatchlistMatches(ctx.tx, before.id, visitorId);
        },
        audit: (before, after) => ({
          before: { status: before.status, watchlist: before.watchlist },
          after: { status: after.status, visitorId: after.visitorId, watchlist: after.watchlist },
        }),
        // the registration it made shows in open visitor lists (today's visits, upcoming visits) at once
        afterCommit(clientId, after) {
          publish?.(clientId, `/changes/${visitorsResource.name}`, { resource: visitorsResource.name, id: after.visitorId, action: 'create' });
        },
      },
      decline: {
        privilege: PRIV.visitRequests.approve,
        async run(ctx, before, input) {
          await declineVisitRequest(ctx.tx, ctx.clientId, before.id, ctx.userId, input.reason);
          await decideMatches(ctx, 'visit_request_id', before.id, 'refused', String(input.reason ?? ''));
        },
        audit: (before, after) => ({
          before: { status: before.status, watchlist: before.watchlist },
          after: { status: after.status, decisionNote: after.decisionNote, watchlist: after.watchlist },
        }),
      },
    },
  };
}
