// The replay tool against journals recorded from the real session and tabs machines (fake network actors,
// a SimulatedClock for the expiry timer): same states on replay, tampering and missing events diverge at their
// line, bad files are refused with their line number and exit code 2.
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createControls } from '../model-tests/harness';
import { LOGIN_A, ME, NOW, TOKEN_A } from '../model-tests/fixtures';
import { ALARM_NOTICE_GATHER_MS } from '../contract';
import { createGatehouseSystem, getSystemActor, type GatehouseImpl } from '../machines/system';
import { createJournal } from '../machines/journal';
import { EXIT, main, replayJournal, shouldFeed } from './replay';

/** Drives a real system and returns its exported journal. */
async function record(script: (s: ReturnType<typeof start>) => Promise<void>) {
  const s = start();
  await script(s);
  return s.journal.toNdjson();
}

function start(capacity?: number) {
  const controls = createControls();
  const clock = new SimulatedClock();
  let t = NOW;
  const journal = createJournal({ capacity, now: () => (t += 7) });
  const impl: GatehouseImpl = {
    session: {
      actors: {
        restoreSession: controls.logic(),
        fetchMe: controls.logic(),
        signIn: controls.logic(),
        selectClient: controls.logic(),
        saveProfile: controls.logic(),
        saveSettings: controls.logic(),
      } as GatehouseImpl['session']['actors'],
      actions: { storeSession: () => {}, clearStoredSession: () => {}, callLogout: () => {}, goToProvider: () => {} },
      input: { loginMode: 'STANDARD' },
    },
    tabs: { actions: { persistViews: () => {} }, input: { views: [{ path: '/dashboard', title: 'Dashboard' }] } },
    companion: {
      actors: { shufflePorts: controls.logic(), probePort: controls.logic(), messages: controls.logic() } as unknown as GatehouseImpl['companion']['actors'],
    },
    cardConnector: { actors: { socket: controls.logic() } as unknown as GatehouseImpl['cardConnector']['actors'] },
    alarms: {
      actors: {
        loadAlarms: controls.logic(),
        acknowledgeAlarm: controls.logic(),
        processAlarm: controls.logic(),
      } as unknown as GatehouseImpl['alarms']['actors'],
    },
    options: { actors: { lookup: controls.logic(), search: controls.logic() } as unknown as GatehouseImpl['options']['actors'] },
    views: { resolve: () => undefined },
    socket: { actors: { readToken: controls.logic(), connection: controls.logic() } as unknown as GatehouseImpl['socket']['actors'] },
  };
  const root = createGatehouseSystem(impl, { inspect: journal.inspect, clock });
  root.start();
  return { root, controls, clock, journal, session: getSystemActor(root, 'session'), tabs: getSystemActor(root, 'tabs') };
}

/** Sign-in, three visits, a tab close, sign-out. */
const signInVisitsCloseSignOut = async ({ controls, session, tabs }: ReturnType<typeof start>) => {
  await controls.settle('restore', 'done', { token: null, now: NOW });
  session.send({ type: 'session.signIn', username: 'admin', password: 'hunter2-secret' });
  await controls.settle('signIn', 'done', LOGIN_A);
  tabs.send({ type: 'route.visited', path: '/dashboard', title: 'Dashboard', cache: true });
  tabs.send({ type: 'route.visited', path: '/monitor/alarms', title: 'Alarms', cache: true });
  tabs.send({ type: 'route.visited', path: '/manage/doors', title: 'Doors', cache: false });
  tabs.send({ type: 'tab.close', path: '/monitor/alarms' });
  session.send({ type: 'session.signOut' });
};

/** A page reload with a live stored jwt, a sleep-wake re-check, then the token's expiry timer fires. */
const reloadWakeExpire = async ({ controls, session, clock }: ReturnType<typeof start>) => {
  await controls.settle('restore', 'done', { token: TOKEN_A, now: NOW });
  await controls.settle('fetchMe', 'done', ME);
  session.send({ type: 'session.wake' });
  await controls.settle('revalidate', 'done', { token: TOKEN_A, now: NOW + 1000 });
  clock.increment(3_600_000); // exp of TOKEN_A is NOW + 1 h
  await controls.settle('revalidate', 'done', { token: TOKEN_A, now: NOW + 3_600_001 });
};

const linesOf = (nd: string) => nd.trimEnd().split('\n');
const lineOf = (nd: string, match: (e: any) => boolean) => linesOf(nd).findIndex((l, i) => i > 0 && match(JSON.parse(l))) + 1;

