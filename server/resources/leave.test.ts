// Leave that is approved (issue 50): a record added is requested; a leave approver of the person's team holding 3.8.2
// approves it or rejects it (with a required reason), once; nobody decides leave they requested or their own; another
// team's manager and a holder of 3.8.2 who approves no team are refused; a correction asks again. Only approved leave
// counts in daily attendance. A web hook subscribed to leave.requested / leave.decided gets the record; with SMTP_URL
// set, the approvers are mailed the request and the requester the decision (a real SMTP server in this process).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { DAILY_ATTENDANCE_API, leaveResource, type DailyAttendance } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, hr: string, auditor: string;
let client: number, team: number, category: number;
const staff: Record<string, number> = {};
const mails: { to: string[]; subject: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, done) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString()));
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '' });
      done();
    });
  },
});
const DAY = '2026-11-09'; // a Monday

beforeAll(async () => {
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
  s = await startTestServer();
  [admin, hr, auditor] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('hr'), s.login('auditor')]);
  const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;
  [{ id: client }] = await q(`select id from clients where code = 'NORTHWIND'`);
  const [{ hq }] = await q(`select id hq from divisions where client_id = $1 and parent_id is null order by id limit 1`, [client]);
  const [{ id: schedule }] = await q(`insert into work_schedules (client_id, name) values ($1, 'Leave test hours') returning id`, [client]);
  await q(`insert into work_schedule_shifts (work_schedule_id, client_id, day, start_time, end_time) values ($1, $2, '1', '09:00', '17:00')`, [
    schedule,
    client,
  ]);
  [{ id: team }] = await q(`insert into teams (client_id, name, work_schedule_id) values ($1, 'Leave test team', $2) returning id`, [client, schedule]);
  for (const name of ['Away', 'Hana', 'Other'])
    [{ id: staff[name] }] = await q(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id, status, email) values ($1, 'Leave', $2, 'L-' || $2, $3, 'active', $4) returning id`,
      [client, name, hq, name === 'Hana' ? 'hana.hr@northwind.example' : null],
    );
  for (const name of ['Away', 'Hana']) await q('insert into team_members (team_id, identity_id) values ($1, $2)', [team, staff[name]]);
  // Hana HR approves this team's leave, and is a member of it herself (her identity has her e-mail)
  await q(`update users set email = 'hana.hr@northwind.example' where username = 'hr'`);
  await q(`update users set email = 'alex@northwind.example' where username = 'admin'`);
  await q(`insert into team_managers (team_id, user_id) select $1, id from users where username = 'hr'`, [team]);
  [{ id: category }] = await q(`select id from leave_categories where client_id = $1 and code = 'AL'`, [client]);
  await q(
    `insert into web_hooks (client_id, name, url, secret, active, leave_requested, leave_decided) values ($1, 'Leave', 'http://127.0.0.1:9/x', 'a-secret-of-some-length-1234', true, true, true)`,
    [client],
  );
}, 180_000);
afterAll(async () => {
  delete process.env.SMTP_URL;
  await s?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function request(who: string, token = admin, body: Record<string, unknown> = {}) {
  const r = await s.call('POST', leaveResource.api, {
    token,
    body: { identityId: staff[who], categoryId: category, fromDate: DAY, toDate: DAY, note: 'Wedding', ...body },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; status: string; requestedBy: string };
}
const statusOn = async (who: string) => {
  const r = await s.call('GET', `${DAILY_ATTENDANCE_API}?date=${DAY}&teamId=${team}`, { token: hr });
  expect(r.status).toBe(200);
  return (r.body as DailyAttendance).rows.find((x) => x.name === `${who}, Leave`)!.status;
};
const hooks = (id: number, type: string) => s.count(`select 1 from webhook_outbox where event_type = $1 and (body->'data'->>'leaveId')::int = $2`, [type, id]);

describe('leave approval', () => {
  it('is requested, counts only once the team’s approver approves it, with a note the person sees, told by web hook and mail', async () => {
    const made = await request('Away');
    expect(made).toMatchObject({ status: 'requested', requestedBy: 'Alex Admin' });
    expect(await hooks(made.id, 'leave.requested')).toBe(1);
    await vi.waitFor(() => expect(mails.some((m) => m.to.includes('hana.hr@northwind.example') && m.subject.startsWith('Leave to approve'))).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
    expect(await statusOn('Away')).toBe('absent');

    const ok = await s.call('POST', `${leaveResource.api}/${made.id}/approve`, { token: hr, body: { reason: 'Enjoy it' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decidedBy: 'Hana HR', decisionNote: 'Enjoy it' });
    expect(await statusOn('Away')).toBe('on-leave');
    expect(await hooks(made.id, 'leave.decided')).toBe(1);
    expect(await s.count(`select 1 from audit_log where entity = 'leave' and entity_id = $1 and action = 'approve'`, [String(made.id)])).toBe(1);
    await vi.waitFor(() => expect(mails.some((m) => m.to.includes('alex@northwind.example') && m.subject.startsWith('Leave approved'))).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
    // decided once
    expect((await s.call('POST', `${leaveResource.api}/${made.id}/reject`, { token: hr, body: { reason: 'No' } })).status).toBe(409);

    // a correction of decided leave asks for the decision again, and stops counting meanwhile
    const b = ok.body;
    const fixed = await s.call('PUT', `${leaveResource.api}/${made.id}`, {
      token: admin,
      body: { identityId: b.identityId, categoryId: b.categoryId, fromDate: b.fromDate, toDate: b.toDate, note: 'Wedding abroad', updatedAt: b.updatedAt },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({ status: 'requested', decidedBy: null });
    expect(await statusOn('Away')).toBe('absent');
  });

  it('is rejected with a reason, and rejected leave does not count', async () => {
    const made = await request('Away', admin, { fromDate: '2026-11-16', toDate: '2026-11-16' });
    const noReason = await s.call('POST', `${leaveResource.api}/${made.id}/reject`, { token: hr, body: {} });
    expect(noReason.status).toBe(400);
    const no = await s.call('POST', `${leaveResource.api}/${made.id}/reject`, { token: hr, body: { reason: 'Stock-take' } });
    expect(no.body).toMatchObject({ status: 'rejected', decisionNote: 'Stock-take' });
  });

  it('is never decided by whoever requested it, the person themselves, another team’s manager or a code holder who approves no team', async () => {
    const byHr = await request('Away', hr);
    const own = await s.call('POST', `${leaveResource.api}/${byHr.id}/approve`, { token: hr, body: {} });
    expect(own.status).toBe(403);
    expect(own.body.message).toContain('their own leave');
    const hers = await request('Hana');
    expect((await s.call('POST', `${leaveResource.api}/${hers.id}/approve`, { token: hr, body: {} })).status).toBe(403);
    const other = await s.call('POST', leaveResource.api, {
      token: admin,
      body: { identityId: staff.Other, categoryId: category, fromDate: DAY, toDate: DAY },
    });
    expect((await s.call('POST', `${leaveResource.api}/${other.body.id}/approve`, { token: hr, body: {} })).status).toBe(403);
    // the administrator holds 3.8.2 but approves no team's leave
    const notApprover = await s.call('POST', `${leaveResource.api}/${byHr.id}/approve`, { token: admin, body: {} });
    expect(notApprover.status).toBe(403);
    expect(notApprover.body.message).toContain('leave approver');
    // the auditor does not hold 3.8.2
    expect((await s.call('POST', `${leaveResource.api}/${hers.id}/approve`, { token: auditor, body: {} })).status).toBe(403);
    const still = await s.db.query<{ status: string }>('select status from leave_records where id = any($1::int[]) order by id', [
      [byHr.id, hers.id, other.body.id],
    ]);
    expect(still.rows.map((r) => r.status)).toEqual(['requested', 'requested', 'requested']);
  });

  it('is a team’s approvers as the team form declares them', async () => {
    const t = await s.call('GET', `/event/attendance/teams/${team}`, { token: hr });
    expect(t.status).toBe(200);
    expect(t.body.managers).toHaveLength(1);
  });
});
