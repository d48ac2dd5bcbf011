// A view following real-time notices reads again after its socket (re)connects, the first connection included: a
// change made before the subscription sends no notice (the dashboard's visitor count stayed 0 in CI when the live
// connection opened after the dashboard's first read). Real socket machines; the transport's events sent by hand.
import { describe, expect, it } from 'vitest';
import { DESTINATIONS } from '../../contract';
import { eventSocketSystem } from '../../model-tests/eventSystem';
import { flush } from '../../model-tests/harness';
import { followNotices } from './changeNotices';

async function connected() {
  const { socket } = eventSocketSystem(async () => []);
  socket.send({ type: 'socket.connect' });
  await flush();
  return socket;
}

describe('followNotices', () => {
  it('sends the event on a notice it follows and on every (re)connect of the socket that carries it', async () => {
    const socket = await connected();
    const sent: string[] = [];
    const stop = followNotices(
      [socket],
      [DESTINATIONS.alarmCount],
      (e: string) => sent.push(e),
      () => 'read again',
      () => 'read again',
    );
    socket.send({ type: 'socket.connected' }); // the first connection: what changed before it is read
    await flush();
    expect(sent).toEqual(['read again']);
    socket.send({ type: 'socket.message', destination: DESTINATIONS.alarmCount, body: { count: 2 } });
    socket.send({ type: 'socket.message', destination: DESTINATIONS.doorHeartbeat, body: { id: 2, doorStatus: 'Open' } });
    await flush();
    expect(sent).toEqual(['read again', 'read again']);
    socket.send({ type: 'socket.wake' }); // asleep: as after a reconnect
    await flush();
    expect(sent).toHaveLength(3);
    stop();
    socket.send({ type: 'socket.wake' });
    await flush();
    expect(sent).toHaveLength(3);
  });

  it("does not read again on another service's reconnect", async () => {
    const socket = await connected(); // the event service's socket
    const sent: string[] = [];
    followNotices(
      [socket],
      [`${DESTINATIONS.changes}/doors`, DESTINATIONS.clocking],
      (e: string) => sent.push(e),
      () => 'read again',
      () => 'read again',
    );
    socket.send({ type: 'socket.connected' });
    await flush();
    expect(sent).toEqual([]);
  });

  it('a notice made from its body sends nothing on a reconnect unless told what to send', async () => {
    const socket = await connected();
    const sent: string[] = [];
    const fromBody = (body: unknown) => ((body as { count?: number }).count === 1 ? 'one' : null);
    followNotices(
      [socket],
      [DESTINATIONS.alarmCount],
      (e: string) => sent.push(e),
      fromBody,
      () => null,
    );
    followNotices(
      [socket],
      [DESTINATIONS.alarmCount],
      (e: string) => sent.push(e),
      fromBody,
      () => 'resynced',
    );
    followNotices(
      [socket],
      [DESTINATIONS.alarmCount],
      (e: string) => sent.push(e),
      () => 'plain',
      () => null,
    );
    socket.send({ type: 'socket.connected' });
    await flush();
    expect(sent).toEqual(['resynced']);
    socket.send({ type: 'socket.message', destination: DESTINATIONS.alarmCount, body: { count: 1 } });
    await flush();
    expect(sent).toEqual(['resynced', 'one', 'one', 'plain']);
  });
});
