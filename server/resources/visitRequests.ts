// Visit requests on the server, beyond the declaration (contract/resources/visitRequests.ts): the day is today or
// later within a year in the client's zone (as a registration's), who filed it, and the two decisions. Approve
// registers the visitor for the day — the same row the front desk's registration makes (status expected, badge
// valid to the end of that day in the client's zone) — in the same transaction; decline keeps the reason. The
// declaration's `when` lets either happen only while the request waits (409 after, whoever decided first).
import { PRIV, visitRequestsResource, visitorsResource } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { visitDateProblems, visitorProperties } from './visitors';
import { tenant } from '../db/tenant';
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
          const madeParams: unknown[] = [before.id];
          const madeWhere = tenant(madeParams, ctx.clientId, 'r'); // $2
          madeParams.push(ctx.userId); // $3
          const made = await ctx.tx.query<{ id: number }>(
            `insert into visitors (client_id, first_name, last_name, company, email, phone, host_name, host_id, purpose,
              visit_date, valid_until, status, created_by)
            select r.client_id, r.first_name, r.last_name, r.company, r.email, r.phone, r.host_name, r.host_id, r.purpose,
              r.visit_date, ((r.visit_date + 1)::timestamp at time zone c.timezone), 'expected', $3
            from visit_requests r join clients c on c.id = r.client_id where r.id = $1 and ${madeWhere} returning id`,
            madeParams,
          );
          const approvedParams: unknown[] = [before.id];
          const approvedWhere = tenant(approvedParams, ctx.clientId); // $2
          approvedParams.push(ctx.userId, made.rows[0].id); // $3, $4
          await ctx.tx.query(
            `update visit_requests set status = 'approved', decided_by = $3, decided_at = now(), visitor_id = $4, updated_at = now()
            where id = $1 and ${approvedWhere}`,
            approvedParams,
          );
          await decideMatches(ctx, 'visit_request_id', before.id, 'admitted', 'The visit request was approved');
          // the registration carries the request's decided match, so its sign-in is not held up again
          await ctx.tx.query(
            `insert into visitor_watchlist_matches (client_id, entry_id, visitor_id, matched_on, entry_name, entry_kind, reason, state, decided_by, decided_at, decision_note, alarm_event_id)
            select client_id, entry_id, $2, matched_on, entry_name, entry_kind, reason, state, decided_by, decided_at, decision_note, alarm_event_id
            from visitor_watchlist_matches where visit_request_id = $1`,
            [before.id, made.rows[0].id],
          );
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
          const declinedParams: unknown[] = [before.id];
          const declinedWhere = tenant(declinedParams, ctx.clientId); // $2
          declinedParams.push(ctx.userId, input.reason); // $3, $4
          await ctx.tx.query(
            `update visit_requests set status = 'declined', decided_by = $3, decided_at = now(), decision_note = $4, updated_at = now()
            where id = $1 and ${declinedWhere}`,
            declinedParams,
          );
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
