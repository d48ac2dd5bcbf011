// The journal's recording half: what an entry holds, the bounded ring, redaction before anything is stored.
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, sendTo, setup, waitFor } from 'xstate';
import { jwtDecode } from 'jwt-decode';
import { API_KEY_PATTERN, REDACTED, ROOT_ACTOR, parseJournal, redact } from '../contract';
import { createGatehouseSystem } from './system';
import { createJournal, replayImpl, replayViewerMachine } from './journal';
import { selectJournalActors, selectTimeline } from './journal.selectors';
import { TOKEN_A, TOKEN_B, NOW } from '../model-tests/fixtures';

const left = createMachine({ id: 'left', initial: 'off', states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } } });
const right = setup({}).createMachine({
  id: 'right',
  initial: 'idle',
  states: { idle: { on: { poke: { target: 'poked', actions: sendTo(({ system }) => system.get('left'), { type: 'flip' }) } } }, poked: {} },
});
const pair = setup({ actors: { left, right } }).createMachine({
  id: 'pair',
  invoke: [
    { id: 'left', systemId: 'left', src: 'left' },
    { id: 'right', src: 'right' },
  ],
});

describe('createJournal', () => {
  it('records each received event with its receiver, sender, clock time and resulting state', () => {
    let t = NOW;
    const j = createJournal({ now: () => ++t });
    const root = createActor(pair, { inspect: j.inspect }).start();
    root.system.get('left')!.send({ type: 'flip', password: 'pa55word' });
    (root.getSnapshot().children as any).right.send({ type: 'poke' });
    const tail = j.entries().slice(-3);
    expect(tail).toEqual([
      { seq: 4, at: NOW + 5, actor: 'left', event: { type: 'flip', password: REDACTED }, state: 'on' },
      { seq: 5, at: NOW + 6, actor: 'right', event: { type: 'poke' }, state: 'poked' },
      { seq: 6, at: NOW + 7, actor: 'left', event: { type: 'flip' }, source: { actor: 'right', machine: true }, state: 'off' },
    ]);
    expect(j.entries()[0]).toMatchObject({ seq: 1, actor: ROOT_ACTOR, event: { type: 'xstate.init' } });
  });

  it('redacts an event when it is read, each line keeping the order seq, at, actor, event, source, state', () => {
    const heard: unknown[] = [];
    const j = createJournal({ now: () => 7, onEntry: (e) => heard.push(e) });
    const root = createActor(pair, { inspect: j.inspect }).start();
    (root.getSnapshot().children as any).right.send({ type: 'poke', body: { accessToken: 'plain-secret', nested: [{ password: 'x' }] } });
    const poke = j.entries().find((e) => e.event.type === 'poke')!;
    expect(poke.event).toEqual({ type: 'poke', body: { accessToken: REDACTED, nested: [{ password: REDACTED }] } });
    expect(heard).toContainEqual(poke); // what onEntry hears is redacted too
    expect(j.entries().find((e) => e.event.type === 'poke')).toBe(poke); // redacted once, then kept
    const lines = j
      .toNdjson()
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Object.keys(JSON.parse(l)));
    expect(lines.every((keys) => keys.join() === 'seq,at,actor,event,state' || keys.join() === 'seq,at,actor,event,source,state')).toBe(true);
    expect(j.toNdjson()).not.toContain('plain-secret');
  });

  it('reads the entries after a seq one at a time, redacting each only when it is reached, and knows its last seq', () => {
    const j = createJournal({ now: () => 7 });
    expect(j.lastSeq()).toBe(0);
    const root = createActor(pair, { inspect: j.inspect }).start();
    for (let i = 0; i < 4; i++) root.system.get('left')!.send({ type: 'flip', password: `secret-${i}` });
    const all = j.entries();
    expect(j.lastSeq()).toBe(all.at(-1)!.seq);
    expect([...j.entriesAfter(2)]).toEqual(all.filter((e) => e.seq > 2));
    expect([...j.entriesAfter(2, 4)].map((e) => e.seq)).toEqual([3, 4]);
    const fresh = createJournal({ now: () => 7 });
    const other = createActor(pair, { inspect: fresh.inspect }).start();
    other.system.get('left')!.send({ type: 'flip', password: 'kept-out' });
    const first = fresh.entriesAfter(0).next().value!;
    expect(first.seq).toBe(1);
    expect([...fresh.entriesAfter(0)].map((e) => JSON.stringify(e.event)).join()).not.toContain('kept-out');
  });

  it('keeps only the newest entries up to its capacity and counts the dropped ones', () => {
    const j = createJournal({ capacity: 2 });
    const root = createActor(pair, { inspect: j.inspect }).start();
    for (let i = 0; i < 3; i++) root.system.get('left')!.send({ type: 'flip' });
    expect(j.entries().map((e) => e.seq)).toEqual([5, 6]);
    expect(j.dropped()).toBe(4);
    j.clear();
    expect(j.entries()).toEqual([]);
    root.system.get('left')!.send({ type: 'flip' });
    expect(j.entries().map((e) => e.seq)).toEqual([7]); // seq keeps counting: a cleared journal never looks whole
  });

  it('counts a batch by its items: a busy site keeps about as many events in the ring, batched or not', () => {
    const j = createJournal({ capacity: 5 });
    const root = createActor(pair, { inspect: j.inspect }).start();
    j.clear(); // the start's entries (seq 1–3) out of the way
    const left = root.system.get('left')!;
    left.send({ type: 'flip' }); // seq 4
    left.send({ type: 'flip', facts: [1, 2, 3] }); // seq 5, weighs 3
    left.send({ type: 'flip' }); // seq 6
    expect(j.entries().map((e) => e.seq)).toEqual([4, 5, 6]); // 1 + 3 + 1 = 5
    left.send({ type: 'flip' });
    expect(j.entries().map((e) => e.seq)).toEqual([5, 6, 7]);
    expect(j.dropped()).toBe(1);
    left.send({ type: 'flip', messages: Array.from({ length: 9 }, (_, i) => i) }); // above the capacity on its own
    expect(j.entries().map((e) => e.seq)).toEqual([8]);
    expect(j.dropped()).toBe(4);
  });

  it('records the status of actors that are not machines and exports NDJSON the parser accepts', async () => {
    const j = createJournal({ now: () => 5 });
    const m = setup({ actors: { load: fromPromise(async () => ({ token: TOKEN_A })) } }).createMachine({
      initial: 'loading',
      states: { loading: { invoke: { id: 'load', src: 'load', onDone: 'done' } }, done: {} },
    });
    const actor = createActor(m, { inspect: j.inspect }).start();
    await waitFor(actor, (s) => s.value === 'done', { timeout: 5000 }); // the promise actor's answer taken (a bare tick stood here)
    const nd = j.toNdjson();
    expect(nd).not.toContain(TOKEN_A);
    expect(nd.endsWith('\n')).toBe(true);
    const parsed = parseJournal(nd);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.journal.header).toEqual({ kind: 'gatehouse-journal', version: 1, app: '1.22.2', startedAt: 5 });
    expect(parsed.journal.lines.map(({ entry }) => [entry.actor, entry.event.type, entry.state])).toEqual([
      [ROOT_ACTOR, 'xstate.init', 'loading'],
      ['load', 'xstate.init', 'active'],
      ['load', 'xstate.promise.resolve', 'done'],
      [ROOT_ACTOR, 'xstate.done.actor.load', 'done'],
    ]);
  });
});

