// A catalogue resource as the console shows it (react-admin's <Resource>, refine's resource objects): the generic list
// and add/edit forms read this view of a contract/ declaration (fromDeclaration below: titles and input kinds in the
// console's language, custom cells and start values from src/resources/<name>.ts). There is one declaration,
// contract/resources/define.ts defineResource; this file derives the console's side of it, and hand-written console
// resources (clients, identities) build the same shape.
import type { ComponentType, ReactNode } from 'react';
import type { Struct } from 'superstruct';
import {
  apiPaths,
  inputSchema,
  labelOf,
  rowSchema,
  sortableFields,
  type AnyField,
  type Fields,
  type PhotoPurpose,
  type ResourceDeclaration,
  type SortSpec,
} from '../../contract';
import { showDate, showDateTime } from '../ui/time';
import { catKey, resourceBase } from '../i18n/catalogue';
import { tCat, tx } from '../i18n';

/** How a form field is typed in (an input, a select, a text area…), derived from the declaration's FieldKind. */
export type InputKind = 'text' | 'email' | 'number' | 'select' | 'date' | 'datetime' | 'switch' | 'textarea' | 'hidden' | 'ref' | 'refs' | 'image' | 'file';

export interface FieldDef {
  name: string;
  label: string;
  kind?: InputKind;
  /** §5: input is converted to capitals. */
  upper?: boolean;
  required?: boolean;
  options?: readonly { label: string; value: string }[];
  /** options loaded from another resource (e.g. divisions). */
  source?: 'divisions' | 'timezones';
  /** ref / refs: the catalogue resource picked from (src/resources/RefPicker.tsx). */
  target?: string;
  /** the add form's starting value (the declaration's default). */
  default?: unknown;
  /** image: the decoded size limit the server checks too. */
  maxBytes?: number;
  /** datetime: the add form starts at now plus this many minutes. */
  fromNow?: number;
  /** a secret: typed, never shown; left empty on an edit it keeps what is stored. */
  writeOnly?: boolean;
  placeholder?: string;
  /** a phone number: the placeholder is an example number of the client's country (selectPhonePlaceholder). */
  phone?: boolean;
  help?: string;
  /** take the whole row of the two-column grid. */
  wide?: boolean;
  /** shown only while another field of the form has one of these values (the declaration's shownWhen). */
  shownWhen?: { field: string; values: readonly string[] };
  /** i18n keys of a catalogue field (src/i18n/catalogue.ts): label, help, placeholder, and a choice's label. */
  keys?: { label: string; help: string; placeholder: string; choice: (value: string) => string };
}

export interface RepeatDef {
  repeat: string;
  label: string;
  itemLabel: string;
  fields: FieldDef[];
  empty: () => Record<string, unknown>;
  keys?: { label: string; itemLabel: string };
  /** the rows are pins on an image field's picture (contract children `pins`) */
  pins?: { image: string; x: string; y: string };
}

export interface FormSection {
  title: string;
  description?: string;
  fields: (FieldDef | RepeatDef)[];
  keys?: { title: string; description: string };
}

export interface ColumnDef<T> {
  field: string;
  title: string;
  width?: number;
  sortable?: boolean;
  value?: (row: T) => string;
  render?: (row: T) => ReactNode;
  /** a column of instants: its header names the zone they are shown in (issue 10) */
  zoned?: boolean;
  /** its text wraps on as many lines as it needs, the row as tall as them (a controller's Edge state), never cut */
  wrap?: boolean;
  /** i18n key of the title (catalogue field label); without it the title is looked up by its English */
  titleKey?: string;
}

