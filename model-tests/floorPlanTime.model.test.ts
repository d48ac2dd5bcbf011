// Model-based test of the floor plan's time slider (machines/floorPlanTime.ts): every edge on the real machine with
// controllable reads and a simulated clock. The state invariants (floorPlanTime.invariants.ts) hold at every step:
// live exactly while no moment is chosen, the moment inside the slider and never after now, busy exactly while the
// moment is read. The step properties say what a person sees: a picked moment (or an alarm's) is the one shown,
// picking now is live, each play-back step moves the moment by the speed, a play-back that reaches now is live, and
// "Live" forgets the past; opening the jump list while live reads the period's alarms up to now.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor, fromCallback } from 'xstate';
import { FLOOR_PLAN_PLAY_STEP_MS } from '../contract/floorPlanHistory';
import { floorPlanTimeMachine, type FloorPlanTimeSnapshot } from '../machines/floorPlanTime';
import {
  selectInPast,
  selectMoment,
  selectPastBusy,
  selectPastPlan,
  selectPeriodAlarms,
  selectPeriodAlarmsBusy,
  selectPlaying,
} from '../machines/floorPlanTime.selectors';
import { createControls, edgePaths, onDemand, expectOracle, onlyInvoked, replayEdgePath } from './harness';

const N = Date.UTC(2026, 11, 2, 12, 0, 0);
const HOUR = 3600_000;
const STEP_EVENT = 'play.tick';
const answer = (at: string) => ({ planId: 7, at, doors: [], alarms: [], threat: null, threatShown: true, zones: [] });

