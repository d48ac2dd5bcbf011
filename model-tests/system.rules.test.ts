// The root's wiring (machines/system.ts) that the system tests let pass (mutation run of 2026-12-03, docs/TESTING.md
// "Mutation score": 50 %): they start every child with inert implementations and default inputs, so an input or an
// implementation that never reaches its child looks the same. Here the real system is started with inputs unlike
// every default and implementations that record what they are asked, and each is read back from its child.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type InspectionEvent } from 'xstate';
import { createGatehouseSystem, getSystemActor, rootMachine, type GatehouseImpl } from '../machines/system';
import type { OptionAnswer, SearchInput } from '../machines/options';
import { tabsMachine } from '../machines/tabs';
import type { ConnectorSocketCommand, ConnectorSocketInput } from '../machines/cardConnector';
import { createControls } from './harness';
import { fakeSystemImpl } from './systemImpl';

const VIEWS = [
  { path: '/visitors', title: 'Visitors' },
  { path: '/doors', title: 'Doors' },
];
const STEPS = [{ target: '[data-tour="menu"]', title: 'Menu', text: 'Every screen is here.' }];

/** The fake system with recording tabs, card connector and options, and the given inputs. */
function recordingSystem() {
  const controls = createControls();
  const persisted: unknown[] = [];
  const sockets: ConnectorSocketInput[] = [];
  const searches: SearchInput[] = [];
  const base = fakeSystemImpl(controls);
  const impl: GatehouseImpl = {
    ...base,
    session: { ...base.session, input: { loginMode: 'IAM' } },
    tabs: { actions: { persistViews: (_, params) => void persisted.push(params) }, input: { views: VIEWS } },
    companion: { ...base.companion, input: { ports: [41003, 41001] } },
    cardConnector: {
      actors: { socket: fromCallback<ConnectorSocketCommand, ConnectorSocketInput>(({ input }) => void sockets.push(input)) },
      input: { ports: [52000, 52001] },
    },
    tour: { input: { steps: STEPS } },
    options: {
      actors: {
        ...base.options.actors,
        search: fromPromise<OptionAnswer, SearchInput>(({ input }) => (searches.push(input), new Promise<OptionAnswer>(() => {}))),
      },
    },
    socket: { ...base.socket, autoConnect: true },
  };
  return { controls, impl, persisted, sockets, searches };
}

describe('the actor system: what it is given reaches its children', () => {
  it('each child starts with the input given to createGatehouseSystem', () => {
    const { impl } = recordingSystem();
    const root = createGatehouseSystem(impl).start();
    expect(getSystemActor(root, 'session').getSnapshot().context.loginMode).toBe('IAM');
    expect(getSystemActor(root, 'tabs').getSnapshot().context.views).toEqual(VIEWS);
    expect(getSystemActor(root, 'tour').getSnapshot().context.steps).toEqual(STEPS);
    expect(getSystemActor(root, 'cardConnector').getSnapshot().context.ports).toEqual([52000, 52001]);
    // autoConnect: true reaches the three sockets (false by default)
    for (const id of ['socket.events', 'socket.central', 'socket.visitor'] as const)
      expect(getSystemActor(root, id).getSnapshot().context.autoConnect).toBe(true);
    root.stop();
  });

  it("each child runs the caller's implementations: tabs persist, companion shuffles, card connector and pickers ask", () => {
    const { controls, impl, persisted, sockets, searches } = recordingSystem();
    const root = createGatehouseSystem(impl).start();
    // the companion asks its shuffle for the two given ports, in ascending order
    expect(controls.inputs).toContainEqual({ id: 'shuffle', input: { ports: [41001, 41003] } });
    getSystemActor(root, 'tabs').send({ type: 'route.visited', path: '/alarms', title: 'Alarms', cache: false });
    expect(persisted).toEqual([{ views: [...VIEWS, { path: '/alarms', title: 'Alarms' }] }]);
    getSystemActor(root, 'cardConnector').send({ type: 'cardConnector.connect' });
    expect(sockets).toEqual([{ port: 52000 }]);
    getSystemActor(root, 'options').send({ type: 'options.open', key: 'door-picker', api: '/api/doors', q: 'lobby' });
    expect(searches).toEqual([{ api: '/api/doors', q: 'lobby' }]);
    root.stop();
  });

  it('the actor options given to createGatehouseSystem reach the root (an inspector sees its events)', () => {
    const { impl } = recordingSystem();
    const seen: InspectionEvent[] = [];
    const root = createGatehouseSystem(impl, { inspect: (e) => void seen.push(e) }).start();
    getSystemActor(root, 'tabs').send({ type: 'tab.closeAll' });
    expect(seen.some((e) => e.type === '@xstate.event' && e.event.type === 'tab.closeAll')).toBe(true);
    root.stop();
  });

  it('a root started with an input that names no child (session.timers.test.ts names only tabs) gives every child its defaults', () => {
    const root = createActor(rootMachine, { input: {} }).start();
    expect(getSystemActor(root, 'session').getSnapshot().context.loginMode).toBe('STANDARD');
    expect(getSystemActor(root, 'tabs').getSnapshot().context.views).toEqual([]);
    for (const id of ['socket.events', 'socket.central', 'socket.visitor'] as const)
      expect(getSystemActor(root, id).getSnapshot().context.autoConnect).toBe(false);
    root.stop();
  });

  it('getSystemActor refuses, by its id, an actor its root does not hold (the system stopped, or a lone actor)', () => {
    const { impl } = recordingSystem();
    const root = createGatehouseSystem(impl).start();
    expect(getSystemActor(root, 'tabs').getSnapshot().context.views).toEqual(VIEWS);
    root.stop();
    expect(() => getSystemActor(root, 'tabs')).toThrow("No actor with systemId 'tabs': start the Gatehouse system first");
    const lone = createActor(tabsMachine, { input: {} }).start();
    expect(() => getSystemActor(lone, 'session')).toThrow("No actor with systemId 'session'");
    lone.stop();
  });
});
