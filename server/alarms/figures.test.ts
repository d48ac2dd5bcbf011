// The ISA-18.2 figures on the alarm handling report (issue 50; server/alarms/figures.ts): over two past days of the
// client's zone, a burst of 12 alarms in one 10-minute window (a flood), a source raising 5 alarms within a minute
// (chattering), an alarm left open for more than 24 hours (stale) and one processed within the hour; alarms per
// operator-hour over the 48 hours; the top sources, most first; another client sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_HANDLING_API, type AlarmHandlingReport } from '../../contract/alarmHandling';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string, harbour: string;
const FROM = '2025-06-02';
const TO = '2025-06-03';
const at = (hhmmss: string, day = FROM) => new Date(`${day}T${hhmmss}+08:00`); // Northwind's zone (UTC+8)

beforeAll(async () => {
  s = await startTestServer();
  nw = await s.loginTo('admin', 'NORTHWIND');
  harbour = await s.login('harbour');
  const [{ id: client }] = (await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows;
  const alarm = async (point: string, raised: Date, processedAfterS: number | null) => {
    const e = await s.db.query<{ id: string }>(
      `insert into events (client_id, event_code, event_source_id, event_point_id, event_point_name, message, alert, priority, at)
      values ($1, 6001, $2, $2, $3, 'Door forced open', true, 1, $4) returning id`,
      [client, point, `Door ${point}`, raised.toISOString()],
    );
    await s.db.query(
      `insert into alarms (event_id, client_id, event_code, event_point_id, priority, raised_at, state, processed_at)
      values ($1, $2, 6001, $3, 1, $4, $5, $6)`,
      [
        e.rows[0].id,
        client,
        point,
        raised.toISOString(),
        processedAfterS === null ? 'raised' : 'processed',
        processedAfterS === null ? null : new Date(raised.getTime() + processedAfterS * 1000).toISOString(),
      ],
    );
  };
  for (let i = 0; i < 12; i++) await alarm('flood', new Date(at('01:00:00').getTime() + i * 25_000), 60); // 12 in 5 minutes
  for (let i = 0; i < 5; i++) await alarm('chatter', new Date(at('05:00:00').getTime() + i * 10_000), 30); // 5 in 40 s
  // 4 in 30 s across the turn of a minute (2 in each calendar minute): chattering all the same
  for (const t of ['06:00:40', '06:00:50', '06:01:00', '06:01:10']) await alarm('straddle', at(t), 30);
  // 4 spread over 75 s, 25 s apart: never more than 3 within a minute, not chattering
  for (let i = 0; i < 4; i++) await alarm('slow', new Date(at('07:00:00').getTime() + i * 25_000), 30);
  await alarm('stale', at('02:00:00'), null); // open ever since
  await alarm('quick', at('03:00:00'), 3000); // processed within the hour
}, 180_000);
afterAll(async () => {
  await s?.close();
});

describe('the alarm-management figures of the alarm handling report', () => {
  it('say alarms per operator-hour, the time in flood, the top sources, chattering and stale alarms', async () => {
    const r = await s.call('GET', `${ALARM_HANDLING_API}?from=${FROM}&to=${TO}`, { token: nw });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const m = (r.body as AlarmHandlingReport).management!;
    expect(m.perOperatorHour).toBe(Math.round((27 / 48) * 100) / 100);
    expect(m).toMatchObject({ windows: 288, floodWindows: 1, floodShare: Math.round((1 / 288) * 10_000) / 10_000, stale: 1 });
    expect(m.topSources.map((x) => [x.pointId, x.count])).toEqual([
      ['flood', 12],
      ['chatter', 5],
      ['slow', 4],
      ['straddle', 4],
      ['quick', 1],
      ['stale', 1],
    ]);
    expect(m.topSources[0].name).toBe('Door flood');
    expect(m.chattering).toEqual([
      { pointId: 'chatter', name: 'Door chatter', bursts: 1, count: 5 },
      { pointId: 'straddle', name: 'Door straddle', bursts: 1, count: 4 },
    ]);
  });

  it('count nothing of another client, and nothing in a quiet period', async () => {
    const theirs = await s.call('GET', `${ALARM_HANDLING_API}?from=${FROM}&to=${TO}`, { token: harbour });
    expect(theirs.status).toBe(200);
    expect((theirs.body as AlarmHandlingReport).management).toMatchObject({ perOperatorHour: 0, floodWindows: 0, stale: 0, topSources: [], chattering: [] });
    const quiet = await s.call('GET', `${ALARM_HANDLING_API}?from=2025-05-01&to=2025-05-01`, { token: nw });
    expect((quiet.body as AlarmHandlingReport).management).toMatchObject({ perOperatorHour: 0, windows: 144, floodShare: 0 });
  });
});
