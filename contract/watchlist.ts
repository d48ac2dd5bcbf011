// The visitor watchlist's matching (issue 50; contract/resources/visitorWatchlist.ts declares the list): who a
// registration or a visit request may be. One pure function, run by the server on every registration and request
// and held to examples by watchlist.test.ts. A name matches exactly once case, accents and spacing are set aside
// ("Zoë  MÜLLER" is "zoe muller"), in either order (first-last or last-first), or closely: a small edit distance
// (none for names of up to 4 letters, 1 up to 7, 2 beyond) counts as a similar name, which the receptionist checks by the date of
// birth and photo shown beside it. A document number matches exactly once spaces, dashes and case are set aside.

export const WATCHLIST_KINDS = [
  { value: 'deny', label: 'Deny entry' },
  { value: 'watch', label: 'Watch' },
] as const;
export const WATCHLIST_MATCHES = [
  { value: 'document', label: 'Same document number' },
  { value: 'name', label: 'Same name' },
  { value: 'similar-name', label: 'Similar name' },
] as const;
export type WatchlistMatchKind = (typeof WATCHLIST_MATCHES)[number]['value'];
/** What a registration's or request's match stands at: waiting for the front desk's decision, or decided. */
export const WATCHLIST_STATES = [
  { value: 'open', label: 'On the watchlist: decide' },
  { value: 'admitted', label: 'Let in after the watchlist check' },
  { value: 'refused', label: 'Refused: on the watchlist' },
] as const;

/** Lower case, accents and marks off (NFKD), anything not a letter or digit a single space. */
export function normaliseName(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Upper case, letters and digits only. */
export const normaliseDocument = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();

/** Levenshtein distance, stopping early once it exceeds `max` (then max + 1). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The edit distance still counted as a similar name, by the length of the shorter (letters only). */
export const similarWithin = (letters: number) => (letters <= 4 ? 0 : letters <= 7 ? 1 : 2);

export interface WatchlistEntryLike {
  fullName: string;
  documentNumber?: string | null;
}
export interface Candidate {
  firstName: string;
  lastName: string;
  documentNumber?: string | null;
}

/** How `c` matches entry `e`, the strongest way, or null. */
export function watchlistMatch(c: Candidate, e: WatchlistEntryLike): WatchlistMatchKind | null {
  const doc = c.documentNumber ? normaliseDocument(c.documentNumber) : '';
  if (doc && e.documentNumber && normaliseDocument(e.documentNumber) === doc) return 'document';
  const listed = normaliseName(e.fullName);
  if (!listed) return null;
  const orders = [normaliseName(`${c.firstName} ${c.lastName}`), normaliseName(`${c.lastName} ${c.firstName}`)];
  if (orders.includes(listed)) return 'name';
  const letters = (s: string) => s.replace(/ /g, '');
  const within = similarWithin(Math.min(letters(listed).length, letters(orders[0]).length));
  if (within > 0 && orders.some((o) => editDistance(o, listed, within) <= within)) return 'similar-name';
  return null;
}
