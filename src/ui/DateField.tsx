// The one date field of the console (issue 29): it shows and takes a date as every screen shows dates ('28 Nov 2026',
// '2026年11月28日': contract formatDate), never the browser's own format (a native date input shows 11/28/2026 on a US
// browser). Its value is the calendar day 'YYYY-MM-DD'; what is typed and is no day is handed on as typed, for the
// form's schema to name. While it has the focus it keeps the text being typed; when it loses it, the day is written
// in the one format. Every form's date (the catalogue's date fields, the attendance and report periods) is this one.
import { useState, type FocusEvent } from 'react';
import { InputGroup, type Intent } from '@blueprintjs/core';
import { DATE_PLACEHOLDER, formatDate } from '../../contract';
import { parseDateInput } from '../../contract/dateInput';
import { useLocale } from '../i18n';

export interface DateFieldProps {
  value: string | null | undefined;
  onChange: (value: string) => void;
  id?: string;
  name?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
  'aria-describedby'?: string;
  'data-testid'?: string;
  intent?: Intent;
  placeholder?: string;
  onBlur?: (e: FocusEvent<HTMLInputElement>) => void;
  onFocus?: (e: FocusEvent<HTMLInputElement>) => void;
}

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

export function DateField({ value, onChange, onBlur, onFocus, placeholder, ...rest }: DateFieldProps) {
  const locale = useLocale();
  const v = value ?? '';
  const shown = isDay(v) ? formatDate(v, locale) : v;
  const [typing, setTyping] = useState<string | null>(null); // visual: the text while the field has the focus
  return (
    <InputGroup
      {...rest}
      type="text"
      inputMode="text"
      autoComplete="off"
      lang={locale}
      value={typing ?? shown}
      data-date={isDay(v) ? v : ''}
      placeholder={placeholder ?? DATE_PLACEHOLDER[locale]}
      onFocus={(e) => {
        setTyping(shown);
        onFocus?.(e);
      }}
      onChange={(e) => {
        const text = e.currentTarget.value;
        setTyping(text);
        onChange(parseDateInput(text, locale) ?? text.trim());
      }}
      onBlur={(e) => {
        setTyping(null);
        onBlur?.(e);
      }}
    />
  );
}
