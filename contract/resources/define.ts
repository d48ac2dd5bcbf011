// The resource catalogue's vocabulary (Payload's collection config, react-admin's <Resource>): a resource is
// declared once, as pure data — no SQL, no React — and the schemas, paths, routes, server and console are derived
// from it (./derive.ts). Column names default to the field name in snake case.
//
// What a new resource touches:
// - contract/resources/<name>.ts: its declaration (defineResource below): fields, English labels, privileges, route;
// - contract/resources/<name>.zh.ts beside it: its zh-CN labels, `export default { 'resource.<name>.field.url': '目标 URL' }`
//   by the keys the console looks them up with (src/i18n/catalogue.ts). src/i18n/zh.ts collects every *.zh.ts into
//   the zh-CN chunk (an English console downloads none), and src/i18n/i18n.test.ts names a resource whose file or
//   label is missing, or a label in the wrong file;
// - server/db/migrations/NNN_<name>.sql: its table (and server/db/seed.ts where it has demo rows).
// - its import and CATALOGUE entry in ./index.ts (as a Payload collection is listed in its config).
// Derived from it, never written by hand (issue 48): its console routes (a declaration with a `description` and no
// row of its own in src/app/routes/ gets list, add and edit after its section's last row, src/app/routeTable.ts), their
// titles and descriptions in both languages (src/i18n/routes.derived.ts, from its labels and `description`), its
// privilege codes' entries when the specification's list (./privileges.ts) has none ("View <many>", …:
// ../privilegeCatalogue.ts; their zh-CN src/i18n/privileges.derived.ts), the server's routes and the generated tests.
// A route row in src/app/routes/ by hand only for a place in the sidebar other than its section's end, or a screen of
// its own. Server hooks (server/resources) and console touches (src/resources) only when it does more than keep rows.

export type FieldKind =
  'text' | 'email' | 'number' | 'date' | 'datetime' | 'timestamp' | 'choice' | 'switch' | 'ref' | 'refs' | 'children' | 'image' | 'file' | 'timezone';

export interface Choice {
  value: string;
  label: string;
}

/** What every field may say. `T` is its value; `Req` true: never null in a row; `RO` true: the server sets it. */
export interface Field<T = unknown, Req extends boolean = boolean, RO extends boolean = boolean> {
  readonly kind: FieldKind;
  readonly label?: string;
  readonly required: Req;
  /** Set by the server (or a hook), shown but never in the input. */
  readonly readOnly: RO;
  /** A secret (a web hook's signing key): never answered, exported or audited; required when a row is created, and
   *  an update without it keeps what is stored (the edit form shows it empty: type to replace). */
  readonly writeOnly?: boolean;
  /** No column of its own: a reference's title (`from`) or a server hook computes it. */
  readonly virtual?: boolean;
  /** The virtual field shows the title of the row this reference field points to. */
  readonly from?: string;
  readonly column?: string;
  readonly max?: number;
  readonly min?: number;
  readonly pattern?: RegExp;
  /** Help shown with the pattern, also the violation message when it fails. */
  readonly help?: string;
  /** §5: typed in capitals. */
  readonly upper?: boolean;
  readonly unique?: 'tenant' | 'global';
  readonly uniqueMessage?: string;
  readonly search?: boolean;
  readonly sort?: boolean;
  readonly filter?: boolean;
  readonly default?: unknown;
  /** datetime: the add form starts at now plus this many minutes (rounded down to the minute); console only. */
  readonly fromNow?: number;
  /** false: lists answer null for it (heavy values such as photos). */
  readonly inList?: boolean;
  readonly choices?: readonly Choice[];
  /** ref / refs: the target resource's name. */
  readonly target?: string;
  /** ref: what deleting the target does; refs 'cascade': the links go with it (membership never blocks a delete). */
  /** What deleting the referenced row does: refused while referenced (restrict), takes this row along (cascade), or
   *  empties this reference (set-null: a setting that named a floor plan names none). The foreign key says the same. */
  readonly onDelete?: 'restrict' | 'cascade' | 'set-null';
  /** refs 'keep': a body without the field leaves the links as they are (the other side owns the form). */
  readonly whenAbsent?: 'keep';
  /** refs: the join table and its two columns. */
  readonly through?: { table: string; from: string; to: string };
  /** children: the child table, its column pointing to the parent, and the child's own fields. */
  readonly children?: {
    table: string;
    parent: string;
    fields: Record<string, Field>;
    rules?: readonly Rule[];
    itemLabel: string;
    max: number;
    /** Console only: the rows are pins on the image of field `image`, at per-mille positions `x` across and `y` down
     *  (a floor plan's doors): a click on the image places a new row or moves the chosen one. */
    pins?: { image: string; x: string; y: string };
  };
  readonly maxItems?: number;
  readonly shownWhen?: { field: string; values: readonly string[] };
  /** image: decoded size limit. */
  readonly maxBytes?: number;
  /** Console only: how the input looks (a wide text area, a hidden value filled by a device, an image chosen from a file). */
  readonly widget?: 'textarea' | 'hidden' | 'upload';
  readonly placeholder?: string;
  /** A phone number: its placeholder is an example number of the current client's country (contract/phone.ts). */
  readonly phone?: boolean;
  readonly wide?: boolean;
  readonly _t?: T;
}
export type AnyField = Field<any, boolean, boolean>;
export type Fields = Record<string, AnyField>;

