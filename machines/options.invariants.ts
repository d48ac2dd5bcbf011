// What holds in each state of the reference pickers' look-ups (./options.ts, systemId 'options': every picker of every
// form, issue 11), written apart from its transitions and read by nothing in the machine. The model test hands them to
// the harness by state (model-tests/options.model.test.ts, `expectOracle(…, byState)`), which checks them at every step
// of every path generated from the graph. '' holds in every state.
import { OPTION_IDS_MAX, OPTION_LABELS_MAX } from '../contract';

/** The part of the snapshot the invariants read (not imported from ./options, so nothing is shared with it). */
type Search = { api: string; typed: string; asking: string | null; child: string | null; items: unknown[]; answered: string | null; failed: boolean };
type Held = {
  context: {
    labels: Record<string, Record<string, string | null>>;
    queued: Record<string, number[]>;
    asking: Record<string, number[]>;
    lookups: Record<string, { api: string; ids: number[] }>;
    searches: Record<string, Search>;
    seq: number;
  };
  children: Record<string, unknown>;
};
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b).join(',');
const queuedIds = (s: Held) => Object.values(s.context.queued).flat();

export const invariants = {
  '': {
    'the calls running are exactly the look-ups and searches waited for': (s: Held) => {
      const waited = [...Object.keys(s.context.lookups), ...Object.values(s.context.searches).flatMap((x) => (x.child ? [x.child] : []))];
      return Object.keys(s.children).sort().join(',') === waited.sort().join(',');
    },
    'an id is on its way exactly while a look-up of its target asks it, each once': ({ context: c }: Held) => {
      const apis = new Set([...Object.keys(c.asking), ...Object.values(c.lookups).map((l) => l.api)]);
      return [...apis].every((api) => {
        const asked = Object.values(c.lookups).flatMap((l) => (l.api === api ? l.ids : []));
        const onTheirWay = c.asking[api] ?? [];
        return onTheirWay.length > 0 && new Set(asked).size === asked.length && sorted(asked) === sorted(onTheirWay);
      });
    },
    'a look-up asks at most the ids one request may carry': ({ context: c }: Held) =>
      Object.values(c.lookups).every((l) => l.ids.length > 0 && l.ids.length <= OPTION_IDS_MAX),
    'an id waits for the next request once, and not while it is on its way': ({ context: c }: Held) =>
      Object.entries(c.queued).every(([api, ids]) => new Set(ids).size === ids.length && ids.every((id) => !(c.asking[api] ?? []).includes(id))),
    'labels are kept within their bound per target': ({ context: c }: Held) => Object.values(c.labels).every((l) => Object.keys(l).length <= OPTION_LABELS_MAX),
    "a picker's search has a request on its way exactly when it names the call, for a text typed or shown": ({ context: c }: Held) =>
      Object.values(c.searches).every((x) => (x.asking === null) === (x.child === null)),
  },
  'batch.idle': {
    'nothing waits for the next request': (s: Held) => queuedIds(s).length === 0,
  },
  'batch.gathering': {
    'ids wait for the next request': (s: Held) => queuedIds(s).length > 0,
  },
  'pause.idle': {
    "no picker's typed text waits for the pause: each is on its way, answered, or its request failed": ({ context: c }: Held) =>
      Object.values(c.searches).every((x) => x.failed || x.typed === (x.asking ?? x.answered)),
  },
};
