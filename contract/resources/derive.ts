// Everything derived from a declaration, never written again by hand: the input, row and list-query schemas
// (sort and filter allow-lists are enums, so a column is sortable exactly where the server sorts it), the REST
// paths, the shared rules, the console's route rows.
import { assign, boolean, defaulted, define, enums, integer, nullable, object, optional, string, type, type Struct } from '../structs';
import {
  beforeToday,
  beyondToday,
  boundedList,
  calendarDate,
  dateTimeInstant,
  emailAddress,
  fileDataUrl,
  ianaZone,
  idInt,
  imageDataUrl,
  int32,
  isoInstant,
  requiredText,
  safeText,
} from '../primitives';
import type { Violation } from '../violation';
import { todayInZone } from '../format';
import {
  DAYS_AHEAD_MAX,
  labelOf,
  type AnyField,
  type Fields,
  type Input,
  type PrivilegeFamily,
  type RecordAction,
  type ResourceDeclaration,
  type Row,
  type Rule,
} from './define';

const LIST_PAGE_MAX = 1000;

/** The one place a field kind becomes a struct (the primitives of contract/primitives.ts). */
export { PATTERN_PREFIX, formatOfHelp } from './patternMessage';
import { patternSaid } from './patternMessage';
import { ROW_SAID } from './rowSaid';
import { UDF_VALUES } from './userFieldValues';
export { UDF_VALUES, checkUserFieldValues, choicesOf, type UserFieldDef } from './userFieldValues';
export { actionCodes, recordCodes, routeRows, summaryOf, type ResourceSummary } from './summary';

/** Where a field is declared: its catalogue key's base (`resource.<name>`, or `resource.<name>.child.<field>` for an
 *  owned row's) and its name, so what it says (a pattern's format) carries its catalogue key (issue 48). */
export interface FieldAt {
  base: string;
  name: string;
}

export function structOf(f: AnyField, at?: FieldAt): Struct<any, any> {
  let s: Struct<any, any>;
  switch (f.kind) {
    case 'text': {
      // a pattern's help says what the format is: the violation says it too ("Start is not in the expected form: HH:mm, 24-hour")
      const o = { min: f.min, pattern: f.pattern, patternMessage: f.pattern && f.help ? patternSaid(f.help, at && `${at.base}.help.${at.name}`) : undefined };
      s = f.required ? requiredText(f.max ?? 200, o) : safeText(f.max ?? 200, o);
      break;
    }
    case 'email':
      s = emailAddress(f.max ?? 254);
      break;
    case 'number':
      s = int32(f.min, f.max);
      break;
    case 'date':
      s = calendarDate();
      break;
    case 'datetime':
      s = dateTimeInstant();
      break;
    case 'timestamp':
      s = string();
      break;
    case 'choice':
      s = enums((f.choices ?? []).map((c) => c.value));
      break;
    case 'switch':
      s = boolean();
      break;
    case 'timezone':
      s = ianaZone();
      break;
    case 'image':
      s = imageDataUrl(f.maxBytes ?? 1_500_000);
      break;
    case 'file':
      s = fileDataUrl(f.maxBytes ?? 1_400_000);
      break;
    case 'ref':
      s = idInt();
      break;
    case 'refs':
      return f.whenAbsent === 'keep' ? optional(boundedList(idInt(), f.maxItems ?? 1000)) : defaulted(boundedList(idInt(), f.maxItems ?? 1000), []);
    case 'children': {
      const c = f.children!;
      return defaulted(boundedList(object({ id: optional(idInt()), ...inputShape(c.fields, at && `${at.base}.child.${at.name}`) }), c.max), []);
    }
  }
  if (f.default !== undefined) return defaulted(s, f.default);
  // a secret may be left out (an update keeps it; a create without it is refused by the server, naming it)
  if (f.writeOnly) return f.required ? optional(s) : optional(nullable(s));
  return f.required ? s : optional(nullable(s));
}

function inputShape(fields: Fields, base?: string): Record<string, Struct<any, any>> {
  const out: Record<string, Struct<any, any>> = {};
  for (const [k, f] of Object.entries(fields)) if (!f.readOnly && !f.virtual) out[k] = structOf(f, base === undefined ? undefined : { base, name: k });
  return out;
}