describe('floor plan time slider model', () => {
  const events = [
    { type: 'time.pick', at: N - 2 * 60_000, now: N },
    { type: 'time.pick', at: N, now: N },
    { type: 'alarm.jump', at: N - 30 * 60_000, now: N },
    // an alarm raised half a second ago (within the "now" of a pick)
    { type: 'alarm.jump', at: N - 500, now: N },
    { type: 'time.window', ms: HOUR, now: N },
    { type: 'alarms.read', now: N + 60_000 },
    { type: 'time.play', speed: 60, now: N },
    { type: 'time.pause' },
    { type: 'time.live' },
    { type: STEP_EVENT },
    { type: 'xstate.done.actor.readAt', output: answer(new Date(N).toISOString()) },
    { type: 'xstate.error.actor.readAt', error: new Error('offline') },
    { type: 'xstate.done.actor.readAlarms', output: { items: [] } },
    { type: 'xstate.error.actor.readAlarms', error: new Error('offline') },
  ] as any[];
  // the clock's step comes only while the play-back runs (three steps at most: enough to catch up from 2 minutes at 60×)
  const offered = (s: FloorPlanTimeSnapshot) =>
    onlyInvoked(events)(s as any).filter(
      (e: { type: string }) => e.type !== STEP_EVENT || (selectPlaying(s) && s.context.now - N < 3 * FLOOR_PLAN_PLAY_STEP_MS),
    );
  const serialize = (s: FloorPlanTimeSnapshot) =>
    JSON.stringify([s.value, s.context.at === null ? null : N - s.context.at, s.context.now - N, s.context.speed]);
  const input = { planId: 7 };
  const model = new TestModel(floorPlanTimeMachine as any, { events: offered as any, serializeState: serialize as any, limit: 200000, input } as any);
  const paths = onDemand(() => edgePaths(model, floorPlanTimeMachine, serialize, [], input));

  it('keeps the invariants of its states at every step of the generated paths, and does what the person asked', () => {
    const picked = (e: any) => e.type === 'time.pick' || e.type === 'alarm.jump';
    expectOracle(
      paths(),
      {
        'a picked moment (or an alarm’s) is the moment shown, inside the slider': ({ event, before, after }) =>
          picked(event) && selectInPast(after)
            ? selectMoment(after) === Math.min(after.context.now, Math.max(after.context.now - before.context.windowMs, event.at))
            : undefined,
        'picking now is the live plan': ({ event, before, after }) =>
          event.type === 'time.pick' && event.at >= Math.max(before.context.now, event.now) ? !selectInPast(after) : undefined,
        "an alarm jump with a plan always shows the alarm's moment, however recent": ({ event, before, after }) =>
          event.type === 'alarm.jump' && before.context.planId !== null ? selectInPast(after) && !selectPlaying(after) : undefined,
        'a play-back step moves the moment on by the speed, or ends live when it reaches now': ({ event, before, after }) =>
          event.type === STEP_EVENT && selectPlaying(before)
            ? selectInPast(after)
              ? selectMoment(after)! - selectMoment(before)! === before.context.speed * FLOOR_PLAN_PLAY_STEP_MS
              : selectMoment(before)! + before.context.speed * FLOOR_PLAN_PLAY_STEP_MS >= before.context.now + FLOOR_PLAN_PLAY_STEP_MS
            : undefined,
        'a moment that moved is read again, the last answer still shown': ({ event, before, after }) =>
          (event.type === STEP_EVENT || picked(event)) && selectInPast(before) && selectInPast(after)
            ? selectPastBusy(after) && selectPastPlan(after) === selectPastPlan(before)
            : undefined,
        '"Live" forgets the past': ({ event, before, after }) =>
          event.type === 'time.live' && selectInPast(before)
            ? !selectInPast(after) && selectPastPlan(after) === null && selectPeriodAlarms(after) === null
            : undefined,
        'an alarm jump pauses the play-back': ({ event, before, after }) =>
          event.type === 'alarm.jump' && selectPlaying(before) && selectInPast(after) ? !selectPlaying(after) : undefined,
        'opening the jump list while live reads the period up to now, still live': ({ event, before, after }) =>
          event.type === 'alarms.read' && !selectInPast(before)
            ? !selectInPast(after) && selectPeriodAlarmsBusy(after) && after.context.now >= event.now
            : undefined,
        // one reading state serves both places (live: the jump list; past: the slider's period)
        "the period's alarms read, live or in the past, are the list shown; a failure says why": ({ event, before, after }) =>
          event.type === 'xstate.done.actor.readAlarms' && 'readAlarms' in before.children
            ? JSON.stringify(after.context.alarms) === JSON.stringify(event.output.items) && after.context.alarmsError === null
            : event.type === 'xstate.error.actor.readAlarms' && 'readAlarms' in before.children
              ? after.context.alarmsError === 'offline'
              : undefined,
        'a period chosen while live with its alarms read reads them again': ({ event, before, after }) =>
          event.type === 'time.window' && !selectInPast(before) && (selectPeriodAlarms(before) !== null || selectPeriodAlarmsBusy(before))
            ? selectPeriodAlarmsBusy(after) && after.context.windowMs === event.ms
            : undefined,
      },
      8,
    );
  }, 240_000);

  it('reaches live, paused, playing, shown and failed', () => {
    const seen = new Set(paths().flatMap((p) => p.path.steps.map((st) => JSON.stringify(st.state.value))));
    expect([...seen].some((v) => v.includes('"playing"'))).toBe(true);
    expect([...seen].some((v) => v.includes('"failed"'))).toBe(true);
    expect([...seen].some((v) => v.includes('"shown"'))).toBe(true);
    expect(seen.has('{"live":"idle"}') && seen.has('{"live":"ready"}') && seen.has('{"live":"failed"}')).toBe(true);
  }, 240_000);

  it(`on the real actor along a sample of the generated paths: each read asks for the plan and the moment shown`, async () => {
    const sample = paths().filter((_, i) => i % Math.max(1, Math.floor(paths().length / 150)) === 0);
    const met = { 'a read of the plan': 0, 'a read of a moment': 0, 'a live read of the alarms up to now': 0 };
    for (const p of sample) {
      let asked: Array<{ id: string; input: any }> = [];
      await replayEdgePath(
        model,
        events,
        (controls) => {
          asked = controls.inputs;
          return floorPlanTimeMachine.provide({
            actors: { readAt: controls.logic(), readAlarms: controls.logic(), ticker: fromCallback(() => {}) },
          }) as typeof floorPlanTimeMachine;
        },
        p,
        {},
        input,
      );
      for (const a of asked) {
        met['a read of the plan']++;
        expect(a.input.planId).toBe(7);
        if (a.id === 'readAt') {
          met['a read of a moment']++;
          expect(Date.parse(a.input.at)).toBeLessThanOrEqual(N + 3 * HOUR);
        }
        if (a.id === 'readAlarms' && Date.parse(a.input.to) === N + 60_000) {
          met['a live read of the alarms up to now']++;
          expect(Date.parse(a.input.to) - Date.parse(a.input.from)).toBeGreaterThanOrEqual(HOUR);
        }
      }
    }
    // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
    expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
  }, 240_000);

  it('plays an hour back at 60× up to now in about a minute of ticks, then is live; the ticker runs only while playing', async () => {
    const controls = createControls();
    const ticking: number[] = [];
    const ticker = fromCallback<any, { ms: number }>(({ input }) => {
      ticking.push(input.ms);
      return () => ticking.pop();
    });
    const actor = createActor(floorPlanTimeMachine.provide({ actors: { readAt: controls.logic(), readAlarms: controls.logic(), ticker } }), { input });
    actor.start();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    actor.send({ type: 'time.play', speed: 60, now: N });
    expect(ticking).toEqual([FLOOR_PLAN_PLAY_STEP_MS]);
    // real time moves on too (a second a tick): the hour is caught up on the 62nd tick
    for (let i = 1; i <= 61; i++) {
      actor.send({ type: 'play.tick' });
      expect(selectMoment(actor.getSnapshot())).toBe(N - HOUR + i * 60 * FLOOR_PLAN_PLAY_STEP_MS);
    }
    actor.send({ type: 'play.tick' });
    expect(selectInPast(actor.getSnapshot())).toBe(false);
    expect(ticking).toEqual([]);
    actor.stop();
  });
});
