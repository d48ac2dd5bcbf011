import { describe, expect, it, vi } from 'vitest';
import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient, eitherSignal, endSessionReads, requestHeaders, type ApiDeps } from './client';
import { ApiError } from './errors';

const deps = (over: Partial<ApiDeps> = {}): ApiDeps => ({
  getToken: () => 'tok',
  getClientId: () => '7',
  loginMode: () => 'STANDARD',
  report: () => {},
  ...over,
});

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
        const err = Object.assign(new Error('Request failed'), {
          config,
          response: { status: 400, statusText: 'Bad Request', data: { violations: [{ field: 'name', message: 'is required' }] }, headers: {}, config },
        });
        throw err;
      }
      return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
    };
    await client.get('/event/manage/identities');
    expect(AxiosHeaders.from(seen[0].headers).get('Authorization')).toBe('Bearer tok');
    await expect(client.post('/bad', {})).rejects.toMatchObject({ status: 400, violations: [{ field: 'name', message: 'is required' }] });
    expect(reported).toHaveLength(1);
  });

  it('a refusal of the old token that arrives before the switch stored the new one waits for it, then is sent again', async () => {
    let token = 'old';
    const reported: ApiError[] = [];
    const sent: string[] = [];
    let finishSwitch: () => void = () => {};
    const switched = new Promise<void>((resolve) => {
      finishSwitch = () => {
        token = 'new';
        resolve();
      };
    });
    // the read leaves before the switch starts (a read asked for during one waits for it: the test below)
    let switching = false;
    const client = createApiClient(() =>
      deps({ getToken: () => token, report: (e) => reported.push(e), settled: () => (switching ? switched : Promise.resolve()) }),
    );
    client.defaults.adapter = async (config) => {
      const auth = String(AxiosHeaders.from(config.headers).get('Authorization'));
      sent.push(auth);
      if (auth === 'Bearer old') {
        // the switch starts while it is on its way: the server ended the old session; its answer to the switch (the
        // new token) is not stored yet
        switching = true;
        setTimeout(finishSwitch, 20);
        throw Object.assign(new Error('Request failed'), {
          config,
          response: { status: 401, statusText: 'Unauthorized', data: { message: 'JWT-Invalid' }, headers: {}, config },
        });
      }
      return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
    };
    await expect(client.get('/event/manage/dashboard')).resolves.toMatchObject({ data: { ok: true } });
    expect(sent).toEqual(['Bearer old', 'Bearer new']);
    expect(reported).toEqual([]);
  });

  it('sends a request refused for a token that has since been replaced again once with the new one; an expired current one is reported', async () => {
    let token = 'old';
    const reported: ApiError[] = [];
    const sent: string[] = [];
    const client = createApiClient(() => deps({ getToken: () => token, report: (e) => reported.push(e) }));
    client.defaults.adapter = async (config) => {
      const auth = String(AxiosHeaders.from(config.headers).get('Authorization'));
      sent.push(auth);
      if (auth !== 'Bearer new') {
        // the client switch happened while this one was on its way
        token = 'new';
        throw Object.assign(new Error('Request failed'), {
          config,
          response: { status: 401, statusText: 'Unauthorized', data: { message: 'JWT-Invalid' }, headers: {}, config },
        });
      }
      return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
    };
    await expect(client.get('/event/manage/doors')).resolves.toMatchObject({ data: { ok: true } });
    expect(sent).toEqual(['Bearer old', 'Bearer new']);
    expect(reported).toEqual([]);
    // refused with the current token: the session has ended, said once, not sent again
    client.defaults.adapter = async (config) => {
      sent.push(String(AxiosHeaders.from(config.headers).get('Authorization')));
      throw Object.assign(new Error('Request failed'), {
        config,
        response: { status: 401, statusText: 'Unauthorized', data: { message: 'JWT-Invalid' }, headers: {}, config },
      });
    };
    await expect(client.get('/event/manage/doors')).rejects.toMatchObject({ status: 401 });
    expect(sent.slice(2)).toEqual(['Bearer new']);
    expect(reported.map((e) => e.status)).toEqual([401]);
    // a token the caller set itself (signing out with the old one) is never swapped
    sent.length = 0;
    await expect(client.post('/idp/1.0/logout', {}, { headers: { Authorization: 'Bearer older' } })).rejects.toMatchObject({ status: 401 });
    expect(sent).toEqual(['Bearer older']);
  });

  it('never sends a request refused for the old client\u2019s token again under another client: it ends cancelled, unreported', async () => {
    let token = 'northwind';
    let client = '1';
    const reported: ApiError[] = [];
    const sent: string[] = [];
    const api = createApiClient(() => deps({ getToken: () => token, getClientId: () => client, report: (e) => reported.push(e) }));
    api.defaults.adapter = async (config) => {
      const auth = String(AxiosHeaders.from(config.headers).get('Authorization'));
      sent.push(`${config.method} ${config.url} ${auth}`);
      if (auth === 'Bearer northwind') {
        // the switch to Harbour happened while this one was on its way
        token = 'harbour';
        client = '2';
        throw Object.assign(new Error('Request failed'), {
          config,
          response: { status: 401, statusText: 'Unauthorized', data: { message: 'JWT-Invalid' }, headers: {}, config },
        });
      }
      return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
    };
    // a read of Northwind's plan and a save into Northwind: neither reaches Harbour
    await expect(api.get('/event/manage/floor-plans/1')).rejects.toMatchObject({ cancelled: true, status: 0 });
    token = 'northwind';
    client = '1';
    await expect(api.post('/event/manage/identities', { firstName: 'Ann' })).rejects.toMatchObject({ cancelled: true });
    expect(sent).toEqual(['get /event/manage/floor-plans/1 Bearer northwind', 'post /event/manage/identities Bearer northwind']);
    expect(reported).toEqual([]);
  });
});