export interface ResourceDef<T extends { id: number }> {
  name: string;
  title: string;
  singular: string;
  /** list route; add is `${path}/add`, edit `${path}/edit/:id`. */
  path: string;
  privileges: { view: string; add?: string; edit?: string; delete?: string };
  schema: Struct<T, any>;
  input: Struct<any, any>;
  api: string;
  bulkDelete?: string;
  /** the first column: the row's display name, with the row's actions beside it. */
  primary: { title: string; field: string; value: (row: T) => string; width?: number; zoned?: boolean; titleKey?: string };
  columns: ColumnDef<T>[];
  defaultSort?: SortSpec[];
  filterPlaceholder?: string;
  form: FormSection[];
  /** a loaded record → form values. */
  toForm?: (row: T) => Record<string, unknown>;
  /** Local devices on the add/edit form: "Read card" (card connector) and "Take photo" (companion) fill it. */
  devices?: { purpose: PhotoPurpose };
  /** A console-only panel inside the form, after its sections. */
  formPanel?: ComponentType;
  /** Where the Add button goes when it is not `${path}/add` (e.g. /visitor/register). */
  addPath?: string;
  /** The Add button's text when it is not "Add <singular>" (e.g. "Register visitor"). */
  addLabel?: string;
  /** Where a row's edit form is when it is not `${path}/edit/:id` (a controller's settings). */
  editPath?: (id: number) => string;
  /** Where a row's name links when it is not the edit form (e.g. a details page). */
  /** a row's own page (details, an alarm zone) instead of its edit form; `:field` placeholders take the row's values. */
  rowPath?: (row: T) => string;
  /** more pages of a row (an interface's settings), as small buttons on its list row */
  rowLinks?: readonly { label: string; icon?: string; path: (row: T) => string }[];
  /** named actions of a row as buttons (declared in screens.rowActions) */
  rowActions?: readonly { action: string; label: string; privilege: string; icon?: string; done: string }[];
  /** Where a saved add form goes instead of the list (e.g. the new record's details). */
  savedPath?: (id: number) => string;
  /** Starting values of the add form beyond the defaults (e.g. today's date). */
  initial?: () => Record<string, unknown>;
  /** The catalogue declaration it comes from: the form also checks its cross-field rules. */
  declaration?: ResourceDeclaration<any>;
  /** The export's columns after the first (the primary column, as shown) when the file says more than the list shows,
   *  the same as a server's file of it (the activity report: ids, values before and after, contract/activity.ts). */
  file?: { columns: readonly string[]; cells: (row: T) => string[] };
}

/** The resource's names in the console's language (catalogue keys, else the English text as the key). */
export function resourceWords(r: Pick<ResourceDef<any>, 'name' | 'title' | 'singular' | 'addLabel' | 'declaration'>) {
  const cat = !!r.declaration;
  return {
    one: cat ? tCat(catKey.one(r.name), r.singular) : tx(r.singular),
    many: cat ? tCat(catKey.many(r.name), r.title) : tx(r.title),
    addLabel: r.addLabel ? (cat ? tCat(catKey.addLabel(r.name), r.addLabel) : tx(r.addLabel)) : undefined,
  };
}
/** A column or section title in the console's language. */
export const titleOfColumn = (c: { title: string; titleKey?: string }) => (c.titleKey ? tCat(c.titleKey, c.title) : tx(c.title));
export const labelOfField = (f: { label: string; keys?: { label: string } }) => (f.keys ? tCat(f.keys.label, f.label) : tx(f.label));

export function isRepeat(f: FieldDef | RepeatDef): f is RepeatDef {
  return 'repeat' in f;
}

/**
 * A resource as the console shows it. Its list, form and list commands are not here: the views ask for
 * `list:<name>`, `form:<name>` and `commands:<name>` and the system runs them (src/system/logic.ts). A catalogue
 * resource's comes from its declaration (fromDeclaration); a read-only list of the server's own records that no
 * declaration describes (the activity report, the event history, UI errors) is written with this.
 */
export function consoleResource<T extends { id: number }>(def: ResourceDef<T>): ResourceDef<T> {
  return { ...def };
}

export type Resource<T extends { id: number } = any> = ResourceDef<T>;

// ---------- the console's side of a catalogue declaration (contract/resources) ----------

/** Console-only touches of a declared resource (src/resources/<name>.ts): titles, custom cells, devices, start values. */
export interface ViewTouches<T> {
  primary?: Partial<ResourceDef<T & { id: number }>['primary']>;
  columns?: Record<string, Partial<ColumnDef<T>>>;
  filterPlaceholder?: string;
  devices?: { purpose: PhotoPurpose };
  initial?: () => Record<string, unknown>;
  /** A panel of the form after its sections, inside it (it may read the form's values): a card format's test. */
  formPanel?: ComponentType;
}

const blank = (v: unknown) => (v === null || v === undefined ? '' : v);

