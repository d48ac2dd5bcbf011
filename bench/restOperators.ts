// The `rest` bench's operator model (bench/rest.ts), run in a worker thread of its own: 50 operators, each with its
// session, open list pages, page on, search and open records with a human think time between two actions, and
// every request's time is noted. A worker, because operators' browsers are not the server's event loop's work.
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { API } from '../contract';
import { seeded } from '../server/testRandom';
import { getText } from './http';

export interface OperatorsInput {
  base: string;
  tokens: string[];
  rows: number;
  seed: number;
  seconds: number;
}

/** An operator's pause between two actions, uniform in this range. */
export const THINK_MS: readonly [number, number] = [1000, 3000];

/** What an operator opens first: the list in one of its orders (or filtered), 20 rows a page. */
export const FIRST_PAGES = [`size=20`, `size=20&sort=employeeNo,asc`, `size=20&sort=validTo,desc`, `size=20&sort=updatedAt,desc`, `size=20&status=inactive`];
/** What an operator searches for, with n from its generator (names, employee and card numbers, cost centres, e-mails). */
export const QUERIES: Array<(n: number) => string> = [
  (n) => `q=First${n}`,
  (n) => `q=EL-${n}`,
  (n) => `q=ELC-EL-${n}`,
  (n) => `q=CC-${n % 40}`,
  (n) => `q=Last${n % 5000}&status=active`,
  (n) => `q=p${n}%40bench`,
  (n) => `q=Last${n % 5000}`,
];

export type Kind = 'list' | 'search' | 'record';
export type Samples = Record<Kind, number[]>;

/** One operator's shift for `ms`: list page, sometimes the next pages, a search, a record from it; a think time between two. */
async function operator(base: string, token: string, rows: number, random: () => number, until: number, samples: Record<Kind, number[]>) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const think = () => sleep(THINK_MS[0] + random() * (THINK_MS[1] - THINK_MS[0]));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const get = async (kind: Kind, path: string) => {
    const t = performance.now();
    const body = await getText(base, path, token);
    samples[kind].push(performance.now() - t);
    return body;
  };
  await sleep(random() * 3000); // operators do not all start in the same millisecond
  while (performance.now() < until) {
    const first = pick(FIRST_PAGES);
    await get('list', `${API.identities}?page=0&${first}`);
    for (let page = 1; random() < 0.4 && page <= 3 && performance.now() < until; page++) {
      await think();
      await get('list', `${API.identities}?page=${page}&${first}`);
    }
    if (performance.now() >= until) break;
    await think();
    const found = JSON.parse(await get('search', `${API.identities}?page=0&size=20&${pick(QUERIES)(1 + Math.floor(random() * rows))}`)) as {
      items: Array<{ id: number }>;
    };
    await think();
    if (found.items.length && performance.now() < until) {
      await get('record', `${API.identities}/${pick(found.items).id}`);
      await think();
    }
  }
}

/** Every operator's shift, side by side, from one clock; each operator's generator is seeded from `seed`. */
export async function runOperators({ base, tokens, rows, seed, seconds }: OperatorsInput): Promise<Samples> {
  const samples: Samples = { list: [], search: [], record: [] };
  const until = performance.now() + seconds * 1000;
  await Promise.all(tokens.map((token, op) => operator(base, token, rows, seeded(seed * 1000 + op), until, samples)));
  return samples;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  runOperators(workerData as OperatorsInput).then(
    (samples) => port.postMessage(samples),
    (e) => {
      throw e;
    },
  );
}
