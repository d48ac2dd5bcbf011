// The first day of the week per locale (issue 10): the calendar starts its weeks where the reader's region does —
// Sunday in the United States, Monday in Britain, China and most of Europe. The console's language says which
// language; the browser's own list of languages says which region of it (en-US or en-GB), and the CLDR week data the
// browser carries (Intl.Locale week info) says the day. 0 is Sunday … 6 Saturday, as date-fns counts.
export type WeekDay = 0 | 1 | 2 | 3 | 4 | 5 | 6;

interface WeekInfo {
  firstDay?: number;
}
function weekInfo(tag: string): WeekInfo | undefined {
  try {
    const l = new Intl.Locale(tag) as Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };
    return l.getWeekInfo?.() ?? l.weekInfo;
  } catch {
    return undefined;
  }
}

/** The region's tag for the console's language: the first browser language of that language, else the language. */
export function regionalTag(language: string, browserLanguages: readonly string[]): string {
  const base = language.split('-')[0].toLowerCase();
  if (language.includes('-')) {
    // a console language with its own region (zh-CN) keeps it unless the browser names the same one
    return browserLanguages.find((l) => l.toLowerCase() === language.toLowerCase()) ?? language;
  }
  return browserLanguages.find((l) => l.split('-')[0].toLowerCase() === base) ?? language;
}

/** The first day of the week for the console's language, in the browser's region of it. */
export function firstDayOfWeek(
  language: string,
  browserLanguages: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): WeekDay {
  const info = weekInfo(regionalTag(language, browserLanguages));
  // CLDR counts 1 Monday … 7 Sunday; without week data (an old browser) the ISO week: Monday
  return (info?.firstDay ? info.firstDay % 7 : 1) as WeekDay;
}
