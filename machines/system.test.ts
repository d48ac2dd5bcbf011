// The root wires the real-time children to the session: sign-in starts the sockets, a connect resyncs the alarms,
// sign-out stops them.
import { describe, expect, it, vi } from 'vitest';
import { createControls } from '../model-tests/harness';
import { fakeSystemImpl } from '../model-tests/systemImpl';
import { LOGIN_A, NOW } from '../model-tests/fixtures';
import { createGatehouseSystem, getSystemActor } from './system';
import type { ConnectionInput } from './socket';

describe('the actor system', () => {
  it('connects the sockets on sign-in, resyncs alarms on connect and disconnects on sign-out', async () => {
    const controls = createControls();
    const opened: ConnectionInput[] = [];
    const impl = fakeSystemImpl(controls, ({ input, sendBack }) => {
      opened.push(input);
      sendBack({ type: 'socket.connected' });
    });
    const root = createGatehouseSystem(impl).start();
    await controls.settle('restore', 'done', { token: null, now: NOW });
    const events = getSystemActor(root, 'socket.events');
    expect(events.getSnapshot().value).toBe('idle');
    getSystemActor(root, 'session').send({ type: 'session.signIn', username: 'admin', password: 'hunter2-secret' });
    await controls.settle('signIn', 'done', LOGIN_A);
    // the three connections opened once the session is in (a bare tick stood here)
    await vi.waitFor(() => expect(opened.map((o) => o.service).sort()).toEqual(['central', 'event', 'visitor']), { interval: 5 });
    expect(events.getSnapshot().hasTag('online')).toBe(true);
    expect(getSystemActor(root, 'alarms').getSnapshot().hasTag('syncing')).toBe(true);
    getSystemActor(root, 'session').send({ type: 'session.signOut' });
    expect(events.getSnapshot().value).toBe('idle');
    root.stop();
  });
});
