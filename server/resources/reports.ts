// The identity reports' columns (contract/resources/reports.ts), each one indexed look-up per row of a page: the
// identity's credentials and access groups; the zone it is in (zone_presence) and its last granted badge-in (the
// partial index over granted swipes, migration 105, read backwards once). Search and counts are the identities'.
import type { ResourceHooks } from '../crud/hooks';
import { identityHooks } from './identities';

const search = { searchAll: identityHooks.searchAll, searchIds: identityHooks.searchIds, countScope: identityHooks.countScope };

export const identityReportHooks: ResourceHooks = {
  ...search,
  select: {
    credentialNumbers: `(select string_agg(c.number || case when c.status <> 'active' then ' (' || c.status || ')' else '' end, ', ' order by c.number) from credentials c where c.identity_id = t.id)`,
    accessGroupNames:
      "(select string_agg(g.name, ', ' order by g.name) from access_group_members m join access_groups g on g.id = m.access_group_id where m.identity_id = t.id)",
  },
};

const lastSwipe = (col: string) =>
  `(select ${col} from events e where e.client_id = t.client_id and e.identity_id = t.id and e.event_code = 5000 order by e.at desc limit 1)`;
export const identityLocationHooks: ResourceHooks = {
  ...search,
  select: {
    zone: '(select z.name from zone_presence p join access_zones z on z.id = p.zone_id where p.identity_id = t.id)',
    zoneSince: '(select p.at from zone_presence p where p.identity_id = t.id and p.zone_id is not null)',
    lastDoor: lastSwipe('e.event_point_name'),
    lastSeenAt: lastSwipe('e.at'),
  },
};
