// The reference pickers' look-ups (issue 11), systemId 'options'. Every picker of every form names its chosen ids
// here (`options.label`) and searches through here (`options.open` / `options.search` / `options.close`):
//  - the ids asked for within one batch window (one tick) go to each target's `<api>/options?ids=` together, each
//    id once (an id already known or on its way is not asked again), at most OPTION_IDS_MAX ids per request;
//  - a picker's search is sent when typing pauses; a newer text for the same picker stops the request of the older
//    one (its answer can no longer land), and the last answer stays shown until the next one arrives;
//  - labels are kept per target for the signed-in client only: `session.ended` (sign-out, expiry, and a client
//    switch) stops every request and drops every label and answer, so nothing of another client or user remains.
// The two REST calls are the `lookup` and `search` actors the embedding provides (src/system/browser.ts).
import { assign, enqueueActions, stopChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { OPTION_BATCH_MS, OPTION_IDS_MAX, OPTION_LABELS_MAX, OPTION_SEARCH_PAUSE_MS } from '../contract';
import { notProvided } from './notProvided';

/** A row a picker offers: its title, and what tells it apart from a row of the same title (the server's `detail`). */
export interface PickOption {
  id: number;
  label: string;
  detail?: string | null;
}
export interface LookupInput {
  api: string;
  ids: number[];
}
export interface SearchInput {
  api: string;
  q: string;
}
export interface OptionAnswer {
  items: PickOption[];
}

/** One open picker's search. */
export interface PickerSearch {
  api: string;
  /** what is typed now */
  typed: string;
  /** the text whose answer is on its way, and the child asking it (null: none on its way) */
  asking: string | null;
  child: string | null;
  /** the last answer and the text it answers (kept while the next one is on its way) */
  items: PickOption[];
  answered: string | null;
  failed: boolean;
}

export interface OptionsContext {
  /** per api: String(id) → label; null when the server named no such row (it is not asked for again) */
  labels: Record<string, Record<string, string | null>>;
  /** per api: String(id) → what tells the row apart from a namesake (the server's detail), for ids it answered */
  details: Record<string, Record<string, string | null>>;
  /** per api: ids asked for in this batch window */
  queued: Record<string, number[]>;
  /** per api: ids on their way */
  asking: Record<string, number[]>;
  /** lookups on their way, by child id */
  lookups: Record<string, LookupInput>;
  /** per picker key */
  searches: Record<string, PickerSearch>;
  /** numbers the children (`lookup-1`, `search-2`, …) */
  seq: number;
  /** how often the cache was dropped: a picker still on screen names its ids again */
  epoch: number;
}

export type OptionsEvent =
  | { type: 'options.label'; api: string; ids: readonly number[] }
  | { type: 'options.open'; key: string; api: string; q: string }
  | { type: 'options.search'; key: string; api: string; q: string }
  | { type: 'options.close'; key: string }
  | { type: 'session.ended' }
  | { type: `xstate.done.actor.${string}`; actorId: string; output: OptionAnswer }
  | { type: `xstate.error.actor.${string}`; actorId: string; error: unknown };

export const emptyOptions = (epoch = 0): OptionsContext => ({ labels: {}, details: {}, queued: {}, asking: {}, lookups: {}, searches: {}, seq: 0, epoch });

// ---------- pure rules (tested through the model) ----------

/** The ids of `ids` not known, not on their way and not queued, each once. */
export function newIds(c: OptionsContext, api: string, ids: readonly number[]): number[] {
  const known = c.labels[api] ?? {};
  const skip = new Set([...(c.asking[api] ?? []), ...(c.queued[api] ?? [])]);
  const out: number[] = [];
  for (const id of ids) {
    if (!Number.isSafeInteger(id) || String(id) in known || skip.has(id)) continue;
    skip.add(id);
    out.push(id);
  }
  return out;
}

/** Labels merged in; past OPTION_LABELS_MAX the others go first (the ones just answered stay). */
export function withLabels(labels: Record<string, string | null>, add: Record<string, string | null>): Record<string, string | null> {
  const next = { ...labels, ...add };
  const keys = Object.keys(next);
  if (keys.length <= OPTION_LABELS_MAX) return next;
  let drop = keys.length - OPTION_LABELS_MAX;
  for (const k of keys) {
    if (drop === 0) break;
    if (k in add) continue;
    delete next[k];
    drop--;
  }
  return next;
}

/** The details an answer carries, by id. */
const detailsOf = (items: readonly PickOption[]) => Object.fromEntries(items.map((o) => [String(o.id), o.detail ?? null]));

const chunks = (ids: number[]) => {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += OPTION_IDS_MAX) out.push(ids.slice(i, i + OPTION_IDS_MAX));
  return out;
};