interface Common<R extends boolean, O extends boolean> {
  label?: string;
  required?: R;
  readOnly?: O;
  column?: string;
  search?: boolean;
  sort?: boolean;
  filter?: boolean;
  inList?: boolean;
  help?: string;
  placeholder?: string;
  phone?: boolean;
  wide?: boolean;
  widget?: 'textarea' | 'hidden' | 'upload';
  virtual?: boolean;
  writeOnly?: boolean;
  /** Console only: the form shows the input only while field `field` is one of `values` (a weekly job's weekday);
   *  hidden, it keeps its value and the server checks it as always. */
  shownWhen?: { field: string; values: readonly string[] };
}
type B<X> = X extends true ? true : false;

const field = <T, R extends boolean, O extends boolean>(kind: FieldKind, o: Common<R, O> & Partial<Field>): Field<T, B<R>, B<O>> =>
  ({ ...o, kind, required: (o.required ?? false) as B<R>, readOnly: (o.readOnly ?? false) as B<O> }) as Field<T, B<R>, B<O>>;

export interface TextFieldOptions<R extends boolean, O extends boolean> extends Common<R, O> {
  max: number;
  min?: number;
  pattern?: RegExp;
  upper?: boolean;
  unique?: 'tenant' | 'global';
  uniqueMessage?: string;
  from?: string;
}
export const text = <R extends boolean = false, O extends boolean = false>(o: TextFieldOptions<R, O>) => field<string, R, O>('text', o);
export const email = <R extends boolean = false, O extends boolean = false>(
  o: Common<R, O> & { max?: number; unique?: 'tenant' | 'global'; uniqueMessage?: string } = {},
) => field<string, R, O>('email', { max: 254, ...o });
export const number = <R extends boolean = false, O extends boolean = false>(
  o: Common<R, O> & { min?: number; max?: number; default?: number; unique?: 'tenant' | 'global'; uniqueMessage?: string } = {},
) => field<number, R, O>('number', o);
export const date = <R extends boolean = false, O extends boolean = false>(o: Common<R, O> = {}) => field<string, R, O>('date', o);
/** A moment an operator types (an override's start): ISO 8601 with its zone on the wire, timestamptz in the database,
 *  typed and shown in the user's zone by the console. */
export const datetime = <R extends boolean = false, O extends boolean = false>(o: Common<R, O> & { fromNow?: number } = {}) =>
  field<string, R, O>('datetime', o);
/** A point in time the server keeps (ISO 8601 in rows); never typed in a form. */
export const timestamp = <R extends boolean = false>(o: Omit<Common<R, true>, 'readOnly'> = {}) =>
  field<string, R, true>('timestamp', { ...o, readOnly: true });
export const choice = <R extends boolean = false, O extends boolean = false>(choices: readonly Choice[], o: Common<R, O> & { default?: string } = {}) =>
  field<string, R, O>('choice', { ...o, choices });
export const switchField = <O extends boolean = false>(o: Common<true, O> & { default?: boolean } = {}) =>
  field<boolean, true, O>('switch', { default: true, ...o, required: true });
