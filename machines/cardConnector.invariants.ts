// What holds in each state of the local card-reader connector (./cardConnector.ts: the reading panel of the visitor
// and identity forms, §4, §5, §8), written apart from its transitions and read by nothing in the machine. The model
// test hands them to the harness by state (model-tests/cardConnector.model.test.ts, `expectOracle(…, byState)`), which
// checks them at every step of every path generated from the graph and on the real actor. '' holds in every state.
import { DEVICE_MESSAGES, MAX_CACHED_VIEWS } from '../contract';

/** The part of the snapshot the invariants read (not imported from ./cardConnector, so nothing is shared with it). */
type Held = {
  context: {
    ports: readonly number[];
    index: number;
    port: number | null;
    link: string | null;
    card: { name: string; idNumber: string } | null;
    message: string | null;
    error: string | null;
    announcedVersion: string | null;
    filled: Record<string, Record<string, unknown>>;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
  matches: (state: never) => boolean;
};
const running = (s: Held) => Object.keys(s.children).sort().join(',');
const failure = (s: Held) => ['serviceMissing', 'closed', 'outdated'].some((f) => s.matches(f as never));

export const invariants = {
  '': {
    'the port tried is one of the ports, taken in order (index within the list)': ({ context: c }: Held) =>
      c.ports.length > 0 && Number.isInteger(c.index) && c.index >= 0 && c.index < c.ports.length,
    'the panel shows a message of §8 exactly in a failed state (none while idle, trying or connected)': (s: Held) =>
      failure(s) ? s.context.message !== null : s.context.message === null,
    'at most the one socket of the attempt runs': (s: Held) => running(s) === '' || running(s) === 'socket',
    'what reads filled is text, by form and field, for at most as many forms as views are kept alive': ({ context: c }: Held) =>
      Object.keys(c.filled).length <= MAX_CACHED_VIEWS &&
      Object.values(c.filled).every((f) => typeof f === 'object' && f !== null && Object.values(f).every((v) => typeof v === 'string')),
  },
  idle: {
    'nothing asked yet: nothing runs, no port, no link, no card, no error, from the first port': (s: Held) =>
      running(s) === '' && s.context.port === null && s.context.link === null && s.context.card === null && s.context.error === null && s.context.index === 0,
  },
  attempt: {
    'the socket of the port being tried runs': (s: Held) => running(s) === 'socket',
  },
  'attempt.opening': {
    'a port is being opened: busy, none connected yet': (s: Held) => s.hasTag('busy') && !s.hasTag('connected') && s.context.port === null,
  },
  'attempt.open': {
    'connected on the port of this attempt': (s: Held) => s.hasTag('connected') && s.context.port === s.context.ports[s.context.index],
  },
  'attempt.open.cardInserted': {
    'a card just put in: nothing of an earlier card shown': (s: Held) => s.context.card === null,
  },
  'attempt.open.reading': {
    'the card is being read: busy': (s: Held) => s.hasTag('busy'),
  },
  'attempt.open.cardRead': {
    'a card read is shown, with a name and an identity number': ({ context: { card } }: Held) =>
      card !== null && card.name.trim() !== '' && card.idNumber.trim() !== '',
  },
  pausing: {
    'between two ports: nothing runs, none connected, the next port already chosen': (s: Held) =>
      running(s) === '' && s.context.port === null && s.context.index > 0 && !s.hasTag('busy'),
  },
  serviceMissing: {
    'every port was tried: the guide to install the connector, nothing runs, no port': (s: Held) =>
      s.context.message === DEVICE_MESSAGES.connectorMissing && s.context.index === s.context.ports.length - 1 && s.context.port === null && running(s) === '',
  },
  closed: {
    'Connect failed, nothing runs, no link': (s: Held) => s.context.message === DEVICE_MESSAGES.connectFailed && s.context.link === null && running(s) === '',
  },
  outdated: {
    'the connector must be upgraded, the version it announced kept; nothing runs, no link': (s: Held) =>
      s.context.message === DEVICE_MESSAGES.connectorOutdated && s.context.announcedVersion !== null && s.context.link === null && running(s) === '',
  },
};
