// What holds in each state of a resource's add/edit form (./resourceForm.ts: every form in the console), written apart
// from its transitions and read by nothing in the machine. The model test hands them to the harness by state
// (model-tests/resource.model.test.ts, `expectOracle(…, byState)`), which checks them at every step of every path
// generated from the graph. '' holds in every state.

/** The part of the snapshot the invariants read (not imported from ./resourceForm, so nothing is shared with it). */
type Held = {
  context: {
    id: number | null;
    values: unknown;
    violations: Array<{ field: string; message: string }>;
    error: string | null;
    action: string | null;
    sent: unknown;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const running = (s: Held) => Object.keys(s.children).sort().join(',');
const said = (e: string | null) => typeof e === 'string' && e.trim() !== '';

export const invariants = {
  '': {
    'the record id is a whole number above 0, or none (adding)': ({ context: { id } }: Held) => id === null || (Number.isInteger(id) && id > 0),
    'a problem is told one way: violations by field, or a message, never both': ({ context: c }: Held) => !(c.violations.length > 0 && c.error !== null),
    'each violation names its field and says what is wrong': ({ context: c }: Held) =>
      c.violations.every((v) => typeof v.field === 'string' && v.field !== '' && typeof v.message === 'string' && v.message !== ''),
    'at most one server call at a time': (s: Held) => Object.keys(s.children).length <= 1,
  },
  loading: {
    'reads a record that exists (an id), and only that: busy': (s: Held) => s.context.id !== null && running(s) === 'load' && s.hasTag('busy'),
  },
  failed: {
    'says why the record could not be read; nothing runs, not busy': (s: Held) => said(s.context.error) && running(s) === '' && !s.hasTag('busy'),
  },
  editing: {
    'the form is open: nothing runs, not busy': (s: Held) => running(s) === '' && !s.hasTag('busy'),
  },
  refreshing: {
    'reads a loaded record again quietly (not busy), the loaded values still shown': (s: Held) =>
      s.context.id !== null && s.context.values !== null && running(s) === 'refresh' && !s.hasTag('busy'),
  },
  saving: {
    'saves, with no problem from before still shown: busy': (s: Held) =>
      running(s) === 'save' && s.hasTag('busy') && s.context.violations.length === 0 && s.context.error === null,
    'the values on their way are kept (the form starts from them once saved)': (s: Held) => s.context.sent !== null && s.context.sent !== undefined,
  },
  acting: {
    'runs a named action on a record read from the server (an id and its values): busy': (s: Held) =>
      running(s) === 'act' && s.hasTag('busy') && s.context.id !== null && s.context.values !== null && said(s.context.action),
  },
  saved: {
    'the saved record has its id; no problem is shown; nothing runs': (s: Held) =>
      s.context.id !== null && s.context.violations.length === 0 && s.context.error === null && running(s) === '' && !s.hasTag('busy'),
    'the values saved are kept: a form that stays open resets to them': (s: Held) => s.context.sent !== null && s.context.sent !== undefined,
  },
};
