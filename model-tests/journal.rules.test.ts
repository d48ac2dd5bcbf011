// The journal replay's rules (machines/journal.replay.ts), written down here apart from the replay and checked on
// journals recorded from a real Gatehouse system and then changed by hand, each answer worked out from the rule (the
// mutation run of 2026-12-03, docs/TESTING.md "Mutation score": journal.test.ts replays one good journal and one
// changed state, so the other ways a replay refuses or parts, and their words, passed weakened):
//  - which recorded events the replay sends (shouldFeed's table);
//  - a journal that cannot be replayed is refused on its line, with words saying why;
//  - a replay parts at the first line whose event or resulting state differs, or that it never produced, or after the
//    last line when it produced more, each said with the line, the actor and the event;
//  - the order of the keys of a state value does not matter;
//  - the views' own actors are re-run by their kind (list, form, liveEvents), the others are not.
import { describe, expect, it } from 'vitest';
import { APP_VERSION, ROOT_ACTOR, parseJournal } from '../contract';
import { createGatehouseSystem } from '../machines/system';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createJournal, replayImpl, replayJournal, replayViewerMachine, replayViews, shouldFeed, type ReplayResult } from '../machines/journal';

/** A journal of a system started, then the replay screen visited (the lines of journal.test.ts's good journal). */
function recorded(): string[] {
  const j = createJournal();
  const root = createGatehouseSystem(replayImpl(), { inspect: j.inspect }).start();
  root.system.get('tabs')!.send({ type: 'route.visited', path: '/monitor/replay', title: 'Replay', cache: true });
  root.stop();
  return j.toNdjson().trimEnd().split('\n');
}
/** The file line (1-based, the header is 1) of the first entry of `actor` ← `type`. */
const lineOf = (lines: string[], actor: string, type: string) =>
  1 + lines.findIndex((l, i) => i > 0 && JSON.parse(l).actor === actor && JSON.parse(l).event.type === type);
const edit = (lines: string[], line: number, change: (entry: Record<string, any>) => void) => {
  const entry = JSON.parse(lines[line - 1]);
  change(entry);
  return lines.map((l, i) => (i === line - 1 ? JSON.stringify(entry) : l));
};

describe('which recorded events a replay sends', () => {
  const root = { actor: ROOT_ACTOR, machine: true };
  const cases: Array<[string, Parameters<typeof shouldFeed>[0], boolean]> = [
    ['a start (never sent: the system starts itself)', { actor: 'tabs', event: { type: 'xstate.init' }, source: root }, false],
    ['a start from outside', { actor: ROOT_ACTOR, event: { type: 'xstate.init' } }, false],
    ['an event from outside the system', { actor: 'tabs', event: { type: 'route.visited' } }, true],
    [
      'an event from an implementation actor (inert in a replay)',
      { actor: 'session', event: { type: 'xstate.done.actor.restore' }, source: { actor: 'restore', machine: false } },
      true,
    ],
    ['a timer (replay time is frozen)', { actor: 'alarms', event: { type: 'xstate.after.300.alarms' }, source: { actor: 'alarms', machine: true } }, true],
    ['a timer from another machine', { actor: 'alarms', event: { type: 'xstate.after.1' }, source: { actor: 'session', machine: true } }, true],
    [
      'an event a machine sent itself (a delayed raise)',
      { actor: 'alarms', event: { type: 'notices.flush' }, source: { actor: 'alarms', machine: true } },
      true,
    ],
    [
      'an event another machine sent (the replay must produce it)',
      { actor: 'tabs', event: { type: 'session.ended' }, source: { actor: 'session', machine: true } },
      false,
    ],
    ['from a machine, the receiver not named', { event: { type: 'session.ended' }, source: { actor: 'session', machine: true } }, false],
  ];
  it.each(cases)('%s', (_why, entry, fed) => {
    expect(shouldFeed(entry)).toBe(fed);
  });
});

describe('a journal the replay refuses', () => {
  it('has a header but no events', () => {
    const [header] = recorded();
    expect(replayJournal(`${header}\n`)).toEqual({
      ok: false,
      kind: 'invalid',
      line: 1,
      message: 'the journal has a header but no events',
      said: { message: 'the journal has a header but no events', code: 'journal.noEvents', values: {} },
    });
  });
  it("does not start from the system's start (its beginning dropped): said on its first line", () => {
    const [header, , second, ...rest] = recorded();
    expect(replayJournal([header, second, ...rest])).toEqual({
      ok: false,
      kind: 'invalid',
      line: 2,
      message: `line 2 is seq 2 (tabs ← xstate.init): a replay starts from the system's start (seq 1, ${ROOT_ACTOR} ← xstate.init); this journal's beginning was dropped or cleared`,
      said: expect.objectContaining({ code: 'journal.notFromStart', values: { line: 2, seq: 2, actor: 'tabs', event: 'xstate.init', root: ROOT_ACTOR } }),
    });
  });
  it('starts with another actor or another event at seq 1', () => {
    const lines = recorded();
    const other = edit(lines, 2, (e) => (e.actor = 'tabs'));
    expect(replayJournal(other)).toMatchObject({ ok: false, kind: 'invalid', line: 2 });
    const notInit = edit(lines, 2, (e) => (e.event = { type: 'route.visited' }));
    expect(replayJournal(notInit)).toMatchObject({ ok: false, kind: 'invalid', line: 2 });
  });
  it('is not a journal (the parser names the line)', () => {
    const [header] = recorded();
    expect(replayJournal(`${header}\n{"seq":1,`)).toMatchObject({ ok: false, kind: 'invalid', line: 2 });
  });
});