/** `asking` without the ids of a finished look-up (an api with none left has no entry). */
function without(asking: Record<string, number[]>, api: string, drop: readonly number[]): Record<string, number[]> {
  const { [api]: ids = [], ...rest } = asking;
  const left = ids.filter((x) => !drop.includes(x));
  return left.length ? { ...rest, [api]: left } : rest;
}

/** A search waits for the pause when the text typed is neither on its way nor answered. */
const due = (s: PickerSearch) => s.typed !== (s.asking ?? s.answered);

const freshSearch = (api: string): PickerSearch => ({ api, typed: '', asking: null, child: null, items: [], answered: null, failed: false });

const optionsSetup = lazySetup({
  types: { context: {} as OptionsContext, events: {} as OptionsEvent },
  actors: {
    lookup: notProvided<OptionAnswer, LookupInput>('lookup'),
    search: notProvided<OptionAnswer, SearchInput>('search'),
  },
  delays: { batch: OPTION_BATCH_MS, pause: OPTION_SEARCH_PAUSE_MS },
  guards: {
    asksNew: ({ context, event }) => event.type === 'options.label' && newIds(context, event.api, event.ids).length > 0,
  },
  actions: {
    queue: assign(({ context, event }) => {
      if (event.type !== 'options.label') return {};
      const ids = newIds(context, event.api, event.ids);
      return ids.length ? { queued: { ...context.queued, [event.api]: [...(context.queued[event.api] ?? []), ...ids] } } : {};
    }),
    release: stopChild(({ event }) => (event as { actorId?: string }).actorId ?? ''),
    type: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'options.search') return;
      const prev = context.searches[event.key];
      // a picker now searching another target: the request for the old one can no longer land, stop it
      if (prev?.child && prev.api !== event.api) enqueue.stopChild(prev.child);
      enqueue.assign({
        searches: { ...context.searches, [event.key]: { ...(prev && prev.api === event.api ? prev : freshSearch(event.api)), typed: event.q } },
      });
    }),
  },
});

/** The picker's search for its typed text: the older request is stopped, a new child asks. */
function launch(
  c: OptionsContext,
  key: string,
  enqueue: { stopChild: (id: string) => void; spawnChild: (src: 'search', o: { id: string; input: SearchInput }) => void },
): OptionsContext {
  const s = c.searches[key];
  if (s.child) enqueue.stopChild(s.child);
  const seq = c.seq + 1;
  const child = `search-${seq}`;
  enqueue.spawnChild('search', { id: child, input: { api: s.api, q: s.typed } });
  return { ...c, seq, searches: { ...c.searches, [key]: { ...s, asking: s.typed, child, failed: false } } };
}

