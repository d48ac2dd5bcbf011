// Identities on the server, beyond the declaration: the q search covers the declared fields (names, employee number,
// e-mail) as one expression, so "Ada Lovelace" finds a full name, and a credential number too; both are trigram
// index scans (migration 023), not a read of every identity of the client (issue 13).
import type { ResourceHooks } from '../crud/hooks';
import { assertSeats } from './licenses';
import { userFieldDefs } from './userFields';
import { identityCount } from '../db/queries/identities';

/** Exactly the expression migration 023 indexes. */
const SEARCH_TEXT = `(t.first_name || ' ' || t.last_name || ' ' || t.employee_no || ' ' || coalesce(t.email, ''))`;

export const identityHooks: ResourceHooks = {
  userFields: userFieldDefs,
  // a new identity takes a seat of the tenant's license (409 naming the limit when none is free)
  async validate(ctx, _input, before) {
    if (!before && ctx.clientId !== null) await assertSeats(ctx.tx, ctx.clientId, 'identities', 1);
    return [];
  },
  searchAll: (n) => `${SEARCH_TEXT} ilike ${n}`,
  // the identities of the client's divisions in scope, kept as rows change (migration 100)
  countScope: (db, scope) => identityCount(db, scope.clientId, scope.divisions),
  searchIds: (n, client) => `select c.identity_id from credentials c where c.number ilike ${n}${client ? ` and c.client_id = ${client}` : ''}`,
};
