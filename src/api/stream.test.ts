// The streaming GET helper (§7, §8, §9): its parser on chunks cut anywhere, the event-history export against the
// real server, and servers that fail — a 5xx, a connection cut mid-stream, a stream closed before its end — to
// prove the number of tries, the single error event, and that a resumed export doubles and loses nothing.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, STREAM_RETRIES, STREAM_RETRY_MS } from '../../contract';
import { startTestServer, type TestServer } from '../../server/testkit';
import { endSessionReads } from './client';
import { ApiError } from './errors';
import { EventStreamParser, exportEventHistory, streamGet, type StreamEvent } from './stream';

const parse = (chunks: string[]) => {
  const out: StreamEvent[] = [];
  const p = new EventStreamParser((e) => out.push(e));
  for (const c of chunks) p.push(c);
  return out;
};

describe('the event-stream parser', () => {
  const text = ': keep-alive\r\nevent: progress\r\ndata: {"done":1,\r\ndata: "total":2}\r\n\r\ndata: plain\n\nevent: end\nid: 7\ndata:\n\n';
  const expected: StreamEvent[] = [
    { event: 'progress', data: '{"done":1,\n"total":2}' },
    { event: 'message', data: 'plain' },
    { event: 'end', data: '', id: '7' },
  ];
  it('joins data lines, skips comments and names unnamed events message', () => {
    expect(parse([text])).toEqual(expected);
  });
  it('gives the same events whichever way the text is cut into chunks (inside CR LF too)', () => {
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    expect(parse([...text])).toEqual(expected);
  });
  it('drops an event that never got its blank line', () => {
    expect(parse(['event: end\ndata: x\n'])).toEqual([]);
  });
});

/** A local HTTP server whose handler the test writes; counts the requests it got. */
async function fakeServer(handler: (req: IncomingMessage, res: import('node:http').ServerResponse, n: number) => void) {
  let n = 0;
  const server: Server = createServer((req, res) => handler(req, res, ++n));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => n,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
const noAuth = { getToken: () => 'tok', getClientId: () => '2', loginMode: () => 'STANDARD' as const };
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  vi.useRealTimers();
  while (open.length) await open.pop()!.close();
});

