// The threat level in force on /configure/threat-levels (issue 12), owned by the screen's panel: it reads the level in
// force, the levels to choose from and (for holders of door control) the sites; sets a level or lowers it, one
// command at a time, and reads again after each answer or when another console's change notice arrives. The answer
// of a command is emitted (`threat.answered`) for the view to say in a toast. The REST calls are the `read` and
// `command` actors the caller provides (src/system/readActors.ts). The doors screen's panel reads what a holder of door
// control may set (0.4.5.4, the choices endpoint): its sites, and the whole client only when they control it all; a
// command is run only for those, and only while the level in force covers no door outside them (the server's rule).
import { assign, emit, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { Sentence, ThreatState } from '../contract';
import { errorSaid, notProvided } from './notProvided';

export interface ThreatLevelChoice {
  id: number;
  name: string;
  rank: number;
  mode: string;
}
export interface ThreatRead {
  current: ThreatState;
  levels: ThreatLevelChoice[];
  divisions: Array<{ id: number; name: string }>;
  /** whether the whole client may be chosen (absent: yes, the divisions are all of them) */
  wholeClient?: boolean;
}
/** Set a level (for a site or the whole client, for some minutes or until lowered), or lower it (levelId null). */
export interface ThreatRequest {
  levelId: number | null;
  divisionId: number | null;
  minutes: number | null;
}
export interface ThreatLevelInput {
  mayControl: boolean;
}
export interface ThreatLevelContext extends ThreatLevelInput {
  current: ThreatState | null;
  levels: ThreatLevelChoice[];
  divisions: Array<{ id: number; name: string }>;
  wholeClient: boolean;
  request: ThreatRequest | null;
  /** the last command's refusal: its sentence (key and values) when the server said one, else its words */
  error: string | Sentence | null;
}
export type ThreatLevelEvent =
  | { type: 'threat.set'; levelId: number; divisionId: number | null; minutes: number | null }
  | { type: 'threat.lower' }
  /** another console changed the threat levels (the resource's change notice): read again */
  | { type: 'threat.changed' };
export type ThreatLevelEmitted = { type: 'threat.answered'; state: ThreatState };

type Held = { context: ThreatLevelContext; children: Record<string, unknown> };
const running = (s: Held) => Object.keys(s.children).sort().join();

export const threatLevelMachine = lazySetup({
  types: { context: {} as ThreatLevelContext, events: {} as ThreatLevelEvent, input: {} as ThreatLevelInput, emitted: {} as ThreatLevelEmitted },
  actors: {
    read: notProvided<ThreatRead, ThreatLevelInput>('read'),
    command: notProvided<ThreatState, ThreatRequest>('command'),
  },
  guards: {
    /** set: for a site read as theirs, or the whole client when they control it all; and the level in force is theirs */
    maySet: ({ context, event }) =>
      context.mayControl &&
      mayChange(context) &&
      event.type === 'threat.set' &&
      (event.divisionId === null ? context.wholeClient : context.divisions.some((d) => d.id === event.divisionId)),
    mayLower: ({ context }) => context.mayControl && mayChange(context),
  },
  actions: {
    ask: assign({
      request: ({ event }) =>
        event.type === 'threat.set'
          ? { levelId: event.levelId, divisionId: event.divisionId, minutes: event.minutes }
          : { levelId: null, divisionId: null, minutes: null },
      error: null,
    }),
  },
}).createMachine({
  id: 'threatLevel',
  context: ({ input }) => ({ mayControl: input.mayControl, current: null, levels: [], divisions: [], wholeClient: false, request: null, error: null }),
  initial: 'reading',
  // What holds in each state, written apart from the transitions (`meta`, read by nothing here): the model tests check
  // it at every step of every generated path (model-tests/harness.ts, checkPaths) and on the real actor.
  meta: {
    invariants: {
      'the sites to choose from are listed once each': ({ context: c }: Held) => new Set(c.divisions.map((d) => d.id)).size === c.divisions.length,
    },
  },
  on: {
    'threat.set': { guard: 'maySet', target: '.commanding', actions: 'ask' },
    'threat.lower': { guard: 'mayLower', target: '.commanding', actions: 'ask' },
  },
  states: {
    reading: {
      meta: { invariants: { 'the level in force is being read, and nothing else runs': (s: Held) => running(s) === 'read' } },
      on: { 'threat.changed': { target: 'reading', reenter: true } },
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }) => ({ mayControl: context.mayControl }),
        onDone: {
          target: 'idle',
          actions: assign(({ event }) => ({
            current: event.output.current,
            levels: event.output.levels,
            divisions: event.output.divisions,
            wholeClient: event.output.wholeClient ?? true,
          })),
        },
        // what was read last stays; the request's failure is toasted by the api client
        onError: 'idle',
      },
    },
    idle: { meta: { invariants: { 'nothing runs': (s: Held) => running(s) === '' } }, on: { 'threat.changed': 'reading' } },
    commanding: {
      tags: ['busy'],
      meta: {
        invariants: {
          'one command runs, for a holder of door control, with what was asked': (s: Held) =>
            running(s) === 'command' && s.context.mayControl && s.context.request !== null,
        },
      },
      // one command at a time; a change notice is read with the answer
      on: { 'threat.set': { actions: [] }, 'threat.lower': { actions: [] }, 'threat.changed': { actions: [] } },
      invoke: {
        id: 'command',
        src: 'command',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'reading',
          actions: [assign({ current: ({ event }) => event.output }), emit(({ event }) => ({ type: 'threat.answered' as const, state: event.output }))],
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorSaid(event.error, 'The command failed.') }) },
      },
    },
  },
});

export type ThreatLevelSnapshot = SnapshotFrom<typeof threatLevelMachine>;
export type ThreatLevelActor = ActorRefFrom<typeof threatLevelMachine>;
export const selectThreatCurrent = (s: ThreatLevelSnapshot) => s.context.current;
export const selectThreatLevels = (s: ThreatLevelSnapshot) => s.context.levels;
export const selectThreatDivisions = (s: ThreatLevelSnapshot) => s.context.divisions;
/** Which command runs now ('set' or 'lower'), or null. */
export const selectThreatRunning = (s: ThreatLevelSnapshot): 'set' | 'lower' | null =>
  s.hasTag('busy') ? (s.context.request?.levelId === null ? 'lower' : 'set') : null;
export const selectThreatError = (s: ThreatLevelSnapshot) => s.context.error;
export const selectThreatWholeClient = (s: ThreatLevelSnapshot) => s.context.wholeClient;
/** Whether the level in force (if any) covers only doors the user controls: then they may lower or replace it. */
export const selectThreatMayChange = (s: ThreatLevelSnapshot) => mayChange(s.context);

function mayChange(c: Pick<ThreatLevelContext, 'current' | 'divisions' | 'wholeClient'>): boolean {
  if (!c.current?.level) return true;
  return c.current.divisionId === null ? c.wholeClient : c.divisions.some((d) => d.id === c.current!.divisionId);
}
