import { describe, expect, it } from 'vitest';
import { createOptionLabels, OPTION_IDS_MAX } from './optionLabels';

const fakeServer = () => {
  const calls: { api: string; ids: number[] }[] = [];
  const fetch = async (api: string, ids: readonly number[]) => {
    calls.push({ api, ids: [...ids] });
    await new Promise((r) => setTimeout(r, 5));
    return { items: ids.filter((id) => id < 1000).map((id) => ({ id, label: `${api} ${id}` })) };
  };
  return { calls, fetch };
};

describe('labels of chosen references, in batches', () => {
  it('asks once per target for every id asked for in one tick, each id once', async () => {
    const srv = fakeServer();
    const o = createOptionLabels(srv.fetch);
    await Promise.all([o.load('/doors', [1, 2]), o.load('/doors', [2, 3]), o.load('/schedules', [1]), o.load('/doors', [3])]);
    expect(srv.calls).toEqual([{ api: '/doors', ids: [1, 2, 3] }, { api: '/schedules', ids: [1] }]);
    expect(o.label('/doors', 3)).toBe('/doors 3');
    expect(o.label('/schedules', 1)).toBe('/schedules 1');
  });
  it('never asks again for a known label, and joins a request already on its way', async () => {
    const srv = fakeServer();
    const o = createOptionLabels(srv.fetch);
    o.remember('/doors', [{ id: 5, label: 'Lobby' }]);
    await o.load('/doors', [5]);
    expect(srv.calls).toEqual([]);
    const first = o.load('/doors', [6]);
    await new Promise((r) => setTimeout(r, 1)); // the request is on its way
    const second = o.load('/doors', [6]);
    await Promise.all([first, second]);
    expect(srv.calls).toEqual([{ api: '/doors', ids: [6] }]);
  });
  it('splits a long list into requests the server takes, and answers an id that does not exist without a label', async () => {
    const srv = fakeServer();
    const o = createOptionLabels(srv.fetch);
    const ids = Array.from({ length: OPTION_IDS_MAX + 5 }, (_, i) => i + 1);
    await o.load('/identities', [...ids, 5000]);
    expect(srv.calls.map((c) => c.ids.length)).toEqual([OPTION_IDS_MAX, 6]);
    expect(o.label('/identities', 5000)).toBeUndefined();
    expect(o.requests).toBe(2);
  });
  it('passes a failure on to every caller of the batch', async () => {
    const o = createOptionLabels(async () => { throw new Error('offline'); });
    await expect(Promise.all([o.load('/doors', [1]), o.load('/doors', [2])])).rejects.toThrow('offline');
  });
});