/** The value a row carries for a field (what the server answers, what the console validates). */
function rowStructOf(f: AnyField): Struct<any, any> {
  let s: Struct<any, any>;
  switch (f.kind) {
    case 'number':
    case 'ref':
      s = integer();
      break;
    case 'switch':
      s = boolean();
      break;
    case 'refs':
      return boundedList(integer(), f.maxItems ?? 1000);
    case 'children':
      return boundedList(type({ id: integer(), ...rowShape(f.children!.fields) }), f.children!.max);
    default:
      s = string();
  }
  // a field left out of lists (inList false: a file, a picture) is null in a list's rows, whether required or not
  return f.required && !f.virtual && f.inList !== false ? s : nullable(s);
}
function rowShape(fields: Fields): Record<string, Struct<any, any>> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => !f.writeOnly)
      .map(([k, f]) => [k, f.virtual ? optional(rowStructOf(f)) : rowStructOf(f)]),
  );
}

/**
 * The input, row, list-query and record-action structs are made once per declaration (a declaration is not changed once made) and are
 * the same object each time they are asked: every server build registers the catalogue's routes with them (the test
 * servers, hundreds a run, made them again each time), and what is derived from a struct, as the API description's
 * JSON schema (server/openapi/jsonSchema.ts jsonSchemaOf), is kept by the struct.
 */
function perDeclaration<K extends object>(make: (k: K) => Struct<any, any>): (k: K) => Struct<any, any> {
  const made = new WeakMap<K, Struct<any, any>>();
  return (k) => {
    let s = made.get(k);
    if (s === undefined) made.set(k, (s = make(k)));
    return s;
  };
}
const inputOnce = perDeclaration(inputOf);
const rowOnce = perDeclaration(rowOf);
const listQueryOnce = perDeclaration(listQueryOf);
const actionBodyOnce = perDeclaration(actionBodyOf);

/** POST and PUT bodies: every field that is not read-only; the edit form also sends the updatedAt it loaded. */
export function inputSchema<R extends ResourceDeclaration<any>>(r: R): Struct<Input<R>, any> {
  return inputOnce(r) as unknown as Struct<Input<R>, any>;
}
function inputOf(r: ResourceDeclaration<any>): Struct<any, any> {
  const shape = inputShape(r.fields, `resource.${r.name}`);
  if (r.timestamps) shape.updatedAt = optional(isoInstant());
  if (r.extensible) shape.udf = optional(UDF_VALUES);
  return object(shape);
}

/** One row as the server answers it. */
export function rowSchema<R extends ResourceDeclaration<any>>(r: R): Struct<Row<R>, any> {
  return rowOnce(r) as unknown as Struct<Row<R>, any>;
}
function rowOf(r: ResourceDeclaration<any>): Struct<any, any> {
  const shape: Record<string, Struct<any, any>> = { id: integer(), ...rowShape(r.fields) };
  if (r.scope.tenant === true) shape.clientId = integer();
  if (r.timestamps) {
    shape.createdAt = string();
    shape.updatedAt = string();
  }
  if (r.extensible) shape.udf = optional(nullable(UDF_VALUES));
  return type(shape);
}

/** Fields a list may sort by: exactly those flagged sort (plus id and the timestamps). */
export function sortableFields(r: ResourceDeclaration<any>): string[] {
  const out = Object.entries(r.fields as Fields)
    .filter(([, f]) => f.sort)
    .map(([k]) => k);
  if (r.timestamps) out.push('createdAt', 'updatedAt');
  return [...out, 'id'];
}
export function filterableFields(r: ResourceDeclaration<any>): string[] {
  return Object.entries(r.fields as Fields)
    .filter(([, f]) => f.filter)
    .map(([k]) => k);
}
export function searchableFields(r: ResourceDeclaration<any>): string[] {
  return Object.entries(r.fields as Fields)
    .filter(([, f]) => f.search)
    .map(([k]) => k);
}

const SORT_PAIR = (fields: string[]) => new RegExp(`^(?:(?:${fields.join('|')}),(?:asc|desc))(?:,(?:${fields.join('|')}),(?:asc|desc))*$`);

/** GET list query: page, size, sort over the allow-list, q, one equality filter per filterable field, and a range
 *  (`From`, `To`) per filterable date. */
