// The companion machine with the real transport against the simulator over loopback: discovery skips a dead
// port, connects, captures a photo, prints a badge; a killed simulator sends it back to backoff, and it
// reconnects when a companion is back.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, waitFor } from 'xstate';
import { companionMachine, type CompanionEmitted } from '../../machines/companion';
import { selectCompanionStatus } from '../../machines/companion.selectors';
import { startCompanionSimulator, type CompanionSimulator } from '../../server/simulator/companion';
import { createCompanionTransport, shuffle } from './companion';

let sim: CompanionSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

describe('companion transport', () => {
  it('shuffles with the injected random source', () => {
    expect(shuffle([1, 2, 3, 4], () => 0)).toEqual([2, 3, 4, 1]);
    expect(shuffle([1, 2, 3, 4], () => 0.999)).toEqual([1, 2, 3, 4]);
  });

  it('finds the simulator past a dead port, talks to it, and comes back after it restarts', async () => {
    sim = await startCompanionSimulator({ port: 0 });
    const deadPort = 1; // nothing listens there: refused at once
    const transport = createCompanionTransport({ WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, random: () => 0 });
    const actor = createActor(companionMachine.provide({ actors: transport }), { input: { ports: [deadPort, sim.port] } });
    const emitted: CompanionEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as CompanionEmitted));
    actor.start();
    await waitFor(actor, (s) => selectCompanionStatus(s) === 'connected', { timeout: 5000 });

    actor.send({ type: 'companion.capturePhoto', purpose: 'identity', requestId: 'p1' });
    actor.send({ type: 'companion.printBadge', requestId: 'b1', visitor: { name: 'Vera Visitor' } });
    actor.send({ type: 'companion.notify', title: 'Door forced', message: 'Lobby' });
    await expect.poll(() => emitted.map((e) => e.type)).toEqual(expect.arrayContaining(['companion.photoCaptured', 'companion.badgePrinted']));
    const photo = emitted.find((e) => e.type === 'companion.photoCaptured') as Extract<CompanionEmitted, { type: 'companion.photoCaptured' }>;
    expect(photo).toMatchObject({ requestId: 'p1', purpose: 'identity', file: { mimeType: 'image/png' } });
    await expect.poll(() => sim!.notifications.length).toBe(1);

    const port = sim.port;
    await sim.close();
    await waitFor(actor, (s) => s.matches('waiting'), { timeout: 5000 });
    sim = await startCompanionSimulator({ port });
    await waitFor(actor, (s) => selectCompanionStatus(s) === 'connected', { timeout: 10_000 });
    actor.stop();
  });
});
