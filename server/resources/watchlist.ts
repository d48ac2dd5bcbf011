// The visitor watchlist on the server (issue 50; contract/resources/visitorWatchlist.ts, contract/watchlist.ts).
// Every registration (visitors) and visit request is held against the client's entries still in force (no `until`, or
// one today or later in the client's zone) inside the transaction that writes it: each match is kept with the entry's
// name, list and reason as they stood (visitor_watchlist_matches) and audited ('watchlist-match'); the saved row answers
// with `watchlist` ('open') and `watchlistReason`, so the front desk's form and the visitor's page warn at once. After
// the commit an alarm is raised for security (event 7100 through the event pipeline: division-free, priority 2), and
// its event id kept on the match. The front desk decides: a visitor is let in or refused (named actions, audited by the
// catalogue; the decision, its note and who made it on the match); approving a request lets its visitor in, declining
// it refuses them. A visitor whose match is open or refused is not signed in (409).
import { EVENT_CODES, PRIV, fill, watchlistMatch, type WatchlistMatchKind } from '../../contract';
import type { CrudContext, NamedAction, ResourceHooks, Row } from '../crud/hooks';
import type { Db } from '../db/db';
import { said, type Publish } from '../monitor/events';
import { partsOf } from './parts';
import { audit } from '../audit/trail';
import { decideWatchlistMatches, insertWatchlistMatch, setWatchlistAlarmEvent, watchlistInForce } from '../db/queries/watchlist';

type Owner = 'visitor_id' | 'visit_request_id';

export const watchlistEntryHooks: ResourceHooks = {
  select: { addedBy: '(select u.name from users u where u.id = t.added_by)' },
  beforeInsert: async (ctx) => ({ added_by: ctx.userId }),
};

/** The virtual fields of a registration or request (alias t): the latest match's state, and every match's words. */
export const watchlistSelect = (owner: Owner) => ({
  watchlist: `(select case when count(*) = 0 then null when bool_or(m.state = 'open') then 'open' when bool_or(m.state = 'refused') then 'refused' else 'admitted' end
    from visitor_watchlist_matches m where m.${owner} = t.id)`,
  watchlistReason: `(select string_agg(m.entry_name || ' (' || case m.entry_kind when 'deny' then 'deny entry' else 'watch' end || ', '
    || case m.matched_on when 'document' then 'same document number' when 'name' then 'same name' else 'similar name' end || '): ' || m.reason
    || coalesce(' ' || to_char(e.date_of_birth, 'YYYY-MM-DD'), ''), '; ' order by m.id)
    from visitor_watchlist_matches m left join visitor_watchlist e on e.id = m.entry_id where m.${owner} = t.id)`,
  // a registration shows the photo of the entry it matched (the first match's that has one), to compare with the visitor
  ...(owner === 'visitor_id'
    ? {
        watchlistPhoto: `(select e.photo from visitor_watchlist_matches m join visitor_watchlist e on e.id = m.entry_id and e.client_id = m.client_id
          where m.${owner} = t.id and e.photo is not null order by m.id limit 1)`,
      }
    : {}),
});

export interface WatchlistHit {
  entryId: number;
  name: string;
  kind: string;
  reason: string;
  matchedOn: WatchlistMatchKind;
}

/** The client's entries in force that `c` matches, the strongest match of each. */
export async function watchlistHits(
  tx: Db,
  clientId: number,
  c: { firstName: string; lastName: string; documentNumber?: string | null },
): Promise<WatchlistHit[]> {
  return (await watchlistInForce(tx, clientId)).flatMap((r) => {
    const on = watchlistMatch(c, { fullName: r.full_name, documentNumber: r.document_number });
    return on ? [{ entryId: Number(r.id), name: r.full_name, kind: r.kind, reason: r.reason, matchedOn: on }] : [];
  });
}

/** Keep and audit each match of the row just written (inside its transaction). */
async function keepMatches(ctx: CrudContext, owner: Owner, entity: string, row: Row, documentNumber: unknown) {
  const hits = await watchlistHits(ctx.tx, ctx.clientId!, {
    firstName: String(row.firstName ?? ''),
    lastName: String(row.lastName ?? ''),
    documentNumber: typeof documentNumber === 'string' ? documentNumber : null,
  });
  for (const h of hits) {
    const matchId = await insertWatchlistMatch(ctx.tx, ctx.clientId, owner, row.id, h);
    await audit(ctx.tx, ctx.req, {
      clientId: ctx.clientId,
      action: 'watchlist-match',
      entity,
      entityId: row.id,
      before: null,
      after: { matchId, entryId: h.entryId, entry: h.name, list: h.kind, matchedOn: h.matchedOn, reason: h.reason },
    });
  }
}

/** After the commit of a row that matched: one alarm for security (each open match of the row gets its event id). */
function raiseAlarm(publish: object | undefined, owner: Owner, clientId: number, row: Row | null, log?: (m: string) => void) {
  const to = partsOf(publish);
  if (!to || !row || row.watchlist !== 'open') return;
  const name = `${row.firstName} ${row.lastName}`;
  const values = { name, reason: String(row.watchlistReason ?? '') };
  // issue 48: said with its key, in the operator's language on the console
  const message =
    owner === 'visitor_id'
      ? fill('event.watchlistAtDesk', 'Watchlist: {name} registered at the front desk matches {reason}', values)
      : fill('event.watchlistInRequest', 'Watchlist: {name} asked for in a visit request matches {reason}', values);
  void to
    .record(clientId, {
      eventCode: EVENT_CODES.visitorWatchlistMatch,
      sourceId: `${owner === 'visitor_id' ? 'visitor' : 'visit-request'}-${row.id}`,
      sourceName: name,
      ...said({ ...message, message: message.message.slice(0, 1000) }),
    })
    .then((e) => setWatchlistAlarmEvent(to.db, owner, row.id, e.id))
    .catch((err) => log?.(`watchlist alarm of ${owner} ${row.id}: ${err}`));
}

/** Decide the open matches of a row (inside the action's transaction). */
export async function decideMatches(ctx: CrudContext, owner: Owner, id: number, state: 'admitted' | 'refused', note: string | null) {
  await decideWatchlistMatches(ctx.tx, ctx.clientId, owner, id, state, ctx.userId, note);
}

function decide(state: 'admitted' | 'refused'): NamedAction {
  return {
    privilege: PRIV.visitorWatchlist.decide,
    async run(ctx, before, input) {
      await decideMatches(ctx, 'visitor_id', before.id, state, typeof input.reason === 'string' ? input.reason : null);
    },
    audit: (before, after) => ({ before: { watchlist: before.watchlist }, after: { watchlist: after.watchlist, watchlistReason: after.watchlistReason } }),
  };
}

/** What the visitors' and visit requests' hooks gain from the watchlist. */
export function watchlistOf(owner: Owner, entity: string, publish?: Publish, log?: (m: string) => void) {
  return {
    select: watchlistSelect(owner),
    afterInsert: (ctx: CrudContext, row: Row) => keepMatches(ctx, owner, entity, row, owner === 'visitor_id' ? row.idNumber : null),
    afterCommit: (clientId: number, change: { action: string }, after: Row | null) => {
      if (change.action === 'create') raiseAlarm(publish, owner, clientId, after, log);
    },
    actions: (owner === 'visitor_id' ? { 'watchlist-admit': decide('admitted'), 'watchlist-refuse': decide('refused') } : {}) as Record<string, NamedAction>,
  } satisfies Partial<ResourceHooks>;
}
