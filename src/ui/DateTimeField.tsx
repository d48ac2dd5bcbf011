// The one date-and-time field of the console (issue 29), DateField's sibling: it shows and takes a moment as the
// console writes it ('28 Nov 2026 14:05', '2026年11月28日 14:05': contract formatDateTimeInput), as a wall clock of the
// user's zone (every screen shows times in that zone: src/ui/time.ts), never the browser's own date-time picker. Its
// value is the moment (ISO 8601, UTC: '2026-11-28T06:05:00Z'), also on `data-datetime`; what is typed and is no moment
// ('31 Feb 2026 10:00', or 02:30 on the night the zone's clocks skip it) is handed on as typed, for the form's schema
// to name, and the field says why. While it has the focus it keeps the text being typed; when it loses it, the moment
// is written in the one format. (Blueprint's DateInput was weighed: its typed text goes through parse/format props
// the caller writes anyway, and its calendar would be the one popover among the console's typed date fields.)
import { useState } from 'react';
import { InputGroup } from '@blueprintjs/core';
import type { DateFieldProps } from './DateField';
import { DATE_TIME_PLACEHOLDER } from '../../contract';
import { formatDateTimeInput, readDateTimeInput } from '../../contract/dateInput';
import { tCat, useLocale, type Locale } from '../i18n';
import { labelled, violationText } from '../i18n/violations';
import { useDisplayZone } from './time';

/** The date field's props: `value` is the moment (ISO 8601 with its zone), or what was typed when it is none. */
export type DateTimeFieldProps = DateFieldProps;

/** A moment as the field hands it on: ISO 8601 with its zone. */
export const isMoment = (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v));

export function DateTimeField({ value, onChange, onBlur, onFocus, placeholder, ...rest }: DateTimeFieldProps) {
  const locale = useLocale();
  const zone = useDisplayZone();
  const v = value ?? '';
  const shown = isMoment(v) ? formatDateTimeInput(v, locale, zone) : v;
  const [typing, setTyping] = useState<string | null>(null); // visual: the text while the field has the focus
  return (
    <InputGroup
      {...rest}
      type="text"
      inputMode="text"
      autoComplete="off"
      lang={locale}
      value={typing ?? shown}
      data-datetime={isMoment(v) ? new Date(v).toISOString().replace(/\.\d{3}Z$/, 'Z') : ''}
      data-zone={zone}
      placeholder={placeholder ?? DATE_TIME_PLACEHOLDER[locale]}
      onFocus={(e) => {
        setTyping(shown);
        onFocus?.(e);
      }}
      onChange={(e) => {
        const text = e.currentTarget.value;
        setTyping(text);
        const r = readDateTimeInput(text, locale, zone);
        onChange('iso' in r ? r.iso : text.trim());
      }}
      onBlur={(e) => {
        setTyping(null);
        onBlur?.(e);
      }}
    />
  );
}

/** What a date-time field that holds no moment says, as a violation's message (English; said by violationText). */
export const NOT_DATE_TIME = 'is not a date and time (e.g. 28 Nov 2026 14:05)';
export const DATE_TIME_SKIPPED = 'is not a time in this time zone: the clocks skip it';

/** The one wording of a date-time field's problem (dateTimeProblem) on every form, the catalogue's and hand-made
 *  ones: "<label> is not a date and time (e.g. 28 Nov 2026 14:05)", in the console's language. */
export function sayDateTimeProblem(problem: string, label: string, loc: Locale): string {
  const english = problem === 'not a time in the zone' ? DATE_TIME_SKIPPED : NOT_DATE_TIME;
  return labelled(
    label,
    violationText(english, loc, (k, e) => tCat(k, e, loc)),
    loc,
  );
}

/** Why what a date-time field holds is no moment of `zone` (for a field's own message), or null when it is one or
 *  is empty. */
export function dateTimeProblem(value: string | null | undefined, locale: Parameters<typeof readDateTimeInput>[1], zone: string): string | null {
  const v = (value ?? '').trim();
  if (!v || isMoment(v)) return null;
  const r = readDateTimeInput(v, locale, zone);
  return 'problem' in r ? r.problem : null;
}
