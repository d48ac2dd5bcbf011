// The alarm lifecycle (§4), systemId 'alarms'. Facts arrive from the socket actor (already validated), the open
// list is re-read from REST after every (re)connect, and operators acknowledge and process through injected
// REST actors (the server broadcasts the result to every console, this one included).
// It also decides what the operator is told of new alarms (issue 10): the board of alarm notices the shell shows.
import { assign, emit, enqueueActions, stateIn, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { ALARM_NOTICE_GATHER_MS, NOTIFICATION_MS, eventPointIdOf, sameId, type AcknowledgeUpdate, type AlarmAction, type Event } from '../contract';
import { errorSaid, notProvided } from './notProvided';
import type { AlarmFact, AlarmFacts } from './socket';
import { applyChange, keepRaisings, type ForwardRequest, type ForwardTargets, type Forwarded, type ShelveRequest, type Shelved } from './alarms.management';
import { invariants } from './alarms.invariants';
import type { AlarmsContext } from './alarms.context';
import { addToBoard, pruneBoard, raisedSince, unseen, type AlarmNotice, type NoticeBoard } from './alarms.notices';

export { addToBoard, noticeFor, pruneBoard, raisedSince, type AlarmNotice, type NoticeBoard } from './alarms.notices';

export type AlarmsEvent =
  | AlarmFact
  | AlarmFacts
  | { type: 'socket.resynced' }
  | { type: 'alarms.synced'; alarms: Event[] }
  | { type: 'alarm.acknowledge'; id: Event['id'] }
  | { type: 'alarm.process'; id: Event['id']; note: string }
  | { type: 'alarm.errorDismissed' }
  /** Issue 50: forward an alarm with a note; shelve a source for a time with a reason; read whom one may forward to. */
  | ({ type: 'alarm.forward' } & ForwardRequest)
  | ({ type: 'source.shelve' } & ShelveRequest)
  | { type: 'forward.targetsWanted' }
  /** Raised by the machine when a shelving ended: the open list is read again (its alarms are back). */
  | { type: 'alarms.unshelved' }
  /** The operator closed one notice, or opened the alarms from one (all seen). */
  | { type: 'notice.dismiss'; id: number }
  | { type: 'notices.seen' }
  /** Raised by the machine itself, after the gather window and after a notice's 5 s. */
  | { type: 'notices.flush' }
  | { type: 'notice.expired'; id: number; version: number }
  | { type: 'session.ended' }
  /**
   * A sign-in, a restored session or a client switch began at `at` (epoch ms on the session's injected clock): an
   * alarm in the first open list that was raised at or after it is news, though the list arrived after it (the socket
   * connects a moment after the console shows).
   */
  | { type: 'session.started'; at?: number | null };

/**
 * Heard by the shell: new or grown notices went up (one sound, one desktop notification per batch). `priority` is
 * the most urgent among them.
 */
export type AlarmsEmitted =
  | { type: 'alarm.noticed'; notices: AlarmNotice[]; priority: number }
  /** Issue 10: this console's acknowledge or process went through (the shell says so). */
  | { type: 'alarm.commandDone'; what: CommandDone };
export type CommandDone = 'acknowledged' | 'processed' | 'forwarded' | 'shelved';

export type { AlarmsContext } from './alarms.context';

export interface ProcessRequest {
  id: Event['id'];
  note: string;
  eventPointId: Event['id'];
}

// ---------- pure rules (tested) ----------

/**
 * §4, one fact at a time. `raised` is the alert that was added, if any. A fact that changes nothing gives back the
 * very list it was given: views select from it (the header's alarms button, the dashboard), and a new list for every
 * event of a busy site re-rendered them thousands of times a second.
 */
export function applyFact(alarms: readonly Event[], fact: AlarmFact): { alarms: Event[]; raised?: Event } {
  const same = { alarms: alarms as Event[] };
  const kept = (next: Event[]) => (next.length === alarms.length ? same : { alarms: next });
  switch (fact.type) {
    case 'event.received': {
      const e = fact.event;
      if (e.alert) {
        // issue 50: an alarm of a shelved source is stored but raises nothing on screen
        if (e.shelved) return same;
        // §4: an alert is added once; a repeat of the same id is ignored
        if (alarms.some((a) => sameId(a.id, e.id))) return same;
        return { alarms: [...alarms, e], raised: e };
      }
      // §4: a non-alert event for the same point clears its alerts (eventPointId falls back to eventSourceId)
      const point = eventPointIdOf(e);
      return kept(alarms.filter((a) => !sameId(eventPointIdOf(a), point)));
    }
    case 'alarm.acknowledged':
      // §4: an acknowledge update sets the acknowledge value on the matching alert
      if (!alarms.some((a) => sameId(a.id, fact.update.id) && a.acknowledge !== fact.update.acknowledge)) return same;
      return { alarms: alarms.map((a) => (sameId(a.id, fact.update.id) ? { ...a, acknowledge: fact.update.acknowledge } : a)) };
    case 'alarm.actioned':
      // §4: an alarm action with the process flag removes the alerts of that event point; without it (issue 50) an
      // alarm escalated or forwarded, or a point shelved
      if (!fact.action.process) {
        const next = applyChange(alarms, fact.action);
        return next === alarms ? same : { alarms: next };
      }
      return kept(alarms.filter((a) => !sameId(eventPointIdOf(a), fact.action.eventPointId)));
    case 'alarm.counted':
      return same;
  }
}

/** Several facts in order, as one: the list after the last, and every alert raised on the way. */
export function applyFacts(alarms: readonly Event[], facts: readonly AlarmFact[]): { alarms: Event[]; raised: Event[] } {
  let list = alarms as Event[];
  const raised: Event[] = [];
  for (const f of facts) {
    const r = applyFact(list, f);
    list = r.alarms;
    if (r.raised) {
      // raised again after it was cleared in the same batch: news once, at its last raising (as one by one)
      const again = raised.findIndex((a) => sameId(a.id, r.raised!.id));
      if (again >= 0) raised.splice(again, 1);
      raised.push(r.raised);
    }
  }
  return { alarms: list, raised };
}

/** Replace the list with a REST snapshot (alerts only, deduplicated), then re-apply what arrived meanwhile. */
export function syncAlarms(previous: readonly Event[], snapshot: readonly Event[], pending: readonly AlarmFact[]): { alarms: Event[]; raised: Event[] } {
  let alarms: Event[] = [];
  for (const e of snapshot) if (e.alert && !alarms.some((a) => sameId(a.id, e.id))) alarms.push(e);
  for (const f of pending) alarms = applyFact(alarms, f).alarms;
  // alerts raised while this console was disconnected are new to the operator too
  const raised = alarms.filter((a) => !previous.some((p) => sameId(p.id, a.id)));
  return { alarms, raised };
}

const isFact = (e: { type: string }): e is AlarmFact =>
  e.type === 'event.received' || e.type === 'alarm.acknowledged' || e.type === 'alarm.actioned' || e.type === 'alarm.counted';
/** The facts an event carries: a batch's, a single fact as one, anything else none. */
const factsOf = (e: AlarmsEvent): readonly AlarmFact[] => (e.type === 'facts.received' ? e.facts : isFact(e) ? [e] : []);

// ---------- machine ----------

const alarmsSetup = lazySetup({
  types: {
    context: {} as AlarmsContext,
    events: {} as AlarmsEvent,
    emitted: {} as AlarmsEmitted,
    tags: {} as 'syncing' | 'busy',
  },
  actors: {
    /** GET the open alarms (REST), after every (re)connect. */
    loadAlarms: notProvided<Event[]>('loadAlarms'),
    /** POST the acknowledge (REST); its answer is the update the server broadcasts. */
    acknowledgeAlarm: notProvided<AcknowledgeUpdate, { id: Event['id'] }>('acknowledgeAlarm'),
    /** POST the process with the operator's note (REST); its answer is the alarm action the server broadcasts. */
    processAlarm: notProvided<AlarmAction, ProcessRequest>('processAlarm'),
    /** Issue 50 (REST): forward an alarm; shelve a source; the operators and groups one may forward to. */
    forwardAlarm: notProvided<Forwarded, ForwardRequest>('forwardAlarm'),
    shelveSource: notProvided<Shelved, ShelveRequest>('shelveSource'),
    loadForwardTargets: notProvided<ForwardTargets>('loadForwardTargets'),
  },
  guards: {
    knownUnacknowledged: ({ context, event }) => event.type === 'alarm.acknowledge' && context.alarms.some((a) => sameId(a.id, event.id) && !a.acknowledge),
    known: ({ context, event }) => event.type === 'alarm.process' && context.alarms.some((a) => sameId(a.id, event.id)),
    // one target, a note, and an alarm this console has open
    forwardable: ({ context, event }) =>
      event.type === 'alarm.forward' &&
      (event.userId != null) !== (event.groupId != null) &&
      event.note.trim() !== '' &&
      context.alarms.some((a) => sameId(a.id, event.id)),
    shelvable: ({ event }) => event.type === 'source.shelve' && event.pointId !== '' && event.minutes > 0 && event.reason.trim() !== '',
  },
  actions: {
    commandDone: emit((_, params: { what: CommandDone }) => ({ type: 'alarm.commandDone' as const, what: params.what })),
    // one fact, or a batch of them (one transition for a coalesced broker message), applied in order
    applyFact: enqueueActions(({ context, event, enqueue }) => {
      const facts = factsOf(event);
      if (!facts.length) return;
      const { alarms, raised } = applyFacts(context.alarms, facts);
      // a live alarm is news even before the first open list arrived: it was raised after the console connected
      const s = settle(context, alarms, raised);
      let serverCount = context.serverCount;
      for (const f of facts) if (f.type === 'alarm.counted') serverCount = f.count;
      enqueue.assign({ alarms, gathered: s.gathered, board: s.board, serverCount, raisings: keepRaisings(context.raisings, raised) });
      schedule(enqueue, s);
      // issue 50: a shelving ended: its alarms still open are back, read them
      if (facts.some((f) => f.type === 'alarm.actioned' && f.action.change === 'unshelved')) enqueue.raise({ type: 'alarms.unshelved' });
    }),
    replaceAlarms: enqueueActions(({ context, enqueue }, params: { alarms: Event[] }) => {
      const { alarms, raised } = syncAlarms(context.alarms, params.alarms, context.pending);
      // issue 10: the first list after sign-in or a reload is what was already open, not news (it raised a toast
      // for every alarm of the last half hour); alarms raised while a connected console was cut off are
      // alarms raised since the session began are news, though the console's socket was not up yet to hear them live
      const since = context.openedAt;
      const s = settle(context, alarms, context.baselined ? raised : since === null ? [] : raised.filter((a) => raisedSince(a, since)));
      enqueue.assign({
        alarms,
        pending: [],
        error: null,
        baselined: true,
        gathered: s.gathered,
        board: s.board,
        raisings: keepRaisings(context.raisings, raised),
      });
      schedule(enqueue, s);
    }),
    applyOutcome: enqueueActions(({ context, enqueue }, params: { fact: AlarmFact; buffer: boolean }) => {
      const { alarms } = applyFact(context.alarms, params.fact);
      const s = settle(context, alarms, []);
      enqueue.assign({ alarms, gathered: s.gathered, board: s.board, pending: params.buffer ? [...context.pending, params.fact] : context.pending });
      schedule(enqueue, s);
    }),
    // while the REST snapshot is in flight: the facts it may not include (a count is not re-applied on top of it)
    bufferFact: assign(({ context, event }) => {
      const facts = factsOf(event).filter((f) => f.type !== 'alarm.counted');
      return { pending: facts.length ? [...context.pending, ...facts] : context.pending };
    }),
    flushNotices: enqueueActions(({ context, enqueue }) => {
      const { board, changed } = addToBoard(context.board, context.gathered, context.alarms);
      enqueue.assign({ gathered: [], board });
      schedule(enqueue, { startGather: false, expire: changed.filter((n) => !n.sticky) });
      if (changed.length) enqueue.emit({ type: 'alarm.noticed', notices: changed, priority: Math.min(...changed.map((n) => n.priority)) });
    }),
    expireNotice: assign(({ context, event }) => {
      if (event.type !== 'notice.expired') return {};
      const gone = context.board.notices.some((n) => n.id === event.id && n.version === event.version && !n.sticky);
      return gone ? { board: { ...context.board, notices: context.board.notices.filter((n) => n.id !== event.id) } } : {};
    }),
    dismissNotice: assign(({ context, event }) =>
      event.type === 'notice.dismiss' && context.board.notices.some((n) => n.id === event.id)
        ? { board: { ...context.board, notices: context.board.notices.filter((n) => n.id !== event.id) } }
        : {},
    ),
    clearNotices: assign(({ context }) => (context.board.notices.length ? { board: { ...context.board, notices: [] } } : {})),
  },
});

interface Settled {
  gathered: Event[];
  board: NoticeBoard;
  startGather: boolean;
  expire: AlarmNotice[];
}
/** After the open list changed: what is still news, and the board without what someone has seen to. */
function settle(context: AlarmsContext, alarms: readonly Event[], raised: readonly Event[]): Settled {
  // an alarm gathered before, cleared and raised again within one batch, is news at its new raising (as one by one)
  const kept = context.gathered.filter((a) => unseen(alarms, a.id) && !raised.some((r) => sameId(r.id, a.id)));
  const added = raised.filter((a) => unseen(alarms, a.id));
  const gathered = kept.length === context.gathered.length && !added.length ? context.gathered : [...kept, ...added];
  const { board, changed } = pruneBoard(context.board, alarms);
  return { gathered, board, startGather: context.gathered.length === 0 && gathered.length > 0, expire: changed.filter((n) => !n.sticky) };
}
/** The machine's own timers, on the actor's clock (a SimulatedClock in tests and replay). */
function schedule(enqueue: { raise: (e: AlarmsEvent, o: { delay: number }) => void }, s: Pick<Settled, 'startGather' | 'expire'>) {
  if (s.startGather) enqueue.raise({ type: 'notices.flush' }, { delay: ALARM_NOTICE_GATHER_MS });
  for (const n of s.expire) enqueue.raise({ type: 'notice.expired', id: n.id, version: n.version }, { delay: NOTIFICATION_MS });
}

/** A command's answer is applied like the broadcast fact (and buffered when a snapshot is in flight). */
const outcome = (toFact: (event: any) => AlarmFact, what: CommandDone) => [
  {
    guard: stateIn({ feed: 'syncing' }),
    target: 'ready',
    actions: [
      { type: 'applyOutcome' as const, params: ({ event }: { event: any }) => ({ fact: toFact(event), buffer: true }) },
      { type: 'commandDone' as const, params: { what } },
    ],
  },
  {
    target: 'ready',
    actions: [
      { type: 'applyOutcome' as const, params: ({ event }: { event: any }) => ({ fact: toFact(event), buffer: false }) },
      { type: 'commandDone' as const, params: { what } },
    ],
  },
];
const replaceWith = (get: (event: any) => Event[]) => ({ type: 'replaceAlarms' as const, params: ({ event }: { event: any }) => ({ alarms: get(event) }) });

export const alarmsMachine = alarmsSetup.createMachine({
  id: 'alarms',
  context: {
    alarms: [],
    serverCount: null,
    pending: [],
    error: null,
    baselined: false,
    openedAt: null,
    gathered: [],
    board: { notices: [], seq: 0 },
    raisings: [],
    targets: null,
  },
  type: 'parallel',
  meta: { invariants: invariants.machine },
  on: {
    'event.received': { actions: 'applyFact' },
    'alarm.acknowledged': { actions: 'applyFact' },
    'alarm.actioned': { actions: 'applyFact' },
    'alarm.counted': { actions: 'applyFact' },
    'facts.received': { actions: 'applyFact' },
    'alarm.errorDismissed': { actions: assign({ error: null }) },
    'notices.flush': { actions: 'flushNotices' },
    'notice.expired': { actions: 'expireNotice' },
    'notice.dismiss': { actions: 'dismissNotice' },
    'notices.seen': { actions: 'clearNotices' },
    // sign-out forgets everything and cancels what is in flight (notice ids keep counting, so a late expiry of the
    // last session cannot take down a notice of the next)
    'session.ended': {
      target: ['.feed.live', '.command.ready'],
      actions: assign(({ context }) => ({
        alarms: [],
        serverCount: null,
        pending: [],
        error: null,
        baselined: false,
        openedAt: null,
        gathered: [],
        board: { notices: [], seq: context.board.seq },
        raisings: [],
        targets: null,
      })),
    },
    'session.started': { actions: assign(({ event }) => ({ openedAt: typeof event.at === 'number' && Number.isFinite(event.at) ? event.at : null })) },
  },
  states: {
    feed: {
      initial: 'live',
      states: {
        live: {
          meta: { invariants: invariants.live },
          on: {
            'socket.resynced': 'syncing',
            'alarms.unshelved': 'syncing',
            'alarms.synced': { actions: replaceWith((e) => e.alarms) },
          },
        },
        syncing: {
          tags: ['syncing'],
          meta: { invariants: invariants.syncing },
          on: {
            'event.received': { actions: ['applyFact', 'bufferFact'] },
            'alarm.acknowledged': { actions: ['applyFact', 'bufferFact'] },
            'alarm.actioned': { actions: ['applyFact', 'bufferFact'] },
            'facts.received': { actions: ['applyFact', 'bufferFact'] },
            // a second reconnect while the first snapshot is in flight: read again
            'socket.resynced': { target: 'syncing', reenter: true },
            'alarms.unshelved': { target: 'syncing', reenter: true },
            'alarms.synced': { target: 'live', actions: replaceWith((e) => e.alarms) },
          },
          invoke: {
            id: 'loadAlarms',
            src: 'loadAlarms',
            onDone: { target: 'live', actions: replaceWith((e) => e.output) },
            onError: { target: 'live', actions: assign(({ event }) => ({ pending: [], error: errorSaid(event.error, 'Could not load the open alarms') })) },
          },
        },
      },
    },
    command: {
      initial: 'ready',
      states: {
        ready: {
          meta: { invariants: invariants.ready },
          on: {
            'alarm.acknowledge': { guard: 'knownUnacknowledged', target: 'acknowledging', actions: assign({ error: null }) },
            'alarm.process': { guard: 'known', target: 'processing', actions: assign({ error: null }) },
            'alarm.forward': { guard: 'forwardable', target: 'forwarding', actions: assign({ error: null }) },
            'source.shelve': { guard: 'shelvable', target: 'shelving', actions: assign({ error: null }) },
            'forward.targetsWanted': { target: 'readingTargets', actions: assign({ error: null }) },
          },
        },
        // issue 50: forward, shelve, and whom one may forward to
        forwarding: {
          tags: ['busy'],
          meta: { invariants: invariants.forwarding },
          invoke: {
            id: 'forward',
            src: 'forwardAlarm',
            input: ({ event }) => {
              const { type: _, ...request } = event as { type: 'alarm.forward' } & ForwardRequest;
              return request;
            },
            onDone: outcome(
              (e) => ({
                type: 'alarm.actioned',
                action: { eventPointId: '', process: false, change: 'forwarded', alarmId: e.output.id, forwardedTo: e.output.forwardedTo, note: e.output.note },
              }),
              'forwarded',
            ),
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not forward the alarm') })) },
          },
        },
        shelving: {
          tags: ['busy'],
          meta: { invariants: invariants.shelving },
          invoke: {
            id: 'shelve',
            src: 'shelveSource',
            input: ({ event }) => {
              const { type: _, ...request } = event as { type: 'source.shelve' } & ShelveRequest;
              return request;
            },
            onDone: outcome((e) => ({ type: 'alarm.actioned', action: { eventPointId: e.output.pointId, process: false, change: 'shelved' } }), 'shelved'),
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not shelve the source') })) },
          },
        },
        readingTargets: {
          tags: ['busy'],
          meta: { invariants: invariants.readingTargets },
          invoke: {
            id: 'loadForwardTargets',
            src: 'loadForwardTargets',
            onDone: { target: 'ready', actions: assign(({ event }) => ({ targets: event.output })) },
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not read whom to forward to') })) },
          },
        },
        acknowledging: {
          tags: ['busy'],
          meta: { invariants: invariants.acknowledging },
          invoke: {
            id: 'acknowledge',
            src: 'acknowledgeAlarm',
            input: ({ event }) => ({ id: (event as { id: Event['id'] }).id }),
            // the /acknowledge/event broadcast normally arrives first; applying the answer too keeps a console whose
            // socket is down truthful (and it is idempotent)
            onDone: outcome((e) => ({ type: 'alarm.acknowledged', update: e.output }), 'acknowledged'),
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not acknowledge the alarm') })) },
          },
        },
        processing: {
          tags: ['busy'],
          meta: { invariants: invariants.processing },
          invoke: {
            id: 'process',
            src: 'processAlarm',
            input: ({ context, event }) => {
              const e = event as { id: Event['id']; note: string };
              const alarm = context.alarms.find((a) => sameId(a.id, e.id));
              return { id: e.id, note: e.note, eventPointId: alarm ? eventPointIdOf(alarm) : e.id };
            },
            onDone: outcome((e) => ({ type: 'alarm.actioned', action: e.output }), 'processed'),
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not process the alarm') })) },
          },
        },
      },
    },
  },
});

export type AlarmsActor = ActorRefFrom<typeof alarmsMachine>;
export type AlarmsSnapshot = SnapshotFrom<typeof alarmsMachine>;
