// The local card-reader connector (§4, §5, §7, §8): three local WebSocket ports tried in order with a 500 ms
// pause, `{type, version, data}` messages of version v1.0.0 only, and the reader/card lifecycle that ends in a
// validated MyKad read. The socket is injected (`socket`), so tests and the replay tool run it headless.
import { assign, emit, fromCallback, type ActorRefFrom, type CallbackActorLogic, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import {
  CONNECTOR_DELAY_MS,
  CONNECTOR_PORTS,
  DEVICE_MESSAGES,
  MAX_CACHED_VIEWS,
  invalidVersionMessage,
  parseConnectorMessage,
  readCardMessage,
  type ConnectorCommand,
  type MyKad,
} from '../contract';

// ---------- types ----------
export type ConnectorLink = 'connecting' | 'connected' | 'disconnected';

export interface CardConnectorContext {
  ports: readonly number[];
  /** Position in `ports` of the port being tried. */
  index: number;
  port: number | null;
  /** What the connector last said about its own connection (§4 connection messages). */
  link: ConnectorLink | null;
  /** The connector confirmed our version (`version_valid`). */
  versionConfirmed: boolean;
  /** The last card read, validated; cleared when another card goes in. */
  card: MyKad | null;
  /** The message the reading panel shows for the machine's state (§8): guide, Connect failed, outdated. */
  message: string | null;
  /** The last rejected or out-of-order message, or a hint after a command that could not be done. */
  error: string | null;
  /** The version a refused connector announced. */
  announcedVersion: string | null;
  /**
   * What card reads put in each open form's fields, by form and field (the forms say it: cardConnector.filled): a
   * value a read put there is replaced by the next read without asking; one the operator changed is not (cardFill.ts).
   * The forms last filled are kept, as many as views are kept alive (a hidden tab's form is still open).
   */
  filled: Record<string, Record<string, string>>;
}

/** Facts the machine derives from valid connector messages (raised, so the journal reads as a log). */
export type ConnectorFact =
  | { type: 'connector.connecting' }
  | { type: 'connector.connected' }
  | { type: 'connector.disconnected' }
  | { type: 'version.accepted' }
  | { type: 'version.rejected'; version: string }
  | { type: 'reader.connected' }
  | { type: 'reader.disconnected' }
  | { type: 'card.inserted' }
  | { type: 'card.removed' }
  | { type: 'card.readStarted' }
  | { type: 'card.dataReceived'; card: MyKad }
  | { type: 'message.rejected'; reason: string };

export type CardConnectorEvent =
  // from the `socket` actor
  | { type: 'socket.opened' }
  | { type: 'socket.message'; data: unknown }
  | { type: 'socket.closed'; code?: number; reason?: string }
  // commands from views
  | { type: 'cardConnector.connect' }
  | { type: 'cardConnector.retry' }
  | { type: 'cardConnector.disconnect' }
  | { type: 'cardConnector.read' }
  /** A form put a read's values in its fields; the operator replaced one (a photo taken or removed). */
  | { type: 'cardConnector.filled'; form: string; values: Record<string, string> }
  | { type: 'cardConnector.unfilled'; form: string; field: string }
  | ConnectorFact;

export type CardConnectorEmitted = { type: 'card.read'; card: MyKad } | { type: 'cardConnector.failed'; message: string };

export type ConnectorSocketCommand = { type: 'socket.send'; message: ConnectorCommand };
export interface ConnectorSocketInput {
  port: number;
}
export interface CardConnectorInput {
  /** Ports to try; the contract's three by default (tests may narrow them). */
  ports?: readonly number[];
}

const notProvidedSocket = (): CallbackActorLogic<ConnectorSocketCommand, ConnectorSocketInput> =>
  fromCallback<ConnectorSocketCommand, ConnectorSocketInput>(() => {
    throw new Error('socket was not provided: pass it with machine.provide({ actors })');
  });

/** A valid message as the fact it states. */
export function factOf(message: ReturnType<typeof parseConnectorMessage> & { ok: true }): ConnectorFact {
  const m = message.message;
  switch (m.type) {
    case 'connecting':
      return { type: 'connector.connecting' };
    case 'connected':
      return { type: 'connector.connected' };
    case 'disconnected':
      return { type: 'connector.disconnected' };
    case 'version_valid':
      return { type: 'version.accepted' };
    // the connector itself refuses us: it is the wrong version for this console
    case 'invalid_version':
      return { type: 'version.rejected', version: m.version };
    case 'reader_connected':
      return { type: 'reader.connected' };
    case 'reader_disconnected':
      return { type: 'reader.disconnected' };
    case 'card_inserted':
      return { type: 'card.inserted' };
    case 'card_removed':
      return { type: 'card.removed' };
    case 'reading_data':
      return { type: 'card.readStarted' };
    case 'data_received':
      return { type: 'card.dataReceived', card: m.data };
  }
}

/** Only text values are kept as filled (an event from elsewhere could carry anything). */
const textValues = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => typeof v === 'string')) as Record<string, string>;