describe('streamGet against servers that fail', () => {
  it('sends the bearer token, and the tenant header in IAM mode', async () => {
    const seen: Record<string, string | undefined>[] = [];
    const srv = await fakeServer((req, res) => {
      seen.push({ authorization: req.headers.authorization, tenant: req.headers['x-tenant-id'] as string | undefined });
      res.end('event: end\ndata: {}\n\n');
    });
    open.push(srv);
    await streamGet('/x', { baseUrl: srv.base, deps: noAuth, onEvent: () => {} });
    await streamGet('/x', { baseUrl: srv.base, deps: { ...noAuth, loginMode: () => 'IAM' }, onEvent: () => {} });
    expect(seen).toEqual([
      { authorization: 'Bearer tok', tenant: undefined },
      { authorization: 'Bearer tok', tenant: '2' },
    ]);
  });

  it('issue 50: reads a stream to its close after the end event, never cancelling it first (the browser logged ERR_ABORTED)', async () => {
    let cut: boolean | null = null;
    const srv = await fakeServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // the end event, then the response's close a moment later (as a server flushing its last bytes); by then a
      // client that cancelled the body has cut the connection
      res.write('event: end\ndata: {}\n\n', () =>
        setTimeout(() => {
          cut = req.socket.destroyed || res.destroyed;
          res.end(': bye\n\n');
        }, 200),
      );
    });
    open.push(srv);
    const outcome = await streamGet('/x', { baseUrl: srv.base, deps: noAuth, onEvent: () => {} });
    expect(outcome.status).toBe('ended');
    await vi.waitFor(() => expect(cut).not.toBeNull());
    expect(cut).toBe(false); // the client read the answer to its close: nothing aborted it
  });

  it('reads the rest to the close after the end event however late the close comes (past the old 2 s limit), and a caller that stops after its answer cuts nothing', async () => {
    let cut: boolean | null = null;
    let release!: () => void;
    const closeNow = new Promise<void>((r) => (release = r));
    const srv = await fakeServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // the close waits for the test's word (a loaded server closes late)
      res.write(
        'event: end\ndata: {}\n\n',
        () =>
          void closeNow.then(() => {
            cut = req.socket.destroyed || res.destroyed;
            res.end(': bye\n\n');
          }),
      );
    });
    open.push(srv);
    const caller = new AbortController();
    let answered = false;
    const outcome = streamGet('/x', { baseUrl: srv.base, deps: noAuth, onEvent: () => {}, signal: caller.signal }).then((o) => {
      answered = true;
      return o;
    });
    // deliberate: outlasts the old limit of 2 s (a time the code measured), after which the body was cancelled
    await new Promise((r) => setTimeout(r, 2500));
    expect(answered).toBe(false); // still reading to the close
    release();
    expect((await outcome).status).toBe('ended');
    caller.abort(); // the caller stops once it has its answer (the export's actor aborts its signal when it stops)
    expect(cut).toBe(false); // the client read the answer to its close: nothing aborted it
  });

  it('retries a connection cut mid-stream `retries` times, then dispatches exactly one error event', async () => {
    const srv = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: progress\ndata: {"done":1}\n\n', () => res.destroy());
    });
    open.push(srv);
    const events: StreamEvent[] = [];
    const reported: ApiError[] = [];
    const out = await streamGet('/cut', {
      baseUrl: srv.base,
      deps: { ...noAuth, report: (e) => reported.push(e) },
      retries: 3,
      retryDelayMs: 5,
      onEvent: (e) => events.push(e),
    });
    expect(out.status).toBe('failed');
    expect(out.attempts).toBe(4);
    expect(srv.requests()).toBe(4);
    expect(events.filter((e) => e.event === 'progress')).toHaveLength(4);
    const errors = events.filter((e) => e.event === 'error');
    expect(errors).toHaveLength(1);
    expect(events.at(-1)!.event).toBe('error');
    expect(JSON.parse(errors[0].data)).toMatchObject({ status: 500, attempts: 4 });
    expect(reported).toHaveLength(1);
  });

  it('by default waits 1 s between tries and gives up after 5 retries', async () => {
    expect([STREAM_RETRIES, STREAM_RETRY_MS]).toEqual([5, 1000]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const at: number[] = []; // the fake clock when each request arrived
    const srv = await fakeServer((_req, res) => {
      at.push(Date.now());
      res.writeHead(503);
      res.end('{"message":"busy"}');
    });
    open.push(srv);
    const events: StreamEvent[] = [];
    let settled = false;
    const run = streamGet('/busy', { baseUrl: srv.base, deps: noAuth, onEvent: (e) => events.push(e) }).finally(() => {
      settled = true;
    });
    // move the fake clock 20 ms at a time, letting the real sockets work in between
    for (let step = 0; !settled && step < 5000; step++) {
      await vi.advanceTimersByTimeAsync(20);
      await new Promise((r) => setImmediate(r));
    }
    const out = await run;
    expect(out).toMatchObject({ status: 'failed', attempts: 6 });
    expect(srv.requests()).toBe(6);
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    expect(gaps.every((g) => g >= 1000 && g < 1500)).toBe(true);
    expect(events).toEqual([{ event: 'error', data: JSON.stringify({ status: 503, message: 'busy', attempts: 6, violations: [] }) }]);
  });

  it('treats a stream that closes without its end event as a failure and recovers on the next try', async () => {
    const srv = await fakeServer((_req, res, n) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(n < 3 ? 'event: a\ndata: 1\n\n' : 'event: a\ndata: 1\n\nevent: end\ndata: {}\n\nevent: after\ndata: x\n\n');
    });
    open.push(srv);
    const events: StreamEvent[] = [];
    const out = await streamGet('/short', { baseUrl: srv.base, deps: noAuth, retryDelayMs: 1, onEvent: (e) => events.push(e) });
    expect(out).toEqual({ status: 'ended', attempts: 3 });
    expect(events.map((e) => e.event)).toEqual(['a', 'a', 'a', 'end']);
  });

  it('does not retry what the server refused (4xx): one try, one error event with the violations', async () => {
    const srv = await fakeServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 400, message: 'Validation failed', violations: [{ field: 'from', message: 'must be an ISO date-time' }] }));
    });
    open.push(srv);
    const events: StreamEvent[] = [];
    const out = await streamGet('/bad', { baseUrl: srv.base, deps: noAuth, retryDelayMs: 1, onEvent: (e) => events.push(e) });
    expect(out.attempts).toBe(1);
    expect(srv.requests()).toBe(1);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].data)).toEqual({
      status: 400,
      message: 'from: must be an ISO date-time',
      attempts: 1,
      violations: [{ field: 'from', message: 'must be an ISO date-time' }],
    });
  });

  it('asks again at once with the current token when refused for one since replaced (a client switch); a refused current one is the end', async () => {
    const seen: (string | undefined)[] = [];
    const srv = await fakeServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== 'Bearer new') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 401, message: 'JWT-Invalid' }));
        return;
      }
      res.end('event: end\ndata: {}\n\n');
    });
    open.push(srv);
    let token = 'old';
    const reported: unknown[] = [];
    // the switch lands while the first request is on its way: the token read after the answer is the new one
    const deps = {
      ...noAuth,
      getToken: () => {
        const t = token;
        token = 'new';
        return t;
      },
      report: (e: unknown) => reported.push(e),
    };
    const out = await streamGet('/x', { baseUrl: srv.base, deps, retryDelayMs: 1, onEvent: () => {} });
    expect(out).toMatchObject({ status: 'ended', attempts: 1 });
    expect(seen).toEqual(['Bearer old', 'Bearer new']);
    expect(reported).toEqual([]);
    // refused with the token the console holds now: failed, said once, not asked again
    seen.length = 0;
    token = 'gone';
    const refused = await streamGet('/x', {
      baseUrl: srv.base,
      deps: { ...noAuth, getToken: () => 'gone', report: (e: unknown) => reported.push(e) },
      retryDelayMs: 1,
      onEvent: () => {},
    });
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(seen).toEqual(['Bearer gone']);
    expect(reported).toHaveLength(1);
  });

  it('ends, unreported and not asked again, when refused for the token of a client the console has since switched from', async () => {
    const seen: (string | undefined)[] = [];
    const srv = await fakeServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 401, message: 'JWT-Invalid' }));
    });
    open.push(srv);
    let token = 'northwind';
    let client = '1';
    const reported: unknown[] = [];
    const events: StreamEvent[] = [];
    const deps = {
      ...noAuth,
      getClientId: () => client,
      getToken: () => {
        const t = token;
        // the switch to Harbour lands while the first request is on its way
        token = 'harbour';
        client = '2';
        return t;
      },
      report: (e: unknown) => reported.push(e),
    };
    const out = await streamGet('/x', { baseUrl: srv.base, deps, retryDelayMs: 1, onEvent: (e) => events.push(e) });
    expect(out).toEqual({ status: 'aborted', attempts: 1 });
    expect(seen).toEqual(['Bearer northwind']);
    expect(events).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('stops quietly when aborted while waiting to retry', async () => {
    const srv = await fakeServer((_req, res) => {
      res.writeHead(502);
      res.end();
    });
    open.push(srv);
    const ac = new AbortController();
    const events: StreamEvent[] = [];
    const run = streamGet('/x', { baseUrl: srv.base, deps: noAuth, retryDelayMs: 60_000, signal: ac.signal, onEvent: (e) => events.push(e) });
    await vi.waitFor(() => expect(srv.requests()).toBe(1), { interval: 5 });
    ac.abort();
    expect(await run).toEqual({ status: 'aborted', attempts: 1 });
    expect(events).toEqual([]);
  });
});

