// Scheduled report jobs [0.6.5.x security reports, 3.9.x attendance reports]: each family sees and changes only its
// own jobs (another family's or client's job is 404); a job runs next at its hour in the client's zone; Run now and the
// runner make the period-just-past report as its owner may see it, kept for download, the oldest beyond keepRuns gone;
// an owner without the family's view code gets a failed run that says why.
//
// Issue 26: formats, delivery and history, against a real SMTP server in this process (smtp-server, read back with
// mailparser; XLSX opened with exceljs) and a real web hook receiver: mailed to the recipients with the report
// attached (CSV and XLSX), recipients checked as e-mail addresses, no mail without SMTP_URL (kept for download and
// said so), a refused mail is a failed run that Retry makes again, the row cap cuts a report and says so, the web hook
// gets a signed report.made delivery with the file, files past keepDays are dropped, and one run per due time
// with two schedulers on one database (two connections when DATABASE_URL names a PostgreSQL).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import ExcelJS from 'exceljs';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTENDANCE_SUMMARY_API, REPORT_JOB_MAX_ROWS, reportJobsResource } from '../../contract';
import { openPostgres } from '../db/db';
import { startTestServer, type TestServer } from '../testkit';
import { verifySignature } from '../webhooks/sign';
import { runDueJobs } from '.';

let s: TestServer;
let admin: string, hr: string, auditor: string, harbour: string;
const api = reportJobsResource.api;

