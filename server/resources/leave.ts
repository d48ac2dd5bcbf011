// Leave on the server, beyond the declaration (contract/resources/attendance.ts leaveResource; issue 50): a record is
// requested (whoever adds it, kept as requested_by); a manager of the person's team (teams' leave approvers, holding
// 3.8.2) approves it or rejects it with a note, once; nobody decides leave they requested or their own (an operator
// whose e-mail is the person's). Correcting a decided record asks for the decision again. Only approved leave counts
// (server/db/queries/attendance.ts). In the same transaction a web hook subscribed to leave.requested or leave.decided
// gets the record (the outbox); after the commit, with SMTP_URL set, the approvers are mailed of a request and the
// requester of the decision.
import nodemailer from 'nodemailer';
import { PRIV } from '../../contract';
import type { CrudContext, NamedAction, ResourceHooks, Row } from '../crud/hooks';
import type { Db } from '../db/db';
import { HttpError, divisionsFor, principal } from '../http/kit';
import { tenant } from '../db/tenant';
import { partsOf } from './parts';
import { isOwnLeave, withdrawLeave } from '../db/queries/leave';

/** Mail settings, read at each send (SMTP_URL, SMTP_FROM) unless given (tests). */
export type LeaveMail = { smtpUrl?: string | null; from?: string; log?: (m: string) => void };

async function enqueueHook(tx: Db, clientId: number, type: 'leave.requested' | 'leave.decided', leaveId: number) {
  const column = type === 'leave.requested' ? 'leave_requested' : 'leave_decided';
  const params: unknown[] = [leaveId];
  const inClient = tenant(params, clientId, 'l'); // $2
  params.push(type); // $3
  await tx.query(
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

/** The operators who approve the leave of identity $1 (the approvers of its teams; the teams of identity $1's client). */
const APPROVERS = `select distinct u.id, u.name, u.email from team_members m join team_managers tm on tm.team_id = m.team_id
  join teams t on t.id = m.team_id join identities i on i.id = m.identity_id and i.client_id = t.client_id
  join users u on u.id = tm.user_id where m.identity_id = $1`;

async function mail(o: LeaveMail, db: Db, clientId: number, leaveId: number, to: 'approvers' | 'requester') {
  const smtpUrl = o.smtpUrl !== undefined ? o.smtpUrl : process.env.SMTP_URL?.trim() || null;
  if (!smtpUrl) return;
  const params: unknown[] = [leaveId];
  const inClient = tenant(params, clientId, 'l'); // $2
  const { rows } = await db.query<{
    name: string;
    category: string;
    from: string;
    to: string;
    status: string;
    note: string | null;
    decision_note: string | null;
    identity_id: number;
    requester: string | null;
  }>(
    `select i.first_name || ' ' || i.last_name as name, c.name as category, l.from_date::text as from, l.to_date::text as to, l.status, l.note,
      l.decision_note, l.identity_id, (select u.email from users u where u.id = l.requested_by) as requester
    from leave_records l join identities i on i.id = l.identity_id join leave_categories c on c.id = l.category_id where l.id = $1 and ${inClient}`,
    params,
  );
  const l = rows[0];
  if (!l) return;
  const addresses =
    to === 'approvers'
      ? (await db.query<{ email: string | null }>(APPROVERS, [l.identity_id])).rows.map((r) => r.email).filter((e): e is string => !!e)
      : l.requester
        ? [l.requester]
        : [];
  if (!addresses.length) return;
  const what = `${l.category} for ${l.name}, ${l.from} to ${l.to}`;
  const subject = to === 'approvers' ? `Leave to approve: ${what}` : `Leave ${l.status}: ${what}`;
  const text =
    to === 'approvers'
      ? `${what} waits for your approval.${l.note ? `\nNote: ${l.note}` : ''}\nApprove or reject it in Gatehouse, Attendance → Leave.`
      : `${what} was ${l.status}.${l.decision_note ? `\nNote: ${l.decision_note}` : ''}`;
  const transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 } as never);
  try {
    await transport.sendMail({ from: o.from ?? process.env.SMTP_FROM?.trim() ?? 'Gatehouse <gatehouse@localhost>', to: addresses, subject, text });
  } finally {
    transport.close();
  }
}