describe('redact', () => {
  it('replaces passwords, tokens and authorization values at any depth', () => {
    expect(redact({ a: [{ password: 'x1', oldPassword: 'x2', newPassword: 'x3', authorization: 'Bearer abc', accessToken: 'q', token: 'plain' }] })).toEqual({
      a: [{ password: REDACTED, oldPassword: REDACTED, newPassword: REDACTED, authorization: REDACTED, accessToken: REDACTED, token: REDACTED }],
    });
  });

  it("takes a service account's API key out of its field and out of any text, keeping its key id (issue 11)", () => {
    const key = `gh_0123456789ab_${'A1b2-C3d_'.repeat(4)}xyzQ789`;
    expect(key).toMatch(API_KEY_PATTERN);
    const out = redact({ output: { id: 4, name: 'Gate controller', apiKey: key }, message: `Key ${key} issued.` }) as {
      output: { apiKey: string };
      message: string;
    };
    expect(out.output.apiKey).toBe(REDACTED);
    expect(out.message).toBe(`Key gh_0123456789ab_${REDACTED} issued.`);
    expect(JSON.stringify(out)).not.toContain(key.slice(16));
  });

  it('keeps absent and blank secrets, which machines branch on', () => {
    expect(redact({ token: null, password: '', other: undefined })).toEqual({ token: null, password: '' });
  });

  it('turns a jwt anywhere into an unsigned surrogate keeping only exp and identity', () => {
    const out = redact({ msg: `sent ${TOKEN_A} twice`, token: TOKEN_A, b: TOKEN_B }) as Record<string, string>;
    expect(JSON.stringify(out)).not.toContain(TOKEN_A.split('.')[1]);
    expect(JSON.stringify(out)).not.toContain(TOKEN_A.split('.')[2]);
    expect(jwtDecode<{ exp: number; sub?: string }>(out.token)).toEqual({ exp: NOW / 1000 + 3600, ref: expect.any(String) });
    expect(out.msg).toBe(`sent ${out.token} twice`);
    expect(out.b).not.toBe(out.token);
    expect(redact(out)).toEqual(out); // idempotent
  });

  it('makes errors, dates, actor-like objects and cycles JSON-safe', () => {
    const cyc: Record<string, unknown> = { n: 1 };
    cyc.self = cyc;
    expect(redact({ e: new Error('Wrong username or password'), d: new Date(0), f: () => 1, cyc })).toEqual({
      e: { name: 'Error', message: 'Wrong username or password' },
      d: '1970-01-01T00:00:00.000Z',
      cyc: { n: 1, self: '[circular]' },
    });
  });
});

