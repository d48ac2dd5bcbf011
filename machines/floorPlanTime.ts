// The floor plan's time slider (issue 50, "the site at any moment"): live, or a past moment of the last 30 days as
// the server rebuilds it from the stored events (contract/floorPlanHistory.ts). In the past it reads the moment
// (`readAt`, again each time the moment moves; the last answer stays on screen meanwhile), the alarms of the period
// the slider spans (`readAlarms`, to jump to; live too, each time the list is opened), and plays forward at 1×, 10× or 60×: every FLOOR_PLAN_PLAY_STEP_MS the
// moment moves on by the speed times that step, until it catches up with now and the plan is live again. The real
// time comes in with the events the view sends (`now`) and moves on with the play-back's own steps: no clock here.
import type { Sentence } from '../contract/messages';
import { assign, fromCallback, raise, type ActorRefFrom, type AnyEventObject, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import {
  FLOOR_PLAN_HISTORY_MS,
  FLOOR_PLAN_PLAY_SPEEDS,
  FLOOR_PLAN_PLAY_STEP_MS,
  type FloorPlanAlarms,
  type FloorPlanAt,
  type PastAlarm,
} from '../contract/floorPlanHistory';
import { errorSaid, notProvided } from './notProvided';
import { invariants } from './floorPlanTime.invariants';

export type PlaySpeed = (typeof FLOOR_PLAN_PLAY_SPEEDS)[number];
/** How far back the slider reaches: the last hour, day, week or 30 days. */
export const FLOOR_PLAN_WINDOWS = [3600_000, 24 * 3600_000, 7 * 24 * 3600_000, FLOOR_PLAN_HISTORY_MS] as const;
/** A moment this close to now is now: the plan goes live. */
export const LIVE_WITHIN_MS = 1000;

export interface FloorPlanTimeContext {
  planId: number | null;
  /** the real time as last told (the view's events) or moved on by the play-back */
  now: number;
  /** the moment shown; null: live */
  at: number | null;
  windowMs: number;
  speed: PlaySpeed;
  answer: FloorPlanAt | null;
  error: string | Sentence | null;
  alarms: PastAlarm[] | null;
  alarmsError: string | Sentence | null;
}

export type FloorPlanTimeEvent =
  | { type: 'plan.chosen'; planId: number | null }
  /** the slider or the date-time field chose a moment */
  | { type: 'time.pick'; at: number; now: number }
  /** an alarm of the period was chosen: its moment, paused */
  | { type: 'alarm.jump'; at: number; now: number }
  | { type: 'time.window'; ms: number; now: number }
  /** the list of the period's alarms was opened while live: read them, up to now */
  | { type: 'alarms.read'; now: number }
  | { type: 'time.play'; speed: PlaySpeed; now: number }
  | { type: 'time.pause' }
  | { type: 'time.live' }
  /** the play-back's step (the ticker's) */
  | { type: 'play.tick' }
  /** the moment moved (raised by the machine itself when it plays) */
  | { type: 'moment.moved' };

export interface FloorPlanTimeInput {
  planId: number | null;
}
export interface ReadAtInput {
  planId: number;
  at: string;
}
export interface ReadAlarmsInput {
  planId: number;
  from: string;
  to: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const speedOf = (s: number): PlaySpeed => ((FLOOR_PLAN_PLAY_SPEEDS as readonly number[]).includes(s) ? (s as PlaySpeed) : 1);
const windowOf = (ms: number) => ((FLOOR_PLAN_WINDOWS as readonly number[]).includes(ms) ? ms : FLOOR_PLAN_WINDOWS[1]);
const clamp = (at: number, now: number, windowMs: number) => Math.min(now, Math.max(now - windowMs, Math.round(at)));

/**
 * The moment moved: read it again. Taken by the moment's own states (not its region) so that re-entering `loading`
 * leaves the play-back and the period's alarms alone; picking now is the live plan.
 */
const MOMENT_MOVES = {
  'time.pick': [
    { guard: 'pickedNow', target: '#floorPlanTime.live', actions: 'forgetPast' },
    { target: 'loading', reenter: true, actions: 'pick' },
  ],
  // an alarm's moment is shown however recent it is: the plan as it stood then, not the live one that moved on since
  'alarm.jump': { target: 'loading', reenter: true, actions: 'pick' },
  'moment.moved': { target: 'loading', reenter: true },
} as const;

/**
 * Reading the period's alarms, one state for both its places: live (the jump list opened) and past (the period the
 * slider spans). Its answer or failure is the list's; the period is the one the slider spans, up to now.
 */
const READ_PERIOD_ALARMS = {
  invoke: {
    id: 'readAlarms',
    src: 'readAlarms',
    input: ({ context }: { context: FloorPlanTimeContext }): ReadAlarmsInput => ({
      planId: context.planId ?? 0,
      from: iso(context.now - context.windowMs),
      to: iso(context.now),
    }),
    onDone: { target: 'ready', actions: 'keepAlarms' },
    onError: { target: 'failed', actions: 'alarmsFailed' },
  },
} as const;

export const floorPlanTimeMachine = lazySetup({
  types: {
    context: {} as FloorPlanTimeContext,
    events: {} as FloorPlanTimeEvent,
    input: {} as FloorPlanTimeInput,
  },
  actors: {
    readAt: notProvided<FloorPlanAt, ReadAtInput>('readAt'),
    readAlarms: notProvided<FloorPlanAlarms, ReadAlarmsInput>('readAlarms'),
    /** sends `play.tick` every `ms` while it runs (the browser's interval; tests send the ticks themselves) */
    ticker: fromCallback<AnyEventObject, { ms: number }>(() => {
      throw new Error('ticker was not provided: pass it with machine.provide({ actors })');
    }),
  },
  guards: {
    /** §issue 50: a moment picked at now is the live plan, not a past one (an alarm's moment is always shown) */
    pickedNow: ({ context, event }) => event.type === 'time.pick' && event.at >= Math.max(context.now, event.now) - LIVE_WITHIN_MS,
    /** the next step reaches now: the play-back ends live */
    caughtUp: ({ context }) => context.at === null || context.at + context.speed * FLOOR_PLAN_PLAY_STEP_MS >= context.now + FLOOR_PLAN_PLAY_STEP_MS,
    hasPlan: ({ context }) => context.planId !== null,
    /** the period's alarms were read (or are being read) while live */
    alarmsRead: ({ context, event }) => context.planId !== null && 'now' in event && (context.alarms !== null || context.alarmsError !== null),
  },
  actions: {
    pick: assign(({ context, event }) => {
      if (event.type !== 'time.pick' && event.type !== 'alarm.jump') return {};
      const now = Math.max(context.now, event.now);
      return { now, at: clamp(event.at, now, context.windowMs) };
    }),
    forgetPast: assign({ at: null, answer: null, error: null, alarms: null, alarmsError: null }),
    keepAlarms: assign(({ event }) => ({ alarms: (event as unknown as DoneActorEvent<FloorPlanAlarms>).output.items, alarmsError: null })),
    alarmsFailed: assign(({ event }) => ({ alarmsError: errorSaid((event as unknown as ErrorActorEvent).error, 'Could not list the alarms.') })),
    spanLive: assign(({ context, event }) => (event.type === 'time.window' ? { windowMs: windowOf(event.ms), now: Math.max(context.now, event.now) } : {})),
  },
}).createMachine({
  id: 'floorPlanTime',
  context: ({ input }) => ({
    planId: input?.planId ?? null,
    now: 0,
    at: null,
    windowMs: FLOOR_PLAN_WINDOWS[1],
    speed: 1,
    answer: null,
    error: null,
    alarms: null,
    alarmsError: null,
  }),
  initial: 'live',
  meta: { invariants: invariants.machine },
  on: {
    'plan.chosen': { target: '.live', actions: ['forgetPast', assign({ planId: ({ event }) => event.planId })] },
  },
  states: {
    live: {
      meta: { invariants: invariants.live },
      on: {
        'time.pick': [{ guard: 'pickedNow' }, { guard: 'hasPlan', target: 'past', actions: 'pick' }],
        // a jump to an alarm shows its moment even when it was raised a moment ago (its door may have closed since)
        'alarm.jump': { guard: 'hasPlan', target: 'past', actions: 'pick' },
        // another period: its alarms are read again when the list was read already
        'time.window': [
          { guard: 'alarmsRead', target: '.loading', reenter: true, actions: 'spanLive' },
          { actions: assign(({ event }) => ({ windowMs: windowOf(event.ms) })) },
        ],
        // §issue 50: the jump list while live, the period up to now
        'alarms.read': {
          guard: 'hasPlan',
          target: '.loading',
          reenter: true,
          actions: assign(({ context, event }) => ({ now: Math.max(context.now, event.now) })),
        },
      },
      initial: 'idle',
      states: {
        idle: {},
        loading: {
          meta: { invariants: invariants.liveAlarms },
          on: { 'time.window': { target: 'loading', reenter: true, actions: 'spanLive' } },
          ...READ_PERIOD_ALARMS,
        },
        ready: {},
        failed: {},
      },
    },
    past: {
      type: 'parallel',
      meta: { invariants: invariants.past },
      on: {
        'time.live': { target: 'live', actions: 'forgetPast' },
        // the slider spans another period: the moment stays inside it, and its alarms are read again
        'time.window': {
          target: 'past',
          reenter: true,
          actions: assign(({ context, event }) => {
            const now = Math.max(context.now, event.now);
            const windowMs = windowOf(event.ms);
            return { now, windowMs, at: clamp(context.at ?? now, now, windowMs) };
          }),
        },
      },
      states: {
        clock: {
          initial: 'paused',
          states: {
            paused: {
              on: {
                'time.play': [
                  { guard: 'caughtUp', target: '#floorPlanTime.live', actions: 'forgetPast' },
                  { target: 'playing', actions: assign(({ context, event }) => ({ speed: speedOf(event.speed), now: Math.max(context.now, event.now) })) },
                ],
              },
            },
            playing: {
              meta: { invariants: invariants.playing },
              invoke: { id: 'ticker', src: 'ticker', input: { ms: FLOOR_PLAN_PLAY_STEP_MS } },
              on: {
                'play.tick': [
                  { guard: 'caughtUp', target: '#floorPlanTime.live', actions: 'forgetPast' },
                  {
                    actions: [
                      assign(({ context }) => ({
                        now: context.now + FLOOR_PLAN_PLAY_STEP_MS,
                        at: (context.at ?? context.now) + context.speed * FLOOR_PLAN_PLAY_STEP_MS,
                      })),
                      raise({ type: 'moment.moved' }),
                    ],
                  },
                ],
                'time.pause': 'paused',
                'time.pick': [{ guard: 'pickedNow', target: '#floorPlanTime.live', actions: 'forgetPast' }, { target: 'paused' }],
                'alarm.jump': 'paused',
                'time.play': { actions: assign(({ event }) => ({ speed: speedOf(event.speed) })) },
              },
            },
          },
        },
        moment: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['busy'],
              meta: { invariants: invariants.loading },
              on: MOMENT_MOVES,
              invoke: {
                id: 'readAt',
                src: 'readAt',
                input: ({ context }) => ({ planId: context.planId ?? 0, at: iso(context.at ?? context.now) }),
                onDone: { target: 'shown', actions: assign({ answer: ({ event }) => event.output, error: null }) },
                onError: { target: 'failed', actions: assign({ error: ({ event }) => errorSaid(event.error, 'Could not rebuild that moment.') }) },
              },
            },
            shown: { meta: { invariants: invariants.shown }, on: MOMENT_MOVES },
            failed: { meta: { invariants: invariants.failed }, on: MOMENT_MOVES },
          },
        },
        alarms: {
          initial: 'loading',
          states: {
            loading: READ_PERIOD_ALARMS,
            ready: {},
            failed: {},
          },
        },
      },
    },
  },
});

export type FloorPlanTimeSnapshot = SnapshotFrom<typeof floorPlanTimeMachine>;
export type FloorPlanTimeActor = ActorRefFrom<typeof floorPlanTimeMachine>;
