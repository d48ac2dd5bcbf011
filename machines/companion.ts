// The optional desktop companion (§1, §4, §7): discovery over 10 shuffled candidate ports, a WebSocket of
// messages once found, backoff on loss, and the photo / badge / alarm-notification commands while connected.
// Every effect is injected: `shufflePorts` (randomness), `probePort` (GET {host}/api/check-port) and
// `messages` (the WebSocket at /api/messages) come from src/transport, tests or the replay tool.
import { assign, emit, enqueueActions, fromCallback, type ActorRefFrom, type CallbackActorLogic, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import {
  COMPANION_PORTS,
  COMPANION_PROBE_TIMEOUT_MS,
  CompanionCommand,
  backoffMs,
  fill,
  parseCompanionReply,
  validate,
  type BadgeVisitor,
  type CompanionReply,
  type FilePayload,
  type PhotoPurpose,
  type Sentence,
} from '../contract';
import { errorText, notProvided } from './notProvided';

// ---------- types ----------
type PendingRequest = { kind: 'photo.capture'; purpose: PhotoPurpose } | { kind: 'badge.print' };

export interface CompanionContext {
  /** The candidate ports in the order this discovery round probes them. */
  order: number[];
  /** Position in `order` of the port being probed. */
  index: number;
  port: number | null;
  /** Failed rounds since the last connection; the backoff grows with it (§4). */
  attempt: number;
  version: string | null;
  capabilities: string[];
  /** Requests sent and not yet answered, by requestId. */
  pending: Record<string, PendingRequest>;
  /** Counter for request ids the machine makes up when a view gives none (deterministic for replay). */
  seq: number;
  /** The last problem, for the header's tooltip; cleared on connection. A sentence with its key (issue 48), said in the
   *  operator's language. */
  error: Sentence | null;
  /**
   * Issue 10: probing on its own tries one candidate per backoff step (each refused connection is logged by the
   * browser, so trying all ten every few seconds filled the console). The first round after start-up sweeps all
   * ten, so a companion that is already running is found at once on any port; an operator's retry sweeps again.
   */
  sweep: boolean;
  /** Whether `order` is this cycle's shuffle; a new cycle (all ten tried) reshuffles. */
  shuffled: boolean;
}

export type CompanionEvent =
  // from the `messages` actor
  | { type: 'socket.opened' }
  | { type: 'socket.message'; data: unknown }
  | { type: 'socket.closed'; code?: number; reason?: string }
  // commands from views
  | { type: 'companion.capturePhoto'; purpose: PhotoPurpose; requestId?: string }
  | { type: 'companion.printBadge'; visitor: BadgeVisitor; qr?: string | null; requestId?: string }
  | { type: 'companion.notify'; title: string; message: string }
  /** Skip the rest of the backoff and look for the companion now (a "Retry" link). */
  | { type: 'companion.retry' };

/** Facts the shell and the views hear with `actor.on(...)`. */
export type CompanionEmitted =
  | { type: 'companion.connected'; port: number; version: string; capabilities: string[] }
  | { type: 'companion.disconnected'; reason: string; sentence: Sentence }
  | { type: 'companion.photoCaptured'; requestId: string; purpose: PhotoPurpose; file: FilePayload }
  | { type: 'companion.badgePrinted'; requestId: string }
  | { type: 'companion.failed'; requestId?: string; message: string; sentence: Sentence };

/** What the machine sends to its `messages` actor. */
export type CompanionSocketCommand = { type: 'socket.send'; message: CompanionCommand };
export interface ProbeInput {
  port: number;
}
export interface MessagesInput {
  port: number;
}
export interface ShuffleInput {
  ports: readonly number[];
}
export interface CompanionInput {
  /** Candidate ports; the contract's ten by default (tests may narrow them). */ ports?: readonly number[];
}

// ---------- pure helpers ----------
/** The shuffled order, trusted only as far as it is a permutation of the candidates; anything missing is appended. */
export function portOrder(shuffled: unknown, candidates: readonly number[]): number[] {
  const out: number[] = [];
  if (Array.isArray(shuffled)) for (const p of shuffled) if (candidates.includes(p) && !out.includes(p)) out.push(p);
  for (const p of candidates) if (!out.includes(p)) out.push(p);
  return out;
}

const notProvidedMessages = (): CallbackActorLogic<CompanionSocketCommand, MessagesInput> =>
  fromCallback<CompanionSocketCommand, MessagesInput>(() => {
    throw new Error('messages was not provided: pass it with machine.provide({ actors })');
  });

/** What the companion's connection says, each a sentence with its key (issue 48: src/i18n/sentences.ts holds its zh-CN,
 *  and i18n.test.ts reads every fill( here): the header's tooltip, the toasts and a badge print's failure say them in
 *  the operator's language. The companion's own words and a frame's problem are values, shown as they came. */
export const COMPANION_SAID = {
  noAnswer: () => fill('companion.noAnswer', 'No desktop companion answered on this computer', {}),
  closed: (reason?: string) =>
    reason ? fill('companion.closedBecause', 'Companion connection closed: {reason}', { reason }) : fill('companion.closed', 'Companion connection closed', {}),
  failed: (problem?: string) =>
    problem
      ? fill('companion.connectionError', 'The companion connection failed: {problem}', { problem })
      : fill('companion.connectionFailed', 'The companion connection failed', {}),
  unreadable: (problem: string) => fill('companion.unreadable', 'The console cannot read what the companion sent: {problem}', { problem }),
  answeredError: (message: string) => fill('companion.answeredError', 'The desktop companion answered: {message}', { message }),
  beforeHello: (type: string) => fill('companion.beforeHello', "Companion sent '{type}' before saying hello", { type }),
  notWaiting: (type: string, requestId: string) =>
    fill('companion.notWaiting', "Companion answered '{type}' for request {requestId}, which is not waiting for it", { type, requestId }),
  alreadyWaiting: (requestId: string) => fill('companion.alreadyWaiting', 'Request {requestId} is already waiting for the companion', { requestId }),
  cannotSend: (field: string, problem: string) => fill('companion.cannotSend', 'Cannot send to the companion: {field} {problem}', { field, problem }),
  cannotCapturePhotos: () => fill('companion.cannotCapturePhotos', 'The desktop companion cannot capture photos', {}),
  cannotPrintBadges: () => fill('companion.cannotPrintBadges', 'The desktop companion cannot print badges', {}),
  cannotShowNotifications: () => fill('companion.cannotShowNotifications', 'The desktop companion cannot show notifications', {}),
  disconnectedBeforeAnswer: () => fill('companion.disconnectedBeforeAnswer', 'The desktop companion disconnected before it answered.', {}),
  // a badge print's own (src/system/printBadge.ts)
  cannotPrintNow: () => fill('companion.cannotPrintNow', 'The desktop companion is not connected or cannot print badges.', {}),
  noAnswerInTime: () => fill('companion.noAnswerInTime', 'The desktop companion did not answer in time.', {}),
};

function failed(sentence: Sentence, requestId?: string): CompanionEmitted {
  const message = sentence.message;
  return requestId === undefined ? { type: 'companion.failed', message, sentence } : { type: 'companion.failed', requestId, message, sentence };
}
const disconnected = (sentence: Sentence): CompanionEmitted => ({ type: 'companion.disconnected', reason: sentence.message, sentence });

// ---------- machine ----------
const companionSetup = lazySetup({
  types: {
    context: {} as CompanionContext,
    events: {} as CompanionEvent,
    emitted: {} as CompanionEmitted,
    input: {} as CompanionInput,
  },
  actors: {
    shufflePorts: notProvided<number[], ShuffleInput>('shufflePorts'),
    probePort: notProvided<unknown, ProbeInput>('probePort'),
    messages: notProvidedMessages(),
  },
  delays: {
    // §7: each candidate gets 10 s to answer check-port
    probeTimeout: COMPANION_PROBE_TIMEOUT_MS,
    // §4: 1 s doubling up to 30 s
    backoff: ({ context }) => backoffMs(context.attempt),
  },
  guards: {
    hasNextPort: ({ context }) => context.index + 1 < context.order.length,
    sweepingOn: ({ context }) => context.sweep && context.index + 1 < context.order.length,
    needsShuffle: ({ context }) => !context.shuffled || context.index >= context.order.length,
    canCapture: ({ context }) => context.capabilities.includes('photo.capture'),
    canPrint: ({ context }) => context.capabilities.includes('badge.print'),
    canNotify: ({ context }) => context.capabilities.includes('notify.alarm'),
  },
  actions: {
    nextPort: assign({ index: ({ context }) => context.index + 1 }),
    resetAttempts: assign({ attempt: 0 }),
  },
});

/** Answers while connected: validated, matched to a pending request, then emitted as a fact. */
const handleReply = companionSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'socket.message') return;
  const parsed = parseCompanionReply(event.data);
  if (!parsed.ok) {
    const said = COMPANION_SAID.unreadable(parsed.error);
    enqueue.assign({ error: said });
    enqueue.emit(failed(said));
    return;
  }
  const reply: CompanionReply = parsed.message;
  if (reply.type === 'hello') {
    enqueue.assign({ version: reply.version, capabilities: reply.capabilities });
    return;
  }
  const id = reply.requestId;
  const pending = id === undefined ? undefined : context.pending[id];
  const settle = (requestId: string) => {
    const { [requestId]: _done, ...rest } = context.pending;
    enqueue.assign({ pending: rest });
  };
  if (reply.type === 'error') {
    if (id !== undefined && pending) settle(id);
    const said = COMPANION_SAID.answeredError(reply.message);
    enqueue.assign({ error: said });
    enqueue.emit(failed(said, pending ? id : undefined));
    return;
  }
  const expected = reply.type === 'photo.captured' ? 'photo.capture' : 'badge.print';
  if (!pending || pending.kind !== expected) {
    // out of order: an answer nobody is waiting for is reported, never applied
    const said = COMPANION_SAID.notWaiting(reply.type, reply.requestId);
    enqueue.assign({ error: said });
    enqueue.emit(failed(said));
    return;
  }
  settle(reply.requestId);
  if (reply.type === 'photo.captured' && pending.kind === 'photo.capture') {
    enqueue.emit({ type: 'companion.photoCaptured', requestId: reply.requestId, purpose: pending.purpose, file: reply.file });
  } else {
    enqueue.emit({ type: 'companion.badgePrinted', requestId: reply.requestId });
  }
});

