import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../contract';
import { createQueue, loadAll } from './queue';

describe('request queue', () => {
  it('runs one request at a time, in order, and survives a failure', async () => {
    const q = createQueue();
    let running = 0;
    let maxRunning = 0;
    const order: number[] = [];
    const job =
      (n: number, fail = false) =>
      () =>
        new Promise<number>((resolve, reject) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          setTimeout(() => {
            running--;
            order.push(n);
            if (fail) reject(new Error(`job ${n}`));
            else resolve(n);
          }, 5 - n);
        });
    const results = await Promise.allSettled([q.enqueue(job(1)), q.enqueue(job(2, true)), q.enqueue(job(3))]);
    expect(maxRunning).toBe(1);
    expect(order).toEqual([1, 2, 3]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('auto-loads every page of PAGE_SIZE', async () => {
    const total = PAGE_SIZE * 2 + 5;
    const asked: Array<[number, number]> = [];
    const all = Array.from({ length: total }, (_, i) => i);
    const items = await loadAll(async (page, size) => {
      asked.push([page, size]);
      return { items: all.slice(page * size, page * size + size), total, page, size };
    }, createQueue());
    expect(items).toEqual(all);
    expect(asked).toEqual([
      [0, PAGE_SIZE],
      [1, PAGE_SIZE],
      [2, PAGE_SIZE],
    ]);
  });
});