describe('a journal replayed', () => {
  it('replays whole, a line, an array of lines or a parsed journal alike, each step in line order, fed or produced', () => {
    const lines = recorded();
    const r = replayJournal(lines.join('\n'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    const visited = lineOf(lines, 'tabs', 'route.visited');
    // every line of a machine of the system has its step, in line order; the implementation actors' lines have none
    const machines = new Set([
      'tabs',
      'tour',
      'companion',
      'cardConnector',
      'alarms',
      'hardwareStatus',
      'options',
      'views',
      'socket.events',
      'socket.central',
      'socket.visitor',
      'session',
      ROOT_ACTOR,
    ]);
    const expected = lines
      .slice(1)
      .map((l, i) => ({ line: i + 2, e: JSON.parse(l) }))
      .filter(({ e }) => machines.has(e.actor));
    expect(r.steps.map((s) => [s.line, s.actor, s.event, s.matches])).toEqual(expected.map(({ line, e }) => [line, e.actor, e.event.type, true]));
    expect(r.steps.find((s) => s.line === visited)).toEqual({
      line: visited,
      actor: 'tabs',
      event: 'route.visited',
      fed: true,
      recorded: 'open',
      replayed: 'open',
      matches: true,
    });
    expect(r.steps.find((s) => s.line === 3)).toMatchObject({ actor: 'tabs', event: 'xstate.init', fed: false });
    expect(replayJournal(lines)).toEqual(r);
    const parsed = parseJournal(lines.join('\n'));
    expect(parsed.ok && replayJournal(parsed.journal)).toEqual(r);
  });

  it('warns when the journal was recorded by another version of Gatehouse, and replays it', () => {
    const lines = recorded();
    const older = edit(lines, 1, (h) => (h.app = '0.0.1'));
    const r = replayJournal(older);
    expect(r).toMatchObject({
      ok: true,
      warnings: [`recorded by Gatehouse 0.0.1, replayed with ${APP_VERSION}`],
      warned: [{ code: 'journal.otherVersion', values: { recorded: '0.0.1', replayed: APP_VERSION } }],
    });
  });

  it('does not mind the order of the keys of a state value', () => {
    const lines = recorded();
    const at = lineOf(lines, 'alarms', 'xstate.init');
    expect(JSON.parse(lines[at - 1]).state).toEqual({ feed: 'live', command: 'ready' });
    const swapped = edit(lines, at, (e) => (e.state = { command: 'ready', feed: 'live' }));
    expect(replayJournal(swapped).ok).toBe(true);
  });
});

describe('a replay that parts from its journal', () => {
  it('says the line, the actor, the event and both states when a state differs', () => {
    const lines = recorded();
    const at = lineOf(lines, 'alarms', 'xstate.init');
    const r = replayJournal(edit(lines, at, (e) => (e.state = { feed: 'live', command: 'busy' })));
    expect(r).toMatchObject({
      ok: false,
      kind: 'diverged',
      line: at,
      message: `line ${at}: alarms after xstate.init is {"command":"ready","feed":"live"} in the replay, the journal says {"command":"busy","feed":"live"}`,
    });
    if (r.ok || r.kind !== 'diverged') return;
    expect(r.steps.find((s) => s.line === at)).toMatchObject({
      matches: false,
      recorded: { feed: 'live', command: 'busy' },
      replayed: { feed: 'live', command: 'ready' },
    });
    // it stops there: no step after the line it parted at
    expect(Math.max(...r.steps.map((s) => s.line))).toBe(at);
  });

  it('says which event the replay processed where the journal has another', () => {
    const lines = recorded();
    const at = lineOf(lines, 'tour', 'xstate.init');
    const r = replayJournal(edit(lines, at, (e) => (e.event = { type: 'tour.started' })));
    expect(r).toMatchObject({
      ok: false,
      kind: 'diverged',
      line: at,
      message: `line ${at}: the journal has tour ← tour.started, the replay processed tour ← xstate.init there`,
    });
  });

  it('names a line for an event a machine sends that the replay never produced', () => {
    const lines = recorded();
    const extra = JSON.stringify({
      seq: 100,
      at: 0,
      actor: 'tabs',
      event: { type: 'session.ended' },
      source: { actor: 'session', machine: true },
      state: 'open',
    });
    const r = replayJournal([...lines, extra]);
    expect(r).toMatchObject({
      ok: false,
      kind: 'diverged',
      line: lines.length + 1,
      message: `line ${lines.length + 1}: the journal has tabs ← session.ended, the replay never produced it`,
    });
  });

  it('says after the last line what the replay processed that the journal does not have', () => {
    const lines = recorded();
    const at = lineOf(lines, 'tour', 'xstate.init');
    const r = replayJournal(lines.filter((_, i) => i !== at - 1));
    expect(r).toMatchObject({
      ok: false,
      kind: 'diverged',
      line: lines.length - 1,
      message: `after line ${lines.length - 1}: the replay also processed tour ← xstate.init, which the journal does not have`,
    });
  });

  it('names the line of an event sent to an actor no longer running', () => {
    const lines = recorded();
    // a list view opened and closed by the recorded `views`, then an event for it
    const seq = lines.length;
    const more = [
      { actor: 'views', event: { type: 'view.open', id: 'list:identities#1', input: { resource: 'identities' } }, state: {} },
      { actor: 'views', event: { type: 'view.close', id: 'list:identities#1' }, state: {} },
      { actor: 'list:identities#1', event: { type: 'list.refresh' }, state: 'loading' },
    ].map((e, i) => JSON.stringify({ seq: seq + i, at: 0, ...e }));
    const r = replayJournal([...lines, ...more]);
    expect(r).toMatchObject({ ok: false, kind: 'diverged' });
    if (r.ok) return;
    expect([r.line, r.message]).toEqual([
      lines.length + 3,
      `line ${lines.length + 3}: no running actor 'list:identities#1' in the replay to send list.refresh to`,
    ]);
  });
});

describe("the views' own actors in a replay", () => {
  it('re-runs a list, a form and the live events list by the kind in their id, one logic per kind, and nothing else', () => {
    const resolve = replayViews();
    const list = resolve('list:identities#3');
    expect(list).toBeDefined();
    expect(resolve('list:doors#9')).toBe(list);
    const form = resolve('form:doors#7');
    expect(form).toBeDefined();
    expect(form).not.toBe(list);
    expect(resolve('liveEvents#4')).toBeDefined();
    expect(resolve('liveEvents#4')).not.toBe(list);
    for (const id of ['threatLevel#1', 'reading:door#2', 'toString#1', 'constructor#2', 'hasOwnProperty#1']) expect([id, resolve(id)]).toEqual([id, undefined]);
    // its network slots are inert: a list opened in a replay asks, and is never answered
    const impl = replayImpl();
    expect(Object.keys(impl).sort()).toEqual(
      ['alarms', 'cardConnector', 'companion', 'hardwareStatus', 'options', 'session', 'socket', 'tabs', 'tour', 'views'].sort(),
    );
  });
});

describe('the replay screen', () => {
  const viewer = (replay = replayViewerMachine) => createActor(replay).start();
  const settled = (actor: ReturnType<typeof viewer>) => waitFor(actor, (s) => !s.hasTag('busy'));

  it('is busy while a file replays, keeps the one that diverged with its steps, and forgets the machine filter at a new file', async () => {
    const lines = recorded();
    const actor = viewer();
    actor.send({ type: 'filter.set', actor: 'tabs' });
    expect(actor.getSnapshot().context.filter).toBe('tabs');
    const at = lineOf(lines, 'tour', 'xstate.init');
    actor.send({ type: 'journal.load', name: 'd.ndjson', text: edit(lines, at, (e) => (e.state = 'showing')).join('\n') });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.loading).toBe('d.ndjson');
    const s = await settled(actor);
    expect(s.context).toMatchObject({ name: 'd.ndjson', loading: null, error: null, filter: null, result: { ok: false, kind: 'diverged', line: at } });
  });

  it("names the file in a refusal, keeps it until dismissed, and says 'Could not replay the journal' when the replay itself fails", async () => {
    const actor = viewer();
    actor.send({ type: 'journal.load', name: 'e.ndjson', text: '' });
    let s = await settled(actor);
    expect(s.context.error?.message).toMatch(/^e\.ndjson: /);
    // the file's name and the parser's problem are values of its sentence, the problem a sentence of its own
    expect(s.context.error).toMatchObject({ code: 'journal.fileRefused', values: { name: 'e.ndjson', 'problem:code': 'journal.unreadable' } });
    expect(s.context).toMatchObject({ name: null, loading: null, result: null });
    actor.send({ type: 'journal.errorDismissed' });
    expect(actor.getSnapshot().context.error).toBeNull();
    const texts: string[] = [];
    for (const thrown of [new Error(''), 'the worker died']) {
      const failing = viewer(
        replayViewerMachine.provide({
          actors: {
            replay: fromPromise<ReplayResult, { text: string }>(async ({ input }) => {
              texts.push(input.text);
              throw thrown;
            }),
          },
        }),
      );
      failing.send({ type: 'journal.load', name: 'f.ndjson', text: 'the text' });
      s = await settled(failing);
      expect(s.context).toMatchObject({ loading: null, name: null, result: null });
      expect(s.context.error?.message).toBe(thrown instanceof Error ? 'Could not replay the journal' : 'Could not replay the journal: the worker died');
    }
    expect(texts).toEqual(['the text', 'the text']);
  });
});
