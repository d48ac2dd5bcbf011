// The root of the actor system: it invokes the long-lived actors under their systemIds, each with the
// implementations the caller gives (browser.ts, tests, the replay tool). To add one (alarms, socket.events,
// companion, cardConnector, tour, options, views): add its machine to `actors`, an `invoke` entry, and a key in SystemActors/GatehouseImpl.
import { createActor, type ActorOptions, type ActorRefFrom, type AnyActorRef } from 'xstate';
import { build, lazySetup } from './defined';
import { sessionMachine, type SessionInput } from './session';
import { tabsMachine, type TabsInput } from './tabs';
import { companionMachine, type CompanionInput } from './companion';
import { cardConnectorMachine, type CardConnectorInput } from './cardConnector';
import { tourMachine, type TourInput } from './tour';
import { alarmsMachine } from './alarms';
import { hardwareStatusMachine } from './hardwareStatus';
import { socketMachine, type SocketInput } from './socket';
import { optionsMachine } from './options';
import { createViewsMachine, viewsMachine, type ResolveView } from './views';

type ProvideArg<M extends { provide: (i: any) => any }> = Parameters<M['provide']>[0];

/** What each long-lived machine needs from outside. Every effect is required so none is forgotten. */
export interface GatehouseImpl {
  session: {
    actors: Required<NonNullable<ProvideArg<typeof sessionMachine>['actors']>>;
    actions: Pick<NonNullable<ProvideArg<typeof sessionMachine>['actions']>, 'storeSession' | 'clearStoredSession' | 'callLogout' | 'goToProvider'>;
    input?: SessionInput;
  };
  tabs: {
    actions: Pick<NonNullable<ProvideArg<typeof tabsMachine>['actions']>, 'persistViews'>;
    input?: TabsInput;
  };
  companion: {
    actors: Required<NonNullable<ProvideArg<typeof companionMachine>['actors']>>;
    input?: CompanionInput;
  };
  cardConnector: {
    actors: Required<NonNullable<ProvideArg<typeof cardConnectorMachine>['actors']>>;
    input?: CardConnectorInput;
  };
  tour?: { input?: TourInput };
  alarms: {
    actors: Required<NonNullable<ProvideArg<typeof alarmsMachine>['actors']>>;
  };
  /** The reference pickers' two look-ups of a target's `<api>/options` (by ids, by search text). */
  options: {
    actors: Required<NonNullable<ProvideArg<typeof optionsMachine>['actors']>>;
  };
  /** One transport for the three real-time services (socket.events, socket.central, socket.visitor). */
  /** The views' own actors (machines/views.ts): the logic of a view actor by its id. */
  views: { resolve: ResolveView };
  socket: {
    actors: Required<NonNullable<ProvideArg<typeof socketMachine>['actors']>>;
    /** Connect at start without waiting for session.started (default false). */
    autoConnect?: boolean;
  };
}

/** systemId → actor type, for `useSystemActor('session')`. */
export interface SystemActors {
  session: ActorRefFrom<typeof sessionMachine>;
  tabs: ActorRefFrom<typeof tabsMachine>;
  companion: ActorRefFrom<typeof companionMachine>;
  cardConnector: ActorRefFrom<typeof cardConnectorMachine>;
  tour: ActorRefFrom<typeof tourMachine>;
  alarms: ActorRefFrom<typeof alarmsMachine>;
  hardwareStatus: ActorRefFrom<typeof hardwareStatusMachine>;
  options: ActorRefFrom<typeof optionsMachine>;
  views: ActorRefFrom<typeof viewsMachine>;
  'socket.events': ActorRefFrom<typeof socketMachine>;
  'socket.central': ActorRefFrom<typeof socketMachine>;
  'socket.visitor': ActorRefFrom<typeof socketMachine>;
}
export type SystemActorId = keyof SystemActors;

export interface RootInput {
  session?: SessionInput;
  tabs?: TabsInput;
  companion?: CompanionInput;
  cardConnector?: CardConnectorInput;
  tour?: TourInput;
  socket?: Pick<SocketInput, 'autoConnect'>;
}

