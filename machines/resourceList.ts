// One list screen of a resource (react-admin's list controller as a machine): server paging, sort, filter,
// row selection and bulk delete with confirm. The catalogue provides fetchPage and deleteMany per resource.
import { assertEvent, assign, type ActorRefFrom, type PromiseActorLogic, type SnapshotFrom } from 'xstate';
import { lazySetup, provided } from './defined';
import { PAGE_SIZE, type PageOf, type Sentence, type SortSpec } from '../contract';
import { errorSaid, notProvided } from './notProvided';

export interface ListQueryInput {
  resource: string;
  page: number;
  size: number;
  sort: SortSpec[];
  filters: Record<string, string>;
}

export interface ResourceListContext {
  resource: string;
  items: unknown[];
  total: number;
  /** The server stopped counting (LIST_COUNT_CAP): `total` is a lower bound and the last page is not known. */
  totalIsAtLeast: boolean;
  page: number;
  size: number;
  sort: SortSpec[];
  filters: Record<string, string>;
  selection: number[];
  /** what went wrong: the refusal's sentence (key and values) when the server said one (issue 48), else its words */
  error: string | Sentence | null;
}

export interface ResourceListInput {
  resource: string;
  size?: number;
  sort?: SortSpec[];
  filters?: Record<string, string>;
}

export type ResourceListEvent =
  | { type: 'list.pageChanged'; page: number }
  | { type: 'list.sorted'; sort: SortSpec[] }
  | { type: 'list.filtered'; filters: Record<string, string> }
  | { type: 'list.refresh' }
  | { type: 'list.selectionChanged'; ids: number[] }
  | { type: 'list.deleteRequested' }
  | { type: 'list.deleteConfirmed' }
  | { type: 'list.deleteCancelled' };

// ---------- edge validation: events from views are checked, invalid ones dropped with an error ----------
export function isValidPage(page: unknown): page is number {
  return Number.isInteger(page) && (page as number) >= 0;
}
export function isValidSort(sort: unknown): sort is SortSpec[] {
  return (
    Array.isArray(sort) && sort.every((s) => s && typeof s.field === 'string' && /^[A-Za-z][\w.]*$/.test(s.field) && (s.dir === 'asc' || s.dir === 'desc'))
  );
}
export function isValidFilters(filters: unknown): filters is Record<string, string> {
  return !!filters && typeof filters === 'object' && !Array.isArray(filters) && Object.values(filters).every((v) => typeof v === 'string');
}
export function isValidIds(ids: unknown): ids is number[] {
  return Array.isArray(ids) && ids.every((id) => Number.isInteger(id) && id > 0);
}

/** Filters with empty values are dropped so `{ q: '' }` and `{}` are the same query. */
export function cleanFilters(filters: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== ''));
}

const queryOf = (c: ResourceListContext): ListQueryInput => ({ resource: c.resource, page: c.page, size: c.size, sort: c.sort, filters: c.filters });

const listSetup = lazySetup({
  types: {
    context: {} as ResourceListContext,
    events: {} as ResourceListEvent,
    input: {} as ResourceListInput,
    tags: {} as 'busy',
  },
  actors: {
    fetchPage: notProvided<PageOf<unknown>, ListQueryInput>('fetchPage'),
    deleteMany: notProvided<unknown, { resource: string; ids: number[] }>('deleteMany'),
  },
  guards: {
    validPage: ({ event }) => event.type === 'list.pageChanged' && isValidPage(event.page),
    validSort: ({ event }) => event.type === 'list.sorted' && isValidSort(event.sort),
    validFilters: ({ event }) => event.type === 'list.filtered' && isValidFilters(event.filters),
    validIds: ({ event }) => event.type === 'list.selectionChanged' && isValidIds(event.ids),
    hasSelection: ({ context }) => context.selection.length > 0,
  },
  actions: {
    rejectInput: assign(({ event }) => ({ error: `Ignored an invalid ${event.type} request` })),
    setPage: assign(({ event }) => {
      assertEvent(event, 'list.pageChanged');
      return { page: event.page, error: null };
    }),
    setSort: assign(({ event }) => {
      assertEvent(event, 'list.sorted');
      return { sort: event.sort, page: 0, selection: [], error: null };
    }),
    setFilters: assign(({ event }) => {
      assertEvent(event, 'list.filtered');
      return { filters: cleanFilters(event.filters), page: 0, selection: [], error: null };
    }),
    setSelection: assign(({ event }) => {
      assertEvent(event, 'list.selectionChanged');
      return { selection: [...new Set(event.ids)] };
    }),
  },
});

/** Query-changing events, the same in loading (restart the fetch), ready and failed. */
const requery = {
  'list.pageChanged': [{ guard: 'validPage', target: '#resourceList.loading', reenter: true, actions: 'setPage' }, { actions: 'rejectInput' }],
  'list.sorted': [{ guard: 'validSort', target: '#resourceList.loading', reenter: true, actions: 'setSort' }, { actions: 'rejectInput' }],
  'list.filtered': [{ guard: 'validFilters', target: '#resourceList.loading', reenter: true, actions: 'setFilters' }, { actions: 'rejectInput' }],
  'list.refresh': { target: '#resourceList.loading', reenter: true },
} as const;

export const resourceListMachine = listSetup.createMachine({
  id: 'resourceList',
  context: ({ input }) => ({
    resource: input.resource,
    items: [],
    total: 0,
    totalIsAtLeast: false,
    page: 0,
    size: input.size ?? PAGE_SIZE,
    sort: input.sort ?? [],
    filters: input.filters ?? {},
    selection: [],
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      on: requery,
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => queryOf(context),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            items: event.output.items,
            total: event.output.total,
            totalIsAtLeast: !!event.output.totalIsAtLeast,
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ items: [], total: 0, totalIsAtLeast: false, error: errorSaid(event.error, 'Could not load the list') })),
        },
      },
    },
    ready: {
      on: {
        ...requery,
        'list.selectionChanged': [{ guard: 'validIds', actions: 'setSelection' }, { actions: 'rejectInput' }],
        'list.deleteRequested': { guard: 'hasSelection', target: 'confirmingDelete' },
      },
    },
    confirmingDelete: {
      on: {
        'list.deleteConfirmed': 'deleting',
        'list.deleteCancelled': 'ready',
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteMany',
        src: 'deleteMany',
        input: ({ context }) => ({ resource: context.resource, ids: context.selection }),
        onDone: { target: 'loading', actions: assign({ selection: [], error: null }) },
        onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not delete the selected rows') })) },
      },
    },
    failed: {
      on: requery,
    },
  },
});

/** The same machine with a resource's actors, so a screen writes `useActor(createResourceListMachine(actors), { input })`. */
export function createResourceListMachine(actors: {
  fetchPage: PromiseActorLogic<PageOf<unknown>, ListQueryInput>;
  deleteMany?: PromiseActorLogic<unknown, { resource: string; ids: number[] }>;
}) {
  return provided(resourceListMachine, { actors: { fetchPage: actors.fetchPage, ...(actors.deleteMany ? { deleteMany: actors.deleteMany } : {}) } });
}

export type ResourceListMachine = typeof resourceListMachine;
export type ResourceListActor = ActorRefFrom<typeof resourceListMachine>;
export type ResourceListSnapshot = SnapshotFrom<typeof resourceListMachine>;
