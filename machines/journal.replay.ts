// The headless replay of a journal (the CLI `npm run replay` and the console's replay screen): it re-runs the
// recorded events through the same machines, with inert implementations and a frozen clock, and names the first
// line where the replay parts from the journal.
import { SimulatedClock, fromPromise, type AnyActorLogic, type AnyEventObject, type AnyStateMachine } from 'xstate';
import { APP_VERSION, ROOT_ACTOR, fill, parseJournal, sentenceValue, type JournalEntry, type ParsedJournal, type Sentence } from '../contract';
import { createJournal, type Ref } from './journal.recorder';
import { resourceFormMachine } from './resourceForm';
import { resourceListMachine } from './resourceList';
import { liveEventsMachine } from './liveEvents';
import { createGatehouseSystem, rootMachine, type GatehouseImpl, type RootInput } from './system';
import type { ResolveView } from './views';

/** An invoked actor that never settles: in a replay the results come from the journal, not from the network. */
const inert = fromPromise<never, unknown>(() => new Promise<never>(() => {}));

/** Every actor slot of a machine (or of any logic with slots), inert. */
function inertActors(logic: unknown): Record<string, AnyActorLogic> {
  const slots = (logic as { implementations?: { actors?: Record<string, unknown> } }).implementations?.actors ?? {};
  return Object.fromEntries(Object.keys(slots).map((k) => [k, inert]));
}

/** A machine with every actor slot inert (its results come from the journal). */
function inertSlots(machine: AnyStateMachine): AnyStateMachine {
  return machine.provide({ actors: inertActors(machine) });
}

/**
 * Implementations for a headless replay, derived from the root machine so a newly added long-lived machine is
 * covered without editing this file: every actor slot is inert, every effect action keeps the machine's own
 * default (they are no-ops by convention: the real ones are provided by src/system/browser.ts), and `views` opens
 * the lists and forms a journal records (replayViews).
 */
export function replayImpl(): GatehouseImpl {
  const impl: Record<string, unknown> = {};
  for (const [key, logic] of Object.entries(rootMachine.implementations.actors)) impl[key] = { actors: inertActors(logic), actions: {} };
  impl.views = { resolve: replayViews() } satisfies GatehouseImpl['views'];
  return impl as unknown as GatehouseImpl;
}

/**
 * A view's own actors (machines/views.ts), by the kind in their id (`list:identities#3`, `form:doors#7`): the same
 * machines a catalogue screen runs (and the live events list's), re-run from the journal like the long-lived ones. A recorded `views ← view.open`
 * is fed to the replayed `views`, which spawns the machine of that kind with the recorded input (its network answers
 * come from the journal); a `view.close` stops it. Other view actors (a screen's reading or command actor) are
 * recorded, not re-run.
 */
export const VIEW_MACHINES: Record<string, AnyStateMachine> = { list: resourceListMachine, form: resourceFormMachine, liveEvents: liveEventsMachine };

