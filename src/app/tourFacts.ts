// Issue 10: what the guided tour may describe for the signed-in user: the sidebar sections they see, whether they
// have alarms, and whether they work for several clients. Read from the session snapshot and the route table.
import { PRIV } from '../../contract';
import type { SessionSnapshot } from '../../machines/session';
import { selectClientId, selectHeldPrivileges, selectIsSignedIn, selectUser } from '../../machines/session.selectors';
import type { TourFacts } from '../../machines/tour';
import { sidebarGroups } from './Sidebar';

export function tourFactsOf(s: SessionSnapshot): TourFacts {
  const held = selectHeldPrivileges(s);
  const groups = sidebarGroups({ signedIn: selectIsSignedIn(s), held, clientId: selectClientId(s) });
  return {
    sections: groups.filter((g) => g.id !== 'general').map((g) => g.title),
    alarms: held.has(PRIV.alarms.view),
    multiClient: !!selectUser(s)?.multiTenancyEnabled,
  };
}