describe('the end of a session', () => {
  it('drops the reads on their way (the server sees them go) and lets the writes finish; the next session reads again', async () => {
    // a server that answers nothing until the test says so, and notes each request that went away unanswered
    const held: { req: IncomingMessage; res: ServerResponse }[] = [];
    const gone: string[] = [];
    const server = createServer((req, res) => {
      req.on('close', () => {
        if (!res.writableEnded) gone.push(`${req.method} ${req.url}`);
      });
      held.push({ req, res });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const reported: ApiError[] = [];
      const api = createApiClient(() => deps({ report: (e) => reported.push(e) }));
      api.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const read = api.get('/event/manage/doors');
      const write = api.post('/api/journal', { entries: [] });
      await vi.waitFor(() => expect(held).toHaveLength(2), { interval: 5 });
      endSessionReads();
      await expect(read).rejects.toMatchObject({ cancelled: true });
      await vi.waitFor(() => expect(gone).toEqual(['GET /event/manage/doors']), { interval: 5 });
      for (const h of held) if (!h.res.writableEnded && !h.req.destroyed) h.res.end('{"saved":true}');
      expect((await write).data).toEqual({ saved: true });
      // the signal of the ended session is not the next one's
      const next = api.get('/event/manage/doors');
      await vi.waitFor(() => expect(held).toHaveLength(3), { interval: 5 });
      held[2].res.end('{"items":[]}');
      expect((await next).data).toEqual({ items: [] });
      // the dropped read is reported as cancelled, which the console's toaster passes over in silence (errors.ts)
      expect(reported.map((e) => `${e.method} ${e.path} cancelled:${e.cancelled}`)).toEqual(['GET /event/manage/doors cancelled:true']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('eitherSignal', () => {
  for (const [how, any] of [
    ['with AbortSignal.any', AbortSignal.any],
    ['without it (older browsers)', undefined],
  ] as const) {
    it(`is aborted by either signal, ${how}`, () => {
      for (const which of [0, 1]) {
        const a = new AbortController();
        const b = new AbortController();
        const s = eitherSignal(a.signal, b.signal, any);
        expect(s.aborted).toBe(false);
        (which ? b : a).abort();
        expect(s.aborted).toBe(true);
      }
      const done = new AbortController();
      done.abort();
      expect(eitherSignal(done.signal, new AbortController().signal, any).aborted).toBe(true);
    });
  }
});

describe('a read asked for during a client switch', () => {
  it('waits for the new token; under another client by then it is never sent', async () => {
    let token = 'old';
    let client = '1';
    let finish: () => void = () => {};
    let switching: Promise<void> | null = new Promise<void>((resolve) => (finish = resolve));
    const sent: string[] = [];
    let asked = 0; // how many reads asked whether a switch is under way
    const settled = () => {
      asked++;
      return switching ?? Promise.resolve();
    };
    const api = createApiClient(() => deps({ getToken: () => token, getClientId: () => client, settled }));
    api.defaults.adapter = async (config) => {
      sent.push(`${config.method} ${config.url} ${AxiosHeaders.from(config.headers).get('Authorization')}`);
      return { data: { ok: true }, status: 200, statusText: 'OK', headers: {}, config };
    };
    // the same client after the switch (a new token of the same client): sent once, with the new token
    const same = api.get('/idp/1.0/me/settings');
    // a write and a read with its own token do not wait
    await api.post('/idp/1.0/select-client', { clientId: 2 });
    await api.get('/idp/1.0/me', { headers: { Authorization: 'Bearer own' } });
    expect(sent).toEqual(['post /idp/1.0/select-client Bearer old', 'get /idp/1.0/me Bearer own']);
    token = 'new';
    finish();
    switching = null;
    await same;
    expect(sent.at(-1)).toBe('get /idp/1.0/me/settings Bearer new');
    // another client by the time the switch is over: Northwind's floor plan is not read from Harbour
    switching = new Promise<void>((resolve) => (finish = resolve));
    const askedBefore = asked;
    const other = api.get('/event/manage/floor-plans/1');
    await vi.waitFor(() => expect(asked).toBe(askedBefore + 1), { interval: 5 }); // the read is waiting for the switch
    client = '2';
    token = 'harbour';
    finish();
    await expect(other).rejects.toMatchObject({ cancelled: true });
    expect(sent.some((x) => x.includes('floor-plans'))).toBe(false);
  });
});
