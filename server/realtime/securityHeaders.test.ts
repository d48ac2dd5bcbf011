// Issue 45: SockJS answers its prefixes outside Fastify, and /ws/event/info carried none of the security headers every
// other answer has. Each service's info, and an API answer, now carry the same ones (SUBRESOURCE_HEADERS, held equal
// to what helmet sets so the two cannot drift).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, REALTIME_SERVICES, SOCKJS_PREFIX } from '../../contract';
import { SUBRESOURCE_HEADERS } from '../http/static';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const pick = (h: Headers) => Object.fromEntries(Object.keys(SUBRESOURCE_HEADERS).map((k) => [k, h.get(k)]));

describe('security headers on the real-time endpoints', () => {
  it('are what helmet sets on an API answer', async () => {
    const r = await fetch(`${s.base}${API.health}`);
    expect(pick(r.headers)).toEqual(SUBRESOURCE_HEADERS);
  });

  it('are on every service\u2019s SockJS info answer too', async () => {
    expect(REALTIME_SERVICES.length).toBeGreaterThan(0);
    for (const svc of REALTIME_SERVICES) {
      const r = await fetch(`${s.base}${SOCKJS_PREFIX[svc]}/info`);
      expect(r.status, svc).toBe(200);
      expect(pick(r.headers), svc).toEqual(SUBRESOURCE_HEADERS);
    }
  });
});
