// Identities on the server, beyond the declaration: the q search covers the declared fields (names, employee number,
// e-mail) as one expression, so "Ada Lovelace" finds a full name, and a credential number too; both are trigram
// index scans (migration 023), not a read of every identity of the client (issue 13).
import type { ResourceHooks } from '../crud/hooks';
import { assertSeats } from './licenses';
import { userFieldDefs } from './userFields';

/** Exactly the expression migration 023 indexes. */
const SEARCH_TEXT = `(s.first_name || ' ' || s.last_name || ' ' || s.employee_no || ' ' || coalesce(s.email, ''))`;

export const identityHooks: ResourceHooks = {
  userFields: userFieldDefs,
  // a new identity takes a seat of the tenant's license (409 naming the limit when none is free)
  async validate(ctx, _input, before) {
    if (!before && ctx.clientId !== null) await assertSeats(ctx.tx, ctx.clientId, 'identities', 1);
    return [];
  },
  searchAll: (n) => `t.id in (select s.id from identities s where ${SEARCH_TEXT} ilike ${n} union select c.identity_id from credentials c where c.number ilike ${n})`,
};