export const optionsMachine = optionsSetup.createMachine({
  id: 'options',
  context: () => emptyOptions(),
  type: 'parallel',
  on: {
    // a picker opens: its search is asked at once (the list shows what the server has now)
    'options.open': {
      actions: optionsSetup.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'options.open') return;
        const prev = context.searches[event.key];
        if (prev?.child && prev.api !== event.api) enqueue.stopChild(prev.child);
        const s = { ...(prev && prev.api === event.api ? prev : freshSearch(event.api)), typed: event.q };
        enqueue.assign(launch({ ...context, searches: { ...context.searches, [event.key]: s } }, event.key, enqueue));
      }),
    },
    'options.close': {
      actions: optionsSetup.enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'options.close') return;
        const s = context.searches[event.key];
        if (!s) return;
        if (s.child) enqueue.stopChild(s.child);
        const { [event.key]: _gone, ...rest } = context.searches;
        enqueue.assign({ searches: rest });
      }),
    },
    // a finished child is let go of (spawned children stay in the snapshot until stopped)
    'xstate.done.actor.*': {
      actions: [
        'release',
        optionsSetup.assign(({ context, event }) => {
          if (!('output' in event)) return {};
          const { actorId, output } = event as { actorId: string; output: OptionAnswer };
          const lookup = context.lookups[actorId];
          if (lookup) {
            const named = new Map(output.items.map((o) => [o.id, o.label]));
            const add = Object.fromEntries(lookup.ids.map((id) => [String(id), named.get(id) ?? null]));
            const { [actorId]: _done, ...lookups } = context.lookups;
            return {
              labels: { ...context.labels, [lookup.api]: withLabels(context.labels[lookup.api] ?? {}, add) },
              details: { ...context.details, [lookup.api]: withLabels(context.details[lookup.api] ?? {}, detailsOf(output.items)) },
              asking: without(context.asking, lookup.api, lookup.ids),
              lookups,
            };
          }
          const key = Object.keys(context.searches).find((k) => context.searches[k].child === actorId);
          if (key === undefined) return {};
          const s = context.searches[key];
          return {
            // what a search answers names those rows too
            labels: {
              ...context.labels,
              [s.api]: withLabels(context.labels[s.api] ?? {}, Object.fromEntries(output.items.map((o) => [String(o.id), o.label]))),
            },
            details: { ...context.details, [s.api]: withLabels(context.details[s.api] ?? {}, detailsOf(output.items)) },
            searches: { ...context.searches, [key]: { ...s, items: output.items, answered: s.asking, asking: null, child: null, failed: false } },
          };
        }),
      ],
    },
    // a failed look-up leaves its ids unnamed (the picker shows `#id`); a failed search keeps the last answer
    'xstate.error.actor.*': {
      actions: [
        'release',
        optionsSetup.assign(({ context, event }) => {
          const { actorId } = event as { actorId: string };
          const lookup = context.lookups[actorId];
          if (lookup) {
            const { [actorId]: _failed, ...lookups } = context.lookups;
            return { asking: without(context.asking, lookup.api, lookup.ids), lookups };
          }
          const key = Object.keys(context.searches).find((k) => context.searches[k].child === actorId);
          if (key === undefined) return {};
          return { searches: { ...context.searches, [key]: { ...context.searches[key], asking: null, child: null, failed: true } } };
        }),
      ],
    },
    // sign-out, expiry or another client: nothing asked or answered for the last one may remain
    'session.ended': {
      target: ['.batch.idle', '.pause.idle'],
      actions: optionsSetup.enqueueActions(({ context, enqueue }) => {
        for (const id of Object.keys(context.lookups)) enqueue.stopChild(id);
        for (const s of Object.values(context.searches)) if (s.child) enqueue.stopChild(s.child);
        enqueue.assign(emptyOptions(context.epoch + 1));
      }),
    },
  },
  states: {
    batch: {
      initial: 'idle',
      states: {
        idle: { on: { 'options.label': { guard: 'asksNew', target: 'gathering', actions: 'queue' } } },
        gathering: {
          on: { 'options.label': { actions: 'queue' } },
          after: {
            batch: {
              target: 'idle',
              actions: optionsSetup.enqueueActions(({ context, enqueue }) => {
                let seq = context.seq;
                const lookups = { ...context.lookups };
                const asking = { ...context.asking };
                for (const [api, ids] of Object.entries(context.queued)) {
                  for (const chunk of chunks(ids)) {
                    const id = `lookup-${++seq}`;
                    enqueue.spawnChild('lookup', { id, input: { api, ids: chunk } });
                    lookups[id] = { api, ids: chunk };
                  }
                  asking[api] = [...(asking[api] ?? []), ...ids];
                }
                enqueue.assign({ seq, lookups, asking, queued: {} });
              }),
            },
          },
        },
      },
    },
    pause: {
      initial: 'idle',
      states: {
        idle: { on: { 'options.search': { target: 'waiting', actions: 'type' } } },
        // every keystroke restarts the pause
        waiting: {
          on: { 'options.search': { target: 'waiting', reenter: true, actions: 'type' } },
          after: {
            pause: {
              target: 'idle',
              actions: optionsSetup.enqueueActions(({ context, enqueue }) => {
                let c = context;
                for (const [key, s] of Object.entries(context.searches)) {
                  if (!due(s)) continue;
                  if (s.typed === s.answered) {
                    // typed back to the text on screen: the request for the other text is stale
                    if (s.child) enqueue.stopChild(s.child);
                    c = { ...c, searches: { ...c.searches, [key]: { ...s, asking: null, child: null } } };
                  } else c = launch(c, key, enqueue);
                }
                enqueue.assign(c);
              }),
            },
          },
        },
      },
    },
  },
});

export type OptionsActor = ActorRefFrom<typeof optionsMachine>;
export type OptionsSnapshot = SnapshotFrom<typeof optionsMachine>;