describe('a stream at the end of the session', () => {
  it('stops quietly when the session it started in ends (endSessionReads), its connection closed', async () => {
    let closed = false;
    const srv = await fakeServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: progress\ndata: {}\n\n');
      req.on('close', () => (closed = true));
    });
    open.push(srv);
    const events: StreamEvent[] = [];
    const run = streamGet('/x', { baseUrl: srv.base, deps: noAuth, onEvent: (e) => events.push(e) });
    await vi.waitFor(() => expect(events).toHaveLength(1), { interval: 5 });
    endSessionReads();
    expect(await run).toEqual({ status: 'aborted', attempts: 1 });
    await vi.waitFor(() => expect(closed).toBe(true), { interval: 5 });
  });
});

describe('a stream asked for during a client switch', () => {
  it('waits for the switch, and under another client by then is never sent', async () => {
    const srv = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: end\ndata:\n\n');
    });
    open.push(srv);
    let client = '2';
    let finish: () => void = () => {};
    const switching = new Promise<void>((resolve) => (finish = resolve));
    let asked = 0;
    const settled = () => {
      asked++;
      return switching;
    };
    const deps = { ...noAuth, getClientId: () => client, settled };
    const run = streamGet('/x', { baseUrl: srv.base, deps, onEvent: () => {} });
    // the stream has asked whether a switch is under way (a 20 ms sleep stood here); a request sent anyway is seen below
    await vi.waitFor(() => expect(asked).toBe(1), { interval: 5 });
    expect(srv.requests()).toBe(0); // waiting for the switch
    client = '3';
    finish();
    expect(await run).toEqual({ status: 'aborted', attempts: 1 });
    expect(srv.requests()).toBe(0);
  });
});

