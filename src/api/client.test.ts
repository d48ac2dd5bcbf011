import { describe, expect, it } from 'vitest';
import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { createApiClient, requestHeaders, type ApiDeps } from './client';
import { ApiError } from './errors';

const deps = (over: Partial<ApiDeps> = {}): ApiDeps => ({ getToken: () => 'tok', getClientId: () => '7', loginMode: () => 'STANDARD', report: () => {}, ...over });

describe('requestHeaders', () => {
  it('adds the bearer token except on the no-token paths', () => {
    expect(requestHeaders('/event/manage/identities', deps())).toEqual({ Authorization: 'Bearer tok' });
    expect(requestHeaders('/idp/1.0/login', deps())).toEqual({});
    expect(requestHeaders('/api/v1/upload/photo.png', deps())).toEqual({});
    expect(requestHeaders('/idp/1.0/me', deps({ getToken: () => null }))).toEqual({});
  });
  it('sends x-tenant-id from the stored client only in IAM mode', () => {
    expect(requestHeaders('/idp/1.0/me', deps({ loginMode: () => 'IAM' }))).toEqual({ Authorization: 'Bearer tok', 'x-tenant-id': '7' });
    expect(requestHeaders('/idp/1.0/me', deps())).not.toHaveProperty('x-tenant-id');
  });
  it('keeps an explicit Authorization header', () => {
    expect(requestHeaders('/idp/1.0/logout', deps(), { Authorization: 'Bearer old' })).toEqual({});
  });
});

describe('the axios instance', () => {
  it('decorates requests and reports failures as ApiError', async () => {
    const seen: InternalAxiosRequestConfig[] = [];
    const reported: ApiError[] = [];
    const client = createApiClient(() => deps({ report: (e) => reported.push(e) }));
    client.defaults.adapter = async (config) => {
      seen.push(config);
      if (config.url === '/bad') {
        const err = Object.assign(new Error('Request failed'), { config, response: { status: 400, statusText: 'Bad Request', data: { violations: [{ field: 'name', message: 'is required' }] }, headers: {}, config } });
        throw err;
      }
      return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
    };
    await client.get('/event/manage/identities');
    expect(AxiosHeaders.from(seen[0].headers).get('Authorization')).toBe('Bearer tok');
    await expect(client.post('/bad', {})).rejects.toMatchObject({ status: 400, violations: [{ field: 'name', message: 'is required' }] });
    expect(reported).toHaveLength(1);
  });
});
