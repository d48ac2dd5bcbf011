// The floor plan's time slider (machines/floorPlanTime.ts) at the edges of its rules, written down apart from the
// machine with values worked out by hand (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): a moment
// within a second of now is now, a moment is clamped to the slider's period and rounded, the real time only moves on,
// a play-back ends live exactly when its next step reaches now, the speeds and periods offered, what each read asks
// for, the words of a failure, and what the selectors show in each state. Driven on the real actor with controllable
// reads and the ticks sent by hand; small cases, no graph (the model test's graph is too slow to run per mutant).
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { floorPlanTimeMachine } from '../machines/floorPlanTime';
import {
  selectInPast,
  selectMoment,
  selectPastBusy,
  selectPastError,
  selectPastPlan,
  selectPeriodAlarms,
  selectPeriodAlarmsBusy,
  selectPeriodAlarmsError,
  selectPlaying,
  selectSpan,
  selectSpeed,
  selectWindowMs,
} from '../machines/floorPlanTime.selectors';
import { createControls } from './harness';

const N = Date.UTC(2026, 11, 2, 12, 0, 0);
const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const plan = (at: number) => ({ planId: 7, at: iso(at), doors: [], alarms: [], threat: null, threatShown: true, zones: [] });

function slider(input: { planId: number | null } | 'none' = { planId: 7 }) {
  const controls = createControls();
  const ticking: number[] = [];
  const ticker = fromCallback<any, { ms: number }>(({ input }) => {
    ticking.push(input.ms);
    return () => ticking.pop();
  });
  const machine = floorPlanTimeMachine.provide({ actors: { readAt: controls.logic(), readAlarms: controls.logic(), ticker } });
  const actor = createActor(machine, { input: input === 'none' ? (undefined as never) : input }).start();
  const asked = (id: string) => controls.inputs.filter((i) => i.id === id).map((i) => i.input);
  return { controls, actor, ticking, asked, s: () => actor.getSnapshot() };
}

