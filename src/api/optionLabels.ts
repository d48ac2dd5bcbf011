// Labels of chosen references, asked for in batches (issue 11): every picker of a form (an access group with 200 door
// rows has 400) names its chosen ids through here; the ids asked for within one tick of the event loop go to the
// target's `<api>/options?ids=` in one request per target (at most OPTION_IDS_MAX ids each), each id once, and every
// caller waiting on them is answered from it. Labels once known are kept per target for the page's life.
import type { PickOption } from './endpoints';

/** Most ids one options request names (the server's bound on `ids`). */
export const OPTION_IDS_MAX = 200;

type Fetch = (api: string, ids: readonly number[]) => Promise<{ items: PickOption[] }>;

export function createOptionLabels(fetch: Fetch, schedule: (run: () => void) => void = (run) => setTimeout(run, 0)) {
  const labels = new Map<string, string>(); // `${api}#${id}` → label
  /** per api: ids asked for in this tick, and who waits */
  const queued = new Map<string, { ids: Set<number>; waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> }>();
  const inFlight = new Map<string, Promise<void>>(); // `${api}#${id}` → its request
  let requests = 0;

  function flush(api: string) {
    const q = queued.get(api);
    queued.delete(api);
    if (!q) return;
    const ids = [...q.ids].filter((id) => !labels.has(`${api}#${id}`));
    const chunks: number[][] = [];
    for (let i = 0; i < ids.length; i += OPTION_IDS_MAX) chunks.push(ids.slice(i, i + OPTION_IDS_MAX));
    const all = chunks.map((chunk) => {
      requests++;
      const p = fetch(api, chunk).then((r) => { for (const o of r.items) labels.set(`${api}#${o.id}`, o.label); })
        .finally(() => { for (const id of chunk) inFlight.delete(`${api}#${id}`); });
      for (const id of chunk) inFlight.set(`${api}#${id}`, p);
      return p;
    });
    Promise.all(all).then(() => q.waiting.forEach((w) => w.resolve()), (e) => q.waiting.forEach((w) => w.reject(e)));
  }

  return {
    /** The label of `id` if it is known. */
    label: (api: string, id: number): string | undefined => labels.get(`${api}#${id}`),
    /** Keep labels a search answered. */
    remember(api: string, options: readonly PickOption[]) { for (const o of options) labels.set(`${api}#${o.id}`, o.label); },
    /** Resolves once every one of `ids` has been asked for (and is known, unless it does not exist). */
    load(api: string, ids: readonly number[]): Promise<void> {
      const missing = ids.filter((id) => !labels.has(`${api}#${id}`));
      if (missing.length === 0) return Promise.resolve();
      const pending = missing.map((id) => inFlight.get(`${api}#${id}`)).filter((p): p is Promise<void> => !!p);
      const fresh = missing.filter((id) => !inFlight.has(`${api}#${id}`));
      const mine = fresh.length === 0 ? Promise.resolve() : new Promise<void>((resolve, reject) => {
        let q = queued.get(api);
        if (!q) { queued.set(api, (q = { ids: new Set(), waiting: [] })); schedule(() => flush(api)); }
        for (const id of fresh) q.ids.add(id);
        q.waiting.push({ resolve, reject });
      });
      return Promise.all([...pending, mine]).then(() => undefined);
    },
    /** How many requests were made (tests). */
    get requests() { return requests; },
  };
}
