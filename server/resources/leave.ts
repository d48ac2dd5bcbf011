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
import { HttpError, divisionsFor, principal, fill } from '../http/kit';
import { partsOf } from './parts';
import { decideLeave, isOwnLeave, leaveApproverEmails, leaveDeciderStanding, leaveForMail, queueLeaveHook, withdrawLeave } from '../db/queries/leave';

/** Mail settings, read at each send (SMTP_URL, SMTP_FROM) unless given (tests). */
export type LeaveMail = { smtpUrl?: string | null; from?: string; log?: (m: string) => void };

async function mail(o: LeaveMail, db: Db, clientId: number, leaveId: number, to: 'approvers' | 'requester') {
  const smtpUrl = o.smtpUrl !== undefined ? o.smtpUrl : process.env.SMTP_URL?.trim() || null;
  if (!smtpUrl) return;
  const l = await leaveForMail(db, clientId, leaveId);
  if (!l) return;
  const addresses = to === 'approvers' ? (await leaveApproverEmails(db, l.identity_id)).filter((e): e is string => !!e) : l.requester ? [l.requester] : [];
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
      const r = await leaveDeciderStanding(ctx.tx, ctx.clientId, before.id, ctx.userId, divisionsFor(principal(ctx.req), [PRIV.leave.approve]));
      if (r.own || Number(r.requested_by) === ctx.userId)
        throw new HttpError(403, fill('leave.notOwn', 'Nobody approves or rejects their own leave: another manager of the team decides it', {}));
      if (!r.approver) throw new HttpError(403, fill('leave.approverOnly', 'Only a leave approver of the person’s team decides their leave', {}));
      const note = typeof input.reason === 'string' && input.reason.trim() ? input.reason.trim() : null;
      await decideLeave(ctx.tx, ctx.clientId, before.id, state, ctx.userId, note);
      await queueLeaveHook(ctx.tx, ctx.clientId!, 'leave.decided', before.id);
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
        throw new HttpError(403, fill('leave.withdrawOnlyOwn', 'Only the person or whoever filed it withdraws a leave request', {}));
      const note = typeof input.reason === 'string' && input.reason.trim() ? input.reason.trim() : null;
      await withdrawLeave(ctx.tx, Number(before.id), ctx.clientId, ctx.userId, note);
      await queueLeaveHook(ctx.tx, ctx.clientId!, 'leave.decided', before.id);
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
      await queueLeaveHook(ctx.tx, ctx.clientId!, 'leave.requested', row.id);
    },
    afterCommit(clientId, change) {
      const q = db();
      if (q && change.action === 'create') void mail(o, q, clientId, change.id, 'approvers').catch((e) => o.log?.(`leave ${change.id}: mail not sent: ${e}`));
    },
    actions: { approve: decide('approved', o, db), reject: decide('rejected', o, db), withdraw: withdraw() },
  };
}