/** The forms filled before, room made for `form` (the one filled longest ago goes first). */
function recent(filled: Record<string, Record<string, string>>, form: string) {
  const { [form]: _this, ...others } = filled;
  const keep = Object.keys(others).slice(-(MAX_CACHED_VIEWS - 1));
  return Object.fromEntries(keep.map((f) => [f, others[f]]));
}

const outOfOrder = (what: string) => `Card connector: '${what}' arrived out of order and was ignored`;

// ---------- machine ----------
const connectorSetup = lazySetup({
  types: {
    context: {} as CardConnectorContext,
    events: {} as CardConnectorEvent,
    emitted: {} as CardConnectorEmitted,
    input: {} as CardConnectorInput,
  },
  actors: { socket: notProvidedSocket() },
  delays: {
    // §4/§9: 500 ms between ports
    connectorDelay: CONNECTOR_DELAY_MS,
  },
  guards: {
    hasNextPort: ({ context }) => context.index + 1 < context.ports.length,
    // §5: every message must say v1.0.0
    wrongVersion: ({ event }) => {
      if (event.type !== 'socket.message') return false;
      const p = parseConnectorMessage(event.data);
      return !p.ok && p.version !== undefined;
    },
  },
  actions: {
    nextPort: assign({ index: ({ context }) => context.index + 1 }),
    restart: assign({ index: 0, port: null, link: null, versionConfirmed: false, card: null, message: null, error: null, announcedVersion: null }),
  },
});

/** Every frame: validated, then raised as the fact it states, or reported and dropped. */
const receive = connectorSetup.enqueueActions(({ event, enqueue }) => {
  if (event.type !== 'socket.message') return;
  const parsed = parseConnectorMessage(event.data);
  if (parsed.ok) enqueue.raise(factOf(parsed));
  else enqueue.raise({ type: 'message.rejected', reason: parsed.error });
});

const report = (message: string | ((e: CardConnectorEvent) => string)) =>
  connectorSetup.enqueueActions(({ event, enqueue }) => {
    const text = typeof message === 'string' ? message : message(event);
    enqueue.assign({ error: text });
    enqueue.emit({ type: 'cardConnector.failed', message: text });
  });

const askToRead = connectorSetup.enqueueActions(({ enqueue }) => {
  enqueue.assign({ error: null });
  enqueue.sendTo('socket', { type: 'socket.send', message: readCardMessage() } satisfies ConnectorSocketCommand);
});

const stored = connectorSetup.enqueueActions(({ event, enqueue }) => {
  if (event.type !== 'card.dataReceived') return;
  enqueue.assign({ card: event.card, error: null });
  enqueue.emit({ type: 'card.read', card: event.card });
});