describe('replaying a recorded journal', () => {
  it('reproduces every recorded state of sign-in, visits, tab close and sign-out', async () => {
    const nd = await record(signInVisitsCloseSignOut);
    const r = replayJournal(nd);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (!r.ok) return;
    const session = r.steps.filter((s) => s.actor === 'session');
    expect(session.map((s) => [s.event, s.replayed])).toEqual([
      ['xstate.init', { restoring: 'reading' }],
      ['xstate.done.actor.restore', { signedOut: 'idle' }],
      ['session.signIn', { signedOut: 'signingIn' }],
      ['xstate.done.actor.signIn', { signedIn: 'active' }],
      ['session.signOut', { signedOut: 'idle' }],
    ]);
    // tabs heard session.ended from the replayed session itself: it was not fed
    const ended = r.steps.find((s) => s.actor === 'tabs' && s.event === 'session.ended');
    expect(ended).toMatchObject({ fed: false, matches: true });
    expect(r.steps.filter((s) => s.actor === 'tabs' && s.fed).map((s) => s.event)).toEqual(['route.visited', 'route.visited', 'route.visited', 'tab.close']);
    expect(r.steps.every((s) => s.matches)).toBe(true);
  });

  it('reproduces a reload with a live token, a wake re-check and the expiry timer despite the redacted jwt', async () => {
    const nd = await record(reloadWakeExpire);
    expect(nd).not.toContain(TOKEN_A);
    const r = replayJournal(nd);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (!r.ok) return;
    expect(r.steps.filter((s) => s.actor === 'session').map((s) => s.replayed)).toEqual([
      { restoring: 'reading' },
      { restoring: 'fetchingMe' },
      { signedIn: 'active' },
      { signedIn: 'validating' },
      { signedIn: 'active' },
      { signedIn: 'validating' }, // xstate.after.tokenExpiry…, fed: replay time is frozen
      { signedOut: 'idle' },
    ]);
    expect(r.steps.find((s) => s.event.startsWith('xstate.after.'))).toMatchObject({ fed: true, matches: true });
  });

  it("reproduces the reference pickers' look-ups: a batch of ids, a search, and the cache dropped at sign-out", async () => {
    const nd = await record(async ({ controls, session, clock, root }) => {
      await controls.settle('restore', 'done', { token: null, now: NOW });
      session.send({ type: 'session.signIn', username: 'admin', password: 'hunter2-secret' });
      await controls.settle('signIn', 'done', LOGIN_A);
      const options = getSystemActor(root, 'options');
      options.send({ type: 'options.label', api: '/event/manage/doors', ids: [1, 2] });
      options.send({ type: 'options.label', api: '/event/manage/doors', ids: [2, 3] });
      clock.increment(0);
      await controls.settle('lookup-1', 'done', {
        items: [
          { id: 1, label: 'Lobby' },
          { id: 2, label: 'Dock' },
        ],
      });
      options.send({ type: 'options.open', key: 'k', api: '/event/manage/doors', q: '' });
      await controls.settle('search-2', 'done', { items: [{ id: 1, label: 'Lobby' }] });
      session.send({ type: 'session.signOut' });
    });
    const r = replayJournal(nd);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (!r.ok) return;
    const options = r.steps.filter((s) => s.actor === 'options');
    expect(options.map((s) => [s.event, s.fed])).toEqual([
      ['xstate.init', false],
      ['options.label', true],
      ['options.label', true],
      ['xstate.after.batch.options.batch.gathering', true],
      ['xstate.done.actor.lookup-1', true],
      ['options.open', true],
      ['xstate.done.actor.search-2', true],
      ['session.ended', false],
    ]);
    expect(r.steps.every((s) => s.matches)).toBe(true);
  });

  it('reports a tampered state as a divergence naming its line', async () => {
    const nd = await record(signInVisitsCloseSignOut);
    const lines = linesOf(nd);
    const at = lineOf(nd, (e) => e.actor === 'session' && e.event.type === 'xstate.done.actor.signIn');
    const entry = JSON.parse(lines[at - 1]);
    lines[at - 1] = JSON.stringify({ ...entry, state: { signedOut: 'idle' } });
    const r = replayJournal(lines);
    expect(r).toMatchObject({ ok: false, kind: 'diverged', line: at });
    if (r.ok) return;
    expect(r.message).toContain(`line ${at}`);
    expect(r.message).toContain('{"signedIn":"active"}');
  });

  it('reports a journal missing an operator event where the states part', async () => {
    const nd = await record(signInVisitsCloseSignOut);
    const lines = linesOf(nd);
    const signIn = lineOf(nd, (e) => e.event.type === 'session.signIn');
    const done = lineOf(nd, (e) => e.actor === 'session' && e.event.type === 'xstate.done.actor.signIn');
    lines.splice(signIn - 1, 1);
    const r = replayJournal(lines);
    expect(r).toMatchObject({ ok: false, kind: 'diverged', line: done - 1 });
  });

  it('refuses a garbage line, naming it, before replaying anything', async () => {
    const lines = linesOf(await record(signInVisitsCloseSignOut));
    lines[4] = 'this is not json';
    expect(replayJournal(lines)).toMatchObject({ ok: false, kind: 'invalid', line: 5, message: 'line 5 is not valid JSON' });
    const noState = linesOf(await record(signInVisitsCloseSignOut));
    const e = JSON.parse(noState[5]);
    delete e.state;
    noState[5] = JSON.stringify(e);
    expect(replayJournal(noState)).toMatchObject({ ok: false, kind: 'invalid', line: 6, message: 'line 6 is not a journal entry: state is required' });
  });

  it('refuses a truncated last line, naming it', async () => {
    const nd = await record(signInVisitsCloseSignOut);
    const cut = nd.slice(0, nd.length - 20);
    const r = replayJournal(cut);
    expect(r).toMatchObject({ ok: false, kind: 'invalid', line: linesOf(nd).length });
    if (!r.ok) expect(r.message).toMatch(/truncated/);
  });

  it('refuses a journal whose beginning the ring dropped', async () => {
    const s = start(5);
    await signInVisitsCloseSignOut(s);
    expect(s.journal.dropped()).toBeGreaterThan(0);
    const r = replayJournal(s.journal.toNdjson());
    expect(r).toMatchObject({ ok: false, kind: 'invalid', line: 2 });
    if (!r.ok) expect(r.message).toMatch(/dropped or cleared/);
  });
});

