// What holds in each state of /configure/door-qr's machines (./doorQr.ts: the doors list with its switches, and one
// door's rotating code in the drawer), written apart from their transitions and read by nothing in the machines. The
// model test hands them to the harness by state (model-tests/doorQr.model.test.ts, `expectOracle(…, byState)`), which
// checks them at every step of every path generated from the graphs. '' holds in every state.

/** The parts of the snapshots the invariants read (not imported from ./doorQr, so nothing is shared with it). */
type Snap<C> = { context: C; children: Record<string, unknown>; hasTag: (tag: string) => boolean };
type List = Snap<{ doors: unknown[] | null; turning: { id: number; on: boolean } | null; error: string | null }>;
type Code = Snap<{
  doorId: number;
  credential: string | null;
  answer: { code: { code: string; validTo: string }; now: number } | null;
  problem: { violation: boolean; message: string } | null;
  notice: string | null;
}>;
const running = (s: Snap<unknown>) => Object.keys(s.children).sort().join(',');

export const listInvariants = {
  '': {
    'at most one call at a time (one switch turns at a time, never while the list is read)': (s: List) => Object.keys(s.children).length <= 1,
  },
  loading: {
    'the list is being read, and only that: busy, no switch turning': (s: List) => running(s) === 'list' && s.hasTag('busy') && s.context.turning === null,
  },
  ready: {
    'the doors are shown, nothing runs, no switch turning': (s: List) =>
      Array.isArray(s.context.doors) && running(s) === '' && s.context.turning === null && !s.hasTag('busy') && !s.hasTag('turning'),
  },
  failed: {
    'nothing runs, no switch turning': (s: List) => running(s) === '' && s.context.turning === null && !s.hasTag('busy') && !s.hasTag('turning'),
  },
  turning: {
    'one door of the list shown is turned on or off, and every switch says so': (s: List) =>
      running(s) === 'turn' &&
      s.hasTag('turning') &&
      Array.isArray(s.context.doors) &&
      s.context.turning !== null &&
      Number.isInteger(s.context.turning.id) &&
      s.context.turning.id > 0 &&
      typeof s.context.turning.on === 'boolean',
  },
};

export const codeInvariants = {
  '': {
    'a code and a problem are never shown together': (s: Code) => !(s.context.answer !== null && s.context.problem !== null),
    'the drawer is for one door (a whole number above 0)': (s: Code) => Number.isInteger(s.context.doorId) && s.context.doorId > 0,
  },
  idle: {
    'nothing asked yet: no credential, no code, no problem, nothing runs': (s: Code) =>
      s.context.credential === null && s.context.answer === null && s.context.problem === null && running(s) === '',
  },
  asking: {
    'the code of the credential asked for is being read: busy': (s: Code) => s.context.credential !== null && running(s) === 'code' && s.hasTag('busy'),
  },
  showing: {
    'a code is shown for the credential asked for; nothing runs, not busy': (s: Code) =>
      s.context.credential !== null && s.context.answer !== null && s.context.answer.code.code !== '' && running(s) === '' && !s.hasTag('busy'),
  },
  failed: {
    'says why there is no code; nothing runs, not busy': (s: Code) =>
      s.context.answer === null && s.context.problem !== null && s.context.problem.message.trim() !== '' && running(s) === '' && !s.hasTag('busy'),
  },
};
