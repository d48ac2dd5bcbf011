// What holds in each state of the floor plan's time slider (./floorPlanTime.ts), written apart from its transitions
// and read by nothing in it: its states' `meta`. The model test checks them at every step of every generated path
// (model-tests/floorPlanTime.model.test.ts, with model-tests/harness.ts).

/** The part of the snapshot the invariants read (not imported from ./floorPlanTime: that imports this file). */
type Held = {
  context: {
    at: number | null;
    now: number;
    windowMs: number;
    speed: number;
    answer: unknown;
    error: string | { message: string } | null;
    alarms: unknown;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
  matches: (value: any) => boolean;
};
const SPEEDS = [1, 10, 60];

export const invariants = {
  machine: {
    'live exactly while no past moment is chosen': (s: Held) => s.matches('live') === (s.context.at === null),
    'busy exactly while the moment is being read': (s: Held) => s.hasTag('busy') === 'readAt' in s.children,
    'plays only at an offered speed': (s: Held) => SPEEDS.includes(s.context.speed),
    'the ticker runs exactly while playing': (s: Held) => s.matches({ past: { clock: 'playing' } }) === 'ticker' in s.children,
  },
  live: {
    'no past moment is shown or read': ({ context: c, children }: Held) => c.answer === null && !('readAt' in children),
  },
  liveAlarms: { 'the period up to now is being read': (s: Held) => 'readAlarms' in s.children },
  past: {
    'the moment lies within the slider and not after now': ({ context: c }: Held) => c.at !== null && c.at <= c.now && c.at >= c.now - c.windowMs,
  },
  playing: { 'plays a moment before now': ({ context: c }: Held) => c.at !== null && c.at < c.now },
  loading: { 'the moment is on its way': (s: Held) => 'readAt' in s.children },
  shown: { 'the answer is in, without an error': ({ context: c }: Held) => c.answer !== null && c.error === null },
  failed: { 'why it failed is said': ({ context: c }: Held) => !!c.error && (typeof c.error === 'string' ? c.error : c.error.message).trim() !== '' },
};