describe('floor plan time slider: the moment picked', () => {
  it('a moment within a second of now is now (live, nothing read); a millisecond further back is the past, read at that moment', () => {
    const { actor, s, asked } = slider();
    actor.send({ type: 'time.pick', at: N - SECOND, now: N });
    expect(selectInPast(s())).toBe(false);
    expect(s().value).toEqual({ live: 'idle' });
    expect(asked('readAt')).toEqual([]);
    actor.send({ type: 'time.pick', at: N - SECOND - 1, now: N });
    expect(selectInPast(s())).toBe(true);
    expect(selectMoment(s())).toBe(N - SECOND - 1);
    expect(asked('readAt')).toEqual([{ planId: 7, at: iso(N - SECOND - 1) }]);
    // the period's alarms are read as the slider spans it: the last day up to now
    expect(asked('readAlarms')).toEqual([{ planId: 7, from: iso(N - DAY), to: iso(N) }]);
  });

  it("an alarm jump shows the alarm's moment however recent (its door may have closed since): half a second back is that moment", () => {
    const { actor, s, asked } = slider();
    actor.send({ type: 'alarm.jump', at: N - 500, now: N });
    expect(selectInPast(s())).toBe(true);
    expect(selectMoment(s())).toBe(N - 500);
    expect(asked('readAt')).toEqual([{ planId: 7, at: iso(N - 500) }]);
    actor.send({ type: 'alarm.jump', at: N - MINUTE, now: N });
    expect(selectMoment(s())).toBe(N - MINUTE);
    // one raised after the browser's now (the server's clock a little ahead) is shown at now, still in the past view
    actor.send({ type: 'alarm.jump', at: N + 2 * SECOND, now: N });
    expect(selectInPast(s())).toBe(true);
    expect(selectMoment(s())).toBe(N);
  });

  it('without a plan (none chosen, or no input at all) a pick or a jump stays live', () => {
    for (const input of [{ planId: null }, 'none' as const]) {
      const { actor, s, controls } = slider(input);
      actor.send({ type: 'time.pick', at: N - HOUR, now: N });
      actor.send({ type: 'alarm.jump', at: N - HOUR, now: N });
      actor.send({ type: 'alarms.read', now: N });
      expect(s().value).toEqual({ live: 'idle' });
      expect(controls.inputs).toEqual([]);
    }
  });

  it('a moment before the period is its start; a fraction of a millisecond is rounded', () => {
    const { actor, s } = slider();
    actor.send({ type: 'time.pick', at: N - 2 * DAY, now: N });
    expect(selectMoment(s())).toBe(N - DAY);
    actor.send({ type: 'time.pick', at: N - 1500.4, now: N });
    expect(selectMoment(s())).toBe(N - 1500);
    actor.send({ type: 'alarm.jump', at: N - 3 * DAY, now: N });
    expect(selectMoment(s())).toBe(N - DAY);
  });

  it('the real time only moves on: an older now from the view keeps the later one, for the clamp and for "is it now"', () => {
    const { actor, s, asked } = slider();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    // the view's clock says 5 s earlier: now stays N, so 3 s back is still the past (not within a second of now)
    actor.send({ type: 'time.pick', at: N - 3 * SECOND, now: N - 5 * SECOND });
    expect(selectInPast(s())).toBe(true);
    expect(selectMoment(s())).toBe(N - 3 * SECOND);
    expect(selectSpan(s())).toEqual({ from: N - DAY, to: N });
    // a later now moves the span and the clamp with it
    actor.send({ type: 'time.pick', at: N - 2 * DAY, now: N + HOUR });
    expect(selectMoment(s())).toBe(N + HOUR - DAY);
    expect(selectSpan(s())).toEqual({ from: N + HOUR - DAY, to: N + HOUR });
    expect(asked('readAt').at(-1)).toEqual({ planId: 7, at: iso(N + HOUR - DAY) });
    // now again, by the later clock: live
    actor.send({ type: 'time.pick', at: N + HOUR - 200, now: N });
    expect(selectInPast(s())).toBe(false);
  });

  it('a moment moved is read again with the last answer still shown; a failure says why, or "Could not rebuild that moment."', async () => {
    const { actor, s, controls, asked } = slider();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    expect(selectPastBusy(s())).toBe(true);
    await controls.settle('readAt', 'done', plan(N - HOUR));
    expect(s().context.answer).toEqual(plan(N - HOUR));
    expect(selectPastPlan(s())).toEqual(plan(N - HOUR));
    expect(selectPastBusy(s())).toBe(false);
    actor.send({ type: 'time.pick', at: N - 2 * HOUR, now: N });
    expect(selectPastBusy(s())).toBe(true);
    expect(selectPastPlan(s())).toEqual(plan(N - HOUR));
    expect(asked('readAt').at(-1)).toEqual({ planId: 7, at: iso(N - 2 * HOUR) });
    await controls.settle('readAt', 'error', new Error(''));
    expect(s().matches({ past: { moment: 'failed' } })).toBe(true);
    expect(selectPastError(s())).toBe('Could not rebuild that moment.');
    // while read again the failure is not shown (it stays in the context until an answer comes)
    actor.send({ type: 'alarm.jump', at: N - 3 * HOUR, now: N });
    expect(selectPastError(s())).toBeNull();
    await controls.settle('readAt', 'error', new Error('offline'));
    expect(selectPastError(s())).toBe('offline');
    actor.send({ type: 'time.pick', at: N - 4 * HOUR, now: N });
    await controls.settle('readAt', 'done', plan(N - 4 * HOUR));
    expect(s().context.error).toBeNull();
    expect(selectPastError(s())).toBeNull();
    expect(selectPastPlan(s())).toEqual(plan(N - 4 * HOUR));
  });
});

