// The server stops mid-stream and comes back: the console reconnects by itself, and what happened while it
// was not listening (an event, a new alarm) is read back from REST, so it shows exactly the server's truth.
//
// Both tests stop and start the worker's own server (e2e/fixtures.ts), as a crash and a restart would: the specs after
// them on this worker find it as it was, the server's crash test holding what a kill keeps (server/crash.test.ts). A
// server of this spec's own cost one more start, 9 s of processor time and at load 11 about a minute and a half of
// the worker's time (2026-12-04).
import { expect, test } from './fixtures';
import { SOCKET_RECONNECT_MS } from '../contract/constants';
import { signIn } from './helpers';

test('stop the server mid-stream, restart it: the console reconnects and resyncs events and alarms', async ({ page, request, server }) => {
  test.setTimeout(120_000);
  await page.clock.install(); // real time flows; paused below so the console cannot reconnect before the gap is made
  const at = (path: string) => `${server.url}${path}`;
  await signIn(page, 'operator', undefined, server.url);
  await page.goto(at('/monitor/events'));
  const status = page.getByTestId('socket-status');
  await expect(status).toHaveText('connected');

  await server.stop();
  await expect(status).not.toHaveText('connected');
  await page.clock.pauseAt(Date.now() + 1000); // the 5 s reconnect wait cannot run out now

  await server.start();
  // while the console is away: a door is forced open (an event and an alarm it never heard of)
  const token = (await (await request.post(at('/idp/1.0/login'), { data: { username: 'operator', password: 'Gatehouse1!' } })).json()).token as string;
  const auth = { authorization: `Bearer ${token}` };
  const door = (await (await request.get(at('/event/manage/doors'), { headers: auth })).json()).items.find((d: { name: string }) => d.name === 'Loading Bay');
  const forced = await request.post(at('/api/test/simulate'), { headers: auth, data: { kind: 'door.forced', doorId: door.id } });
  expect(forced.ok()).toBe(true);
  const event = await forced.json();
  await expect(page.getByTestId('event-row').filter({ hasText: event.message })).toHaveCount(0);

  // the console's 5 s wait before it reconnects (machines/socket.ts) run out at once instead of in real time (about 4 s of
  // it were left), then time flows again
  await page.clock.fastForward(SOCKET_RECONNECT_MS);
  await page.clock.resume();
  await expect(status).toHaveText('connected', { timeout: 30_000 });
  // the missed event joins the live list without a reload
  await expect(page.getByTestId('event-row').filter({ hasText: event.message }).first()).toBeVisible();

  // and the alarms are exactly the server's open alarms
  const open = (await (await request.get(at('/event/manage/alarms'), { headers: auth })).json()) as { eventPointName: string | null }[];
  await page.getByRole('link', { name: 'Alarms' }).first().click();
  await expect(page.getByTestId('alarm-row')).toHaveCount(open.length);
  await expect(page.getByTestId('alarm-row').filter({ hasText: 'Loading Bay' }).first()).toBeVisible();
});

test('a history load the server never answered is read again once the console is back', async ({ page, request, server }) => {
  test.setTimeout(120_000);
  await page.clock.install(); // real time flows; the reconnect wait is run out below
  const at = (path: string) => `${server.url}${path}`;
  await signIn(page, 'operator', undefined, server.url);
  // the events screen's reads of the history are cut off, as by a server going away under it: every one while
  // `cutting`, since the socket's first connect may come after the first read failed and read it again (as it should)
  let cutting = true;
  let cuts = 0;
  await page.route('**/event/manage/events?size=*', async (route) => {
    if (cutting) {
      cuts += 1;
      await route.abort('connectionreset');
    } else await route.continue();
  });
  await page.goto(at('/monitor/events'));
  const status = page.getByTestId('socket-status');
  await expect(status).toHaveText('connected');
  await expect.poll(() => cuts).toBeGreaterThan(0);
  const token = (await (await request.post(at('/idp/1.0/login'), { data: { username: 'operator', password: 'Gatehouse1!' } })).json()).token as string;
  const newest = (await (await request.get(at('/event/manage/events?size=1'), { headers: { authorization: `Bearer ${token}` } })).json()).items[0];
  await expect(page.getByTestId('event-row')).toHaveCount(0); // nothing shown: the read failed
  // the server goes and comes back: the console reconnects and reads the history it never had
  await server.stop();
  await expect(status).not.toHaveText('connected');
  cutting = false;
  await server.start();
  // the console tried every 5 s while the server was away: its next try now, not up to 5 s of real time later
  await page.clock.fastForward(SOCKET_RECONNECT_MS);
  await expect(status).toHaveText('connected', { timeout: 30_000 });
  await expect(page.getByTestId('event-row').filter({ hasText: newest.message }).first()).toBeVisible();
});
