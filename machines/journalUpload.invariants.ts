// What holds in each state of the session replay upload (./journalUpload.ts: one session in ten recorded and sent to
// the server, issue 4), written apart from its transitions and read by nothing in the machine. The model test hands
// them to the harness by state (model-tests/journalUpload.model.test.ts, `expectOracle(…, byState)`), which checks them
// at every step of every path generated from the graph and on the real actor. '' holds in every state.

/** The part of the snapshot the invariants read (not imported from ./journalUpload, so nothing is shared with it). */
type Held = {
  context: {
    token: string | null;
    recording: string | null;
    sampled: boolean | null;
    floor: number;
    sent: number;
    endedAt: number;
    upTo: number | null;
    failures: number;
    stopped: string | { message: string } | null;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const running = (s: Held) => Object.keys(s.children).sort().join(',');
/** words said: text, or a sentence (its English) */
const said = (e: string | { message: string } | null) => e !== null && (typeof e === 'string' ? e : e.message).trim() !== '';
const seq = (n: number) => Number.isInteger(n) && n >= 0;

export const invariants = {
  '': {
    'journal positions are whole numbers from 0, failures counted from 0': ({ context: c }: Held) =>
      seq(c.floor) && seq(c.sent) && seq(c.endedAt) && seq(c.failures) && (c.upTo === null || seq(c.upTo)),
    'at most one call at a time (the draw, an upload or the last flush)': (s: Held) => Object.keys(s.children).length <= 1,
    'only a sampled session has a recording': ({ context: c }: Held) => c.recording === null || c.sampled === true,
  },
  idle: {
    'no session: no token, no recording, no draw, nothing runs': (s: Held) =>
      s.context.token === null && s.context.recording === null && s.context.sampled === null && s.context.upTo === null && running(s) === '',
  },
  deciding: {
    "a session's draw is asked, and only that: busy, no recording of it yet, nothing failed or stopped": (s: Held) =>
      running(s) === 'decide' &&
      s.hasTag('busy') &&
      s.context.token !== null &&
      s.context.recording === null &&
      s.context.failures === 0 &&
      s.context.stopped === null &&
      s.context.upTo === null,
  },
  unsampled: {
    'this session is not recorded: no recording, nothing runs': (s: Held) => s.context.sampled === false && s.context.recording === null && running(s) === '',
  },
  recording: {
    "a sampled session's recording, from its own first entry on (never an earlier session's), not ended": (s: Held) =>
      s.hasTag('recording') &&
      s.context.sampled === true &&
      said(s.context.recording) &&
      s.context.token !== null &&
      s.context.sent >= s.context.floor &&
      s.context.upTo === null &&
      s.context.stopped === null,
  },
  'recording.waiting': {
    'waiting for the next upload: nothing runs, not busy': (s: Held) => running(s) === '' && !s.hasTag('busy'),
  },
  'recording.uploading': {
    'an upload runs: busy': (s: Held) => running(s) === 'upload' && s.hasTag('busy'),
  },
  flushing: {
    "the ended session's last upload, up to its last entry: busy, no longer recording": (s: Held) =>
      running(s) === 'flush' &&
      s.hasTag('flushing') &&
      s.hasTag('busy') &&
      !s.hasTag('recording') &&
      said(s.context.recording) &&
      s.context.upTo !== null &&
      s.context.upTo === s.context.endedAt,
  },
  stopped: {
    'the server refused the recording: it says why, nothing runs, no longer recording': (s: Held) =>
      said(s.context.stopped) && running(s) === '' && !s.hasTag('recording'),
  },
};
