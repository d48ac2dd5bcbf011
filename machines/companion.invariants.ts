// What holds in each state of the optional desktop companion (./companion.ts: the header badge, photo capture, badge
// printing and alarm notices, §1, §4, §7), written apart from its transitions and read by nothing in the machine. The
// model test hands them to the harness by state (model-tests/companion.model.test.ts, `expectOracle(…, byState)`),
// which checks them at every step of every path generated from the graph and on the real actor. '' holds in every
// state.

/** The part of the snapshot the invariants read (not imported from ./companion, so nothing is shared with it). */
type Held = {
  context: {
    order: number[];
    index: number;
    port: number | null;
    attempt: number;
    version: string | null;
    capabilities: string[];
    pending: Record<string, { kind: string }>;
    error: { message: string } | null;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const running = (s: Held) => Object.keys(s.children).sort().join(',');
const said = (e: string | null) => typeof e === 'string' && e.trim() !== '';
const saysWhy = (e: { message: string } | null) => e !== null && said(e.message);
/** Nothing of a companion is known: no port, no version, no capabilities, no request waiting. */
const nothingKnown = ({ context: c }: Held) => c.port === null && c.version === null && c.capabilities.length === 0 && Object.keys(c.pending).length === 0;

export const invariants = {
  '': {
    'the candidates are probed in an order without repeats': ({ context: { order } }: Held) => order.length > 0 && new Set(order).size === order.length,
    'the failed rounds are counted from 0': ({ context: { attempt } }: Held) => Number.isInteger(attempt) && attempt >= 0,
    'only a usable companion has requests waiting for an answer': (s: Held) => s.hasTag('usable') || Object.keys(s.context.pending).length === 0,
  },
  offline: {
    'looking for the companion: nothing of an earlier one is known, no socket, not usable': (s: Held) =>
      nothingKnown(s) && !('messages' in s.children) && !s.hasTag('usable'),
  },
  'offline.shuffling': {
    'the order of this round is being drawn, and only that': (s: Held) => running(s) === 'shuffle',
  },
  'offline.probing': {
    'one candidate of the order is probed, and only that': (s: Held) =>
      running(s) === 'probe' && s.context.index >= 0 && s.context.index < s.context.order.length,
  },
  online: {
    'the socket to the candidate that answered runs, and only that': (s: Held) =>
      running(s) === 'messages' && s.context.port !== null && s.context.order.includes(s.context.port),
  },
  'online.found': {
    'found but not yet introduced: no version, no capabilities, not usable': (s: Held) =>
      s.context.version === null && s.context.capabilities.length === 0 && !s.hasTag('usable'),
  },
  'online.connected': {
    'introduced: its version known, usable, and no failed round counted': (s: Held) => said(s.context.version) && s.hasTag('usable') && s.context.attempt === 0,
  },
  waiting: {
    'between rounds: nothing runs, not usable, nothing waiting, and it says why': (s: Held) =>
      running(s) === '' && !s.hasTag('usable') && Object.keys(s.context.pending).length === 0 && saysWhy(s.context.error),
  },
};
