// Identities on the server, beyond the declaration: the search also finds a full name and a credential number.
import type { ResourceHooks } from '../crud/hooks';

export const identityHooks: ResourceHooks = {
  search: (n) => `(t.first_name || ' ' || t.last_name) ilike ${n} or exists (select 1 from credentials c where c.identity_id = t.id and c.number ilike ${n})`,
};
