// One rule for time on every screen (issue 10): the zone is the session's (profile, else client, else browser:
// selectDisplayZone, followed by src/app/useTimeAndLanguageSync), the format is the language's one date-time format (contract/format.ts). Views use useTime();
// declarations that are plain data (resource columns) use the plain functions, which read the same store.
import { useMemo, useSyncExternalStore } from 'react';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { formatDate, formatDateTime, resolveTimeZone, todayInZone, zoneLabel, type DisplayLocale } from '../../contract';
import { getLocale, timeAgoLabel, useLocale } from '../i18n';

/** The browser's own zone: the last fallback when neither the profile nor the client has one. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

let zone = resolveTimeZone(undefined, undefined, browserZone());
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => { listeners.add(l); return () => { listeners.delete(l); }; };
export const getDisplayZone = () => zone;
export function setDisplayZone(next: string): void {
  if (next === zone) return;
  zone = next;
  listeners.forEach((l) => l());
}
export const useDisplayZone = () => useSyncExternalStore(subscribe, getDisplayZone, getDisplayZone);

/** Plain formatters for declarations: the current zone and language (a list re-renders through useTime()). */
export const showDateTime = (iso: string | null | undefined, withZone = false) => formatDateTime(iso, zone, getLocale(), withZone);
export const showDate = (ymd: string | null | undefined) => formatDate(ymd, getLocale());
/** A time column's header: 'When (GMT+5:30)'. */
export const withZoneLabel = (title: string) => `${title} (${zoneLabel(zone)})`;

export interface TimeFormat {
  zone: string;
  locale: DisplayLocale;
  /** an instant, e.g. '23 Nov 2026, 14:32:05' (with the zone's name when `withZone`, for detail pages) */
  dateTime: (iso: string | number | Date | null | undefined, withZone?: boolean) => string;
  /** a calendar date ('2026-11-23') in the language's format */
  date: (ymd: string | null | undefined) => string;
  /** the zone's short name now (or at an instant): 'GMT+5:30' */
  zoneName: (at?: string | Date | number) => string;
  /** §9 time-ago; older than two days, the date-time */
  ago: (iso: string | number | Date, now: number) => string;
  /** today in the user's zone, as a date input wants it */
  today: (now: number) => string;
}

export function useTime(): TimeFormat {
  const z = useDisplayZone();
  const locale = useLocale();
  return useMemo(() => ({
    zone: z,
    locale,
    dateTime: (iso, withZone = false) => formatDateTime(iso, z, locale, withZone),
    date: (ymd) => formatDate(ymd, locale),
    zoneName: (at) => zoneLabel(z, at),
    ago: (iso, now) => timeAgoLabel(iso, now, locale, z),
    today: (now) => todayInZone(z, now),
  }), [z, locale]);
}

/** An instant as a date-time input types it in `zone` ('2026-11-24T18:00'). */
export function zonedInput(iso: string, zone: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : formatInTimeZone(t, zone, "yyyy-MM-dd'T'HH:mm");
}
/** What a date-time input typed in `zone` → the instant (ISO 8601, UTC); anything else is given back as it is, for
 *  the schema to name. */
export function fromZonedInput(local: string, zone: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return local;
  const d = fromZonedTime(local, zone);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
}
