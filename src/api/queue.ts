// §9: the API queue runs one request at a time; auto-loading walks every page of PAGE_SIZE through it.
import { Subject, concatMap, from } from 'rxjs';
import { PAGE_SIZE, type PageOf } from '../../contract';

interface Job {
  run: () => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export interface RequestQueue {
  enqueue<T>(run: () => Promise<T>): Promise<T>;
}

export function createQueue(): RequestQueue {
  const jobs = new Subject<Job>();
  jobs.pipe(concatMap((job) => from(Promise.resolve().then(job.run).then(job.resolve, job.reject)))).subscribe();
  return {
    enqueue<T>(run: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => jobs.next({ run, resolve: resolve as (v: unknown) => void, reject }));
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
