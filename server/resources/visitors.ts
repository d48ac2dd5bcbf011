// Visitors on the server, beyond the declaration: a visit is today or later (within a year) in the client's time
// zone and its badge is valid to the end of that day; who registered it; the search finds a full name; and the
// named actions of the front desk — badge printed, sign in on arrival, sign out on leaving — each once, in order,
// with sign-ins and sign-outs sent to the client's front desks (`/clocking`) after the commit.
import { DAYS_AHEAD_MAX, DESTINATIONS, PRIV, clientToday, dayFromTodayViolation, visitorsResource, type Violation } from '../../contract';
import type { CrudContext, NamedAction, ResourceHooks, Row } from '../crud/hooks';
import { HttpError, fill } from '../http/kit';
import { companyNameSql, siteCodeSql } from './settings';
import { tenant } from '../db/tenant';
import { watchlistOf } from './watchlist';

type Publish = (clientId: number, destination: string, body: unknown) => void;

/** Today in the client's zone: the form's day of the rule too (contract clientToday). */
async function todayOfClient(ctx: CrudContext): Promise<string> {
  const { rows } = await ctx.tx.query<{ timezone: string | null }>('select timezone from clients where id = $1', [ctx.clientId]);
  return clientToday(rows[0]?.timezone, Date.now());
}

/** The client's visitor properties [0.7.5.0] (contract/resources/settings.ts), their defaults while none are saved. */
export async function visitorProperties(ctx: CrudContext) {
  const params: unknown[] = [];
  const { rows } = await ctx.tx.query<{ require_photo: boolean; require_id_number: boolean; require_host_identity: boolean; days_ahead: number }>(
    `select require_photo, require_id_number, require_host_identity, days_ahead from visitor_properties where ${tenant(params, ctx.clientId)}`,
    params,
  );
  const p = rows[0];
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
      const params: unknown[] = [before.id];
      const inClient = tenant(params, ctx.clientId); // $2
      params.push(ctx.userId); // $3
      const sql =
        to === 'on-site'
          ? `update visitors set status = 'on-site', signed_in_at = now(), signed_in_by = $3, updated_at = now() where id = $1 and ${inClient} and status = 'expected' returning id`
          : `update visitors set status = 'left', signed_out_at = now(), signed_out_by = $3, updated_at = now() where id = $1 and ${inClient} and status = 'on-site' returning id`;
      if ((await ctx.tx.query(sql, params)).rows.length) return;
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
        ...(p.requirePhoto && missing(input.photo) ? [{ field: 'photo', message: 'is required: take the visitor\u2019s photo' }] : []),
        ...(p.requireIdNumber && missing(input.idNumber) ? [{ field: 'idNumber', message: 'is required' }] : []),
        ...(p.requireHostIdentity && missing(input.hostId) ? [{ field: 'hostId', message: 'is required: pick the host from the identities' }] : []),
        ...(await visitDateProblems(ctx, input.visitDate, p.daysAhead)),
      ];
    },
    async beforeInsert(ctx, input) {
      const { rows } = await ctx.tx.query<{ v: Date }>(`select (($1::date + 1)::timestamp at time zone timezone) v from clients where id = $2`, [
        input.visitDate,
        ctx.clientId,
      ]);
      return { valid_until: rows[0].v, created_by: ctx.userId };
    },
    actions: {
      'badge-printed': {
        privilege: PRIV.visitors.add,
        async run(ctx, before) {
          const params: unknown[] = [before.id];
          await ctx.tx.query(`update visitors set badge_printed_at = now(), updated_at = now() where id = $1 and ${tenant(params, ctx.clientId)}`, params);
        },
        audit: (_before, after) => ({ before: null, after: { badgePrintedAt: after.badgePrintedAt } }),
      },
      'sign-in': move('on-site', PRIV.visitors.signIn, publish),
      'sign-out': move('left', PRIV.visitors.signOut, publish),
      ...watchlist.actions,
    },
  };
}
