import { afterEach, describe, expect, it } from 'vitest';
import type { AxiosAdapter } from 'axios';
import { api } from './client';
import { listQuery, me } from './endpoints';
import { listIdentities } from './endpointsScreens';
import { ApiError } from './errors';

const original = api.defaults.adapter;
afterEach(() => {
  api.defaults.adapter = original;
});
const respond =
  (data: unknown, seen: any[] = []): AxiosAdapter =>
  async (config) => {
    seen.push(config);
    return { data, status: 200, statusText: 'OK', headers: {}, config };
  };

describe('endpoints', () => {
  it('builds list params with the contract sort builder and drops empty filters', () => {
    expect(
      listQuery({
        page: 2,
        size: 100,
        sort: [
          { field: 'lastName', dir: 'asc' },
          { field: 'id', dir: 'desc' },
        ],
        filters: { q: 'ada', status: '' },
      }),
    ).toEqual({ page: 2, size: 100, sort: 'lastName,asc,id,desc', q: 'ada' });
  });

  it('sends list queries to the contract path', async () => {
    const seen: any[] = [];
    api.defaults.adapter = respond({ items: [], total: 0, page: 0, size: 100 }, seen);
    await listIdentities({ page: 0, size: 100, sort: [{ field: 'lastName', dir: 'asc' }] });
    expect(seen[0].url).toBe('/event/manage/identities');
    expect(seen[0].params).toEqual({ page: 0, size: 100, sort: 'lastName,asc' });
  });

  it('rejects a response that does not match the contract schema', async () => {
    api.defaults.adapter = respond({ user: { id: 'one' }, privileges: { priviledges: [] }, settings: {} });
    await expect(me('tok')).rejects.toBeInstanceOf(ApiError);
    await expect(me('tok')).rejects.toMatchObject({ message: expect.stringContaining('Invalid response from /idp/1.0/me') });
  });
});
