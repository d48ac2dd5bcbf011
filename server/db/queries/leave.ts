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
