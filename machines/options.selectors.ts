// What a reference picker reads of the options actor (machines/options.ts).
import type { OptionsSnapshot, PickOption, PickerSearch } from './options';

const NO_LABELS: Record<string, string | null> = {};

/** The labels known of one target (a stable object while nothing of it changes). */
export const selectLabelsOf = (api: string) => (s: OptionsSnapshot) => s.context.labels[api] ?? NO_LABELS;

/** What tells the rows of one target apart, as far as the server said (a stable object while nothing changes). */
export const selectDetailsOf = (api: string) => (s: OptionsSnapshot) => s.context.details[api] ?? NO_LABELS;

/** Whether any of `ids` is being asked for (queued or on its way). */
export const selectNaming = (api: string, ids: readonly number[]) => (s: OptionsSnapshot) => {
  const waiting = [...(s.context.queued[api] ?? []), ...(s.context.asking[api] ?? [])];
  return ids.some((id) => waiting.includes(id));
};

/** One picker's search (undefined while it is closed). */
export const selectSearchOf =
  (key: string) =>
  (s: OptionsSnapshot): PickerSearch | undefined =>
    s.context.searches[key];

/** Grows each time the cache is dropped (sign-out, another client): a picker on screen names its ids again. */
export const selectEpoch = (s: OptionsSnapshot) => s.context.epoch;

/** A chosen id's label: the name, `…` while it is asked for, `#id` when the server named none. */
export function labelOf(labels: Record<string, string | null>, naming: boolean, id: number): string {
  const l = labels[String(id)];
  if (typeof l === 'string') return l;
  return l === undefined && naming ? '…' : `#${id}`;
}

/**
 * The rows a picker lists for what is typed now: the answer for that text; while the answer for a newer text is on
 * its way, the last answer narrowed to the rows whose label holds what is typed (the list never blinks to "Loading…"
 * under a pointer about to click a row that is still right).
 */
export function shownOptions(search: PickerSearch | undefined, query: string): { items: PickOption[]; loading: boolean } {
  if (!search) return { items: [], loading: false };
  const loading = search.asking !== null || (!search.failed && search.typed !== search.answered) || search.typed !== query;
  if (search.answered === query && search.answered !== null) return { items: search.items, loading };
  const typed = query.trim().toLowerCase();
  return { items: search.items.filter((o) => o.label.toLowerCase().includes(typed)), loading };
}

/**
 * Issue 29: what each row of a picker's list says. A title that two or more rows shown share ('Abdullah, Priya'
 * twice) gets what tells them apart beside it (the server's detail: employee no., division); a unique title stays
 * alone.
 */
export function optionRows(items: readonly PickOption[]): { option: PickOption; apart: string | null }[] {
  const count = new Map<string, number>();
  for (const o of items) count.set(o.label, (count.get(o.label) ?? 0) + 1);
  return items.map((o) => ({ option: o, apart: (count.get(o.label) ?? 0) > 1 ? o.detail || `#${o.id}` : null }));
}

/**
 * Issue 29: what a picker's button says beside a chosen row's title when another row of that target known to the
 * console has the same title (the namesake it was chosen from): the server's detail, else `#id`; null for a unique
 * title (or one not yet known).
 */
export function chosenApart(labels: Record<string, string | null>, details: Record<string, string | null>, id: number): string | null {
  const title = labels[String(id)];
  if (typeof title !== 'string') return null;
  const shared = Object.entries(labels).some(([k, l]) => l === title && k !== String(id));
  return shared ? details[String(id)] || `#${id}` : null;
}