/** A command from a view: validated by the contract, given a request id, sent and remembered. */
const sendCommand = companionSetup.enqueueActions(({ context, event, enqueue }) => {
  let command: unknown;
  let requestId: string | undefined;
  let pending: PendingRequest | undefined;
  let seq = context.seq;
  const idFor = (given: string | undefined) => given ?? `req-${++seq}`;
  if (event.type === 'companion.capturePhoto') {
    requestId = idFor(event.requestId);
    command = { type: 'photo.capture', requestId, purpose: event.purpose };
    pending = { kind: 'photo.capture', purpose: event.purpose };
  } else if (event.type === 'companion.printBadge') {
    requestId = idFor(event.requestId);
    command = { type: 'badge.print', requestId, visitor: event.visitor, ...(event.qr != null ? { qr: event.qr } : {}) };
    pending = { kind: 'badge.print' };
  } else if (event.type === 'companion.notify') {
    command = { type: 'notify.alarm', title: event.title, message: event.message };
  } else {
    return;
  }
  if (requestId !== undefined && context.pending[requestId]) {
    enqueue.emit(failed(COMPANION_SAID.alreadyWaiting(requestId), requestId));
    return;
  }
  const r = validate(command, CompanionCommand);
  if (!r.ok) {
    const v = r.violations[0];
    enqueue.emit(failed(COMPANION_SAID.cannotSend(v.field, v.message), requestId));
    return;
  }
  enqueue.assign({ seq, ...(requestId !== undefined && pending ? { pending: { ...context.pending, [requestId]: pending } } : {}) });
  enqueue.sendTo('messages', { type: 'socket.send', message: r.value } satisfies CompanionSocketCommand);
});