export function listQuerySchema(r: ResourceDeclaration<any>): Struct<any, any> {
  return listQueryOnce(r);
}
function listQueryOf(r: ResourceDeclaration<any>): Struct<any, any> {
  const sortable = sortableFields(r);
  const sortRe = SORT_PAIR(sortable);
  const filters: Record<string, Struct<any, any>> = {};
  for (const k of filterableFields(r)) {
    const f = (r.fields as Fields)[k];
    const s = structOf({ ...f, required: true, default: undefined }, { base: `resource.${r.name}`, name: k });
    filters[k] = optional(s);
    // a date filters a range too: `<field>From` and `<field>To`, each day included (upcoming visits: from tomorrow)
    if (f.kind === 'date') {
      filters[`${k}From`] = optional(s);
      filters[`${k}To`] = optional(s);
    }
  }
  const base = type({
    page: optional(int32(0, 1_000_000)),
    size: optional(int32(1, LIST_PAGE_MAX)),
    sort: optional(refineSort(sortRe, sortable)),
    q: optional(safeText(200)),
    ...(r.scopes?.length ? { scope: optional(enums(r.scopes.map((x) => x.name))) } : {}),
  });
  return assign(base, type(filters));
}
function refineSort(re: RegExp, allowed: string[]): Struct<string, null> {
  return define<string>('sort', (v) => (typeof v === 'string' && (v === '' || re.test(v))) || `can only sort by ${allowed.join(', ')} (asc or desc)`);
}

/** Integer query fields (query strings arrive as text). */
export function intQueryFields(r: ResourceDeclaration<any>): string[] {
  return ['page', 'size', ...filterableFields(r).filter((k) => ['number', 'ref'].includes((r.fields as Fields)[k].kind))];
}

export function apiPaths(r: ResourceDeclaration<any>) {
  return {
    list: r.api,
    one: `${r.api}/:id`,
    bulkDelete: `${r.api}/bulk-delete`,
    options: `${r.api}/options`,
    export: `${r.api}/export`,
    action: (name: string) => `${r.api}/:id/${name}`,
  };
}

/** Issue 29: the fields a picker shows beside a title that two rows share ('Abdullah, Priya' twice: 'E-1042 · Sales'):
 *  the declaration's list.apart, else its first two list columns that are plain values (no timestamps, ids, children,
 *  pictures or switches). The options endpoint answers them as each row's `detail`. */
export function apartFieldsOf(r: ResourceDeclaration<any>): string[] {
  if (r.list.apart) return [...r.list.apart];
  const plain = (k: string) => {
    const f = (r.fields as Fields)[k];
    return !!f && !f.writeOnly && ['text', 'email', 'number', 'choice', 'date'].includes(f.kind);
  };
  return r.list.columns.filter((k) => !r.list.title.includes(k) && plain(k)).slice(0, 2);
}

/** Issue 29: the day a rule of today's date (fromToday) counts from: today in the client's (tenant's) zone, on the
 *  form and on the server alike, whatever zone the viewer reads times in (an unknown or missing zone: UTC). */
export function clientToday(clientZone: string | null | undefined, now: number): string {
  return todayInZone(clientZone ?? 'UTC', now);
}

/** Issue 29: the one rule of a visit's day, for the forms and the server alike: `day` ('YYYY-MM-DD') is `today` or
 *  later and at most `withinDays` days on; null when it holds (or is no day: the schema names that). */
export function dayFromTodayViolation(field: string, day: unknown, today: string, withinDays = DAYS_AHEAD_MAX): Violation | null {
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const days = (Date.parse(day) - Date.parse(today)) / 86_400_000;
  if (Number.isNaN(days)) return null;
  if (days < 0) return { field, ...beforeToday(today) };
  if (days <= withinDays) return null;
  if (withinDays !== 0 && withinDays < DAYS_AHEAD_MAX) return { field, ...beyondToday(withinDays) };
  return { field, ...(withinDays === 0 ? ROW_SAID.mustBeToday : ROW_SAID.withinYear) };
}

/** The rules that hold across fields, on plain values (the form's and the server's). A rule of today's date
 *  (fromToday) is checked when `today` is given. A rule's own words are its declaration's, said by their catalogue key
 *  `<base>.rule.<field>` when `base` is given (issue 48). */