export const timezone = <R extends boolean = false, O extends boolean = false>(o: Common<R, O> = {}) => field<string, R, O>('timezone', o);
export const image = <O extends boolean = false>(o: Common<false, O> & { maxBytes: number }) => field<string, false, O>('image', { widget: 'hidden', ...o });
/** Any file chosen in the form, kept as a data: URL of at most `maxBytes` (a firmware image); never listed or exported. */
export const file = <R extends boolean = false>(o: Common<R, false> & { maxBytes: number }) => field<string, R, false>('file', { inList: false, ...o });
/** A reference to one row of another resource (PostgREST: relations come from foreign keys). */
export const ref = <R extends boolean = false, O extends boolean = false>(
  target: string,
  o: Common<R, O> & { onDelete?: 'restrict' | 'cascade' | 'set-null' } = {},
) => field<number, R, O>('ref', { onDelete: 'restrict', ...o, target });
/** Many rows of another resource, through a join table. */
export const refs = (
  target: string,
  o: Omit<Common<false, false>, 'required'> & {
    through: { table: string; from: string; to: string };
    maxItems?: number;
    onDelete?: 'restrict' | 'cascade';
    whenAbsent?: 'keep';
  },
) => field<number[], true, false>('refs', { maxItems: 1000, ...o, required: true, target });
/** Rows owned by this one (credentials of an identity): saved with it, upserted by id. */
export function children<F extends Fields>(
  o: Omit<Common<false, false>, 'required'> & {
    table: string;
    parent: string;
    itemLabel: string;
    max?: number;
    fields: F;
    rules?: readonly Rule[];
    pins?: { image: string; x: string; y: string };
  },
) {
  const { table, parent, itemLabel, fields, rules, max = 100, pins, ...rest } = o;
  return field<RowOf<F>[], true, false>('children', {
    ...rest,
    required: true,
    children: { table, parent, fields, rules: labelRules(rules, fields), itemLabel, max, pins },
  });
}

// ---------- rules shared by the form and the server ----------
export interface NotBeforeRule {
  kind: 'notBefore';
  field: string;
  other: string;
  message: string;
}
/** `field` must be strictly later than `other` (an end after its start). */
export interface AfterRule {
  kind: 'after';
  field: string;
  other: string;
  message: string;
}
/** `field` must be filled when `other` holds one of `values` (a pulse needs its output). */
export interface RequiredWhenRule {
  kind: 'requiredWhen';
  field: string;
  other: string;
  values: readonly string[];
  message: string;
}
/** `field`, a calendar day, must be today or later and at most `withinDays` on (a visit's day). Checked where today is
 *  known: the form (today in the viewer's zone) and the server (today in the client's zone, with the client's own
 *  reach from its visitor properties); both say it in the words of dayFromTodayViolation. */
export interface FromTodayRule {
  kind: 'fromToday';
  field: string;
  withinDays: number;
}
export type Rule = NotBeforeRule | AfterRule | RequiredWhenRule | FromTodayRule;
/** The longest reach of a day from today: a year. */
export const DAYS_AHEAD_MAX = 366;
export const fromToday = (fieldName: string, withinDays = DAYS_AHEAD_MAX): FromTodayRule => ({ kind: 'fromToday', field: fieldName, withinDays });
export const requiredWhen = (fieldName: string, other: string, values: readonly string[], message = 'is required'): RequiredWhenRule => ({
  kind: 'requiredWhen',
  field: fieldName,
  other,
  values,
  message,
});
export const after = (fieldName: string, other: string, message?: string): AfterRule => ({
  kind: 'after',
  field: fieldName,
  other,
  message: message ?? defaultRuleMessage('after', other),
});
/** `field` may not be earlier than `other` (both dates or both empty-able). */
export const notBefore = (fieldName: string, other: string, message?: string): NotBeforeRule => ({
  kind: 'notBefore',
  field: fieldName,
  other,
  message: message ?? defaultRuleMessage('notBefore', other),
});
// (the words a rule says when its declaration gives none: defineResource and children() put the other field's label
// in them once the fields are known)
const defaultRuleMessage = (kind: 'after' | 'notBefore', other: string) =>
  `${kind === 'after' ? 'must be after' : 'must not be before'} ${humanise(other).toLowerCase()}`;
/**
 * Issue 50: a rule's own words name the other field by its label, as the form shows it ("To must not be before
 * “From”"; it said "To must not be before from date", the field's name made into words). Words a declaration gives
 * stay as they are.
 */
export function labelRules(rules: readonly Rule[] | undefined, fields: Fields): readonly Rule[] | undefined {
  return rules?.map((r) =>
    (r.kind === 'after' || r.kind === 'notBefore') && r.message === defaultRuleMessage(r.kind, r.other) && fields[r.other]
      ? { ...r, message: `${r.kind === 'after' ? 'must be after' : 'must not be before'} \u201c${labelOf(r.other, fields[r.other])}\u201d` }
      : r,
  );
}

