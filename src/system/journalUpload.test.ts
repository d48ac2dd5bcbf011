// Session replay from the console's side (issue 4): the draw at sign-in (§9 rate 0.1, an override for tests, kept
// across a reload), the chunks, and the real uploader following a real session machine against a real server:
// sampled sessions upload, failures keep their entries for the next try, sign-out flushes once, unsampled
// sessions send nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import {
  API,
  JOURNAL_KEEPALIVE_BYTES,
  REPLAY_DECISION_KEY,
  REPLAY_OVERRIDE_KEY,
  SESSION_REPLAY_RATE,
  isSampled,
  journalHeader,
  parseJournal,
  uploadDelayMs,
  type JournalEntry,
} from '../../contract';
import { createJournal } from '../../machines/journal';
import { sessionMachine, type Authenticated, type RestoredToken } from '../../machines/session';
import { startTestServer, type TestServer } from '../../server/testkit';
import { applyReplayQuery, chunkStream, decideSession, readReplayOverride, startJournalUploader, uploadEntries, type JournalUploader } from './journalUpload';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      data.set(k, v);
    },
    removeItem: (k: string) => {
      data.delete(k);
    },
    data,
  };
}
/** Resolve once `fact()` holds, polling (a visible fact, never a sleep for time). */
async function until(fact: () => boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!fact()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${fact}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
const jwtWith = (claims: Record<string, unknown>) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('the draw (§9 session replay rate)', () => {
  it('samples a draw below the rate and no other, unless overridden', () => {
    expect(SESSION_REPLAY_RATE).toBe(0.1);
    expect(isSampled(0)).toBe(true);
    expect(isSampled(0.0999)).toBe(true);
    expect(isSampled(0.1)).toBe(false);
    expect(isSampled(0.5)).toBe(false);
    expect(isSampled(Number.NaN)).toBe(false);
    expect(isSampled(0.9, 'always')).toBe(true);
    expect(isSampled(0.01, 'never')).toBe(false);
  });

  it('draws once per session: a reload of the same session keeps it, a new session draws again', () => {
    const storage = memoryStorage();
    const draws = [0.05, 0.5];
    const deps = { storage, random: () => draws.shift()!, newId: () => 'rec-00000001' };
    const a = jwtWith({ jti: 'session-a' });
    expect(decideSession(deps, { token: a, carried: null })).toEqual({ sampled: true, recording: 'rec-00000001' });
    expect(decideSession(deps, { token: a, carried: null }).sampled).toBe(true); // reload: no second draw
    expect(draws).toEqual([0.5]);
    expect(decideSession(deps, { token: jwtWith({ jti: 'session-b' }), carried: null }).sampled).toBe(false);
    expect(JSON.parse(storage.getItem(REPLAY_DECISION_KEY)!)).toEqual({ key: 'session-b', sampled: false });
    // a client switch carries the session's draw
    expect(decideSession(deps, { token: jwtWith({ jti: 'session-c' }), carried: true }).sampled).toBe(true);
  });

  it('lets localStorage or ?replay= force the draw either way, and ignores other values', () => {
    const storage = memoryStorage();
    const deps = { storage, random: () => 0.99, newId: () => 'rec-00000002' };
    applyReplayQuery('?replay=1', storage);
    expect(readReplayOverride(storage)).toBe('always');
    expect(decideSession(deps, { token: jwtWith({ jti: 'x' }), carried: null }).sampled).toBe(true);
    applyReplayQuery('?replay=0&tab=2', storage);
    expect(decideSession({ ...deps, random: () => 0 }, { token: jwtWith({ jti: 'y' }), carried: null }).sampled).toBe(false);
    applyReplayQuery('?other=1', storage);
    expect(storage.getItem(REPLAY_OVERRIDE_KEY)).toBe('never');
    applyReplayQuery('?replay=', storage);
    expect(readReplayOverride(storage)).toBeNull();
    storage.setItem(REPLAY_OVERRIDE_KEY, 'sometimes');
    expect(readReplayOverride(storage)).toBeNull();
  });

  it('waits the interval between uploads, doubling per failure up to five minutes', () => {
    expect([0, 1, 2, 3, 10].map(uploadDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000, 300_000]);
  });
});

describe('chunks', () => {
  const header = journalHeader(1000);
  const e = (seq: number, size = 10): JournalEntry => ({ seq, at: seq, actor: 'tabs', event: { type: 'x', pad: 'p'.repeat(size) }, state: 's' });

  it('starts every chunk with the header and keeps each within the keep-alive budget', () => {
    const entries = Array.from({ length: 40 }, (_, i) => e(i + 1, 4000));
    const chunks = [...chunkStream(header, entries)];
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.bytes).toBeLessThanOrEqual(JOURNAL_KEEPALIVE_BYTES);
      const parsed = parseJournal(c.text);
      expect(parsed.ok).toBe(true);
    }
    expect(chunks.map((c) => c.last).at(-1)).toBe(40);
    expect(
      chunks.flatMap((c) =>
        c.text
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => JSON.parse(l).seq),
      ),
    ).toEqual(entries.map((x) => x.seq));
  });

  it('makes each chunk only when it is asked for, reading no entry of the next (an upload of 5,000 entries is no long task)', () => {
    let pulled = 0;
    function* many() {
      for (let i = 1; i <= 5000; i++) {
        pulled++;
        yield e(i, 200);
      }
    }
    const stream = chunkStream(header, many());
    const first = stream.next().value!;
    const inFirst = first.text.trim().split('\n').length - 1;
    expect(inFirst).toBeGreaterThan(10);
    expect(inFirst).toBeLessThan(5000);
    expect(pulled).toBe(inFirst + 1); // the entry that did not fit starts the next chunk; no other was read
    expect(first.bytes).toBe(new TextEncoder().encode(first.text).length);
    const rest = [...stream];
    expect(
      [first, ...rest].flatMap((c) =>
        c.text
          .trim()
          .split('\n')
          .slice(1)
          .map((l: string) => JSON.parse(l).seq),
      ),
    ).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    for (const c of rest) expect(c.bytes).toBe(new TextEncoder().encode(c.text).length);
  });

  it('sends an entry larger than the budget alone, and redacts what it sends', () => {
    const big = { ...e(2, JOURNAL_KEEPALIVE_BYTES + 10) };
    const secret = { ...e(3), event: { type: 'session.signIn', password: 'Gatehouse1!' } };
    const chunks = [...chunkStream(header, [e(1), big, secret])];
    expect(chunks.map((c) => c.last)).toEqual([1, 2, 3]);
    expect(chunks[2].text).not.toContain('Gatehouse1!');
  });
});