describe('floor plan time slider: play-back', () => {
  it('plays at 1×, 10× or 60× only (another speed is 1×), and a speed changed while playing is kept', () => {
    const { actor, s, ticking } = slider();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    actor.send({ type: 'time.play', speed: 5 as never, now: N });
    expect(selectPlaying(s())).toBe(true);
    expect(selectSpeed(s())).toBe(1);
    expect(ticking).toEqual([1000]);
    actor.send({ type: 'time.play', speed: 60, now: N });
    expect(selectSpeed(s())).toBe(60);
    actor.send({ type: 'time.play', speed: 10, now: N });
    expect(selectSpeed(s())).toBe(10);
    actor.send({ type: 'time.pause' });
    expect(selectPlaying(s())).toBe(false);
    expect(ticking).toEqual([]);
    actor.send({ type: 'time.play', speed: 60, now: N + MINUTE });
    expect(selectSpeed(s())).toBe(60);
    // the play's now moves the real time on
    expect(selectSpan(s()).to).toBe(N + MINUTE);
  });

  it('each step moves now by a second and the moment by the speed, and reads it; the play-back ends live exactly when the next step reaches now', () => {
    const { actor, s, asked } = slider();
    actor.send({ type: 'time.pick', at: N - MINUTE, now: N });
    actor.send({ type: 'time.play', speed: 10, now: N });
    // worked out by hand: after k steps the moment is N - 60 s + 10 k s and now N + k s; the step taken from there ends
    // live when moment + 10 s >= now + 1 s, i.e. k >= 51/9: steps 1-6 move, the 7th is live
    for (let k = 1; k <= 6; k++) {
      actor.send({ type: 'play.tick' });
      expect(selectPlaying(s())).toBe(true);
      expect(selectMoment(s())).toBe(N - MINUTE + 10 * k * SECOND);
      expect(selectSpan(s()).to).toBe(N + k * SECOND);
      expect(asked('readAt').at(-1)).toEqual({ planId: 7, at: iso(N - MINUTE + 10 * k * SECOND) });
      expect(selectPastBusy(s())).toBe(true);
    }
    actor.send({ type: 'play.tick' });
    expect(selectInPast(s())).toBe(false);
    expect(selectMoment(s())).toBeNull();
  });

  it('at 10× (the speed last played), play from 9 s before now would reach now at the first step: live at once; from 9.001 s it plays', () => {
    const from = (back: number) => {
      const t = slider();
      t.actor.send({ type: 'time.pick', at: N - HOUR, now: N });
      t.actor.send({ type: 'time.play', speed: 10, now: N });
      t.actor.send({ type: 'time.pause' });
      t.actor.send({ type: 'time.pick', at: N - back, now: N });
      t.actor.send({ type: 'time.play', speed: 10, now: N });
      return t;
    };
    expect(selectInPast(from(9 * SECOND).s())).toBe(false);
    const b = from(9 * SECOND + 1);
    expect(selectPlaying(b.s())).toBe(true);
    b.actor.send({ type: 'play.tick' });
    expect(selectMoment(b.s())).toBe(N + SECOND - 1);
    b.actor.send({ type: 'play.tick' });
    expect(selectInPast(b.s())).toBe(false);
  });

  it('a pick or a jump while playing pauses on the moment chosen; picking now while playing is live', () => {
    const { actor, s, asked } = slider();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    actor.send({ type: 'time.play', speed: 1, now: N });
    actor.send({ type: 'time.pick', at: N - 2 * HOUR, now: N });
    expect(selectPlaying(s())).toBe(false);
    expect(selectMoment(s())).toBe(N - 2 * HOUR);
    expect(asked('readAt').at(-1)).toEqual({ planId: 7, at: iso(N - 2 * HOUR) });
    actor.send({ type: 'time.play', speed: 1, now: N });
    actor.send({ type: 'alarm.jump', at: N - 3 * HOUR, now: N });
    expect(selectPlaying(s())).toBe(false);
    expect(selectMoment(s())).toBe(N - 3 * HOUR);
    actor.send({ type: 'time.play', speed: 1, now: N });
    actor.send({ type: 'time.pick', at: N, now: N });
    expect(selectInPast(s())).toBe(false);
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    actor.send({ type: 'time.play', speed: 1, now: N });
    actor.send({ type: 'alarm.jump', at: N - 10, now: N });
    expect(selectInPast(s())).toBe(true);
    expect(selectPlaying(s())).toBe(false);
    expect(selectMoment(s())).toBe(N - 10);
  });
});

