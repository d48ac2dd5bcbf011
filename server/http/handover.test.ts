// The shift handover (issue 31, part 3) on real data: in Northwind (Asia/Kuala_Lumpur, +08:00, shifts ending at the
// default 07:00, 15:00 and 23:00) the simulator and the routes raise alarms, deny a card three times, unlock a door,
// take a controller offline and sign a visitor in; the test then moves the event stamps into the day shift of
// 29 February 2024 (07:00–15:00 local), as a clock would have put them, and checks the digest's figures exactly,
// the acknowledgement (once, audited, its note shown to the next shift), the stored handover (another tenant's id
// is 404), the codes (403), bad input (400 naming the field), the shift settings, daylight saving in Harbour's zone
// (Europe/London) and the scheduled report job that sends the handover.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, reportJobsResource, shiftSettingsResource } from '../../contract';
import { HANDOVER_API, HANDOVER_NOTE_MAX, type HandoverDigest } from '../../contract/handover';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string, operator: string, reception: string, harbour: string, auditor: string;
let northwind: number;
const DAY = '2024-02-29';
const at = (hhmm: string, day = DAY) => new Date(`${day}T${hhmm}:00+08:00`).toISOString();
const END = at('15:00');
const ids: Record<string, number> = {};
let doors: number[] = [];
let controllerId = 0;
let visitorId = 0;
const CARD = '987650001';

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  nw = await s.loginTo('admin', 'NORTHWIND');
  [operator, reception, harbour, auditor] = await Promise.all(['operator', 'reception', 'harbour', 'auditor'].map((u) => s.login(u)));
  doors = (
    await s.db.query<{ id: number }>(
      `select id from doors where client_id = $1 and status not in ('unlocked', 'held-open', 'forced-open') order by id limit 5`,
      [northwind],
    )
  ).rows.map((d) => Number(d.id));
  expect(doors).toHaveLength(5);
  const simulate = async (body: Record<string, unknown>) => {
    const r = await s.call('POST', API.testSimulate, { token: nw, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return Number(r.body.id);
  };
  // a1: raised at 09:00, acknowledged, still open; a2: raised at 10:00, processed with a note after the shift (16:00);
  // a3: raised at 11:00 and processed at 11:30, within the shift
  ids.a1 = await simulate({ kind: 'door.forced', doorId: doors[0] });
  ids.a2 = await simulate({ kind: 'door.held', doorId: doors[1] });
  ids.a3 = await simulate({ kind: 'door.forced', doorId: doors[2] });
  expect((await s.call('POST', `${API.alarms}/${ids.a1}/acknowledge`, { token: operator })).status).toBe(200);
  expect((await s.call('POST', `${API.alarms}/${ids.a2}/process`, { token: operator, body: { note: 'Door propped by the cleaners, closed' } })).status).toBe(
    200,
  );
  expect((await s.call('POST', `${API.alarms}/${ids.a3}/process`, { token: nw, body: { note: 'False alarm' } })).status).toBe(200);
  const stamp = async (id: number, raised: string, ack: string | null, processed: string | null) => {
    await s.db.query('update events set at = $2 where id = $1', [id, raised]);
    await s.db.query('update alarms set raised_at = $2, acknowledged_at = coalesce($3, acknowledged_at), processed_at = $4 where event_id = $1', [
      id,
      raised,
      ack,
      processed,
    ]);
    await s.db.query(`update alarm_history set at = coalesce($2::timestamptz, at) where alarm_id = $1 and action = 'processed'`, [id, processed]);
  };
  await stamp(ids.a1, at('09:00'), at('09:05'), null);
  await stamp(ids.a2, at('10:00'), null, at('16:00'));
  await stamp(ids.a3, at('11:00'), null, at('11:30'));
  // three denials of one unknown card at door 4, during the shift
  for (const hhmm of ['12:00', '12:01', '12:02']) {
    const id = await simulate({ kind: 'card.denied', doorId: doors[3], card: CARD });
    await s.db.query('update events set at = $2 where id = $1', [id, at(hhmm)]);
  }
  // a door unlocked by the operator (now), a controller taken offline, a visitor signed in
  expect((await s.call('POST', `${API.doors}/${doors[4]}/commands`, { token: operator, body: { command: 'unlock' } })).status).toBe(200);
  controllerId = Number((await s.db.query<{ id: number }>(`select id from controllers where client_id = $1 order by id limit 1`, [northwind])).rows[0].id);
  ids.offline = await simulate({ kind: 'interface.offline', controllerId });
  const today = (await s.db.query<{ d: string }>(`select (now() at time zone 'Asia/Kuala_Lumpur')::date::text as d`)).rows[0].d;
  const v = await s.call('POST', '/visitor/1.0/visitors', {
    token: reception,
    body: { firstName: 'Vera', lastName: 'Visitor', company: 'Acme Couriers', hostName: 'Sam Operator', purpose: 'delivery', visitDate: today },
  });
  expect(v.status, JSON.stringify(v.body)).toBe(201);
  visitorId = Number(v.body.id);
  expect((await s.call('POST', `/visitor/1.0/visitors/${visitorId}/sign-in`, { token: reception })).status).toBe(200);
}, 90_000);
afterAll(async () => {
  await s?.close();
});

