// The selected client's user-defined fields (issue 11) as the generic form and list show them on an `extensible`
// resource (identities): one input per field in a section of its own (named `udf.<key>`, where the server's
// violations land), one column per field in the list, and the same checks the server runs (checkUserFieldValues).
import { checkUserFieldValues, choicesOf, type UserFieldDef } from '../../contract';
import { useReading } from '../hooks/useReading';
import type { ColumnDef, FieldDef } from './consoleResource';

const NONE: UserFieldDef[] = [];
/** The client's fields, read for an extensible resource only (again when the client changes: views remount). */
export function useUserFieldDefs(extensible: boolean): UserFieldDef[] {
  return useReading<UserFieldDef[]>(extensible ? 'userFieldDefsReading' : 'nothingToRead').output ?? NONE;
}

/** One input per field: text, number, date, or a choice among its lines. */
export function udfFieldDefs(defs: readonly UserFieldDef[]): FieldDef[] {
  return defs.map((d) => ({
    name: `udf.${d.key}`,
    label: d.label,
    required: d.required,
    kind: d.kind === 'number' ? 'number' : d.kind === 'date' ? 'date' : d.kind === 'choice' ? 'select' : 'text',
    options: d.kind === 'choice' ? choicesOf(d).map((c) => ({ label: c, value: c })) : undefined,
  }));
}

/** One list column per field (not sortable: the server sorts by declared fields only). */
export function udfColumns<T>(defs: readonly UserFieldDef[]): ColumnDef<T>[] {
  return defs.map((d) => ({
    field: `udf.${d.key}`,
    title: d.label,
    width: 140,
    sortable: false,
    value: (r: T) => {
      const v = (r as { udf?: Record<string, unknown> | null }).udf?.[d.key];
      return v === undefined || v === null ? '' : String(v);
    },
  }));
}

/** The form's `udf` values → the body's object and the violations (named `udf.<key>`) the server would give. */
export function udfBody(defs: readonly UserFieldDef[], values: Record<string, unknown> | undefined) {
  return checkUserFieldValues(defs, values ?? {});
}