describe('the uploader against a real server', () => {
  let s: TestServer;
  const uploaders: JournalUploader[] = [];
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterEach(() => {
    for (const u of uploaders.splice(0)) u.stop();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A real session machine signing in over REST, recorded by a real journal; the uploader follows it. */
  function consoleOf(opts: { draw: number; network?: { down: boolean; slowMs?: number }; recording?: string }) {
    const journal = createJournal({ now: () => Date.now() });
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(s.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return res.json();
    };
    let uploader: JournalUploader | null = null;
    const logouts: string[] = [];
    const session = createActor(
      sessionMachine.provide({
        actors: {
          restoreSession: fromPromise<RestoredToken>(async () => ({ token: null, now: Date.now() })),
          signIn: fromPromise<Authenticated, { username: string; password: string }>(async ({ input }) => ({
            ...(await post(API.login, input)),
            now: Date.now(),
          })),
        },
        actions: {
          // as src/system/browser.ts: the recorded session's last entries go before the token dies
          callLogout: (_, { token }) => {
            if (token)
              void uploader!
                .settled()
                .then(() => post(API.logout, {}, token))
                .then(() => {
                  logouts.push(token);
                });
          },
        },
      }),
      { input: {}, inspect: journal.inspect },
    ).start();
    const network = opts.network ?? { down: false };
    uploader = startJournalUploader(session, {
      journal,
      storage: memoryStorage(),
      random: () => opts.draw,
      newId: () => opts.recording ?? `rec-${Math.random().toString(36).slice(2)}-test`,
      base: s.base,
      fetch: async (input, init) => {
        if (network.down) throw new TypeError('fetch failed: network down');
        // a busy server: the answer comes this much later
        if (network.slowMs) await new Promise((r) => setTimeout(r, network.slowMs));
        return fetch(input, init);
      },
    });
    uploaders.push(uploader);
    return { session, journal, uploader, logouts, network };
  }
  /** Sign in through the real form's event once the session has finished restoring (there is nothing to restore). */
  async function signIn(c: ReturnType<typeof consoleOf>, username: string) {
    await waitFor(c.session, (x) => x.hasTag('signedOut') && !x.hasTag('busy'));
    c.session.send({ type: 'session.signIn', username, password: 'Gatehouse1!' });
    await waitFor(c.session, (x) => x.hasTag('signedIn'));
  }
  const storedSeqs = async (recording: string) =>
    (
      await s.db.query<{ seq: number }>(
        'select e.seq from session_journal_entries e join session_journals j on j.id = e.journal_id where j.recording = $1 order by e.seq',
        [recording],
      )
    ).rows.map((r) => Number(r.seq));

  it('uploads a sampled session, keeps entries through a failure, and flushes once at sign-out', async () => {
    const c = consoleOf({ draw: 0.05, network: { down: true } });
    await signIn(c, 'operator');
    await waitFor(c.uploader.actor, (x) => x.matches({ recording: 'waiting' }));
    const recording = c.uploader.actor.getSnapshot().context.recording!;

    // the network is down: the upload fails, nothing is lost, the next try waits twice as long
    c.uploader.actor.send({ type: 'journal.flush' });
    await waitFor(c.uploader.actor, (x) => x.matches({ recording: 'waiting' }) && x.context.failures === 1);
    expect(c.uploader.actor.getSnapshot().context.sent).toBe(0);
    expect(await storedSeqs(recording)).toEqual([]);

    c.network.down = false;
    c.uploader.actor.send({ type: 'journal.flush' });
    await waitFor(c.uploader.actor, (x) => x.matches({ recording: 'waiting' }) && x.context.failures === 0);
    const firstUpload = await storedSeqs(recording);
    expect(firstUpload[0]).toBe(1); // from the page's start: the journal replays
    expect(firstUpload).toEqual(
      c.journal
        .entries()
        .filter((e) => e.seq <= firstUpload.at(-1)!)
        .map((e) => e.seq),
    );

    c.session.send({ type: 'session.signOut' });
    await until(() => c.logouts.length === 1);
    expect(c.uploader.actor.getSnapshot().value).toBe('idle');
    const all = await storedSeqs(recording);
    const signOut = c.journal.entries().find((e) => e.event.type === 'session.signOut')!;
    expect(all).toContain(signOut.seq);
    expect(all.length).toBeGreaterThan(firstUpload.length);
    // the password typed at sign-in never reached the server
    const lines = (
      await s.db.query<{ line: string }>('select line from session_journal_entries e join session_journals j on j.id = e.journal_id where j.recording = $1', [
        recording,
      ])
    ).rows
      .map((r) => r.line)
      .join('\n');
    expect(lines).toContain('session.signIn');
    expect(lines).not.toContain('Gatehouse1!');
    // the upload went before the logout: the stored session is the one that ended
    expect(
      await s.count('select 1 from session_journals j join sessions x on x.jti = j.jti where j.recording = $1 and x.ended_at is not null', [recording]),
    ).toBe(1);
  });

  it("waits for a slow flush before the logout, so a busy server still gets the session's last entries", async () => {
    // seen in CI on a loaded machine: the last chunks took over 5 s, sign-out's logout went first (it waited at most
    // 5 s), the token died and the flush was refused with 401
    const c = consoleOf({ draw: 0.05 });
    await signIn(c, 'operator');
    await waitFor(c.uploader.actor, (x) => x.matches({ recording: 'waiting' }));
    const recording = c.uploader.actor.getSnapshot().context.recording!;
    c.network.slowMs = 7000;
    c.session.send({ type: 'session.signOut' });
    await until(() => c.logouts.length === 1, 20_000);
    const signOut = c.journal.entries().find((e) => e.event.type === 'session.signOut')!;
    expect(await storedSeqs(recording)).toContain(signOut.seq);
  });

  it('sends nothing for a session the draw left out', async () => {
    const c = consoleOf({ draw: 0.5, recording: 'rec-never-sent-01' });
    await signIn(c, 'operator');
    await waitFor(c.uploader.actor, (x) => x.matches('unsampled'));
    c.uploader.actor.send({ type: 'journal.flush' });
    c.session.send({ type: 'session.signOut' });
    await until(() => c.logouts.length === 1);
    expect(await s.count(`select 1 from session_journals where recording = 'rec-never-sent-01'`)).toBe(0);
  });

  it("starts the next sign-in of the page after the previous session, so no user's events land in another's recording", async () => {
    let n = 0;
    const c = consoleOf({ draw: 0.01 });
    await signIn(c, 'operator');
    await waitFor(c.uploader.actor, (x) => x.matches('recording'));
    const first = c.uploader.actor.getSnapshot().context.recording!;
    c.session.send({ type: 'session.signOut' });
    n++;
    await until(() => c.logouts.length === n);
    const endedAt = c.uploader.actor.getSnapshot().context.endedAt;
    await signIn(c, 'auditor');
    await waitFor(c.uploader.actor, (x) => x.matches('recording'));
    const second = c.uploader.actor.getSnapshot().context.recording!;
    expect(second).not.toBe(first);
    c.session.send({ type: 'session.signOut' });
    n++;
    await until(() => c.logouts.length === n);
    const a = await storedSeqs(first);
    const b = await storedSeqs(second);
    expect(a.at(-1)).toBeLessThanOrEqual(endedAt);
    expect(b[0]).toBeGreaterThan(endedAt);
    const owners = (
      await s.db.query<{ username: string }>(
        'select u.username from session_journals j join users u on u.id = j.user_id where recording = any($1) order by j.id',
        [[first, second]],
      )
    ).rows;
    expect(owners.map((o) => o.username)).toEqual(['operator', 'auditor']);
  });

  it('stops recording when the server refuses the session, instead of retrying for ever', async () => {
    const recording = `rec-taken-${Date.now()}`;
    // another session already owns this recording id
    const other = await s.login('auditor');
    const header = journalHeader(1);
    const taken = await fetch(`${s.base}${API.sessionJournals}/${recording}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${other}` },
      body: [header, { seq: 1, at: 1, actor: '#root', event: { type: 'xstate.init' }, state: 'x' }].map((l) => JSON.stringify(l)).join('\n') + '\n',
    });
    expect(taken.status).toBe(200);
    const c = consoleOf({ draw: 0.01, recording });
    await signIn(c, 'operator');
    await waitFor(c.uploader.actor, (x) => x.matches({ recording: 'waiting' }));
    c.uploader.actor.send({ type: 'journal.flush' });
    await waitFor(c.uploader.actor, (x) => x.matches('stopped'));
    expect(c.uploader.actor.getSnapshot().context.stopped).toMatch(/^404 Recording not found/);
  });

  it('reports a refusal as permanent and a server outage as worth retrying', async () => {
    const journal = createJournal({ now: () => 1 });
    const root = createActor(setup({}).createMachine({}), { inspect: journal.inspect }).start();
    root.stop();
    const input = { token: 'not-a-token', recording: 'rec-refused-1', after: 0, upTo: null };
    await expect(uploadEntries({ journal, base: s.base }, input)).rejects.toMatchObject({ permanent: true, status: 401 });
    await expect(uploadEntries({ journal, base: s.base, fetch: async () => new Response('{}', { status: 503 }) }, input)).rejects.toMatchObject({
      permanent: false,
      status: 503,
    });
    // nothing new: nothing sent, the mark stays
    await expect(uploadEntries({ journal, base: s.base }, { ...input, after: 99 })).resolves.toEqual({ through: 99 });
  });

  it('sends no further chunk of an upload the machine left, and drops the one in flight', async () => {
    // a real recording of a signed-in session
    const c = consoleOf({ draw: 0.05 });
    await signIn(c, 'operator');
    await waitFor(c.uploader.actor, (x) => x.hasTag('recording'));
    const { recording, token } = c.uploader.actor.getSnapshot().context;
    // a journal of three chunks and more
    const journal = createJournal({ now: () => Date.now() });
    const root = createActor(setup({}).createMachine({ on: { pad: {} } }), { inspect: journal.inspect }).start();
    for (let i = 0; i < 40; i++) root.send({ type: 'pad', text: 'p'.repeat(4000) } as never);
    root.stop();
    expect([...chunkStream(journal.header(), journal.entriesAfter(0, null))].length).toBeGreaterThan(2);
    const left = new AbortController();
    const sent: Array<{ signal: AbortSignal | null | undefined; status: number }> = [];
    // the first chunk reaches the server, and the machine leaves the upload while it is answered
    const fetchThenLeave: typeof fetch = async (url, init) => {
      const answer = await fetch(url, init);
      sent.push({ signal: init?.signal, status: answer.status });
      left.abort();
      return answer;
    };
    const input = { token: token ?? '', recording: recording ?? '', after: 0, upTo: null };
    await expect(uploadEntries({ journal, base: s.base, fetch: fetchThenLeave }, input, left.signal)).rejects.toMatchObject({ permanent: false });
    expect(sent).toEqual([{ signal: left.signal, status: 200 }]);
  });
});