/** A view actor's kind: `list` of `list:identities#3`, or the whole label of a named one (`liveEvents` of `liveEvents#4`). */
const viewKind = (id: string) => /^([a-z]+):/.exec(id)?.[1] ?? id.replace(/#\d+$/, '');

export function replayViews(): ResolveView {
  const machines = new Map<string, AnyStateMachine>();
  return (id) => {
    const kind = viewKind(id);
    if (kind === undefined || !Object.hasOwn(VIEW_MACHINES, kind)) return undefined;
    let logic = machines.get(kind);
    if (!logic) machines.set(kind, (logic = inertSlots(VIEW_MACHINES[kind])));
    return logic;
  };
}

export interface ReplayStep {
  line: number;
  actor: string;
  event: string;
  /** True when the replay sent the recorded event; false when the replayed system produced it by itself. */
  fed: boolean;
  recorded: unknown;
  replayed: unknown;
  matches: boolean;
}

/** A replay's result. `message` and `warnings` are English (the CLI prints them); `said` and `warned` are the same
 *  sentences with their keys (issue 48: the replay screen says them in the operator's language; zh-CN in
 *  src/i18n/sentences.ts). A journal file's own problem (contract/journal.ts) is a value of its sentence, as it came. */
export type ReplayResult =
  | { ok: true; journal: ParsedJournal; steps: ReplayStep[]; warnings: string[]; warned: Sentence[] }
  | { ok: false; kind: 'invalid'; line: number; message: string; said: Sentence }
  | {
      ok: false;
      kind: 'diverged';
      line: number;
      message: string;
      said: Sentence;
      journal: ParsedJournal;
      steps: ReplayStep[];
      warnings: string[];
      warned: Sentence[];
    };

/** The replay's own words, each a sentence with its key. */
export const REPLAY_SAID = {
  // the parse's problem (contract/journal.ts parseJournal) said by its own key inside
  unreadable: (problem: Sentence) => fill('journal.unreadable', '{problem}', sentenceValue('problem', problem)),
  noEvents: () => fill('journal.noEvents', 'the journal has a header but no events', {}),
  notFromStart: (line: number, seq: number, actor: string, event: string) =>
    fill(
      'journal.notFromStart',
      "line {line} is seq {seq} ({actor} ← {event}): a replay starts from the system's start (seq 1, {root} ← xstate.init); this journal's beginning was dropped or cleared",
      { line, seq, actor, event, root: ROOT_ACTOR },
    ),
  otherVersion: (recorded: string) =>
    fill('journal.otherVersion', 'recorded by Gatehouse {recorded}, replayed with {replayed}', { recorded, replayed: APP_VERSION }),
  stateDiffers: (line: number, actor: string, event: string, replayed: string, recorded: string) =>
    fill('journal.stateDiffers', 'line {line}: {actor} after {event} is {replayed} in the replay, the journal says {recorded}', {
      line,
      actor,
      event,
      replayed,
      recorded,
    }),
  otherEvent: (line: number, actor: string, event: string, other: string) =>
    fill('journal.otherEvent', 'line {line}: the journal has {actor} ← {event}, the replay processed {actor} ← {other} there', { line, actor, event, other }),
  noActor: (line: number, actor: string, event: string) =>
    fill('journal.noActor', "line {line}: no running actor '{actor}' in the replay to send {event} to", { line, actor, event }),
  neverProduced: (line: number, actor: string, event: string) =>
    fill('journal.neverProduced', 'line {line}: the journal has {actor} ← {event}, the replay never produced it', { line, actor, event }),
  alsoProcessed: (line: number, actor: string, event: string) =>
    fill('journal.alsoProcessed', 'after line {line}: the replay also processed {actor} ← {event}, which the journal does not have', { line, actor, event }),
  failed: (line: number, problem: string) => fill('journal.replayFailed', 'line {line}: the replay failed: {problem}', { line, problem }),
};

/**
 * Which recorded events the replay sends, and which it must produce by itself:
 *  - `xstate.init` is never sent: the replayed system starts its actors itself (with the recorded root input);
 *  - an event from outside the system (no source: a view, a transport adapter, the browser glue) is sent;
 *  - an event from an actor that is not a machine (the promise/callback actors an embedding provides; this includes
 *    their `xstate.done.actor.*` / `xstate.error.actor.*` results and messages they send back) is sent, because in a
 *    replay those actors are inert;
 *  - a delayed `xstate.after.*` event is sent, because replay time is frozen (a SimulatedClock never advanced):
 *    timers fire exactly where the journal says they did, not where a clock would put them;
 *  - so is an event an actor sent itself (a delayed `raise`, e.g. the alarm notices' flush 300 ms after a new alarm):
 *    the journal only has what went through the system, and an immediate raise never does, so these are its timers
 *    too (a recorded session with a live alarm diverged at its flush before this);
 *  - any other event from a machine (sendTo between long-lived actors, done events of child machines) is not sent:
 *    the replayed machines must produce it themselves, and its resulting state is compared like the others.
 */
export function shouldFeed(entry: Pick<JournalEntry, 'event' | 'source'> & { actor?: string }): boolean {
  if (entry.event.type === 'xstate.init') return false;
  if (entry.event.type.startsWith('xstate.after.')) return true;
  if (entry.source && entry.actor !== undefined && entry.source.actor === entry.actor) return true;
  return !entry.source || !entry.source.machine;
}

/** Key order does not matter for a state value. */
function canonical(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x) =>
      x && typeof x === 'object' && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : x,
    ) ?? 'undefined'
  );
}
const show = (v: unknown) => canonical(v);

/**
 * Re-runs a journal through the real machines, headlessly, with inert implementations and a frozen clock.
 * `input` is the NDJSON text, its lines, or an already parsed journal. Each actor's recorded events are matched,
 * in order, with the events the replayed actor processed; the first difference in event or resulting state is a
 * divergence naming the journal line.
 */
