// What holds in each state of a resource's list screen (./resourceList.ts: every list in the console), written apart
// from its transitions and read by nothing in the machine. The model test hands them to the harness by state
// (model-tests/resource.model.test.ts, `expectOracle(…, byState)`), which checks them at every step of every path
// generated from the graph. '' holds in every state.

/** The part of the snapshot the invariants read (not imported from ./resourceList, so nothing is shared with it). */
type Held = {
  context: {
    items: unknown[];
    total: number;
    totalIsAtLeast: boolean;
    page: number;
    size: number;
    sort: Array<{ field: string; dir: string }>;
    filters: Record<string, string>;
    selection: number[];
    error: string | null;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const running = (s: Held) => Object.keys(s.children).sort().join(',');
const said = (e: string | null) => typeof e === 'string' && e.trim() !== '';

export const invariants = {
  '': {
    'the page is a whole number from 0, the page size at least 1': ({ context: c }: Held) =>
      Number.isInteger(c.page) && c.page >= 0 && Number.isInteger(c.size) && c.size >= 1,
    'the selection is of distinct row ids (whole numbers above 0)': ({ context: { selection } }: Held) =>
      selection.every((id) => Number.isInteger(id) && id > 0) && new Set(selection).size === selection.length,
    'the query sent is clean: no empty filter, each sort a plain field name asc or desc': ({ context: c }: Held) =>
      Object.values(c.filters).every((v) => typeof v === 'string' && v.trim() !== '') &&
      c.sort.every((s) => /^[A-Za-z][\w.]*$/.test(s.field) && (s.dir === 'asc' || s.dir === 'desc')),
    'a page never shows more rows than its size, nor a total below zero': ({ context: c }: Held) => c.items.length <= c.size && c.total >= 0,
  },
  loading: {
    'the page is being read, and only that: busy': (s: Held) => running(s) === 'fetchPage' && s.hasTag('busy'),
  },
  ready: {
    'nothing runs, not busy: the rows are shown': (s: Held) => running(s) === '' && !s.hasTag('busy'),
  },
  confirmingDelete: {
    'asks to delete a selection that is not empty; nothing runs yet': (s: Held) => s.context.selection.length > 0 && running(s) === '' && !s.hasTag('busy'),
  },
  deleting: {
    'deletes the selection (not empty), and only that: busy': (s: Held) => s.context.selection.length > 0 && running(s) === 'deleteMany' && s.hasTag('busy'),
  },
  failed: {
    'says why, shows no rows and no total; nothing runs, not busy': (s: Held) =>
      said(s.context.error) && s.context.items.length === 0 && s.context.total === 0 && !s.context.totalIsAtLeast && running(s) === '' && !s.hasTag('busy'),
  },
};
