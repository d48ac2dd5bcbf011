// What a resource form says of its errors: a server violation's field, a violation or schema message in the
// console's language, the placeholder of a kept secret (a date-time field's own words: src/ui/DateTimeField sayDateTimeProblem).
import type { Violation } from '../../contract';
import { tCat, type Locale } from '../i18n';
import { labelled, violationText } from '../i18n/violations';
import { isRepeat, labelOfField, type FieldDef, type Resource } from './consoleResource';
import { fieldName, type FieldError } from './formValues';

/** The server's violations by form field name: each with its key and values when it was said with them (issue 48). */
export type ServerErrors = Record<string, Violation>;
export const serverErrorsOf = (violations: Violation[]): ServerErrors => Object.fromEntries(violations.map((v) => [fieldName(v.field), v]));
/** A violation (server or schema, English, with its key when it has one) in the console's language. */
export const sayViolation = (said: string | Violation, loc: Locale) => violationText(said, loc, (k, e) => tCat(k, e, loc));
/** A field's error (formValues.errorsFrom: "<Label> <message>" and its violation) in the console's language: by its
 *  violation; text from elsewhere is shown as given. */
export function sayError(error: FieldError | string, def: FieldDef, loc: Locale): string {
  if (typeof error === 'string') return error;
  return loc === 'en' ? error.text : labelled(labelOfField(def), sayViolation(error.violation, loc), loc);
}

/** Whether a server violation lands on a field of this form (a plain field, or one of a repeated row's). */
export function isFormField(path: string, sections: Resource<{ id: number }>['form']): boolean {
  const name = fieldName(path);
  return sections.some((s) =>
    s.fields.some((f) =>
      isRepeat(f) ? f.fields.some((rf) => new RegExp(`^${f.repeat}\\[\\d+\\]\\.${rf.name}$`).test(name)) : f.name === name && f.kind !== 'hidden',
    ),
  );
}

/** The placeholder of a secret on an edit form (shown through tx). */
export const KEEP_SECRET = 'Unchanged: type a new one to replace it';
