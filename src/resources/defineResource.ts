// The resource catalogue (react-admin's <Resource>, refine's resource objects): one declaration over a
// contract/ schema drives the generic list and the add/edit forms. Later issues add resources by adding
// definitions here.
import type { ReactNode } from 'react';
import type { Struct } from 'superstruct';
import { createResourceFormMachine } from '../../machines/resourceForm';
import { createResourceListMachine } from '../../machines/resourceList';
import type { PhotoPurpose, SortSpec } from '../../contract';
import { resourceApi } from '../api/endpoints';
import { resourceActors } from '../api/resourceActors';

export type FieldKind = 'text' | 'email' | 'number' | 'select' | 'date' | 'switch' | 'textarea' | 'hidden';

export interface FieldDef {
  name: string;
  label: string;
  kind?: FieldKind;
  /** §5: input is converted to capitals. */
  upper?: boolean;
  required?: boolean;
  options?: readonly { label: string; value: string }[];
  /** options loaded from another resource (e.g. divisions). */
  source?: 'divisions' | 'timezones';
  placeholder?: string;
  help?: string;
  /** take the whole row of the two-column grid. */
  wide?: boolean;
}

export interface RepeatDef {
  repeat: string;
  label: string;
  itemLabel: string;
  fields: FieldDef[];
  empty: () => Record<string, unknown>;
}

export interface FormSection { title: string; description?: string; fields: (FieldDef | RepeatDef)[] }

export interface ColumnDef<T> {
  field: string;
  title: string;
  width?: number;
  sortable?: boolean;
  value?: (row: T) => string;
  render?: (row: T) => ReactNode;
  /** a column of instants: its header names the zone they are shown in (issue 10) */
  zoned?: boolean;
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
  primary: { title: string; field: string; value: (row: T) => string; width?: number; zoned?: boolean };
  columns: ColumnDef<T>[];
  defaultSort?: SortSpec[];
  filterPlaceholder?: string;
  form: FormSection[];
  /** a loaded record → form values. */
  toForm?: (row: T) => Record<string, unknown>;
  /** Local devices on the add/edit form: "Read card" (card connector) and "Take photo" (companion) fill it. */
  devices?: { purpose: PhotoPurpose };
  /** Where the Add button goes when it is not `${path}/add` (e.g. /visitor/register). */
  addPath?: string;
  /** The Add button's text when it is not "Add <singular>" (e.g. "Register visitor"). */
  addLabel?: string;
  /** Where a row's name links when it is not the edit form (e.g. a details page). */
  rowPath?: (id: number) => string;
  /** Where a saved add form goes instead of the list (e.g. the new record's details). */
  savedPath?: (id: number) => string;
  /** Starting values of the add form beyond the defaults (e.g. today's date). */
  initial?: () => Record<string, unknown>;
}

export function isRepeat(f: FieldDef | RepeatDef): f is RepeatDef {
  return 'repeat' in f;
}

export function defineResource<T extends { id: number }>(def: ResourceDef<T>) {
  const actors = resourceActors(def.api, def.schema, def.bulkDelete);
  return {
    ...def,
    calls: resourceApi(def.api, def.schema, def.bulkDelete),
    listMachine: createResourceListMachine({ fetchPage: actors.fetchPage, deleteMany: actors.deleteMany }),
    formMachine: createResourceFormMachine({ load: actors.load, save: actors.save }),
  };
}

export type Resource<T extends { id: number } = any> = ReturnType<typeof defineResource<T>>;
