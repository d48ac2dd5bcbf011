// Pure helpers between react-final-form values, the contract schemas and field names (tested).
import { setIn } from 'final-form';
import { FIXED_SAID, checkAllRules, validate, type ResourceDeclaration, type Violation } from '../../contract';
import type { Struct } from 'superstruct';
import { isRepeat, type FieldDef, type FormSection, type RepeatDef } from './consoleResource';

/** 'credentials.0.number' (schema/server path) → 'credentials[0].number' (final-form name). */
export function fieldName(path: string): string {
  return path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

const empty = (v: unknown) => v === '' || v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function normaliseField(f: FieldDef, v: unknown): unknown {
  if (f.kind === 'switch') return !!v;
  if (f.kind === 'hidden') return empty(v) ? undefined : v;
  if (f.kind === 'refs') return Array.isArray(v) ? v.map(Number) : [];
  if (f.writeOnly) return empty(v) ? undefined : String(v); // a secret left empty is not sent (an edit keeps it)
  if (f.kind === 'number' || f.kind === 'ref' || f.source === 'divisions') {
    if (empty(v)) return f.required ? undefined : null;
    return typeof v === 'number' ? v : /^-?\d+(\.\d+)?$/.test(String(v).trim()) ? Number(v) : v;
  }
  if (f.kind === 'select') return empty(v) ? (f.required ? undefined : null) : v;
  // a moment: the date-time field already read what was typed in the user's zone (ISO 8601, UTC), or hands on the
  // text that is none, for the schema to name
  if (f.kind === 'datetime') return empty(v) ? (f.required ? undefined : null) : String(v).trim();
  // text, email, date, textarea: a required field left empty is missing ("is required"), an optional one null
  if (empty(v)) return f.required ? undefined : null;
  return typeof v === 'string' ? v.trim() : v;
}

/** Form values → the request body: only declared fields, empty optionals as null, numbers as numbers. */
export function toBody(values: Record<string, unknown>, sections: FormSection[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (target: Record<string, unknown>, f: FieldDef, source: Record<string, unknown>) => {
    const v = normaliseField(f, source?.[f.name]);
    if (v !== undefined) target[f.name] = v;
  };
  for (const s of sections) {
    for (const f of s.fields) {
      if (isRepeat(f)) {
        const rows = (values[f.repeat] as Record<string, unknown>[] | undefined) ?? [];
        out[f.repeat] = rows.map((row) => {
          const o: Record<string, unknown> = {};
          for (const rf of (f as RepeatDef).fields) put(o, rf, row ?? {});
          return o;
        });
      } else put(out, f, values);
    }
  }
  return out;
}

/** Label of a field for messages, from its name ('credentials[0].number' → 'Credential 1: Number'). */
export function labelFor(name: string, sections: FormSection[], withRow = true): string {
  for (const s of sections)
    for (const f of s.fields) {
      if (isRepeat(f)) {
        const m = name.match(/^([^[]+)\[(\d+)\]\.(.+)$/);
        if (m && m[1] === f.repeat) {
          const rf = f.fields.find((x) => x.name === m[3]);
          return withRow ? `${f.itemLabel} ${Number(m[2]) + 1}: ${rf?.label ?? m[3]}` : (rf?.label ?? m[3]);
        }
      } else if (f.name === name) return f.label;
    }
  return name;
}

/** A form field's error as final-form holds it: its English "<Label> <message>" and the violation it says (its key and
 *  values when it was said with them, issue 48), so the field says it in the operator's language by the violation
 *  (formMessages.sayError), never by taking the English apart again. */
export interface FieldError {
  text: string;
  violation: Violation;
}
export const fieldError = (label: string, violation: Violation): FieldError => ({ text: `${label} ${violation.message}`, violation });

/** Violations → a final-form errors object keyed by field names (nested for repeated rows). */
export function errorsFrom(violations: Violation[], sections: FormSection[]): Record<string, unknown> {
  let errors: Record<string, unknown> = {};
  for (const v of violations) {
    const name = fieldName(v.field);
    // the field's own label, whole ('Facility code: first bit'); a repeated row's without its row ('Credential 2: '),
    // as the message shows under the row's field
    errors = setIn(errors, name, fieldError(labelFor(name, sections, false), v)) as Record<string, unknown>;
  }
  return errors;
}

/** The schema's rules and, for a catalogue resource, its cross-field rules (the same the server checks). */
export function validateForm(
  values: Record<string, unknown>,
  sections: FormSection[],
  schema: Struct<any, any>,
  declaration?: ResourceDeclaration<any>,
  today?: string,
): Record<string, unknown> {
  const body = toBody(values, sections);
  const r = validate(body, schema);
  const violations = [...(r.ok ? [] : r.violations), ...(declaration ? checkAllRules(declaration, body, today) : [])];
  // a field marked required and left empty is refused on the form, also where the request may leave it out (a
  // settings form or an edit sends what it has, and the server keeps the stored value): emptied, saved and shown
  // "Saved", the field would come back with its old value (issue 29). A secret is not (an edit keeps the stored one),
  // nor a field shown only for another field's value (the declaration's rules say when it is needed).
  const missing = (f: FieldDef, v: unknown) => f.required && !f.writeOnly && !f.shownWhen && f.kind !== 'switch' && f.kind !== 'hidden' && empty(v);
  const said = new Set(violations.map((v) => v.field));
  for (const s of sections)
    for (const f of s.fields) {
      if (isRepeat(f)) {
        const rows = (values[f.repeat] as Record<string, unknown>[] | undefined) ?? [];
        rows.forEach((row, i) => {
          for (const rf of f.fields)
            if (missing(rf, row?.[rf.name]) && !said.has(`${f.repeat}.${i}.${rf.name}`))
              violations.push({ field: `${f.repeat}.${i}.${rf.name}`, ...FIXED_SAID.required });
        });
      } else if (missing(f, values[f.name]) && !said.has(f.name)) violations.push({ field: f.name, ...FIXED_SAID.required });
    }
  return violations.length ? errorsFrom(violations, sections) : {};
}
