// The root wires the real-time children to the session: sign-in starts the sockets, a connect resyncs the alarms,
// sign-out stops them.
import { describe, expect, it } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import { createControls } from '../model-tests/harness';
import { LOGIN_A, NOW } from '../model-tests/fixtures';
import { createGatehouseSystem, getSystemActor, type GatehouseImpl } from './system';
import type { ConnectionInput, SocketEvent } from './socket';

describe('the actor system', () => {
  it('connects the sockets on sign-in, resyncs alarms on connect and disconnects on sign-out', async () => {
    const controls = createControls();
    const opened: ConnectionInput[] = [];
    const impl = {
      session: {
        actors: { restoreSession: controls.logic(), fetchMe: controls.logic(), signIn: controls.logic(), selectClient: controls.logic(), saveProfile: controls.logic(), saveSettings: controls.logic() },
        actions: { storeSession: () => {}, clearStoredSession: () => {}, callLogout: () => {} },
      },
      tabs: { actions: { persistViews: () => {} } },
      companion: { actors: { shufflePorts: controls.logic(), probePort: controls.logic(), messages: controls.logic() } },
      cardConnector: { actors: { socket: controls.logic() } },
      alarms: { actors: { loadAlarms: controls.logic(), acknowledgeAlarm: controls.logic(), processAlarm: controls.logic() } },
      socket: {
        actors: {
          readToken: fromPromise(async () => LOGIN_A.token), // the three sockets share one invoke id: answer at once
          connection: fromCallback<SocketEvent, ConnectionInput>(({ input, sendBack }) => { opened.push(input); sendBack({ type: 'socket.connected' }); }),
        },
      },
    } as unknown as GatehouseImpl;
    const root = createGatehouseSystem(impl).start();
    await controls.settle('restore', 'done', { token: null, now: NOW });
    const events = getSystemActor(root, 'socket.events');
    expect(events.getSnapshot().value).toBe('idle');
    getSystemActor(root, 'session').send({ type: 'session.signIn', username: 'admin', password: 'hunter2-secret' });
    await controls.settle('signIn', 'done', LOGIN_A);
    await new Promise((r) => setTimeout(r, 0));
    expect(opened.map((o) => o.service).sort()).toEqual(['central', 'event', 'visitor']);
    expect(events.getSnapshot().hasTag('online')).toBe(true);
    expect(getSystemActor(root, 'alarms').getSnapshot().hasTag('syncing')).toBe(true);
    getSystemActor(root, 'session').send({ type: 'session.signOut' });
    expect(events.getSnapshot().value).toBe('idle');
    root.stop();
  });
});