export function checkRules(rules: readonly Rule[] | undefined, values: Record<string, unknown>, prefix = '', today?: string, base?: string): Violation[] {
  const out: Violation[] = [];
  const said = (rule: Rule & { message: string }): Violation => ({
    field: prefix + rule.field,
    message: rule.message,
    ...(base === undefined ? {} : { code: `${base}.rule.${rule.field}`, values: {} }),
  });
  for (const rule of rules ?? []) {
    if (rule.kind === 'fromToday') {
      const v = today ? dayFromTodayViolation(prefix + rule.field, values[rule.field], today, rule.withinDays) : null;
      if (v) out.push(v);
      continue;
    }
    if (rule.kind === 'requiredWhen') {
      const v = values[rule.field];
      if (rule.values.includes(String(values[rule.other] ?? '')) && (v === undefined || v === null || v === '')) out.push(said(rule));
      continue;
    }
    const a = values[rule.field];
    const b = values[rule.other];
    if (typeof a !== 'string' || typeof b !== 'string' || a === '' || b === '') continue;
    // instants compare as moments (their zones may differ), dates and times as written
    const cmp =
      a.includes('T') && b.includes('T') && !Number.isNaN(Date.parse(a)) && !Number.isNaN(Date.parse(b))
        ? Date.parse(a) - Date.parse(b)
        : a < b
          ? -1
          : a > b
            ? 1
            : 0;
    if (rule.kind === 'notBefore' ? cmp < 0 : cmp <= 0) out.push(said(rule));
  }
  return out;
}

/** Rules of the resource and of its children rows, with field paths as the schema names them. */
export function checkAllRules(r: ResourceDeclaration<any>, values: Record<string, unknown>, today?: string): Violation[] {
  const out = checkRules(r.rules, values, '', today, `resource.${r.name}`);
  for (const [k, f] of Object.entries(r.fields as Fields)) {
    if (f.kind !== 'children' || !Array.isArray(values[k])) continue;
    (values[k] as Record<string, unknown>[]).forEach((row, i) =>
      out.push(...checkRules(f.children!.rules, row ?? {}, `${k}.${i}.`, undefined, `resource.${r.name}.child.${k}`)),
    );
    // a unique child value typed twice in one form
    for (const [ck, cf] of Object.entries(f.children!.fields)) {
      if (!cf.unique) continue;
      const seen = new Set<unknown>();
      (values[k] as Record<string, unknown>[]).forEach((row, i) => {
        const v = row?.[ck];
        if (v === undefined || v === null || v === '') return;
        if (seen.has(v)) out.push({ field: `${k}.${i}.${ck}`, ...ROW_SAID.repeatedInForm });
        seen.add(v);
      });
    }
  }
  return out;
}

/** The label of a field path ('credentials.0.number' → 'Number'). */
export function fieldLabel(r: ResourceDeclaration<any>, path: string): string {
  const parts = path.split('.');
  const f = (r.fields as Fields)[parts[0]];
  if (!f) return path;
  if (f.kind === 'children' && parts.length === 3) {
    const cf = f.children!.fields[parts[2]];
    return cf ? labelOf(parts[2], cf) : path;
  }
  return labelOf(parts[0], f);
}

/** The values of the family field whose `action` code is among `held` (privileges.families); null: no families. */
export function familyValues(r: ResourceDeclaration<any>, action: 'view' | 'add' | 'edit', held: Iterable<string>): string[] | null {
  const fam = r.privileges.families;
  if (!fam) return null;
  const codes = new Set(held);
  return fam.of.filter((f) => f[action] && codes.has(f[action]!)).flatMap((f) => [...f.values]);
}

/** The family a value of the family field belongs to (privileges.families), or null. */
export function familyOf(r: ResourceDeclaration<any>, value: unknown): PrivilegeFamily | null {
  return r.privileges.families?.of.find((f) => f.values.includes(String(value))) ?? null;
}

/** A row's value is filled: not null, not empty text, not an empty list (a record action's `needs`). */
export const isFilled = (v: unknown): boolean => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * Whether the holder of `held` may `action` this row: with privilege families, the code of the row's own family (a
 * security report job needs 0.6.5.x, an attendance one 3.9.x); otherwise the declared code. One rule for the server's
 * sub-routes of a record and the console's record page, form and list.
 */
export function mayOnRow(r: ResourceDeclaration<any>, action: 'view' | 'add' | 'edit', held: Iterable<string>, row: Record<string, unknown> | null): boolean {
  const codes = new Set(held);
  const fam = r.privileges.families;
  if (!fam) return !!r.privileges[action] && codes.has(r.privileges[action]!);
  const code = familyOf(r, row?.[fam.field])?.[action];
  return !!code && codes.has(code);
}

/** The body of a declared record action: `{ reason }` within its bounds when it asks for one, else nothing. */
export function recordActionBody(a: RecordAction): Struct<any, any> {
  return actionBodyOnce(a);
}
function actionBodyOf(a: RecordAction): Struct<any, any> {
  if (!a.reason) return type({});
  const s = safeText(a.reason.max);
  return type({ reason: a.reason.required ? requiredText(a.reason.max) : optional(nullable(s)) });
}
