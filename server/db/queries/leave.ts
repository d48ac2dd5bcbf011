// Leave records' own SQL outside the catalogue (issue 50): the withdrawal of a request by its person or whoever filed
// it (server/resources/leave.ts keeps the rule and the audit).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** Whether operator `userId` filed leave record `id` or is its person (the identity of the client with their e-mail). */
export async function isOwnLeave(db: Db, id: number, clientId: number | null, userId: number): Promise<boolean> {
  const params: unknown[] = [id];
  const inClient = tenant(params, clientId, 'l'); // $2
  params.push(userId); // $3
  const { rows } = await db.query<{ mine: boolean }>(
    `select l.requested_by = $3
        or exists (select 1 from identities i join users u on u.id = $3 where i.id = l.identity_id and i.email is not null and lower(i.email) = lower(u.email)) as mine
      from leave_records l where l.id = $1 and ${inClient}`,
    params,
  );
  return !!rows[0]?.mine;
}

/** Marks a request still undecided as withdrawn by `userId`, with the reason as its note. */
export async function withdrawLeave(db: Db, id: number, clientId: number | null, userId: number, note: string | null): Promise<void> {
  const params: unknown[] = [id];
  const own = tenant(params, clientId); // $2
  params.push(userId, note); // $3, $4
  await db.query(
    `update leave_records set status = 'withdrawn', decided_by = $3, decided_at = now(), decision_note = $4, updated_at = now()
      where id = $1 and ${own} and status = 'requested'`,
    params,
  );
}

// issue 48: the rest of the leave's SQL (server/resources/leave.ts): its web hook deliveries, what its mails say, who
// approves it, and a manager's decision.

/** Queues `type` for every active web hook of the client subscribed to it, with leave record `leaveId` as its data. */
export async function queueLeaveHook(db: Db, clientId: number, type: 'leave.requested' | 'leave.decided', leaveId: number): Promise<void> {
  const column = type === 'leave.requested' ? 'leave_requested' : 'leave_decided';
  const params: unknown[] = [leaveId];
  const inClient = tenant(params, clientId, 'l'); // $2
  params.push(type); // $3
  await db.query(
    `insert into webhook_outbox (client_id, hook_id, event_type, body)
    select h.client_id, h.id, $3, jsonb_build_object('type', $3::text, 'clientId', h.client_id, 'occurredAt', now(), 'data', jsonb_build_object(
      'leaveId', l.id, 'identityId', l.identity_id, 'name', i.first_name || ' ' || i.last_name, 'category', c.name, 'from', l.from_date::text,
      'to', l.to_date::text, 'status', l.status, 'note', l.note, 'decisionNote', l.decision_note,
      'requestedBy', (select u.name from users u where u.id = l.requested_by), 'decidedBy', (select u.name from users u where u.id = l.decided_by)))
    from leave_records l join identities i on i.id = l.identity_id join leave_categories c on c.id = l.category_id
    join web_hooks h on h.client_id = l.client_id and h.active and h.${column}
    where l.id = $1 and ${inClient}`,
    params,
  );
}

/** Leave record `leaveId` of the client as its mails say it (none: gone). */
export interface LeaveMailRow {
  name: string;
  category: string;
  from: string;
  to: string;
  status: string;
  note: string | null;
  decision_note: string | null;
  identity_id: number;
  requester: string | null;
}
export async function leaveForMail(db: Db, clientId: number, leaveId: number): Promise<LeaveMailRow | undefined> {
  const params: unknown[] = [leaveId];
  const inClient = tenant(params, clientId, 'l'); // $2
  const { rows } = await db.query<LeaveMailRow>(
    `select i.first_name || ' ' || i.last_name as name, c.name as category, l.from_date::text as from, l.to_date::text as to, l.status, l.note,
      l.decision_note, l.identity_id, (select u.email from users u where u.id = l.requested_by) as requester
    from leave_records l join identities i on i.id = l.identity_id join leave_categories c on c.id = l.category_id where l.id = $1 and ${inClient}`,
    params,
  );
  return rows[0];
}

/** The operators who approve the leave of identity $1 (the approvers of its teams; the teams of identity $1's client). */
const APPROVERS = `select distinct u.id, u.name, u.email from team_members m join team_managers tm on tm.team_id = m.team_id
  join teams t on t.id = m.team_id join identities i on i.id = m.identity_id and i.client_id = t.client_id
  join users u on u.id = tm.user_id where m.identity_id = $1`;

/** The e-mail addresses (null: none) of the operators who approve identity `identityId`'s leave. */
export async function leaveApproverEmails(db: Db, identityId: number): Promise<(string | null)[]> {
  return (await db.query<{ email: string | null }>(APPROVERS, [identityId])).rows.map((r) => r.email);
}

/**
 * Operator `userId` before leave record `id` of the client: who requested it, whether it is their own (the identity
 * with their e-mail), and whether they approve it (a manager of the person's team holding the approve code in
 * `divisions`, the person's division).
 */
export async function leaveDeciderStanding(
  db: Db,
  clientId: number | null,
  id: number,
  userId: number,
  divisions: number[],
): Promise<{ requested_by: number | null; own: boolean; approver: boolean }> {
  const params: unknown[] = [id];
  const inClient = tenant(params, clientId, 'l'); // $2
  params.push(userId, divisions); // $3, $4
  const { rows } = await db.query<{ requested_by: number | null; own: boolean; approver: boolean }>(
    `select l.requested_by,
          exists (select 1 from identities i join users u on u.id = $3 where i.id = l.identity_id and i.email is not null and lower(i.email) = lower(u.email)) as own,
          exists (select 1 from team_members m join team_managers tm on tm.team_id = m.team_id join teams t on t.id = m.team_id and t.client_id = l.client_id
            where m.identity_id = l.identity_id and tm.user_id = $3)
          -- the approve code held in the person's division (§6: privileges per division)
          and exists (select 1 from identities i where i.id = l.identity_id and i.division_id = any($4::int[])) as approver
        from leave_records l where l.id = $1 and ${inClient}`,
    params,
  );
  return rows[0];
}

/** Decides requested leave record `id` of the client: approved or rejected by operator `userId`, with a note. */
export async function decideLeave(
  db: Db,
  clientId: number | null,
  id: number,
  state: 'approved' | 'rejected',
  userId: number,
  note: string | null,
): Promise<void> {
  const upd: unknown[] = [id];
  const own = tenant(upd, clientId); // $2
  upd.push(state, userId, note); // $3..$5
  await db.query(
    `update leave_records set status = $3, decided_by = $4, decided_at = now(), decision_note = $5, updated_at = now()
        where id = $1 and ${own} and status = 'requested'`,
    upd,
  );
}