describe('floor plan time slider: the period and its alarms', () => {
  it('in the past, the slider spans another period: the moment stays inside it, now moves on, everything is read again, paused', async () => {
    const { actor, s, controls, asked } = slider();
    actor.send({ type: 'time.pick', at: N - 2 * HOUR, now: N });
    await controls.settle('readAlarms', 'done', { items: [{ id: 1 }] });
    expect(selectPeriodAlarms(s())).toEqual([{ id: 1 }]);
    actor.send({ type: 'time.play', speed: 1, now: N });
    actor.send({ type: 'time.window', ms: HOUR, now: N + MINUTE });
    expect(selectWindowMs(s())).toBe(HOUR);
    expect(selectMoment(s())).toBe(N + MINUTE - HOUR);
    expect(selectPlaying(s())).toBe(false);
    expect(selectSpan(s())).toEqual({ from: N + MINUTE - HOUR, to: N + MINUTE });
    expect(asked('readAt').at(-1)).toEqual({ planId: 7, at: iso(N + MINUTE - HOUR) });
    expect(asked('readAlarms').at(-1)).toEqual({ planId: 7, from: iso(N + MINUTE - HOUR), to: iso(N + MINUTE) });
    expect(selectPeriodAlarmsBusy(s())).toBe(true);
    // a moment inside the new period stays where it is; an older now keeps the later one; a period not offered is a day
    actor.send({ type: 'time.window', ms: 12_345, now: N });
    expect(selectWindowMs(s())).toBe(DAY);
    expect(selectMoment(s())).toBe(N + MINUTE - HOUR);
    expect(selectSpan(s()).to).toBe(N + MINUTE);
    actor.send({ type: 'time.window', ms: 7 * DAY, now: N + MINUTE });
    expect(selectWindowMs(s())).toBe(7 * DAY);
  });

  it("the past period's alarms: the list read, or why not (the server's words, or 'Could not list the alarms.'), shown only when failed", async () => {
    const { actor, s, controls } = slider();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    expect(selectPeriodAlarmsBusy(s())).toBe(true);
    await controls.settle('readAlarms', 'error', {});
    expect(s().context.alarmsError).toBe('Could not list the alarms.');
    expect(selectPeriodAlarmsError(s())).toBe('Could not list the alarms.');
    expect(selectPeriodAlarmsBusy(s())).toBe(false);
    actor.send({ type: 'time.window', ms: HOUR, now: N });
    expect(selectPeriodAlarmsError(s())).toBeNull();
    await controls.settle('readAlarms', 'error', new Error('Server busy'));
    expect(selectPeriodAlarmsError(s())).toBe('Server busy');
    actor.send({ type: 'time.window', ms: HOUR, now: N });
    await controls.settle('readAlarms', 'done', { items: [{ id: 2 }] });
    expect(s().context.alarmsError).toBeNull();
    expect(selectPeriodAlarms(s())).toEqual([{ id: 2 }]);
    expect(selectPeriodAlarmsError(s())).toBeNull();
  });

  it('"Live" and another plan forget the past: moment, answer, error, the alarms and their error', async () => {
    const { actor, s, controls, asked } = slider();
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    await controls.settle('readAt', 'error', new Error('offline'));
    await controls.settle('readAlarms', 'error', new Error('offline'));
    actor.send({ type: 'time.live' });
    expect(s().value).toEqual({ live: 'idle' });
    expect(s().context).toMatchObject({ at: null, answer: null, error: null, alarms: null, alarmsError: null, planId: 7 });
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    await controls.settle('readAt', 'done', plan(N - HOUR));
    await controls.settle('readAlarms', 'done', { items: [{ id: 3 }] });
    actor.send({ type: 'plan.chosen', planId: 9 });
    expect(s().value).toEqual({ live: 'idle' });
    expect(s().context).toMatchObject({ at: null, answer: null, error: null, alarms: null, alarmsError: null, planId: 9 });
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    expect(asked('readAt').at(-1)).toEqual({ planId: 9, at: iso(N - HOUR) });
    actor.send({ type: 'plan.chosen', planId: null });
    actor.send({ type: 'time.pick', at: N - HOUR, now: N });
    expect(selectInPast(s())).toBe(false);
  });

  it('live: opening the jump list reads the period up to now; another period reads again only once read, a period not offered is a day', async () => {
    const { actor, s, controls, asked } = slider();
    // not read yet: another period changes the span only
    actor.send({ type: 'time.window', ms: HOUR, now: N });
    expect(selectWindowMs(s())).toBe(HOUR);
    expect(s().value).toEqual({ live: 'idle' });
    expect(selectSpan(s()).to).toBe(0);
    actor.send({ type: 'time.window', ms: 999, now: N });
    expect(selectWindowMs(s())).toBe(DAY);
    actor.send({ type: 'time.window', ms: HOUR, now: N });
    actor.send({ type: 'alarms.read', now: N + MINUTE });
    expect(selectPeriodAlarmsBusy(s())).toBe(true);
    expect(selectSpan(s()).to).toBe(N + MINUTE);
    expect(asked('readAlarms')).toEqual([{ planId: 7, from: iso(N + MINUTE - HOUR), to: iso(N + MINUTE) }]);
    // another period while it is being read: read again for that period
    actor.send({ type: 'time.window', ms: 7 * DAY, now: N + 2 * MINUTE });
    expect(asked('readAlarms').at(-1)).toEqual({ planId: 7, from: iso(N + 2 * MINUTE - 7 * DAY), to: iso(N + 2 * MINUTE) });
    expect(selectWindowMs(s())).toBe(7 * DAY);
    await controls.settle('readAlarms', 'error', new Error('Server busy'));
    expect(s().value).toEqual({ live: 'failed' });
    expect(selectPeriodAlarmsError(s())).toBe('Server busy');
    expect(selectPeriodAlarmsBusy(s())).toBe(false);
    // failed is read too: another period reads again, and the failure is not shown meanwhile
    actor.send({ type: 'time.window', ms: HOUR, now: N + 3 * MINUTE });
    expect(selectPeriodAlarmsBusy(s())).toBe(true);
    expect(selectPeriodAlarmsError(s())).toBeNull();
    expect(asked('readAlarms').at(-1)).toEqual({ planId: 7, from: iso(N + 3 * MINUTE - HOUR), to: iso(N + 3 * MINUTE) });
    await controls.settle('readAlarms', 'done', { items: [{ id: 4 }] });
    expect(s().value).toEqual({ live: 'ready' });
    expect(selectPeriodAlarms(s())).toEqual([{ id: 4 }]);
    expect(s().context.alarmsError).toBeNull();
    // read: another period (with an older now) reads again, keeping the later now
    actor.send({ type: 'time.window', ms: DAY, now: N });
    expect(asked('readAlarms').at(-1)).toEqual({ planId: 7, from: iso(N + 3 * MINUTE - DAY), to: iso(N + 3 * MINUTE) });
    // an older now on the jump list keeps the later one
    await controls.settle('readAlarms', 'done', { items: [] });
    actor.send({ type: 'alarms.read', now: N });
    expect(asked('readAlarms').at(-1)).toEqual({ planId: 7, from: iso(N + 3 * MINUTE - DAY), to: iso(N + 3 * MINUTE) });
  });
});