function fieldDefOf(name: string, f: AnyField, kb: string): FieldDef {
  const keys = {
    label: catKey.field(kb, name),
    help: catKey.help(kb, name),
    placeholder: catKey.placeholder(kb, name),
    choice: (v: string) => catKey.choice(kb, name, v),
  };
  const base = {
    name,
    label: labelOf(name, f),
    required: f.required && !f.readOnly,
    help: f.help,
    placeholder: f.placeholder,
    phone: f.phone,
    wide: f.wide,
    upper: f.upper,
    default: f.default,
    writeOnly: f.writeOnly,
    shownWhen: f.shownWhen,
    keys,
  };
  switch (f.kind) {
    case 'email':
      return { ...base, kind: 'email' };
    case 'number':
      return { ...base, kind: 'number' };
    case 'date':
      return { ...base, kind: 'date' };
    case 'datetime':
      return { ...base, kind: 'datetime', fromNow: f.fromNow };
    case 'switch':
      return { ...base, kind: 'switch' };
    case 'choice':
      return { ...base, kind: 'select', options: f.choices };
    case 'timezone':
      return { ...base, kind: 'select', source: 'timezones' };
    case 'image':
      return f.widget === 'upload' ? { ...base, kind: 'image', maxBytes: f.maxBytes } : { ...base, kind: 'hidden' };
    case 'file':
      return { ...base, kind: 'file', maxBytes: f.maxBytes };
    case 'ref':
      return f.target === 'divisions' ? { ...base, kind: 'select', source: 'divisions' } : { ...base, kind: 'ref', target: f.target };
    case 'refs':
      return { ...base, required: false, kind: 'refs', target: f.target, wide: true };
    default:
      return { ...base, kind: f.widget === 'textarea' || f.widget === 'hidden' ? f.widget : 'text' };
  }
}

/** A declared field as the generic form shows it: a field, or repeated rows for owned children. */
function formFieldOf(resource: string, name: string, f: AnyField): FieldDef | RepeatDef {
  if (f.kind !== 'children') return fieldDefOf(name, f, resourceBase(resource));
  const c = f.children!;
  const fields = Object.entries(c.fields).filter(([, cf]) => !cf.readOnly && !cf.virtual);
  return {
    repeat: name,
    label: labelOf(name, f),
    itemLabel: c.itemLabel,
    pins: c.pins,
    keys: { label: catKey.field(resourceBase(resource), name), itemLabel: catKey.item(resource, name) },
    fields: [{ name: 'id', label: 'Id', kind: 'hidden' }, ...fields.map(([k, cf]) => fieldDefOf(k, cf, resourceBase(resource, name)))],
    empty: () =>
      Object.fromEntries(
        fields
          .filter(([, cf]) => cf.kind === 'text' || cf.kind === 'choice' || cf.kind === 'number' || cf.kind === 'ref')
          .map(([k, cf]) => [
            k,
            cf.kind === 'choice'
              ? ((cf.default as string | undefined) ?? (cf.required ? cf.choices![0].value : ''))
              : cf.default !== undefined
                ? String(cf.default)
                : '',
          ]),
      ),
  };
}

/** A record → form values: text for empty values, references as the select's text, owned rows with their ids. */
function toFormOf(d: ResourceDeclaration<any>) {
  const fields = d.fields as Fields;
  const names = d.form.flatMap((s) => s.fields);
  return (row: Record<string, unknown>) =>
    Object.fromEntries(
      names.map((k) => {
        const f = fields[k];
        const v = row[k];
        if (f.kind === 'switch') return [k, !!v];
        if (f.kind === 'ref') return [k, v === null || v === undefined ? '' : String(v)];
        if (f.kind === 'refs') return [k, Array.isArray(v) ? v : []];
        if (f.writeOnly) return [k, ''];
        // a moment, as the browser's date-time input types it, in the user's zone
        if (f.kind === 'datetime') return [k, typeof v === 'string' && v ? v : ''];
        if (f.kind === 'children') {
          return [
            k,
            ((v as Record<string, unknown>[]) ?? []).map((cr) =>
              Object.fromEntries([
                ['id', cr.id],
                ...Object.keys(f.children!.fields).map((ck) => [ck, f.children!.fields[ck].kind === 'ref' ? String(blank(cr[ck])) : blank(cr[ck])]),
              ]),
            ),
          ];
        }
        return [k, blank(v)];
      }),
    );
}

/** A row's own page: `:field` placeholders filled from the row ('/x/:id/:state/zone'), else the id appended. */
export function detailPath(route: string, row: Record<string, unknown>): string {
  return route.includes(':') ? route.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(String(row[k] ?? ''))) : `${route}/${row.id}`;
}

/** A column of instants (shown in the session's zone, the zone named in the header: issue 10). */
export const isInstant = (name: string, f: AnyField | undefined) =>
  name === 'createdAt' || name === 'updatedAt' || f?.kind === 'timestamp' || f?.kind === 'datetime';