export const cardConnectorMachine = connectorSetup.createMachine({
  id: 'cardConnector',
  context: ({ input }) => ({
    ports: input?.ports ?? CONNECTOR_PORTS,
    index: 0,
    port: null,
    link: null,
    versionConfirmed: false,
    card: null,
    message: null,
    error: null,
    announcedVersion: null,
    filled: {},
  }),
  initial: 'idle',
  on: {
    'cardConnector.filled': {
      actions: assign(({ context, event }) => ({
        filled: { ...recent(context.filled, event.form), [event.form]: { ...context.filled[event.form], ...textValues(event.values) } },
      })),
    },
    'cardConnector.unfilled': {
      guard: ({ context, event }) => event.form in context.filled,
      actions: assign(({ context, event }) => {
        const { [event.field]: _gone, ...rest } = context.filled[event.form];
        return { filled: { ...context.filled, [event.form]: rest } };
      }),
    },

    // a "Try again" button restarts the whole cycle from the first port
    'cardConnector.retry': { target: '.attempt', actions: 'restart' },
    'cardConnector.disconnect': { target: '.idle', actions: 'restart' },
  },
  states: {
    idle: {
      on: { 'cardConnector.connect': { target: 'attempt', actions: 'restart' } },
    },
    attempt: {
      invoke: {
        id: 'socket',
        src: 'socket',
        input: ({ context }) => ({ port: context.ports[context.index] }),
        // a socket that cannot even be created counts as a port that does not answer
        onError: [{ guard: 'hasNextPort', target: 'pausing', actions: 'nextPort' }, { target: 'serviceMissing' }],
      },
      initial: 'opening',
      states: {
        opening: {
          tags: ['busy'],
          on: {
            'socket.opened': { target: 'open', actions: assign({ port: ({ context }) => context.ports[context.index] }) },
            // §4: the next port after a pause; after the last one, the guide message
            'socket.closed': [{ guard: 'hasNextPort', target: '#cardConnector.pausing', actions: 'nextPort' }, { target: '#cardConnector.serviceMissing' }],
          },
        },
        open: {
          tags: ['connected'],
          on: {
            'socket.message': [
              // §5: anything but v1.0.0 is answered with invalid_version
              {
                guard: 'wrongVersion',
                target: 'refusing',
                actions: assign({
                  announcedVersion: ({ event }) => {
                    const p = parseConnectorMessage(event.data);
                    return !p.ok && p.version !== undefined ? p.version : null;
                  },
                }),
              },
              { actions: receive },
            ],
            // §8: Connect failed on close
            'socket.closed': '#cardConnector.closed',
            'connector.connecting': { actions: assign({ link: 'connecting' }) },
            'connector.connected': { actions: assign({ link: 'connected' }) },
            'connector.disconnected': { target: '.noReader', actions: assign({ link: 'disconnected' }) },
            'version.accepted': { actions: assign({ versionConfirmed: true }) },
            'version.rejected': { target: '#cardConnector.outdated', actions: assign({ announcedVersion: ({ event }) => event.version }) },
            'message.rejected': { actions: report((e) => (e.type === 'message.rejected' ? e.reason : 'Card connector: invalid message')) },
            'reader.disconnected': '.noReader',
            // card events a state below does not expect
            'card.removed': { actions: report(outOfOrder('card_removed')) },
            'card.readStarted': { actions: report(outOfOrder('reading_data')) },
            'card.dataReceived': { actions: report(outOfOrder('data_received')) },
            'cardConnector.read': { actions: report('Insert a card into the reader first') },
          },
          initial: 'noReader',
          states: {
            noReader: {
              on: {
                'reader.connected': 'readerReady',
                'reader.disconnected': {},
                // a card implies a reader, even if the connector did not say so first
                'card.inserted': { target: 'cardInserted', actions: assign({ card: null }) },
                'cardConnector.read': { actions: report('Connect a card reader first') },
              },
            },
            readerReady: {
              on: {
                'reader.connected': {},
                'card.inserted': { target: 'cardInserted', actions: assign({ card: null }) },
              },
            },
            cardInserted: {
              on: {
                'reader.connected': {},
                'card.removed': 'readerReady',
                'card.readStarted': 'reading',
                // some connectors skip reading_data
                'card.dataReceived': { target: 'cardRead', actions: stored },
                'cardConnector.read': { actions: askToRead },
              },
            },
            reading: {
              tags: ['busy'],
              on: {
                'reader.connected': {},
                'card.removed': 'readerReady',
                'card.readStarted': {},
                'card.dataReceived': { target: 'cardRead', actions: stored },
                'cardConnector.read': {},
              },
            },
            cardRead: {
              on: {
                'reader.connected': {},
                'card.removed': 'readerReady',
                'card.readStarted': 'reading',
                'card.dataReceived': { actions: stored },
                'card.inserted': { target: 'cardInserted', actions: assign({ card: null }) },
                'cardConnector.read': { actions: askToRead },
              },
            },
          },
        },
        // a transient step, so invalid_version leaves on the socket before the socket is closed
        refusing: {
          entry: connectorSetup.enqueueActions(({ context, enqueue }) => {
            enqueue.sendTo('socket', { type: 'socket.send', message: invalidVersionMessage(context.announcedVersion ?? '') } satisfies ConnectorSocketCommand);
          }),
          always: '#cardConnector.outdated',
        },
      },
    },
    pausing: {
      after: { connectorDelay: 'attempt' },
    },
    serviceMissing: {
      entry: [
        assign({ message: DEVICE_MESSAGES.connectorMissing, port: null }),
        emit({ type: 'cardConnector.failed', message: DEVICE_MESSAGES.connectorMissing }),
      ],
    },
    closed: {
      entry: [assign({ message: DEVICE_MESSAGES.connectFailed, link: null }), emit({ type: 'cardConnector.failed', message: DEVICE_MESSAGES.connectFailed })],
    },
    outdated: {
      entry: [
        assign({ message: DEVICE_MESSAGES.connectorOutdated, link: null }),
        emit({ type: 'cardConnector.failed', message: DEVICE_MESSAGES.connectorOutdated }),
      ],
    },
  },
});

export type CardConnectorMachine = typeof cardConnectorMachine;
export type CardConnectorActor = ActorRefFrom<typeof cardConnectorMachine>;
export type CardConnectorSnapshot = SnapshotFrom<typeof cardConnectorMachine>;