function decide(state: 'approved' | 'rejected', o: LeaveMail, db: () => Db | undefined): NamedAction {
  return {
    privilege: PRIV.leave.approve,
    async run(ctx: CrudContext, before: Row, input) {
      const params: unknown[] = [before.id];
      const inClient = tenant(params, ctx.clientId, 'l'); // $2
      params.push(ctx.userId, divisionsFor(principal(ctx.req), [PRIV.leave.approve])); // $3, $4
      const { rows } = await ctx.tx.query<{ requested_by: number | null; own: boolean; approver: boolean }>(
        `select l.requested_by,
          exists (select 1 from identities i join users u on u.id = $3 where i.id = l.identity_id and i.email is not null and lower(i.email) = lower(u.email)) as own,
          exists (select 1 from team_members m join team_managers tm on tm.team_id = m.team_id join teams t on t.id = m.team_id and t.client_id = l.client_id
            where m.identity_id = l.identity_id and tm.user_id = $3)
          -- the approve code held in the person's division (§6: privileges per division)
          and exists (select 1 from identities i where i.id = l.identity_id and i.division_id = any($4::int[])) as approver
        from leave_records l where l.id = $1 and ${inClient}`,
        params,
      );
      const r = rows[0];
      if (r.own || Number(r.requested_by) === ctx.userId)
        throw new HttpError(403, 'Nobody approves or rejects their own leave: another manager of the team decides it');
      if (!r.approver) throw new HttpError(403, 'Only a leave approver of the person’s team decides their leave');
      const note = typeof input.reason === 'string' && input.reason.trim() ? input.reason.trim() : null;
      const upd: unknown[] = [before.id];
      const own = tenant(upd, ctx.clientId); // $2
      upd.push(state, ctx.userId, note); // $3..$5
      await ctx.tx.query(
        `update leave_records set status = $3, decided_by = $4, decided_at = now(), decision_note = $5, updated_at = now()
        where id = $1 and ${own} and status = 'requested'`,
        upd,
      );
      await enqueueHook(ctx.tx, ctx.clientId!, 'leave.decided', before.id);
    },
    audit: (before, after) => ({ before: { status: before.status }, after: { status: after.status, decisionNote: after.decisionNote } }),
    afterCommit(clientId, after) {
      const q = db();
      if (q) void mail(o, q, clientId, after.id, 'requester').catch((e) => o.log?.(`leave ${after.id}: mail not sent: ${e}`));
    },
  };
}

/** Withdraw (issue 50): the person whose leave it is (the identity with the operator's e-mail) or whoever filed it
 *  takes a request back while nobody has decided it; who and when are kept as the decision's, the reason as its note. */
function withdraw(): NamedAction {
  return {
    privilege: PRIV.leave.request,
    async run(ctx: CrudContext, before: Row, input) {
      if (!(await isOwnLeave(ctx.tx, Number(before.id), ctx.clientId, ctx.userId)))
        throw new HttpError(403, 'Only the person or whoever filed it withdraws a leave request');
      const note = typeof input.reason === 'string' && input.reason.trim() ? input.reason.trim() : null;
      await withdrawLeave(ctx.tx, Number(before.id), ctx.clientId, ctx.userId, note);
      await enqueueHook(ctx.tx, ctx.clientId!, 'leave.decided', before.id);
    },
    audit: (before, after) => ({ before: { status: before.status }, after: { status: after.status, decisionNote: after.decisionNote } }),
  };
}

export function leaveHooks(publish?: object, o: LeaveMail = {}): ResourceHooks {
  const db = () => partsOf(publish)?.db;
  return {
    select: {
      requestedBy: '(select u.name from users u where u.id = t.requested_by)',
      decidedBy: '(select u.name from users u where u.id = t.decided_by)',
    },
    // the "Waiting for me" list scope (server/crud/scopes.ts): a leave approver of one of the person's teams, who did
    // not file it (the scope itself leaves out the approver's own leave and keeps to their approve code's divisions)
    approves: (t, user) =>
      `exists (select 1 from team_members m join team_managers tm on tm.team_id = m.team_id join teams tt on tt.id = m.team_id and tt.client_id = ${t}.client_id
        where m.identity_id = ${t}.identity_id and tm.user_id = ${user}) and ${t}.requested_by is distinct from ${user}`,
    beforeInsert: async (ctx) => ({ requested_by: ctx.userId, status: 'requested' }),
    // a corrected record is decided again (its days or category may no longer be what was approved)
    beforeUpdate: async (_ctx, _input, before) =>
      before.status === 'requested' ? {} : { status: 'requested', decided_by: null, decided_at: null, decision_note: null },
    async afterInsert(ctx, row) {
      await enqueueHook(ctx.tx, ctx.clientId!, 'leave.requested', row.id);
    },
    afterCommit(clientId, change) {
      const q = db();
      if (q && change.action === 'create') void mail(o, q, clientId, change.id, 'approvers').catch((e) => o.log?.(`leave ${change.id}: mail not sent: ${e}`));
    },
    actions: { approve: decide('approved', o, db), reject: decide('rejected', o, db), withdraw: withdraw() },
  };
}