const digestAt = (token: string, end: string) => s.call('GET', `${HANDOVER_API}?end=${encodeURIComponent(end)}`, { token });

describe('the shift handover', () => {
  it('digests the shift that ended: alarms, doors, hardware, visitors and denials, with since when', async () => {
    const r = await digestAt(operator, END);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body as HandoverDigest;
    expect(d).toMatchObject({ zone: 'Asia/Kuala_Lumpur', start: at('07:00'), end: END, acknowledgement: null, previousNote: null });
    // raised in the shift: a1, a2, a3 (P1 forced, P3 held: the default alarm types); processed in it: a3 only
    expect(d.alarms.raised).toBe(3);
    expect(d.alarms.processed).toBe(1);
    expect(d.alarms.byPriority.reduce((n, p) => n + p.count, 0)).toBe(3);
    // open at the end: a1 (acknowledged, still open) and a2 (processed only after the shift, with its note)
    expect(d.alarms.open.map((a) => a.id).sort()).toEqual([ids.a1, ids.a2].sort());
    const a1 = d.alarms.open.find((a) => a.id === ids.a1)!;
    expect(a1).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'operator', processedAt: null, raisedAt: at('09:00'), notes: [] });
    const a2 = d.alarms.open.find((a) => a.id === ids.a2)!;
    expect(a2).toMatchObject({ state: 'processed', processedAt: at('16:00') });
    expect(a2.notes).toEqual([{ at: at('16:00'), actor: 'operator', action: 'processed', note: 'Door propped by the cleaners, closed' }]);
    // the unlocked door, since the unlock command's event
    const unlockedAt = (
      await s.db.query<{ at: Date }>(`select at from events where client_id = $1 and event_point_id = $2 order by id desc limit 1`, [
        northwind,
        `output-${doors[4]}`,
      ])
    ).rows[0].at;
    expect(d.doors).toContainEqual(expect.objectContaining({ id: doors[4], kind: 'status', state: 'unlocked', since: new Date(unlockedAt).toISOString() }));
    // a1's door is still forced open (its alarm is open)
    expect(d.doors).toContainEqual(expect.objectContaining({ id: doors[0], kind: 'status', state: 'forced-open', since: at('09:00') }));
    // the controller offline since its event
    const offlineAt = (await s.db.query<{ at: Date }>('select at from events where id = $1', [ids.offline])).rows[0].at;
    expect(d.offline).toContainEqual({ kind: 'controller', id: controllerId, name: expect.any(String), since: new Date(offlineAt).toISOString() });
    // the visitor still signed in
    expect(d.visitors).toContainEqual(expect.objectContaining({ id: visitorId, name: 'Vera Visitor', company: 'Acme Couriers', host: 'Sam Operator' }));
    expect(Date.parse(d.visitors.find((v) => v.id === visitorId)!.signedInAt!)).not.toBeNaN();
    // three denials of one unknown card: per reason, and the card as a repeated one
    expect(d.denials.total).toBe(3);
    expect(d.denials.byReason).toEqual([{ code: 5001, label: 'Access denied: unknown credential', count: 3 }]);
    expect(d.denials.repeated).toEqual([{ credential: CARD, name: null, count: 3, doors: [expect.any(String)] }]);
  });

  it('is division-scoped like the alarms: an operator of a division without these doors sees none of their alarms, doors or denials', async () => {
    const PASSWORD = 'Strong-pass1';
    const division = await s.call('POST', API.divisions, { token: nw, body: { name: 'Handover annex' } });
    expect(division.status, JSON.stringify(division.body)).toBe(201);
    const role = await s.call('POST', API.roles, { token: nw, body: { name: 'Annex handover', code: 'annex-handover' } });
    await s.call('POST', `${API.roles}/${role.body.id}/assign-privileges`, {
      token: nw,
      body: { privileges: ['0.1', '0.2.6.0'].map((code) => ({ code, divisionId: null })) },
    });
    const op = await s.call('POST', API.operators, { token: nw, body: { username: 'annexshift', name: 'Annex Shift', password: PASSWORD } });
    expect(op.status).toBe(201);
    expect(
      (
        await s.call('POST', API.operatorGroups, {
          token: nw,
          body: { name: 'Annex shift', members: [op.body.id], grants: [{ roleId: role.body.id, divisionId: division.body.id }] },
        })
      ).status,
    ).toBe(201);
    const annex = await s.login('annexshift', PASSWORD);
    const d = (await digestAt(annex, END)).body as HandoverDigest;
    expect(d.alarms).toEqual({ raised: 0, processed: 0, byPriority: [], open: [] });
    expect(d.denials.total).toBe(0);
    expect(d.doors.map((x) => x.id)).not.toContain(doors[4]);
    expect(d.doors.map((x) => x.id)).not.toContain(doors[0]);
  });

  it('answers the latest ended shift: one of the client boundaries, not in the future', async () => {
    const r = await s.call('GET', `${HANDOVER_API}/latest`, { token: operator });
    expect(r.status).toBe(200);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kuala_Lumpur', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(r.body.end),
    );
    expect(['07:00', '15:00', '23:00']).toContain(local);
    expect(Date.parse(r.body.end)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(r.body.end) - Date.parse(r.body.start)).toBe(8 * 3_600_000);
  });

  it('is acknowledged once, audited, and its note is shown to the next shift; the stored handover is the client’s own', async () => {
    const ack = await s.call('POST', `${HANDOVER_API}/acknowledge`, {
      token: operator,
      body: { end: END, note: '  Door 5 unlocked for the contractors until 18:00  ' },
    });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const id = ack.body.id;
    const audit = await s.db.query<any>(`select actor, action, after from audit_log where entity = 'shift handover' and entity_id = $1`, [String(id)]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({
      actor: 'operator',
      action: 'acknowledge',
      after: { shiftEnd: END, note: 'Door 5 unlocked for the contractors until 18:00', openAlarms: 2 },
    });
    const again = await s.call('POST', `${HANDOVER_API}/acknowledge`, { token: nw, body: { end: END } });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already acknowledged by Sam Operator/);
    expect(await s.count(`select * from audit_log where entity = 'shift handover'`)).toBe(1);
    const d = (await digestAt(operator, END)).body as HandoverDigest;
    expect(d.acknowledgement).toMatchObject({ id, by: 'operator', name: 'Sam Operator', note: 'Door 5 unlocked for the contractors until 18:00' });
    const next = (await digestAt(nw, at('23:00'))).body as HandoverDigest;
    expect(next).toMatchObject({
      start: END,
      end: at('23:00'),
      acknowledgement: null,
      previousNote: { by: 'operator', name: 'Sam Operator', note: 'Door 5 unlocked for the contractors until 18:00' },
    });
    // the stored handover, as it was acknowledged; in the history; another tenant's id is not found
    const stored = await s.call('GET', `${HANDOVER_API}/${id}`, { token: auditor });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ end: END, alarms: { raised: 3, processed: 1 }, denials: { total: 3 }, acknowledgement: { id } });
    const history = await s.call('GET', `${HANDOVER_API}/history`, { token: operator });
    expect(history.body.items).toContainEqual(expect.objectContaining({ id, end: END, by: 'operator', open: 2 }));
    expect((await s.call('GET', `${HANDOVER_API}/${id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('GET', `${HANDOVER_API}/history`, { token: harbour })).body.items).toEqual([]);
    expect((await s.call('GET', `${HANDOVER_API}/999999`, { token: operator })).status).toBe(404);
  });

  it('answers 403 without the codes: reading needs 0.2.6.0, acknowledging 0.2.6.1', async () => {
    expect((await s.call('GET', `${HANDOVER_API}/latest`, { token: reception })).status).toBe(403);
    expect((await digestAt(reception, at('23:00'))).status).toBe(403);
    expect((await s.call('POST', `${HANDOVER_API}/acknowledge`, { token: reception, body: { end: at('23:00') } })).status).toBe(403);
    // the auditor reads handovers but does not acknowledge them
    expect((await digestAt(auditor, at('23:00'))).status).toBe(200);
    expect((await s.call('POST', `${HANDOVER_API}/acknowledge`, { token: auditor, body: { end: at('23:00') } })).status).toBe(403);
    expect(await s.count(`select * from shift_handovers where shift_end = $1`, [at('23:00')])).toBe(0);
  });

  it('refuses bad input with 400 naming the field, and changes nothing', async () => {
    const field = (r: { status: number; body: any }) => [r.status, r.body.violations?.[0]?.field];
    expect(field(await digestAt(operator, at('08:00')))).toEqual([400, 'end']); // not a boundary
    expect(field(await digestAt(operator, new Date(Date.now() + 7 * 86_400_000).toISOString()))).toEqual([400, 'end']); // in the future
    expect(field(await s.call('GET', `${HANDOVER_API}?end=yesterday`, { token: operator }))).toEqual([400, 'end']);
    expect((await s.call('GET', HANDOVER_API, { token: operator })).status).toBe(400);
    const post = (b: unknown) => s.call('POST', `${HANDOVER_API}/acknowledge`, { token: operator, body: b });
    expect(field(await post({ end: at('23:00'), note: 'x'.repeat(HANDOVER_NOTE_MAX + 1) }))).toEqual([400, 'note']);
    expect(field(await post({ end: at('22:00') }))).toEqual([400, 'end']);
    expect(field(await post({ note: 'no end' }))).toEqual([400, 'end']);
    expect(field(await post({ end: at('23:00'), extra: 1 }))).toEqual([400, 'extra']);
    expect(await s.count(`select * from shift_handovers where shift_end = $1`, [at('23:00')])).toBe(0);
  });

  it('cuts shifts at the client’s own boundaries (shift settings, administrators only); daylight saving in the zone', async () => {
    const api = shiftSettingsResource.api;
    expect((await s.call('GET', api, { token: nw })).body.boundaries).toBe('07:00, 15:00, 23:00');
    expect((await s.call('PUT', api, { token: operator, body: { boundaries: '06:00, 18:00' } })).status).toBe(403);
    const bad = await s.call('PUT', api, { token: nw, body: { boundaries: '25:00' } });
    expect([bad.status, bad.body.violations?.[0]?.field]).toEqual([400, 'boundaries']);
    const saved = await s.call('PUT', api, { token: nw, body: { boundaries: '18:00, 06:00' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await s.count(`select * from audit_log where action = 'update' and after ->> 'boundaries' = '18:00, 06:00'`)).toBe(1);
    const day = await digestAt(operator, at('18:00'));
    expect(day.status).toBe(200);
    expect(day.body).toMatchObject({ start: at('06:00'), end: at('18:00') });
    expect((await digestAt(operator, END)).status).toBe(400); // 15:00 is no longer a boundary
    // Harbour (Europe/London): clocks went forward at 01:00 GMT on 31 March 2024, so the night shift 23:00–07:00 was 7 hours
    const h = await digestAt(harbour, '2024-03-31T06:00:00.000Z');
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    expect(h.body).toMatchObject({ zone: 'Europe/London', start: '2024-03-30T23:00:00.000Z', end: '2024-03-31T06:00:00.000Z' });
    expect(h.body.alarms.open.map((a: any) => a.id)).not.toContain(ids.a1); // Northwind's alarms are not Harbour's
    await s.call('PUT', api, { token: nw, body: { boundaries: '07:00, 15:00, 23:00' } });
  });

  it('is sent by a scheduled report job: each shift that ended in the period, a line per item', async () => {
    const api = reportJobsResource.api;
    const made = await s.call('POST', api, {
      token: nw,
      body: {
        name: 'Handover',
        report: 'shift-handover',
        frequency: 'daily',
        hour: 6,
        weekday: '1',
        monthDay: 1,
        keepRuns: 5,
        keepDays: 30,
        format: 'csv',
        enabled: true,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // yesterday's day shift gets the known set: move a copy of the story there
    const [{ y }] = (await s.db.query<{ y: string }>(`select ((now() at time zone 'Asia/Kuala_Lumpur')::date - 1)::text as y`)).rows;
    await s.db.query('update events set at = $2 where id = $1', [ids.a3, at('11:00', y)]);
    await s.db.query('update alarms set raised_at = $2, processed_at = $3 where event_id = $1', [ids.a3, at('11:00', y), at('11:30', y)]);
    const ran = await s.call('POST', `${api}/${made.body.id}/run`, { token: nw });
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    const runs = (await s.call('GET', `${api}/${made.body.id}/runs`, { token: nw })).body.items;
    expect(runs[0]).toMatchObject({ ok: true });
    const file = String((await s.call('GET', `${api}/${made.body.id}/runs/${runs[0].id}/file`, { token: nw })).body);
    const lines = file.trim().split('\r\n');
    expect(lines[0].replace(/^\ufeff/, '')).toBe(
      'shiftStart (Asia/Kuala_Lumpur),shiftEnd (Asia/Kuala_Lumpur),section,item,state,since (Asia/Kuala_Lumpur),detail',
    );
    // three shifts ended yesterday (07:00, 15:00, 23:00), each with its alarm and denial lines
    expect(lines.filter((l) => l.includes(',alarms,Raised,')).length).toBe(3);
    expect(lines.filter((l) => l.includes(',denials,Denied swipes,')).length).toBe(3);
    expect(lines.some((l) => l.includes(',alarms,Processed,1,'))).toBe(true);
    expect(lines.some((l) => l.includes(',visitor,Vera Visitor,on site,'))).toBe(true);
  });
});
