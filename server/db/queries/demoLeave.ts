// The demo's leave (issue 50): the HR manager approves the leave of the client's teams, and the demo staff user is the
// head-office team's second member (an operator is the identity of the client with their e-mail, server/crud/scopes.ts),
// holding only the dashboard and Request own leave (3.8.3). Seeded once the users exist (server/db/seed.ts).
import { PRIV } from '../../../contract';
import type { Db } from '../db';
import { tenantOf } from '../tenant';

export const STAFF_ROLE = { name: 'Staff (own leave)', privileges: [PRIV.dashboard, PRIV.leave.request] };

export async function seedLeaveDemo(tx: Db, client: number): Promise<void> {
  const params: unknown[] = [];
  const own = tenantOf(params, client); // $1
  await tx.query(
    `insert into team_managers (team_id, user_id) select t.id, u.id from teams t join users u on u.username = 'hr'
    join user_grants g on g.user_id = u.id and g.client_id = t.client_id where ${own('t')} on conflict do nothing`,
    params,
  );
  await tx.query(
    `update users u set email = i.email, name = i.first_name || ' ' || i.last_name
    from (select i.email, i.first_name, i.last_name from team_members m join teams t on t.id = m.team_id and ${own('t')}
      join identities i on i.id = m.identity_id where t.name = 'Head office' order by i.id offset 1 limit 1) i
    where u.username = 'staff' and exists (select 1 from user_grants g where g.user_id = u.id and ${own('g')})`,
    params,
  );
}