export function cellValueOf(resource: string, name: string, f: AnyField | undefined): ((row: any) => string) | undefined {
  if (isInstant(name, f)) return (r) => showDateTime(r[name]);
  if (!f) return undefined;
  if (f.kind === 'date') return (r) => (r[name] ? showDate(r[name]) : '');
  if (f.kind === 'choice')
    return (r) => {
      const c = f.choices!.find((x) => x.value === r[name]);
      return c ? tCat(catKey.choice(resourceBase(resource), name, c.value), c.label) : String(blank(r[name]));
    };
  if (f.kind === 'switch') return (r) => (r[name] ? tx('Yes') : tx('No'));
  if (f.kind === 'children' || f.kind === 'refs') return (r) => String((r[name] ?? []).length);
  return (r) => String(blank(r[name]));
}

/**
 * The generic list and add/edit screens of a declared resource. Columns are sortable exactly where the server
 * sorts (the same field flag), the form shows the declaration's rules (required, length, pattern, notBefore),
 * and routes and API paths come from the declaration.
 */
export function fromDeclaration<T extends { id: number }>(d: ResourceDeclaration<any>, touches: ViewTouches<T> = {}) {
  const fields = d.fields as Fields;
  const sortable = new Set(sortableFields(d));
  const titleOf = (k: string) => (k === 'updatedAt' ? 'Updated' : k === 'createdAt' ? 'Created' : labelOf(k, fields[k]));
  const titleKeyOf = (k: string) => (fields[k] ? catKey.field(resourceBase(d.name), k) : undefined);
  const [first] = d.list.title;
  return consoleResource<T>({
    name: d.name,
    title: d.label.many,
    singular: d.label.one,
    path: d.route,
    privileges: d.privileges,
    schema: rowSchema(d) as unknown as Struct<T, any>,
    input: inputSchema(d),
    declaration: d,
    api: d.api,
    bulkDelete: d.privileges.delete ? apiPaths(d).bulkDelete : undefined,
    primary: {
      title: titleOf(first),
      titleKey: touches.primary?.title ? undefined : titleKeyOf(first),
      field: first,
      zoned: (isInstant(first, fields[first]) && !touches.primary?.value) || undefined,
      value: (r) => d.list.title.map((k) => String(blank((r as Record<string, unknown>)[k]))).join(', '),
      ...touches.primary,
    },
    // an instant column is zoned unless a touch shows something else in it (the visitor's badge: "Printed")
    columns: d.list.columns.map((k) => {
      const touch = touches.columns?.[k];
      const zoned = isInstant(k, fields[k]) && !touch?.value && !touch?.render;
      return {
        field: k,
        title: titleOf(k),
        titleKey: touch?.title ? undefined : titleKeyOf(k),
        sortable: sortable.has(k),
        value: cellValueOf(d.name, k, fields[k]),
        zoned: zoned || undefined,
        ...touch,
      };
    }),
    defaultSort: [{ field: d.list.sort[0], dir: d.list.sort[1] }],
    filterPlaceholder: touches.filterPlaceholder,
    devices: touches.devices,
    initial: touches.initial,
    formPanel: touches.formPanel,
    form: d.form.map((s, i) => ({
      title: s.title,
      description: s.description,
      keys: { title: catKey.formTitle(d.name, i), description: catKey.formDescription(d.name, i) },
      fields: s.fields.map((k) => formFieldOf(d.name, k, fields[k])),
    })),

    toForm: toFormOf(d) as (row: T) => Record<string, unknown>,
    addPath: d.screens?.addRoute,
    addLabel: d.screens?.addLabel,
    rowPath: d.screens?.detailsRoute ? (row) => detailPath(d.screens!.detailsRoute!, row as unknown as Record<string, unknown>) : undefined,
    rowLinks: d.screens?.rowLinks?.map((l) => ({
      label: l.label,
      icon: l.icon,
      path: (row: T) => detailPath(l.route, row as unknown as Record<string, unknown>),
    })),
    rowActions: d.screens?.rowActions,
    editPath: d.screens?.editRoute ? (id) => d.screens!.editRoute!.replace(':id', String(id)) : undefined,
    savedPath: d.screens?.detailsRoute && !d.screens.detailsRoute.includes(':') ? (id) => `${d.screens!.detailsRoute}/${id}` : undefined,
  });
}
