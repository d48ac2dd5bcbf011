// §9: the API queue runs one request at a time; auto-loading walks every page of PAGE_SIZE through it.
// (A chain of promises: each job starts when the one before it settled, whatever its outcome. Issue 48: it was an
// rxjs Subject with concatMap, the only use of rxjs's operators in the console's start.)
import { PAGE_SIZE, type PageOf } from '../../contract';

export interface RequestQueue {
  enqueue<T>(run: () => Promise<T>): Promise<T>;
}

export function createQueue(): RequestQueue {
  let last: Promise<unknown> = Promise.resolve();
  return {
    enqueue<T>(run: () => Promise<T>): Promise<T> {
      const job = last.then(run);
      last = job.catch(() => undefined);
      return job;
    },
  };
}

export const requestQueue = createQueue();

/** Every item of a list, fetched page by page (size PAGE_SIZE) through the one-at-a-time queue. */
export async function loadAll<T>(
  fetchPage: (page: number, size: number) => Promise<PageOf<T>>,
  queue: RequestQueue = requestQueue,
  size = PAGE_SIZE,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; ; page++) {
    const p = await queue.enqueue(() => fetchPage(page, size));
    items.push(...p.items);
    if (p.items.length === 0 || items.length >= p.total || p.items.length < size) return items;
  }
}