describe('the replay screen actor', () => {
  const header = JSON.stringify({ kind: 'gatehouse-journal', version: 1, app: '1.22.2', startedAt: 0 });
  // a Gatehouse system (the viewer replays with its machines) whose session never hears back from storage
  const good = (() => {
    const j = createJournal();
    const root = createGatehouseSystem(replayImpl(), { inspect: j.inspect }).start();
    root.system.get('tabs')!.send({ type: 'route.visited', path: '/monitor/replay', title: 'Replay', cache: true });
    return j.toNdjson();
  })();
  const loaded = async (actor: ReturnType<typeof createActor<typeof replayViewerMachine>>) => waitFor(actor, (s) => !s.hasTag('busy'));

  it('loads and replays a journal, and filters its timeline by machine', async () => {
    const actor = createActor(replayViewerMachine).start();
    actor.send({ type: 'journal.load', name: 'a.ndjson', text: good });
    const s = await loaded(actor);
    expect(s.context).toMatchObject({ name: 'a.ndjson', error: null });
    expect(s.context.result?.ok).toBe(true);
    expect(selectJournalActors(s.context)).toEqual([
      ROOT_ACTOR,
      'tabs',
      'tour',
      'companion',
      'shuffle',
      'cardConnector',
      'alarms',
      'hardwareStatus',
      'options',
      'views',
      'socket.events',
      'socket.central',
      'socket.visitor',
      'session',
      'restore',
    ]);
    actor.send({ type: 'filter.set', actor: 'tabs' });
    const timeline = selectTimeline(actor.getSnapshot().context);
    expect(timeline.map((t) => [t.entry.event.type, t.step?.replayed, t.diverged])).toEqual([
      ['xstate.init', 'open', false],
      ['route.visited', 'open', false],
    ]);
  });

  it('refuses an invalid file with its line and keeps the journal already loaded', async () => {
    const actor = createActor(replayViewerMachine).start();
    actor.send({ type: 'journal.load', name: 'a.ndjson', text: good });
    await loaded(actor);
    actor.send({ type: 'journal.load', name: 'b.ndjson', text: `${header}\n{"seq":1,` });
    const s = await loaded(actor);
    expect(s.context.error?.message).toBe('b.ndjson: line 2 is not valid JSON (the file looks truncated)');
    expect(s.context.name).toBe('a.ndjson');
    expect(s.context.result?.journal.lines).toHaveLength(good.trimEnd().split('\n').length - 1);
  });

  it('marks the step where a tampered journal diverges', async () => {
    const lines = good.trimEnd().split('\n');
    expect(lines[lines.length - 1]).toContain('"state":"open"');
    lines[lines.length - 1] = lines[lines.length - 1].replace('"state":"open"', '"state":"closed"');
    const actor = createActor(replayViewerMachine).start();
    actor.send({ type: 'journal.load', name: 't.ndjson', text: lines.join('\n') });
    const s = await loaded(actor);
    expect(
      selectTimeline(s.context)
        .filter((t) => t.diverged)
        .map((t) => t.line),
    ).toEqual([lines.length]);
  });
});