/** Signed in, the open alarms read, a new alarm raised live: its notice is gathered and flushed by the alarms
 *  machine's own delayed raise (ALARM_NOTICE_GATHER_MS on the clock), then sign-out. */
const liveAlarmNoticed = async ({ controls, session, root, clock }: ReturnType<typeof start>) => {
  await controls.settle('restore', 'done', { token: null, now: NOW });
  session.send({ type: 'session.signIn', username: 'operator', password: 'hunter2-secret' });
  await controls.settle('signIn', 'done', LOGIN_A);
  const alarms = getSystemActor(root, 'alarms');
  alarms.send({ type: 'socket.resynced' });
  await controls.settle('loadAlarms', 'done', []);
  alarms.send({
    type: 'event.received',
    event: {
      id: 501,
      eventCode: 6001,
      eventPointId: 'door-5',
      eventSourceId: 1,
      eventPointName: 'Server Room',
      eventSourceName: null,
      message: 'Door forced open',
      alert: true,
      acknowledge: false,
      process: false,
      eventPoint: [],
      time: new Date(NOW + 60_000).toISOString(),
      priority: 2,
    },
  });
  clock.increment(ALARM_NOTICE_GATHER_MS);
  session.send({ type: 'session.signOut' });
};

describe('a journal with a machine’s own delayed raise', () => {
  it('replays to the same states: the flush an actor sent itself is fed where the journal has it', async () => {
    const nd = await record(liveAlarmNoticed);
    const flush = lineOf(nd, (e) => e.actor === 'alarms' && e.event.type === 'notices.flush');
    expect(JSON.parse(linesOf(nd)[flush - 1]).source).toEqual({ actor: 'alarms', machine: true });
    const r = replayJournal(nd);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (r.ok) expect(r.steps.every((st) => st.matches)).toBe(true);
  });
});

describe('which events are fed', () => {
  it('feeds outside, implementation and timer events, and never init or machine-to-machine events', () => {
    expect(shouldFeed({ event: { type: 'session.signOut' } })).toBe(true);
    expect(shouldFeed({ event: { type: 'xstate.done.actor.signIn' }, source: { actor: 'signIn', machine: false } })).toBe(true);
    expect(shouldFeed({ event: { type: 'xstate.after.tokenExpiry.session.signedIn' }, source: { actor: 'session', machine: true } })).toBe(true);
    expect(shouldFeed({ event: { type: 'session.ended' }, source: { actor: 'session', machine: true } })).toBe(false);
    expect(shouldFeed({ actor: 'alarms', event: { type: 'session.ended' }, source: { actor: 'session', machine: true } })).toBe(false);
    expect(shouldFeed({ actor: 'alarms', event: { type: 'notices.flush' }, source: { actor: 'alarms', machine: true } })).toBe(true);
    expect(shouldFeed({ event: { type: 'xstate.init' } })).toBe(false);
  });
});

describe('npm run replay', () => {
  const run = (text: string) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = main(['journal.ndjson'], { out: (s) => out.push(s), err: (s) => err.push(s), read: () => text });
    return { code, out, err };
  };

  it('prints each step and exits 0 when every state matches', async () => {
    const { code, out, err } = run(await record(signInVisitsCloseSignOut));
    expect(code).toBe(EXIT.ok);
    expect(err).toEqual([]);
    expect(out.some((l) => /line \d+ +session ← session\.signOut +→ \{"signedOut":"idle"\}/.test(l))).toBe(true);
  });

  it('exits 1 on a divergence and 2 on an invalid file, printing no steps for the latter', async () => {
    const lines = linesOf(await record(signInVisitsCloseSignOut));
    const last = JSON.parse(lines[lines.length - 1]);
    lines[lines.length - 1] = JSON.stringify({ ...last, state: 'closed' });
    const diverged = run(lines.join('\n'));
    expect(diverged.code).toBe(EXIT.diverged);
    expect(diverged.err.join('\n')).toContain(`diverged: line ${lines.length}:`);
    const invalid = run('{"kind":"gatehouse-journal","version":1,"app":"1.22.2","startedAt":0}\n{"seq":1,"at":0,');
    expect(invalid).toEqual({ code: EXIT.invalid, out: [], err: ['journal.ndjson: line 2 is not valid JSON (the file looks truncated)'] });
  });
});