// the SMTP server the reports are mailed to: every mail parsed, with its envelope; refuses addresses in `refuse`
interface Mail {
  to: string[];
  parsed: ParsedMail;
}
const mails: Mail[] = [];
const refuse = new Set<string>();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, cb) {
    cb(refuse.has(address.address) ? Object.assign(new Error('No such mailbox here'), { responseCode: 550 }) : undefined);
  },
  onData(stream, session, cb) {
    simpleParser(stream).then((parsed) => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), parsed });
      cb();
    }, cb);
  },
});
// the web hook receiver: every POST with its headers and body
const hooked: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const receiver: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    hooked.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});
let smtpUrl = '',
  hookUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/reports`;
  s = await startTestServer();
  [admin, hr, auditor, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('hr'), s.login('auditor'), s.login('harbour')]);
}, 60_000);
afterAll(async () => {
  delete process.env.SMTP_URL;
  await s?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
  await new Promise<void>((r) => receiver.close(() => r()));
});

const job = (over: Record<string, unknown> = {}) => ({
  name: `Job ${Math.random().toString(36).slice(2, 8)}`,
  report: 'events',
  frequency: 'daily',
  hour: 6,
  weekday: '1',
  monthDay: 1,
  keepRuns: 10,
  enabled: true,
  ...over,
});
const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;

describe('scheduled report jobs', () => {
  it('keep each family of privileges to its own jobs, and another client out', async () => {
    const security = await s.call('POST', api, { token: admin, body: job() });
    expect(security.status).toBe(201);
    const attendance = await s.call('POST', api, { token: hr, body: job({ report: 'daily-attendance', frequency: 'weekly' }) });
    expect(attendance.status).toBe(201);
    // a NUL in the job's name is named, and no job is made
    const nul = await s.call('POST', api, { token: admin, body: job({ name: 'Night\u0000ly' }) });
    expect([nul.status, nul.body.violations?.map((v: { field: string }) => v.field)]).toEqual([400, ['name']]);
    // HR (3.9.x) may not make a security report, and says so on the field
    const refused = await s.call('POST', api, { token: hr, body: job({ report: 'events' }) });
    expect(refused.status).toBe(403);
    expect(refused.body.violations).toEqual([
      { field: 'report', message: 'needs privilege 0.6.5.1', code: 'privilege.neededForField', values: { code: '0.6.5.1' } },
    ]);
    // nor turn its own job into one
    expect(
      (await s.call('PUT', `${api}/${attendance.body.id}`, { token: hr, body: { ...job({ report: 'activity' }), name: attendance.body.name } })).status,
    ).toBe(403);
    const names = async (token: string) => ((await s.call('GET', `${api}?size=100`, { token })).body.items as { id: number }[]).map((x) => x.id);
    expect(await names(hr)).toContain(attendance.body.id);
    expect(await names(hr)).not.toContain(security.body.id);
    // the auditor reads jobs (0.6.5.0 and 3.9.0, views only) and adds none
    const held: string[] = (await s.call('GET', '/idp/1.0/me', { token: auditor })).body.privileges.priviledges.flatMap((e: any) => e.privilegeIds);
    expect(held.filter((c) => /^(0\.6\.5|3\.9)\./.test(c)).sort()).toEqual(['0.6.5.0', '3.9.0']);
    expect(await names(auditor)).toEqual(expect.arrayContaining([security.body.id, attendance.body.id]));
    expect((await s.call('POST', api, { token: auditor, body: job() })).status).toBe(403);
    expect((await s.call('POST', api, { token: auditor, body: job({ report: 'daily-attendance' }) })).status).toBe(403);
    // another family's job, or another client's, is not there at all
    expect((await s.call('GET', `${api}/${security.body.id}`, { token: hr })).status).toBe(404);
    expect((await s.call('PUT', `${api}/${security.body.id}`, { token: hr, body: job({ report: 'daily-attendance' }) })).status).toBe(404);
    expect((await s.call('GET', `${api}/${security.body.id}/runs`, { token: hr })).status).toBe(404);
    expect((await s.call('GET', `${api}/${security.body.id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('GET', `${api}/${security.body.id}/runs`, { token: harbour })).status).toBe(404);
    expect((await s.call('POST', `${api}/${security.body.id}/run`, { token: hr })).status).toBe(404);
  });

  it('runs next at its hour in the client\u2019s zone, and not at all when off', async () => {
    const made = await s.call('POST', api, { token: admin, body: job({ hour: 7 }) });
    const [{ tz }] = await q(`select timezone as tz from clients where code = 'NORTHWIND'`);
    const local = (
      await q(`select ($1::timestamptz at time zone $2)::text as t, $1::timestamptz > now() as ahead, $1::timestamptz <= now() + interval '1 day' as within`, [
        made.body.nextRunAt,
        tz,
      ])
    )[0];
    expect(local.t).toMatch(/ 07:00:00$/);
    expect(local).toMatchObject({ ahead: true, within: true });
    const weekly = await s.call('POST', api, { token: admin, body: job({ frequency: 'weekly', weekday: '0', hour: 23 }) });
    const w = (
      await q(`select extract(dow from $1::timestamptz at time zone $2)::int as dow, ($1::timestamptz at time zone $2)::time::text as t`, [
        weekly.body.nextRunAt,
        tz,
      ])
    )[0];
    expect(w).toEqual({ dow: 0, t: '23:00:00' });
    const off = await s.call('PUT', `${api}/${made.body.id}`, { token: admin, body: { ...job({ hour: 7, enabled: false }), name: made.body.name } });
    expect(off.body.nextRunAt).toBeNull();
    expect((await s.call('POST', api, { token: admin, body: job({ hour: 24, monthDay: 29 }) })).body.violations.map((v: any) => v.field).sort()).toEqual([
      'hour',
      'monthDay',
    ]);
  });

  it('makes yesterday\u2019s events on Run now and on schedule, kept for download, the oldest beyond keepRuns gone', async () => {
    const made = await s.call('POST', api, { token: admin, body: job({ keepRuns: 2 }) });
    const id = made.body.id;
    const [{ nw, tz }] = await q(`select id as nw, timezone as tz from clients where code = 'NORTHWIND'`);
    await q(
      `insert into events (client_id, event_code, event_source_id, event_point_id, message, at)
      values ($1, 1, 'job', 'job', 'for the report, yesterday', ((now() at time zone $2)::date - 1 + time '10:00') at time zone $2)`,
      [nw, tz],
    );
    const expected = Number(
      (
        await q(
          `select count(*) as n from events where client_id = $1 and at >= ((now() at time zone $2)::date - 1)::timestamp at time zone $2
      and at < ((now() at time zone $2)::date)::timestamp at time zone $2`,
          [nw, tz],
        )
      )[0].n,
    );
    const ran = await s.call('POST', `${api}/${id}/run`, { token: admin });
    expect(ran.status).toBe(200);
    expect(ran.body.lastStatus).toMatch(new RegExp(`^${expected} rows, `));
    const runs = (await s.call('GET', `${api}/${id}/runs`, { token: admin })).body.items;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ ok: true, rows: expected });
    expect(ran.body.lastRunId).toBe(runs[0].id);
    const file = await s.call('GET', `${api}/${id}/runs/${runs[0].id}/file`, { token: admin });
    const lines = String(file.body).trim().split('\r\n');
    // the shared writer: the time in the client's zone, the zone named in the header
    expect(lines[0]).toBe(`id,time (${tz}),eventCode,eventSourceName,eventPointName,message,alert,priority`);
    expect(lines).toHaveLength(expected + 1);
    expect(String(file.body)).toContain('for the report, yesterday');
    // the auditor reads it too; HR does not
    expect((await s.call('GET', `${api}/${id}/runs/${runs[0].id}/file`, { token: auditor })).status).toBe(200);
    expect((await s.call('GET', `${api}/${id}/runs/${runs[0].id}/file`, { token: hr })).status).toBe(404);
    // a run id past an integer column, or not a number at all, is a report not found (never a 500)
    for (const bad of ['2147483648', '99999999999999999999', '-1', '1e3', '%00']) {
      expect([bad, (await s.call('GET', `${api}/${id}/runs/${bad}/file`, { token: admin })).status]).toEqual([bad, 404]);
    }
    expect(file.body.length).toBeGreaterThan(0);
    // due: the runner makes it and sets the next run ahead; three runs keep two
    await q(`update report_jobs set next_run_at = now() - interval '1 minute' where id = $1`, [id]);
    expect(await runDueJobs(s.db)).toBeGreaterThanOrEqual(1);
    await q(`update report_jobs set next_run_at = now() - interval '1 minute' where id = $1`, [id]);
    await runDueJobs(s.db);
    expect((await s.call('GET', `${api}/${id}/runs`, { token: admin })).body.items).toHaveLength(2);
    expect((await q('select next_run_at > now() as ahead from report_jobs where id = $1', [id]))[0].ahead).toBe(true);
    expect(await runDueJobs(s.db)).toBe(0);
    // two runners at once (two servers on one database) make a due job once
    const before = (await q('select count(*)::int as n from report_job_runs where job_id = $1', [id]))[0].n;
    await q(`update report_jobs set next_run_at = now() - interval '1 minute', keep_runs = 5 where id = $1`, [id]);
    const twice = await Promise.all([runDueJobs(s.db), runDueJobs(s.db)]);
    expect(twice[0] + twice[1]).toBe(1);
    expect((await q('select count(*)::int as n from report_job_runs where job_id = $1', [id]))[0].n).toBe(before + 1);
  });

  it('makes an attendance report for HR, and a failed run when the owner lost the family\u2019s code', async () => {
    const made = await s.call('POST', api, { token: hr, body: job({ report: 'attendance-summary', frequency: 'monthly' }) });
    const ran = await s.call('POST', `${api}/${made.body.id}/run`, { token: hr });
    expect(ran.status).toBe(200);
    const runs = (await s.call('GET', `${api}/${made.body.id}/runs`, { token: hr })).body.items;
    const file = String((await s.call('GET', `${api}/${made.body.id}/runs/${runs[0].id}/file`, { token: hr })).body);
    // the same file as the Attendance summaries screen's export of that month: its headers, and each row's cells
    const header = file.replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(header).toBe('Name,Employee no.,Team,Scheduled days,Present days,Late days,Absent days,Leave days,Worked minutes,Late minutes,Overtime minutes');
    const screen = await s.call('GET', `${ATTENDANCE_SUMMARY_API}?from=${runs[0].from}&to=${runs[0].to}&format=csv`, { token: hr });
    expect(screen.status).toBe(200);
    expect(
      String(screen.body)
        .replace(/^\uFEFF/, '')
        .split('\r\n')[0],
    ).toBe(header);
    expect(runs[0].from).toMatch(/-01$/); // the month before, from its first day
    // the owner is now the operator, who holds no 3.9.x: the run fails and says why, nothing to download
    const [{ id: operator }] = await q(`select id from users where username = 'operator'`);
    await q('update report_jobs set created_by = $2 where id = $1', [made.body.id, operator]);
    const failed = await s.call('POST', `${api}/${made.body.id}/run`, { token: hr });
    expect(failed.body.lastStatus).toBe('Failed: Its owner no longer holds privilege 3.9.0 in this client: nothing was made');
    const after = (await s.call('GET', `${api}/${made.body.id}/runs`, { token: hr })).body.items;
    expect(after[0]).toMatchObject({ ok: false, bytes: 0 });
    expect((await s.call('GET', `${api}/${made.body.id}/runs/${after[0].id}/file`, { token: hr })).status).toBe(404);
  });
});