/** Leaving the connection: whoever waits for an answer hears that none will come. */
const failPending = companionSetup.enqueueActions(({ context, enqueue }) => {
  for (const requestId of Object.keys(context.pending)) enqueue.emit(failed(COMPANION_SAID.disconnectedBeforeAnswer(), requestId));
  enqueue.assign({ pending: {} });
});

const unsupported = (said: () => Sentence) => companionSetup.emit(({ event }) => failed(said(), 'requestId' in event ? event.requestId : undefined));

/** §4: on close or error the connection is lost; the reason is kept and told. */
const lost = companionSetup.enqueueActions(({ event, enqueue }) => {
  if (event.type !== 'socket.closed') return;
  const said = COMPANION_SAID.closed(event.reason);
  enqueue.assign({ error: said });
  enqueue.emit(disconnected(said));
});

export const companionMachine = companionSetup.createMachine({
  id: 'companion',
  context: ({ input }) => ({
    order: [...(input?.ports ?? COMPANION_PORTS)],
    index: 0,
    port: null,
    attempt: 0,
    version: null,
    capabilities: [],
    pending: {},
    seq: 0,
    error: null,
    // start-up: look at every candidate once before settling into one per backoff step
    sweep: true,
    shuffled: false,
  }),
  initial: 'offline',
  states: {
    offline: {
      initial: 'choosing',
      states: {
        // a new cycle starts with a new shuffle; otherwise the next candidate of this one is tried
        choosing: {
          always: [{ guard: 'needsShuffle', target: 'shuffling' }, { target: 'probing' }],
        },
        // §7: the 10 candidates are probed in shuffled order; the randomness comes from outside
        shuffling: {
          invoke: {
            id: 'shuffle',
            src: 'shufflePorts',
            input: ({ context }) => ({ ports: [...context.order].sort((a, b) => a - b) }),
            onDone: { target: 'probing', actions: assign({ order: ({ context, event }) => portOrder(event.output, context.order), index: 0, shuffled: true }) },
            onError: { target: 'probing', actions: assign({ index: 0, shuffled: true }) },
          },
        },
        probing: {
          invoke: {
            id: 'probe',
            src: 'probePort',
            input: ({ context }) => ({ port: context.order[context.index] }),
            onDone: { target: '#companion.online', actions: assign({ port: ({ context }) => context.order[context.index] }) },
            onError: [
              { guard: 'sweepingOn', target: 'probing', reenter: true, actions: 'nextPort' },
              { target: '#companion.waiting', actions: ['nextPort', assign({ sweep: false, error: COMPANION_SAID.noAnswer })] },
            ],
          },
          // §7: a candidate that does not answer in 10 s counts as absent
          after: {
            probeTimeout: [
              { guard: 'sweepingOn', target: 'probing', reenter: true, actions: 'nextPort' },
              { target: '#companion.waiting', actions: ['nextPort', assign({ sweep: false, error: COMPANION_SAID.noAnswer })] },
            ],
          },
        },
      },
    },
    online: {
      invoke: {
        id: 'messages',
        src: 'messages',
        input: ({ context }) => ({ port: context.port! }),
        onError: {
          target: 'waiting',
          actions: [
            assign({ error: ({ event }) => COMPANION_SAID.failed(errorText(event.error, '')) }),
            emit(({ event }) => disconnected(COMPANION_SAID.failed(errorText(event.error, '')))),
          ],
        },
      },
      exit: failPending,
      on: {
        // §4: on close or error, retry with backoff
        'socket.closed': { target: 'waiting', actions: lost },
      },
      initial: 'found',
      states: {
        found: {
          on: {
            // connected once the companion has said who it is
            'socket.message': [
              {
                guard: ({ event }) => {
                  const p = parseCompanionReply(event.data);
                  return p.ok && p.message.type === 'hello';
                },
                target: 'connected',
                actions: [
                  assign(({ event }) => {
                    const hello = parseCompanionReply(event.data);
                    const m = hello.ok && hello.message.type === 'hello' ? hello.message : { version: '', capabilities: [] };
                    return { version: m.version, capabilities: m.capabilities, error: null };
                  }),
                  'resetAttempts',
                  emit(({ context }) => ({
                    type: 'companion.connected' as const,
                    port: context.port!,
                    version: context.version!,
                    capabilities: context.capabilities,
                  })),
                ],
              },
              {
                actions: enqueueActions(({ event, enqueue }) => {
                  const p = parseCompanionReply(event.data);
                  const said = p.ok ? COMPANION_SAID.beforeHello(p.message.type) : COMPANION_SAID.unreadable(p.error);
                  enqueue.assign({ error: said });
                  enqueue.emit(failed(said));
                }),
              },
            ],
          },
        },
        connected: {
          tags: ['usable'],
          on: {
            'socket.message': { actions: handleReply },
            'companion.capturePhoto': [{ guard: 'canCapture', actions: sendCommand }, { actions: unsupported(COMPANION_SAID.cannotCapturePhotos) }],
            'companion.printBadge': [{ guard: 'canPrint', actions: sendCommand }, { actions: unsupported(COMPANION_SAID.cannotPrintBadges) }],
            'companion.notify': [{ guard: 'canNotify', actions: sendCommand }, { actions: unsupported(COMPANION_SAID.cannotShowNotifications) }],
          },
        },
      },
    },
    waiting: {
      // §4: backoff from 1 s doubling to 30 s, then rediscover (reshuffled)
      after: { backoff: 'offline' },
      // the operator asked: look at all ten candidates now, from the first of this order
      on: { 'companion.retry': { target: 'offline', actions: assign({ sweep: true, index: 0 }) } },
      exit: assign({ attempt: ({ context }) => context.attempt + 1, port: null, version: null, capabilities: [] }),
    },
  },
});

export type CompanionMachine = typeof companionMachine;
export type CompanionActor = ActorRefFrom<typeof companionMachine>;
export type CompanionSnapshot = SnapshotFrom<typeof companionMachine>;
