// The card connector machine with the real transport against the simulator over loopback.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, waitFor } from 'xstate';
import { CONNECTOR_VERSION, DEVICE_MESSAGES } from '../../contract';
import { cardConnectorMachine } from '../../machines/cardConnector';
import { selectConnectorStatusText, selectReaderState } from '../../machines/cardConnector.selectors';
import { SAMPLE_MYKAD, startCardConnectorSimulator, type CardConnectorSimulator } from '../../server/simulator/cardConnector';
import { createCardConnectorTransport } from './cardConnector';

let sim: CardConnectorSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});
const transport = createCardConnectorTransport({ WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
const start = (ports: number[]) => createActor(cardConnectorMachine.provide({ actors: transport }), { input: { ports } }).start();

describe('card connector transport', () => {
  it('shows the guide message when no port answers', async () => {
    const actor = start([1, 2]);
    actor.send({ type: 'cardConnector.connect' });
    await waitFor(actor, (s) => s.matches('serviceMissing'), { timeout: 5000 });
    expect(selectConnectorStatusText(actor.getSnapshot())).toBe(DEVICE_MESSAGES.connectorMissing);
    actor.stop();
  });

  it('reads a card from the simulator, and says Connect failed when it goes away', async () => {
    sim = await startCardConnectorSimulator({ port: 0 });
    const actor = start([1, sim.port]);
    actor.send({ type: 'cardConnector.connect' });
    await waitFor(actor, (s) => selectReaderState(s) === 'readerReady', { timeout: 5000 });
    expect(actor.getSnapshot().context.versionConfirmed).toBe(true);
    sim.insertCard();
    await waitFor(actor, (s) => selectReaderState(s) === 'cardInserted');
    actor.send({ type: 'cardConnector.read' });
    await waitFor(actor, (s) => selectReaderState(s) === 'cardRead');
    expect(actor.getSnapshot().context.card).toEqual(SAMPLE_MYKAD);
    sim.dropClients();
    await waitFor(actor, (s) => s.matches('closed'));
    expect(selectConnectorStatusText(actor.getSnapshot())).toBe('Connect failed');
    actor.stop();
  });

  it('refuses a simulator of another version: invalid_version reaches it, the outdated message shows', async () => {
    sim = await startCardConnectorSimulator({ port: 0, version: 'v0.9.0' });
    const actor = start([sim.port]);
    actor.send({ type: 'cardConnector.connect' });
    await waitFor(actor, (s) => s.matches('outdated'), { timeout: 5000 });
    expect(selectConnectorStatusText(actor.getSnapshot())).toBe(DEVICE_MESSAGES.connectorOutdated);
    await expect.poll(() => sim!.received).toEqual([{ type: 'invalid_version', version: CONNECTOR_VERSION, data: { received: 'v0.9.0' } }]);
    actor.stop();
  });
});