// ---------- the declaration ----------
export interface ResourceDeclaration<F extends Fields = Fields> {
  name: string;
  table: string;
  /** REST base path; list/create on it, get/update/delete on `/:id`, `/bulk-delete`, `/options`, `/export`, `/:id/<action>`. */
  api: string;
  /** Console list route; add is `${route}/add`, edit `${route}/edit/:id` unless the declaration says otherwise. */
  route: string;
  label: { one: string; many: string };
  /** What the list is for, one sentence (its sidebar entry's description; zh-CN `resource.<name>.description`). With
   *  it, and no row of its own in src/app/routes/, the console's routes are derived (src/app/routeTable.ts). */
  description?: string;
  icon: string;
  section: string;
  /** Privilege codes per action, from PRIV (never literals). `read`: more codes that may open one record; `list`: more
   *  codes that may list the rows (definitions another resource's forms are built from, e.g. user-defined fields). */
  privileges: {
    view: string;
    add?: string;
    edit?: string;
    delete?: string;
    read?: readonly string[];
    list?: readonly string[];
    /** Rows come in families, each with its own codes: a row whose `field` is one of a family's `values` is listed,
     *  opened, added and changed with that family's codes (§2 "scheduled report jobs [{ip}, 3.9.x]": security report
     *  jobs with 0.6.5.x, attendance report jobs with 3.9.x). view/add/edit above are the first family's. */
    families?: { field: string; of: readonly PrivilegeFamily[] };
    /** Issue 50: a code that lists, opens and adds only the user's own rows (the `mine` scope's; "Request own leave"):
     *  a holder of it without the view (or add) code sees nobody else's rows and adds rows only for themselves. */
    own?: string;
  };
  /** Named filters bound to the signed-in user (issue 50), offered as tabs over the generated list and kept in its
   *  URL (`?scope=`); the server applies them, never trusting the client (server/crud/scopes.ts). */
  scopes?: readonly ListScope[];
  /** tenant: rows carry client_id; 'self': the row is the tenant; 'platform': one set of rows for the whole installation
   *  (no client_id; its codes are platform privileges, held through a platform grant: auto-backup settings); division:
   *  the field naming the row's division. */
  scope: { tenant: true | 'self' | 'platform'; division?: string };
  fields: F;
  rules?: readonly Rule[];
  /** Server-kept timestamps created_at / updated_at (the edit form sends updatedAt back: a stale edit is 409). */
  timestamps?: boolean;
  /** `apart`: what tells two rows of the same title apart in a picker (an identity's employee no. and division);
   *  by default the first two plain list columns (apartFieldsOf). */
  list: { title: readonly string[]; columns: readonly string[]; sort: readonly [string, 'asc' | 'desc']; apart?: readonly string[] };
  form: readonly { title: string; description?: string; fields: readonly string[] }[];
  export?: readonly ('csv' | 'ndjson')[];
  /** Field values the audit trail leaves out (kept as "(field)" when set). */
  audit?: { omit?: readonly string[] };
  /** Rows carry a tenant's user-defined fields too: `udf`, an object keyed by the field's key (a jsonb column),
   *  typed by the tenant's user_fields rows (./userFields.ts), validated by checkUserFieldValues on both sides. */
  extensible?: boolean;
  /** false: declared for references and drift only; its routes are hand-written elsewhere. `{ list: false }`: the
   *  list is hand-written (the doors' live list with their state), everything else comes from the catalogue. */
  routes?: boolean | { list: false };
  /** One row per tenant, made with its columns' defaults the first time it is read: a tenant's settings (attendance
   *  properties). `GET api` answers it and `PUT api` changes it (view and edit codes); its one route is the form. The
   *  table needs a unique client_id (a platform singleton: one row, id 1). No add, delete, list, options or export. */
  singleton?: true;
  /** The generic screens' exceptions: add route and button text, where rows and saved adds go; `shownOnce`: fields of
   *  a save's answer the form shows once, to be copied, before it returns to the list (a new API key); `editRoute`
   *  (with `:id`) and `editTitle` when the edit form is not `${route}/edit/:id` (a controller's settings). */
  screens?: {
    addRoute?: string;
    addLabel?: string;
    detailsRoute?: string;
    addTitle?: string;
    editRoute?: string;
    editTitle?: string;
    shownOnce?: readonly { field: string; label: string }[];
    /** The list route's title when it is not the plural label (§2 Attendance "Amend timesheet" over the timesheet). */
    listTitle?: string;
    /** The record route's description when it is not "Change an existing …" (a read-only details or view page). */
    editDescription?: string;
    /** More pages of the whole list, as buttons in its toolbar for holders of `privilege` (batch add). */
    toolbarLinks?: readonly {
      label: string;
      route: string;
      privilege: string;
      icon?: string;
      /** a page of the server (not a console route), opened in a new tab */ external?: boolean;
    }[];
    /** More pages of a row, as small buttons on its list row (`:field` placeholders take the row's values). */
    rowLinks?: readonly { label: string; route: string; icon?: string }[];
    /** Named actions (`POST …/:id/<action>`, server hooks) as buttons on list rows, for holders of `privilege` (the
     *  same code the server's action checks); `done` is the toast after it, `{name}` the row's name. */
    rowActions?: readonly { action: string; label: string; privilege: string; icon?: string; done: string }[];
    /** The form offers "Preview access": who would gain and lose which doors over the next 7 days (API.accessPreview). */
    whatIf?: boolean;
    /** The edit route opens to view holders too (§2 Attendance: "edit/{id} [3.x.2 or 3.x.0]"), read-only for them: the
     *  list links every row, the form shows the record with its inputs disabled and no Save. */
    viewersOpen?: boolean;
    /** The codes that open the record route when they are not the edit code (with the view code under viewersOpen):
     *  §2 "leave/view/{id} [3.8.0]". A resource without an edit code but with an `editRoute` has a record route all the
     *  same, read-only (a visit request's details [1.4.0]). */
    editCodes?: readonly string[];
    /** Named actions (`POST …/:id/<action>`) as buttons on the record's page for holders of `privilege`, offered while
     *  the row's `when.field` is one of `when.values` (the server refuses them otherwise, 409). `reason`: the action
     *  asks for a text first (sent as `{ reason }`, checked by the server with these bounds); `done` is the toast.
     *  `needs`: the action needs the saved row's `needs.field` filled (a list with an item, a value): until it is, the
     *  button is shown disabled with `needs.hint` beside it, and the server refuses it (409 naming the field). */
    recordActions?: readonly RecordAction[];
    /** Read-only fields of the record (set by the server: a status, who decided and when) shown above its form. */
    recordSummary?: readonly string[];
    /** A named panel of the record's page beside its form, for what the catalogue cannot say (a job's reports with
     *  their downloads): src/resources/recordPanels.tsx maps the name to its component. `osdpReaders`: a controller's
     *  OSDP readers as its edge reports them, with Re-pair; `osdpReader`: the one at a card reader's bus address. */
    recordPanel?: 'reportJobRuns' | 'osdpReaders' | 'osdpReader';
  };
}

