// The floor plan time slider's oracle itself (machines/floorPlanTime.invariants.ts): the model test checks the
// invariants on a correct machine only, so one weakened to `true` passed unseen (the mutation run of 2026-12-03,
// docs/TESTING.md). Each invariant here holds on a hand-made state that keeps it and fails on one that breaks it, at
// the edge where it can (the moment at now, at the period's start, a millisecond outside).
import { describe, expect, it } from 'vitest';
import { invariants } from '../machines/floorPlanTime.invariants';

const N = Date.UTC(2026, 11, 2, 12, 0, 0);
const HOUR = 3600_000;

type Over = {
  at?: number | null;
  now?: number;
  windowMs?: number;
  speed?: number;
  answer?: unknown;
  error?: string | null;
  alarms?: unknown;
  children?: string[];
  tags?: string[];
  /** the state values it matches, as JSON ('"live"', '{"past":{"clock":"playing"}}') */
  matching?: string[];
};
function held(o: Over = {}) {
  return {
    context: {
      at: 'at' in o ? o.at! : N - HOUR,
      now: o.now ?? N,
      windowMs: o.windowMs ?? 24 * HOUR,
      speed: o.speed ?? 1,
      answer: 'answer' in o ? o.answer : null,
      error: 'error' in o ? o.error! : null,
      alarms: 'alarms' in o ? o.alarms : null,
    },
    children: Object.fromEntries((o.children ?? []).map((c) => [c, {}])),
    hasTag: (t: string) => (o.tags ?? []).includes(t),
    matches: (v: unknown) => (o.matching ?? []).includes(JSON.stringify(v)),
  };
}
const LIVE = { at: null, matching: ['"live"'] };
const PAST = { matching: ['"past"'] };
const PLAYING = { matching: ['"past"', '{"past":{"clock":"playing"}}'], children: ['ticker'] };

describe('floor plan time slider invariants, each against a state that breaks it', () => {
  const m = invariants.machine;
  it('live exactly while no past moment is chosen', () => {
    const rule = m['live exactly while no past moment is chosen'];
    expect(rule(held(LIVE))).toBe(true);
    expect(rule(held(PAST))).toBe(true);
    expect(rule(held({ ...LIVE, at: N - HOUR }))).toBe(false);
    expect(rule(held({ ...PAST, at: null }))).toBe(false);
  });

  it('busy exactly while the moment is being read', () => {
    const rule = m['busy exactly while the moment is being read'];
    expect(rule(held({ ...PAST, tags: ['busy'], children: ['readAt'] }))).toBe(true);
    expect(rule(held(PAST))).toBe(true);
    expect(rule(held({ ...PAST, tags: ['busy'] }))).toBe(false);
    expect(rule(held({ ...PAST, children: ['readAt'] }))).toBe(false);
  });

  it('plays only at an offered speed', () => {
    const rule = m['plays only at an offered speed'];
    for (const speed of [1, 10, 60]) expect(rule(held({ speed }))).toBe(true);
    for (const speed of [0, 2, 30, 61]) expect(rule(held({ speed }))).toBe(false);
  });

  it('the ticker runs exactly while playing', () => {
    const rule = m['the ticker runs exactly while playing'];
    expect(rule(held(PLAYING))).toBe(true);
    expect(rule(held(PAST))).toBe(true);
    expect(rule(held({ ...PLAYING, children: [] }))).toBe(false);
    expect(rule(held({ ...PAST, children: ['ticker'] }))).toBe(false);
  });

  it('live: no past moment is shown or read', () => {
    const rule = invariants.live['no past moment is shown or read'];
    expect(rule(held({ ...LIVE, children: ['readAlarms'] }))).toBe(true);
    expect(rule(held({ ...LIVE, answer: { planId: 7 } }))).toBe(false);
    expect(rule(held({ ...LIVE, children: ['readAt'] }))).toBe(false);
  });

  it("live, reading the period's alarms: the read runs", () => {
    const rule = invariants.liveAlarms['the period up to now is being read'];
    expect(rule(held({ ...LIVE, children: ['readAlarms'] }))).toBe(true);
    expect(rule(held({ ...LIVE, children: ['readAt'] }))).toBe(false);
  });

  it('past: the moment lies within the slider and not after now (its ends included)', () => {
    const rule = invariants.past['the moment lies within the slider and not after now'];
    expect(rule(held({ ...PAST, at: N }))).toBe(true);
    expect(rule(held({ ...PAST, at: N - HOUR, windowMs: HOUR }))).toBe(true);
    expect(rule(held({ ...PAST, at: N + 1 }))).toBe(false);
    expect(rule(held({ ...PAST, at: N - HOUR - 1, windowMs: HOUR }))).toBe(false);
    expect(rule(held({ ...PAST, at: null }))).toBe(false);
  });

  it('playing: plays a moment before now', () => {
    const rule = invariants.playing['plays a moment before now'];
    expect(rule(held({ ...PLAYING, at: N - 1 }))).toBe(true);
    expect(rule(held({ ...PLAYING, at: N }))).toBe(false);
    expect(rule(held({ ...PLAYING, at: null }))).toBe(false);
  });

  it('the moment loading, shown or failed', () => {
    expect(invariants.loading['the moment is on its way'](held({ ...PAST, children: ['readAt'] }))).toBe(true);
    expect(invariants.loading['the moment is on its way'](held({ ...PAST, children: ['readAlarms'] }))).toBe(false);
    const shown = invariants.shown['the answer is in, without an error'];
    expect(shown(held({ ...PAST, answer: { planId: 7 } }))).toBe(true);
    expect(shown(held({ ...PAST, answer: null }))).toBe(false);
    expect(shown(held({ ...PAST, answer: { planId: 7 }, error: 'offline' }))).toBe(false);
    const failed = invariants.failed['why it failed is said'];
    expect(failed(held({ ...PAST, error: 'offline' }))).toBe(true);
    expect(failed(held({ ...PAST, error: null }))).toBe(false);
    expect(failed(held({ ...PAST, error: '' }))).toBe(false);
    expect(failed(held({ ...PAST, error: '  ' }))).toBe(false);
  });
});