export function replayJournal(input: string | readonly string[] | ParsedJournal, impl: GatehouseImpl = replayImpl()): ReplayResult {
  let journal: ParsedJournal;
  if (typeof input === 'string' || Array.isArray(input)) {
    const parsed = parseJournal(typeof input === 'string' ? input : (input as readonly string[]).join('\n'));
    if (!parsed.ok) return { ok: false, kind: 'invalid', line: parsed.line, message: parsed.message, said: REPLAY_SAID.unreadable(parsed.said) };
    journal = parsed.journal;
  } else {
    journal = input as ParsedJournal;
  }
  const first = journal.lines[0];
  if (!first) return { ok: false, kind: 'invalid', line: 1, message: REPLAY_SAID.noEvents().message, said: REPLAY_SAID.noEvents() };
  if (first.entry.seq !== 1 || first.entry.actor !== ROOT_ACTOR || first.entry.event.type !== 'xstate.init') {
    const said = REPLAY_SAID.notFromStart(first.line, first.entry.seq, first.entry.actor, first.entry.event.type);
    return { ok: false, kind: 'invalid', line: first.line, message: said.message, said };
  }
  const warned: Sentence[] = journal.header.app !== APP_VERSION ? [REPLAY_SAID.otherVersion(journal.header.app)] : [];
  const warnings = warned.map((w) => w.message);

  // the system starts with the inputs it was recorded with (they travel in the root's init event)
  const rootInput = ((first.entry.event as { input?: unknown }).input ?? {}) as RootInput & Record<string, unknown>;
  const withInput: Record<string, unknown> = { ...impl };
  for (const [key, value] of Object.entries(rootInput)) {
    const slot = withInput[key] as Record<string, unknown> | undefined;
    if (slot && value !== undefined) withInput[key] = { ...slot, input: value };
  }

  const named = new Set<string>([ROOT_ACTOR]);
  /** What each replayed actor processed, in order, and how much of it has been paired with journal lines. */
  const processed = new Map<string, { entries: JournalEntry[]; paired: number }>();
  const processedBy = (actor: string) => {
    let p = processed.get(actor);
    if (!p) processed.set(actor, (p = { entries: [], paired: 0 }));
    return p;
  };
  const produced = createJournal({
    capacity: 1,
    onEntry: (e) => {
      if (named.has(e.actor)) processedBy(e.actor).entries.push(e);
    },
  });
  const root = createGatehouseSystem(withInput as unknown as GatehouseImpl, {
    clock: new SimulatedClock(),
    inspect: (ie) => {
      const systemId = (ie.actorRef as unknown as Ref).systemId;
      if (systemId) named.add(systemId);
      produced.inspect(ie);
    },
  });

  const steps: ReplayStep[] = [];
  const waiting = new Map<string, Array<{ line: number; entry: JournalEntry; fed: boolean }>>();
  let divergence: { line: number; said: Sentence } | null = null;
  const diverge = (line: number, said: Sentence) => {
    divergence ??= { line, said };
  };

  /** Pairs each actor's waiting journal lines with what the replayed actor has processed since. */
  const match = () => {
    for (const [actor, queue] of waiting) {
      const p = processedBy(actor);
      while (queue.length && p.paired < p.entries.length) {
        const w = queue.shift()!;
        const got = p.entries[p.paired++];
        const sameEvent = got.event.type === w.entry.event.type;
        const matches = sameEvent && canonical(got.state) === canonical(w.entry.state);
        steps.push({ line: w.line, actor, event: w.entry.event.type, fed: w.fed, recorded: w.entry.state, replayed: got.state, matches });
        if (!matches) {
          diverge(
            w.line,
            sameEvent
              ? REPLAY_SAID.stateDiffers(w.line, actor, w.entry.event.type, show(got.state), show(w.entry.state))
              : REPLAY_SAID.otherEvent(w.line, actor, w.entry.event.type, got.event.type),
          );
        }
      }
    }
  };

  try {
    root.start();
    for (const { line, entry } of journal.lines) {
      // an implementation actor (inert here), or a view actor the replay does not re-run: its own events are not replayed
      if (!named.has(entry.actor)) continue;
      const fed = shouldFeed(entry);
      const queue = waiting.get(entry.actor) ?? [];
      queue.push({ line, entry, fed });
      waiting.set(entry.actor, queue);
      if (fed) {
        const target = entry.actor === ROOT_ACTOR ? root : root.system.get(entry.actor);
        if (!target) {
          diverge(line, REPLAY_SAID.noActor(line, entry.actor, entry.event.type));
          break;
        }
        target.send(entry.event as AnyEventObject);
      }
      match();
      if (divergence) break;
    }
    if (!divergence) {
      for (const [actor, queue] of waiting) {
        if (queue.length) {
          diverge(queue[0].line, REPLAY_SAID.neverProduced(queue[0].line, actor, queue[0].entry.event.type));
          break;
        }
      }
    }
    if (!divergence) {
      const lastLine = journal.lines[journal.lines.length - 1].line;
      for (const [actor, p] of processed) {
        const extra = p.entries[p.paired];
        if (extra) {
          diverge(lastLine, REPLAY_SAID.alsoProcessed(lastLine, actor, extra.event.type));
          break;
        }
      }
    }
  } catch (err) {
    const line = steps.length ? steps[steps.length - 1].line : first.line;
    diverge(line, REPLAY_SAID.failed(line, err instanceof Error ? err.message : String(err)));
  } finally {
    root.stop();
  }
  steps.sort((a, b) => a.line - b.line);
  const d = divergence as { line: number; said: Sentence } | null;
  if (d) return { ok: false, kind: 'diverged', line: d.line, message: d.said.message, said: d.said, journal, steps, warnings, warned };
  return { ok: true, journal, steps, warnings, warned };
}
