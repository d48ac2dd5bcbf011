// A broker message carries several frames (server/realtime/coalesce.ts) and the transport hands them to the socket
// machine as one `socket.messages` (src/transport/stomp.ts): one transition, one `facts.received` per machine.
// Property: whatever the frames and however they are cut into batches, live or while the open alarms are being
// re-read, the system ends exactly where the same frames one by one take it: the same open alarms, news, count and
// buffered facts, the same hardware state, the same drops, and the same messages told to the views, in order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DESTINATIONS, type Event } from '../contract';
import type { SocketMessage } from '../machines/socket';
import { eventSocketSystem } from './eventSystem';
import { flush } from './harness';
const alarm = (id: number, point: number, priority = 3): Event => ({
  id,
  eventCode: 5001,
  eventPointId: point,
  eventSourceId: point + 100,
  eventPointName: `Door ${point}`,
  eventSourceName: null,
  message: 'Door forced open',
  alert: true,
  acknowledge: false,
  process: false,
  eventPoint: [],
  time: '2024-05-01T10:00:00Z',
  priority,
});
const clear = (id: number, point: number): Event => ({ ...alarm(id, point), alert: false, message: 'Door closed' });

/** Frames of the event service: alarms raised, repeated, cleared, acknowledged and processed; hardware; bad ones. */
const FRAMES: SocketMessage[] = [
  { destination: DESTINATIONS.events, body: JSON.stringify(alarm(1, 10, 1)) },
  { destination: DESTINATIONS.events, body: JSON.stringify(alarm(2, 20)) },
  { destination: DESTINATIONS.events, body: alarm(3, 10) },
  { destination: DESTINATIONS.events, body: JSON.stringify(clear(4, 10)) },
  { destination: DESTINATIONS.events, body: clear(5, 20) },
  { destination: DESTINATIONS.acknowledge, body: { id: 1, acknowledge: true } },
  { destination: DESTINATIONS.acknowledge, body: { id: 2, acknowledge: 'yes' } }, // invalid
  { destination: DESTINATIONS.alarmAction, body: { eventPointId: 20, process: true } },
  { destination: DESTINATIONS.alarmAction, body: { eventPointId: 10, process: false } },
  { destination: DESTINATIONS.alarmCount, body: { count: 4 } },
  { destination: DESTINATIONS.alarmCount, body: '{"count":1}' },
  { destination: DESTINATIONS.alarmCount, body: 'not json' }, // invalid
  { destination: `${DESTINATIONS.events}/reader-4`, body: { eventCode: 4002, eventSourceId: 4, eventSourceName: 'Reader 4' } },
  { destination: `${DESTINATIONS.events}/reader-4`, body: { eventCode: 4003, eventSourceId: 4 } },
  { destination: DESTINATIONS.hardware, body: { id: 7, name: 'Input 7', status: 'Door Forced Open' } },
  { destination: DESTINATIONS.doorHeartbeat, body: { id: 2, doorStatus: 'Open' } },
  { destination: DESTINATIONS.controllerHeartbeat, body: [{ id: 1, name: 'C1' }] }, // another service's: invalid here
];

interface Run {
  alarms: unknown;
  hardware: unknown;
  socket: unknown;
  told: unknown[];
  afterSync: unknown;
}

/** The event service's socket with real alarms and hardwareStatus machines; the open alarms' read answers on `sync`. */
async function deliver(batches: SocketMessage[][], single: boolean, syncing: boolean): Promise<Run> {
  let answer: (alarms: Event[]) => void = () => {};
  const { actor, socket, alarms, hardware } = eventSocketSystem(
    () =>
      new Promise((resolve) => {
        answer = resolve;
      }),
  );
  const told: unknown[] = [];
  socket.on('*', (e: unknown) => told.push(e));
  socket.send({ type: 'socket.connect' });
  await flush();
  socket.send({ type: 'socket.connected' }); // the open alarms are read again: `syncing` until answered
  await flush();
  if (!syncing) {
    answer([alarm(9, 90)]);
    await flush();
  }
  for (const batch of batches) {
    if (single) for (const m of batch) socket.send({ type: 'socket.message', ...m });
    else socket.send(batch.length === 1 ? { type: 'socket.message', ...batch[0] } : { type: 'socket.messages', messages: batch });
  }
  const a = alarms.getSnapshot().context;
  const run: Run = {
    alarms: { value: alarms.getSnapshot().value, alarms: a.alarms, gathered: a.gathered, serverCount: a.serverCount, pending: a.pending, error: a.error },
    hardware: hardware.getSnapshot().context,
    socket: socket.getSnapshot().context,
    told,
    afterSync: null,
  };
  if (syncing) {
    answer([alarm(2, 20), alarm(9, 90)]); // the snapshot the read returns; what was heard meanwhile goes on top
    await flush();
    const b = alarms.getSnapshot().context;
    run.afterSync = { alarms: b.alarms, gathered: b.gathered, pending: b.pending };
  }
  actor.stop();
  return run;
}

/** Frames cut into consecutive batches of the given sizes (the last takes what is left). */
function cut(frames: SocketMessage[], sizes: number[]): SocketMessage[][] {
  const out: SocketMessage[][] = [];
  let i = 0;
  for (const n of sizes) {
    if (i >= frames.length) break;
    out.push(frames.slice(i, i + n));
    i += n;
  }
  if (i < frames.length) out.push(frames.slice(i));
  return out;
}

describe('a broker message of several frames', () => {
  it('takes the system where the same frames one by one take it, live and while the open alarms are read again', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...FRAMES), { minLength: 1, maxLength: 24 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 8 }),
        fc.boolean(),
        async (frames, sizes, syncing) => {
          const batches = cut(frames, sizes);
          const one = await deliver(batches, true, syncing);
          const batched = await deliver(batches, false, syncing);
          expect(batched).toEqual(one);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('tells each machine once per batch, and says which frame was bad', async () => {
    let alarmFacts = 0;
    const received: string[] = [];
    const { actor, socket, alarms } = eventSocketSystem(
      async () => [],
      (e) => {
        if (e.type !== '@xstate.event') return;
        const id = (e.actorRef as { systemId?: string }).systemId;
        if (id === 'alarms' || id === 'hardwareStatus') received.push(`${id}:${e.event.type}`);
        if (id === 'alarms' && e.event.type === 'facts.received') alarmFacts = (e.event as unknown as { facts: unknown[] }).facts.length;
      },
    );
    const told: Array<{ type: string; destination: string }> = [];
    socket.on('*', (e: { type: string; destination: string }) => told.push(e));
    socket.send({ type: 'socket.connect' });
    await flush();
    socket.send({ type: 'socket.connected' });
    await flush();
    received.length = 0;
    told.length = 0;
    socket.send({ type: 'socket.messages', messages: [FRAMES[0], FRAMES[6], FRAMES[1], FRAMES[12], FRAMES[9]] });
    // three alarm facts and three hardware facts (the two /events and the reader), each machine told once
    expect(received).toEqual(['alarms:facts.received', 'hardwareStatus:facts.received']);
    expect(alarmFacts).toBe(3);
    expect(told.map((e) => `${e.type} ${e.destination}`)).toEqual([
      `socket.message ${DESTINATIONS.events}`,
      `socket.invalidMessage ${DESTINATIONS.acknowledge}`,
      `socket.message ${DESTINATIONS.events}`,
      `socket.message ${DESTINATIONS.events}/reader-4`,
      `socket.message ${DESTINATIONS.alarmCount}`,
    ]);
    expect(alarms.getSnapshot().context.alarms.map((a: Event) => a.id)).toEqual([1, 2]);
    actor.stop();
  });
});