describe('the event-history export against the real server', () => {
  let s: TestServer;
  let token: string;
  let northwind: number;
  beforeAll(async () => {
    s = await startTestServer();
    token = await s.login('operator');
    northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
    await s.db.query(
      `insert into events (client_id, event_code, event_source_id, event_point_id, event_point_name, message)
      select $1, case when g % 4 = 0 then 2002 else 1000 end, 'reader-1', 'door-' || (g % 3), 'Door "' || (g % 3) || '", east', 'Swipe ' || g
      from generate_series(1, 5000) g`,
      [northwind],
    );
  });
  afterAll(async () => {
    await s?.close();
  });
  const deps = () => ({ getToken: () => token, getClientId: () => null, loginMode: () => 'STANDARD' as const });
  const file = async (q: string) => (await fetch(`${s.base}${API.eventsExport}?${q}`, { headers: { authorization: `Bearer ${token}` } })).text();

  it('downloads the filtered history as the same CSV the file export gives, with progress up to the total', async () => {
    const progress: { done: number; total: number }[] = [];
    const out = await exportEventHistory({ eventCode: '1000' }, 'csv', { baseUrl: s.base, deps: deps(), onProgress: (p) => progress.push(p) });
    if (out.status !== 'ended') throw new Error(`export ${out.status}`);
    const total = await s.count('select 1 from events where client_id = $1 and event_code = 1000', [northwind]);
    expect(out).toMatchObject({ done: total, total, attempts: 1 });
    expect(out.filename).toMatch(/^events-.*\.csv$/);
    expect(await out.blob.text()).toBe(await file('format=csv&eventCode=1000'));
    expect(progress[0]).toEqual({ done: 0, total });
    expect(progress.at(-1)).toEqual({ done: total, total });
    expect(progress.every((p, i) => i === 0 || p.done >= progress[i - 1].done)).toBe(true);
  });

  it('resumes after the connection is cut mid-export: the file has every row once', async () => {
    // a proxy to the real server that cuts the first response after its first 100 kB
    const proxy = await fakeServer((req, res, n) => {
      const up = request(`${s.base}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        let sent = 0;
        r.on('data', (chunk: Buffer) => {
          sent += chunk.length;
          res.write(chunk);
          if (n === 1 && sent > 100_000) {
            r.destroy();
            res.destroy();
          }
        });
        r.on('end', () => res.end());
      });
      up.end();
    });
    open.push(proxy);
    const out = await exportEventHistory({}, 'ndjson', { baseUrl: proxy.base, deps: deps(), retryDelayMs: 1 });
    if (out.status !== 'ended') throw new Error(`export ${out.status}`);
    expect(out.attempts).toBe(2);
    const text = await out.blob.text();
    expect(text).toBe(await file('format=ndjson'));
    const ids = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(out.done).toBe(ids.length);
    expect(out.total).toBe(ids.length);
  });

  it('gets one error event and no file for a bad filter, without retrying', async () => {
    const events: StreamEvent[] = [];
    const out = await streamGet(`${API.eventsExportProgress}?format=csv&from=soon`, {
      baseUrl: s.base,
      deps: deps(),
      retryDelayMs: 1,
      onEvent: (e) => events.push(e),
    });
    expect(out).toMatchObject({ status: 'failed', attempts: 1 });
    expect(events.map((e) => e.event)).toEqual(['error']);
    expect(JSON.parse(events[0].data).violations).toEqual([{ field: 'from', message: 'must be an ISO date-time', code: 'dateTime.notIso', values: {} }]);
    const exp = await exportEventHistory({ alert: 'maybe' }, 'csv', { baseUrl: s.base, deps: deps(), retryDelayMs: 1 });
    expect(exp.status).toBe('failed');
  });
});