// ---------- issue 26: formats, delivery, history ----------
const yesterdayEvents = async (n: number, message: string) => {
  const [{ nw, tz }] = await q(`select id as nw, timezone as tz from clients where code = 'NORTHWIND'`);
  await q(
    `insert into events (client_id, event_code, event_source_id, event_point_id, message, at)
    select $1, 1, 'job', 'job', $3, ((now() at time zone $2)::date - 1 + time '11:00') at time zone $2 from generate_series(1, $4::int)`,
    [nw, tz, message, n],
  );
  return Number(
    (
      await q(
        `select count(*) as n from events where client_id = $1 and at >= ((now() at time zone $2)::date - 1)::timestamp at time zone $2
    and at < ((now() at time zone $2)::date)::timestamp at time zone $2`,
        [nw, tz],
      )
    )[0].n,
  );
};
const runsOf = async (id: number, token = admin) => (await s.call('GET', `${api}/${id}/runs`, { token })).body;
const download = async (id: number, runId: number) => {
  const res = await fetch(`${s.base}${api}/${id}/runs/${runId}/file`, { headers: { authorization: `Bearer ${admin}` } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    name: res.headers.get('content-disposition'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
};
const sheetRows = async (bytes: Buffer, sheet = 'Report') => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const rows: unknown[][] = [];
  wb.getWorksheet(sheet)!.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
};

describe('scheduled report jobs: formats, delivery and history (issue 26)', () => {
  it('mails an XLSX and a CSV report to its recipients through SMTP_URL, attached, the same file kept for download', async () => {
    process.env.SMTP_URL = smtpUrl;
    try {
      expect((await s.call('GET', `${api}/delivery`, { token: admin })).body).toMatchObject({ email: true });
      const expected = await yesterdayEvents(2, 'mailed in the report');
      const xlsx = await s.call('POST', api, { token: admin, body: job({ format: 'xlsx', recipients: 'security@example.com,\nchief@example.com' }) });
      expect(xlsx.status).toBe(201);
      const ran = await s.call('POST', `${api}/${xlsx.body.id}/run`, { token: admin });
      expect(ran.body.lastStatus).toMatch(new RegExp(`^${expected} rows, .*; mailed to 2$`));
      const mail = mails.find((m) => m.parsed.subject?.startsWith(xlsx.body.name))!;
      expect(mail.to.sort()).toEqual(['chief@example.com', 'security@example.com']);
      expect(mail.parsed.attachments).toHaveLength(1);
      const attached = mail.parsed.attachments[0];
      expect(attached.filename).toMatch(/\.xlsx$/);
      expect(attached.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const rows = await sheetRows(attached.content);
      expect(rows[0]).toEqual(['id', 'time (Asia/Kuala_Lumpur)', 'eventCode', 'eventSourceName', 'eventPointName', 'message', 'alert', 'priority']);
      expect(rows.slice(1).every((r) => /\+08:00$/.test(String(r[1])))).toBe(true);
      expect(rows).toHaveLength(expected + 1);
      expect(rows.filter((r) => r[5] === 'mailed in the report')).toHaveLength(2);
      expect(await sheetRows(attached.content, 'About')).toContainEqual(['Cut at the row cap', 'no']);
      const [run] = (await runsOf(xlsx.body.id)).items;
      expect(run).toMatchObject({
        ok: true,
        format: 'xlsx',
        rows: expected,
        cut: false,
        file: true,
        mailedTo: ['security@example.com', 'chief@example.com'],
        mailError: null,
        bytes: attached.content.length,
      });
      const file = await download(xlsx.body.id, run.id);
      expect([file.status, file.type, file.bytes.equals(attached.content)]).toEqual([
        200,
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        true,
      ]);
      expect(file.name).toMatch(/\.xlsx"$/);

      const csv = await s.call('POST', api, { token: admin, body: job({ format: 'csv', recipients: 'desk@example.com' }) });
      await s.call('POST', `${api}/${csv.body.id}/run`, { token: admin });
      const csvMail = mails.find((m) => m.parsed.subject?.startsWith(csv.body.name))!;
      expect(csvMail.to).toEqual(['desk@example.com']);
      const text = csvMail.parsed.attachments[0].content.toString('utf8');
      expect(csvMail.parsed.attachments[0].filename).toMatch(/\.csv$/);
      // a byte-order mark first (Excel reads UTF-8 only with it)
      expect(text.split('\r\n')[0]).toBe('\uFEFFid,time (Asia/Kuala_Lumpur),eventCode,eventSourceName,eventPointName,message,alert,priority');
      expect(text.trim().split('\r\n')).toHaveLength(expected + 1);
      const [csvRun] = (await runsOf(csv.body.id)).items;
      expect((await download(csv.body.id, csvRun.id)).bytes.toString('utf8')).toBe(text);
    } finally {
      delete process.env.SMTP_URL;
    }
  });

  it('takes recipients only as e-mail addresses, naming the field, and changes nothing', async () => {
    const before = (await q('select count(*)::int as n from report_jobs'))[0].n;
    for (const recipients of ['security@example.com, not-an-address', 'a@b', Array.from({ length: 21 }, (_, i) => `p${i}@example.com`).join(',')]) {
      const bad = await s.call('POST', api, { token: admin, body: job({ recipients }) });
      expect([recipients, bad.status, bad.body.violations?.map((v: { field: string }) => v.field)]).toEqual([recipients, 400, ['recipients']]);
    }
    const fine = await s.call('POST', api, { token: admin, body: job() });
    const put = await s.call('PUT', `${api}/${fine.body.id}`, { token: admin, body: { ...job({ recipients: 'x@@example.com' }), name: fine.body.name } });
    expect([put.status, put.body.violations?.[0]?.field]).toEqual([400, 'recipients']);
    expect((await q('select count(*)::int as n from report_jobs'))[0].n).toBe(before + 1);
    expect((await q('select recipients from report_jobs where id = $1', [fine.body.id]))[0].recipients).toBeNull();
    expect((await s.call('POST', api, { token: admin, body: job({ format: 'pdf' }) })).body.violations?.map((v: { field: string }) => v.field)).toEqual([
      'format',
    ]);
  });

  it('without SMTP_URL keeps the report for download and says it was not mailed; the job\u2019s page learns e-mail is off', async () => {
    const delivery = (await s.call('GET', `${api}/delivery`, { token: hr })).body;
    expect(delivery).toEqual({ email: false, maxRows: REPORT_JOB_MAX_ROWS });
    const made = await s.call('POST', api, { token: admin, body: job({ recipients: 'security@example.com' }) });
    const count = mails.length;
    const ran = await s.call('POST', `${api}/${made.body.id}/run`, { token: admin });
    expect(ran.body.lastStatus).toMatch(/; not mailed: e-mail is not configured on this server$/);
    const body = await runsOf(made.body.id);
    expect(body.delivery.email).toBe(false);
    expect(body.items[0]).toMatchObject({ ok: true, file: true, mailedTo: null, mailError: null });
    expect(mails.length).toBe(count);
  });

  it('a mail the server refuses is a failed run, kept for download, that Retry makes again and delivers', async () => {
    process.env.SMTP_URL = smtpUrl;
    try {
      refuse.add('gone@example.com');
      const made = await s.call('POST', api, { token: admin, body: job({ recipients: 'gone@example.com' }) });
      const ran = await s.call('POST', `${api}/${made.body.id}/run`, { token: admin });
      expect(ran.body.lastStatus).toMatch(/; mail failed: .*gone@example\.com/);
      const [failed] = (await runsOf(made.body.id)).items;
      expect(failed).toMatchObject({ ok: false, file: true, mailedTo: null, attempts: 1 });
      expect(failed.mailError).toMatch(/gone@example\.com/);
      expect(ran.body.lastRunId).not.toBe(failed.id); // the last good report is another one
      // another family may not retry it; the auditor (view codes) neither
      expect((await s.call('POST', `${api}/${made.body.id}/runs/${failed.id}/retry`, { token: hr })).status).toBe(404);
      expect((await s.call('POST', `${api}/${made.body.id}/runs/${failed.id}/retry`, { token: auditor })).status).toBe(403);
      refuse.delete('gone@example.com');
      const retried = await s.call('POST', `${api}/${made.body.id}/runs/${failed.id}/retry`, { token: admin });
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({
        id: failed.id,
        ok: true,
        attempts: 2,
        mailedTo: ['gone@example.com'],
        mailError: null,
        from: failed.from,
        to: failed.to,
      });
      expect(mails.filter((m) => m.to.includes('gone@example.com'))).toHaveLength(1);
      // a run that did not fail has nothing to retry
      const again = await s.call('POST', `${api}/${made.body.id}/runs/${failed.id}/retry`, { token: admin });
      expect([again.status, again.body.violations?.[0]?.field]).toEqual([409, 'runId']);
      expect((await s.call('POST', `${api}/${made.body.id}/runs/99999999999/retry`, { token: admin })).status).toBe(404);
    } finally {
      delete process.env.SMTP_URL;
    }
  });

  it('cuts a report at the row cap and says so, in the run and in the XLSX', async () => {
    const expected = await yesterdayEvents(3, 'over the cap');
    const made = await s.call('POST', api, { token: admin, body: job({ format: 'xlsx' }) });
    const [{ due }] = await q(`update report_jobs set next_run_at = now() - interval '1 minute' where id = $1 returning next_run_at as due`, [made.body.id]);
    expect(await runDueJobs(s.db, { maxRows: 2 })).toBeGreaterThanOrEqual(1);
    expect(expected).toBeGreaterThan(2);
    const [run] = (await runsOf(made.body.id)).items;
    expect(run).toMatchObject({ ok: true, rows: 2, cut: true });
    expect(new Date(run.dueAt).getTime()).toBe(new Date(due).getTime()); // made for the schedule's due time
    expect(run.status).toMatch(/^2 rows, .* \(cut at 2\)$/);
    const bytes = (await download(made.body.id, run.id)).bytes;
    expect(await sheetRows(bytes)).toHaveLength(3);
    expect(await sheetRows(bytes, 'About')).toContainEqual(['Cut at the row cap', 'yes, at 2']);
  });

  it('sends the report to its web hook as a signed report.made delivery with the file, shown in the run', async () => {
    const secret = 'report-hook-secret-0123456789';
    const hook = await s.call('POST', '/event/manage/web-hooks', { token: admin, body: { name: `Reports ${Date.now()}`, url: hookUrl, secret, active: true } });
    expect(hook.status).toBe(201);
    const made = await s.call('POST', api, { token: admin, body: job({ webHookId: hook.body.id }) });
    expect(made.body.webHookName).toBe(hook.body.name);
    const ran = await s.call('POST', `${api}/${made.body.id}/run`, { token: admin });
    expect(ran.body.lastStatus).toContain(`; sent to web hook ${hook.body.name}`);
    const [run] = (await runsOf(made.body.id)).items;
    await expect.poll(() => hooked.some((h) => JSON.parse(h.body).run?.id === run.id), { timeout: 20_000 }).toBe(true);
    const got = hooked.find((h) => JSON.parse(h.body).run?.id === run.id)!;
    expect(got.headers['x-gatehouse-event']).toBe('report.made');
    expect(verifySignature(secret, String(got.headers['x-gatehouse-timestamp']), got.body, String(got.headers['x-gatehouse-signature']))).toBe(true);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ type: 'report.made', job: { id: made.body.id, format: 'csv' }, run: { id: run.id, rows: run.rows, bytes: run.bytes } });
    expect(Buffer.from(body.file.base64, 'base64').equals((await download(made.body.id, run.id)).bytes)).toBe(true);
    await expect.poll(async () => (await runsOf(made.body.id)).items[0].webHook?.state, { timeout: 20_000 }).toBe('delivered');
    // another client's web hook is not one this job may name
    const [{ other }] = await q(
      `insert into web_hooks (client_id, name, url, secret) select id, 'elsewhere', $1, $2 from clients where code <> 'NORTHWIND' limit 1 returning id as other`,
      [hookUrl, secret],
    );
    const foreign = await s.call('PUT', `${api}/${made.body.id}`, { token: admin, body: { ...job({ webHookId: other }), name: made.body.name } });
    expect([foreign.status, foreign.body.violations?.[0]?.field]).toEqual([400, 'webHookId']);
  });

  it('drops a report\u2019s file after the job\u2019s keepDays, its line kept', async () => {
    const made = await s.call('POST', api, { token: admin, body: job({ keepDays: 7 }) });
    await s.call('POST', `${api}/${made.body.id}/run`, { token: admin });
    const [run] = (await runsOf(made.body.id)).items;
    await q(`update report_job_runs set ran_at = now() - interval '8 days' where id = $1`, [run.id]);
    await runDueJobs(s.db);
    expect((await runsOf(made.body.id)).items[0]).toMatchObject({ id: run.id, ok: true, file: false });
    expect((await download(made.body.id, run.id)).status).toBe(404);
    expect((await s.call('POST', api, { token: admin, body: job({ keepDays: 0 }) })).body.violations?.map((v: { field: string }) => v.field)).toEqual([
      'keepDays',
    ]);
  });

  it('makes one run per due time with two schedulers on one database', async () => {
    const made = await s.call('POST', api, { token: admin, body: job({ keepRuns: 50 }) });
    const id = made.body.id;
    // on PostgreSQL a second server's own connections to the same database; on PGlite two schedulers on one instance
    const url = process.env.DATABASE_URL;
    const [{ name }] = await q('select current_database() as name');
    const other = url ? await openPostgres(Object.assign(new URL(url), { pathname: `/${name}` }).toString()) : s.db;
    try {
      for (let round = 0; round < 3; round++) {
        await q(`update report_jobs set next_run_at = now() - interval '1 minute' where id = $1`, [id]);
        const due = (await q('select next_run_at from report_jobs where id = $1', [id]))[0].next_run_at;
        await Promise.all([runDueJobs(s.db), runDueJobs(other)]);
        const runs = await q('select due_at from report_job_runs where job_id = $1 and due_at = $2', [id, due]);
        expect(runs).toHaveLength(1);
      }
      expect((await q('select count(*)::int as n from report_job_runs where job_id = $1', [id]))[0].n).toBe(3);
      // and the database itself refuses a second run for one due time
      const [{ due_at }] = await q('select due_at from report_job_runs where job_id = $1 limit 1', [id]);
      await expect(
        q(
          `insert into report_job_runs (job_id, client_id, period_from, period_to, ok, status, due_at) select job_id, client_id, period_from, period_to, false, 'x', due_at
        from report_job_runs where job_id = $1 and due_at = $2`,
          [id, due_at],
        ),
      ).rejects.toThrow(/report_job_runs_due|unique/);
    } finally {
      if (other !== s.db) await other.close();
    }
  });
});
