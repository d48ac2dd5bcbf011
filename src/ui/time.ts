// One rule for time on every screen (issue 10): the zone is the session's (profile, else client, else browser:
// selectDisplayZone, followed by src/app/useTimeAndLanguageSync), the format is the language's one date-time format (contract/format.ts). Views use useTime();
// declarations that are plain data (resource columns) use the plain functions, which read the same store.
import { useMemo, useSyncExternalStore } from 'react';
import { clientToday, formatDate, formatDateTime, resolveTimeZone, todayInZone, zoneLabel, type DisplayLocale } from '../../contract';
import { getLocale, timeAgoLabel, useLocale } from '../i18n';

/** The browser's own zone: the last fallback when neither the profile nor the client has one. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

let zone = resolveTimeZone(undefined, undefined, browserZone());
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};
export const getDisplayZone = () => zone;
export function setDisplayZone(next: string): void {
  if (next === zone) return;
  zone = next;
  listeners.forEach((l) => l());
}
export const useDisplayZone = () => useSyncExternalStore(subscribe, getDisplayZone, getDisplayZone);

// the selected client's own zone (selectClientZone, followed by src/system/browser.ts getSystem): a rule of today's date is
// the client's day, as on the server, not the viewer's (issue 29)
let clientZone: string | null = null;
export const setClientZone = (next: string | null): void => {
  clientZone = next;
};
/** Today in the client's zone, as the server counts a rule of today's date (contract clientToday); the viewer's
 *  zone is no part of it. */
export const getClientToday = (now = Date.now()): string => clientToday(clientZone, now);

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
  return useMemo(
    () => ({
      zone: z,
      locale,
      dateTime: (iso, withZone = false) => formatDateTime(iso, z, locale, withZone),
      date: (ymd) => formatDate(ymd, locale),
      zoneName: (at) => zoneLabel(z, at),
      ago: (iso, now) => timeAgoLabel(iso, now, locale, z),
      today: (now) => todayInZone(z, now),
    }),
    [z, locale],
  );
}
