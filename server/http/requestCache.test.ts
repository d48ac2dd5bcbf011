// The request path's cache (issue 13): grants, role privileges, divisions and the session's state are read once
// per session, last-seen is written at most once a minute, and any change to them (or a session ending, on any
// server) is seen on the very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const jtiOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti as string;
const lastSeen = async (token: string) =>
  (await s.db.query<{ t: string }>('select last_seen_at::text t from sessions where jti = $1', [jtiOf(token)])).rows[0].t;

describe('the request cache', () => {
  it("writes a busy session's last-seen at most once a minute and reads its grants once", async () => {
    const token = await s.login('operator');
    expect((await s.call('GET', API.me, { token })).status).toBe(200);
    const seen = await lastSeen(token);
    const before = { ...s.app.requestCache.stats };
    for (let i = 0; i < 3; i++) expect((await s.call('GET', API.dashboard, { token })).status).toBe(200);
    expect(await lastSeen(token)).toBe(seen);
    expect(s.app.requestCache.stats.misses).toBe(before.misses); // session and entries: hits only
    expect(s.app.requestCache.stats.hits - before.hits).toBe(6);
  });

  it('serves grants from the cache until a change is signalled, then reads them again', async () => {
    const token = await s.login('operator');
    expect((await s.call('GET', API.identities, { token })).status).toBe(200);
    const { rows: grants } = await s.db.query<Record<string, unknown>>(
      `select g.* from user_grants g join users u on u.id = g.user_id where u.username = 'operator'`,
    );
    // behind the cache's back (the trigger off), the grants go: the cached answer still holds
    await s.db.exec('alter table user_grants disable trigger auth_epoch_grants');
    try {
      await s.db.query(`delete from user_grants where user_id = (select id from users where username = 'operator')`);
    } finally {
      await s.db.exec('alter table user_grants enable trigger auth_epoch_grants');
    }
    expect((await s.call('GET', API.identities, { token })).status).toBe(200);
    // any statement on the grants signals a change: the next request reads them and finds none
    await s.db.query('update user_grants set role_code = role_code where false');
    expect((await s.call('GET', API.identities, { token })).status).toBe(403);
    for (const g of grants) {
      await s.db.query('insert into user_grants (user_id, role_code, client_id, division_id) values ($1, $2, $3, $4)', [
        g.user_id,
        g.role_code,
        g.client_id,
        g.division_id,
      ]);
    }
    expect((await s.call('GET', API.identities, { token })).status).toBe(200);
  });

  it("reads a client's divisions once for the events, alarms and alarm-count answers, and again after a division changes", async () => {
    const token = await s.login('operator');
    expect((await s.call('GET', API.alarms, { token })).status).toBe(200); // warm
    const reads = () => s.app.requestCache.stats.misses;
    const before = reads();
    const hits = s.app.requestCache.stats.hits;
    for (const path of [API.events, API.alarms, `${API.alarms}/count`, API.events]) expect((await s.call('GET', path, { token })).status).toBe(200);
    expect(reads()).toBe(before); // nothing missed the cache
    expect(s.app.requestCache.stats.hits - hits).toBe(12); // per request: the session, the grants and the divisions
    await s.db.query('update divisions set name = name where false'); // a statement on divisions signals a change
    expect((await s.call('GET', `${API.alarms}/count`, { token })).status).toBe(200);
    expect(reads()).toBeGreaterThan(before);
  });

  it('refuses a session ended elsewhere (another server on the same database) on its very next request', async () => {
    const token = await s.login('hr');
    expect((await s.call('GET', API.me, { token })).status).toBe(200);
    await s.db.query('update sessions set ended_at = now() where jti = $1', [jtiOf(token)]);
    expect((await s.call('GET', API.me, { token })).status).toBe(401);
  });

  it("refuses a signed-out token at once, while the user's other session goes on", async () => {
    const [a, b] = [await s.login('reception'), await s.login('reception')];
    for (const t of [a, b]) expect((await s.call('GET', API.me, { token: t })).status).toBe(200);
    expect((await s.call('POST', API.logout, { token: a })).status).toBe(200);
    expect((await s.call('GET', API.me, { token: a })).status).toBe(401);
    expect((await s.call('GET', API.me, { token: b })).status).toBe(200);
  });
});

describe('STOMP CONNECT', () => {
  it('reads a reconnecting console\u2019s session and grants from the same cache (issue 13)', async () => {
    const { stompClient, waitFor } = await import('../realtime/testkit');
    const { SOCKJS_PREFIX } = await import('../../contract');
    const token = await s.login('operator');
    expect((await s.call('GET', API.me, { token })).status).toBe(200); // the session and its grants are cached now
    expect((await s.call('GET', `${API.alarms}/count`, { token })).status).toBe(200); // and the client's divisions
    const before = { ...s.app.requestCache.stats };
    for (let i = 0; i < 3; i++) {
      const c = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { Authorization: `Bearer ${token}` });
      await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
      expect(c.errors).toHaveLength(0);
      await c.client.deactivate({ force: true });
    }
    expect(s.app.requestCache.stats.misses).toBe(before.misses);
    expect(s.app.requestCache.stats.hits - before.hits).toBe(9); // session, grants and divisions, per CONNECT
    // an ended session is refused at CONNECT at once
    await s.db.query('update sessions set ended_at = now() where jti = $1', [jtiOf(token)]);
    await s.db.query('update auth_epoch set epoch = epoch + 1 where id = 1');
    const late = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { Authorization: `Bearer ${token}` });
    await waitFor(() => late.errors[0] || late.closed, 'refused');
    expect(late.connected).toBeFalsy();
    await late.client.deactivate({ force: true });
  });
});

describe('the auth epoch', () => {
  it('is read on every request on a shared PostgreSQL, and on the embedded database only after it moved', async () => {
    const token = await s.login('operator');
    expect((await s.call('GET', API.me, { token })).status).toBe(200);
    const reads = () => s.app.requestCache.stats.epochReads;
    const before = reads();
    for (let i = 0; i < 5; i++) expect((await s.call('GET', API.dashboard, { token })).status).toBe(200);
    if (s.db.kind === 'pglite') {
      // the embedded database is this server's alone: it announces each move, and nothing moved
      expect(reads()).toBe(before);
      await s.db.query('update auth_epoch set epoch = epoch + 1 where id = 1');
      expect((await s.call('GET', API.me, { token })).status).toBe(200);
      expect(reads()).toBe(before + 1); // read once after the move
      // a move rolled back is not announced
      await expect(
        s.db.transaction(async (tx) => {
          await tx.query('update auth_epoch set epoch = epoch + 1 where id = 1');
          throw new Error('undone');
        }),
      ).rejects.toThrow('undone');
      expect((await s.call('GET', API.me, { token })).status).toBe(200);
      expect(reads()).toBe(before + 1);
    } else {
      // PostgreSQL is shared by other servers: read on every request
      expect(reads()).toBe(before + 5);
    }
  });
});