/**
 * A list scope bound to the signed-in user. `mine`: rows whose `person` (a reference to identities) is the user's own
 * identity (the identity of the client with the operator's e-mail). `approvable`: rows waiting for the user's decision:
 * `when.field` is one of `when.values`, the user holds `privilege` in the person's division, the resource's server hook
 * `approves` says the user decides for that person (a team's leave approver), and it is never the user's own.
 */
export interface ListScope {
  name: string;
  label: string;
  kind: 'mine' | 'approvable';
  person: string;
  privilege?: string;
  when?: { field: string; values: readonly string[] };
}

export interface PrivilegeFamily {
  values: readonly string[];
  view: string;
  add?: string;
  edit?: string;
}

export interface RecordAction {
  action: string;
  label: string;
  privilege: string;
  icon?: string;
  intent?: 'primary' | 'success' | 'danger';
  done: string;
  when?: { field: string; values: readonly string[] };
  needs?: { field: string; hint: string };
  reason?: { label: string; required: boolean; max: number; placeholder?: string };
}

export function defineResource<const F extends Fields>(d: ResourceDeclaration<F>): ResourceDeclaration<F> {
  return d.rules ? { ...d, rules: labelRules(d.rules, d.fields) } : d;
}

// ---------- types derived from the fields ----------
type ValOf<X> = X extends Field<infer T, any, any> ? T : never;
type InKeys<F extends Fields> = { [K in keyof F]: F[K] extends Field<any, any, true> ? never : K }[keyof F];
/** What a create or update sends (defaults fill the rest). */
export type InputOf<F extends Fields> = { [K in InKeys<F>]?: ValOf<F[K]> | null } & { updatedAt?: string };
/** What the server answers per row. */
export type RowOf<F extends Fields> = { id: number } & { [K in keyof F]: F[K] extends Field<any, true, any> ? ValOf<F[K]> : ValOf<F[K]> | null };
export type Row<R extends ResourceDeclaration<any>> =
  R extends ResourceDeclaration<infer F> ? RowOf<F> & { clientId: number; createdAt: string; updatedAt: string } : never;
export type Input<R extends ResourceDeclaration<any>> = R extends ResourceDeclaration<infer F> ? InputOf<F> : never;

// ---------- small helpers every side uses ----------
export const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const humanise = (s: string) => {
  const words = s
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
export const columnOf = (name: string, f: AnyField) => f.column ?? snake(name);
export const labelOf = (name: string, f: AnyField) => f.label ?? humanise(name);