export const rootMachine = lazySetup({
  types: {
    input: {} as RootInput,
    context: {} as RootInput,
    children: {} as {
      session: 'session';
      tabs: 'tabs';
      companion: 'companion';
      cardConnector: 'cardConnector';
      tour: 'tour';
      alarms: 'alarms';
      hardwareStatus: 'hardwareStatus';
      options: 'options';
      views: 'views';
      socketEvents: 'socket';
      socketCentral: 'socket';
      socketVisitor: 'socket';
    },
  },
  actors: {
    session: sessionMachine,
    tabs: tabsMachine,
    companion: companionMachine,
    cardConnector: cardConnectorMachine,
    tour: tourMachine,
    alarms: alarmsMachine,
    hardwareStatus: hardwareStatusMachine,
    options: optionsMachine,
    views: viewsMachine,
    socket: socketMachine,
  },
}).createMachine({
  id: 'gatehouse',
  context: ({ input }) => input ?? {},
  // tabs first: the session may send it session.ended as soon as the restore fails
  invoke: [
    { id: 'tabs', systemId: 'tabs', src: 'tabs', input: ({ context }) => context.tabs ?? {} },
    { id: 'tour', systemId: 'tour', src: 'tour', input: ({ context }) => context.tour ?? {} },
    { id: 'companion', systemId: 'companion', src: 'companion', input: ({ context }) => context.companion ?? {} },
    { id: 'cardConnector', systemId: 'cardConnector', src: 'cardConnector', input: ({ context }) => context.cardConnector ?? {} },
    // the sockets hand validated bodies to these two, so they start first
    { id: 'alarms', systemId: 'alarms', src: 'alarms' },
    { id: 'hardwareStatus', systemId: 'hardwareStatus', src: 'hardwareStatus' },
    { id: 'options', systemId: 'options', src: 'options' },
    { id: 'views', systemId: 'views', src: 'views' },
    { id: 'socketEvents', systemId: 'socket.events', src: 'socket', input: ({ context }) => ({ service: 'event', autoConnect: context.socket?.autoConnect }) },
    {
      id: 'socketCentral',
      systemId: 'socket.central',
      src: 'socket',
      input: ({ context }) => ({ service: 'central', autoConnect: context.socket?.autoConnect }),
    },
    {
      id: 'socketVisitor',
      systemId: 'socket.visitor',
      src: 'socket',
      input: ({ context }) => ({ service: 'visitor', autoConnect: context.socket?.autoConnect }),
    },
    { id: 'session', systemId: 'session', src: 'session', input: ({ context }) => context.session ?? {} },
  ],
});

/** The root machine provided with `impl`: every machine of the system built (issue 48: the console builds it in a task
 *  of its own before the system starts, src/system/browser.ts `prepareSystem`). */
export function gatehouseMachine(impl: GatehouseImpl) {
  return rootMachine.provide({
    actors: {
      session: sessionMachine.provide({ actors: impl.session.actors, actions: impl.session.actions }),
      tabs: tabsMachine.provide({ actions: impl.tabs.actions }),
      companion: companionMachine.provide({ actors: impl.companion.actors }),
      cardConnector: cardConnectorMachine.provide({ actors: impl.cardConnector.actors }),
      alarms: alarmsMachine.provide({ actors: impl.alarms.actors }),
      options: optionsMachine.provide({ actors: impl.options.actors }),
      views: build(createViewsMachine(impl.views.resolve)),
      socket: socketMachine.provide({ actors: impl.socket.actors }),
    },
  });
}

/** The system's root actor (not started), of `machine` when it was built ahead with the same `impl`. */
export function createGatehouseSystem(
  impl: GatehouseImpl,
  options: Omit<ActorOptions<typeof rootMachine>, 'input'> = {},
  machine: ReturnType<typeof gatehouseMachine> = gatehouseMachine(impl),
) {
  return createActor(machine, {
    ...options,
    input: {
      session: impl.session.input,
      tabs: impl.tabs.input,
      companion: impl.companion.input,
      cardConnector: impl.cardConnector.input,
      tour: impl.tour?.input,
      socket: { autoConnect: impl.socket.autoConnect },
    },
  });
}

export type GatehouseSystem = ReturnType<typeof createGatehouseSystem>;

/** A long-lived actor by its systemId, typed. Throws when the root holds none (stopped, or not the Gatehouse root). */
export function getSystemActor<K extends SystemActorId>(root: AnyActorRef, id: K): SystemActors[K] {
  const ref = root.system.get(id) as SystemActors[K] | undefined;
  if (!ref) throw new Error(`No actor with systemId '${id}': start the Gatehouse system first`);
  return ref;
}
