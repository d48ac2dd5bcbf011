// The state invariants of the machines' `meta` (machines/*.invariants.ts) fed hand-made states, the way
// liveEvents.oracle.test.ts does for the live events list: the model tests check them on a correct machine only, so an
// invariant weakened (a clause dropped, `&&` made `||`, a bound moved by one) passed every test (the mutation run of
// 2026-12-03, docs/TESTING.md "Mutation score"). Here every invariant of download, badgePrint, command, reading, restore,
// tour, journalUpload, batchUpload, doorQr (list and code), resourceForm and resourceList gets states worked out by hand:
// some that keep it (at its boundary: a 0, a done equal to its total) and, for each of its clauses, one that breaks that
// clause alone.
import { describe, expect, it } from 'vitest';
import { invariants as download } from '../machines/download.invariants';
import { invariants as badgePrint } from '../machines/badgePrint.invariants';
import { invariants as command } from '../machines/command.invariants';
import { invariants as reading } from '../machines/reading.invariants';
import { invariants as restore } from '../machines/restore.invariants';
import { invariants as tour } from '../machines/tour.invariants';
import { invariants as journalUpload } from '../machines/journalUpload.invariants';
import { invariants as batchUpload } from '../machines/batchUpload.invariants';
import { codeInvariants as doorQrCode, listInvariants as doorQrList } from '../machines/doorQr.invariants';
import { invariants as resourceForm } from '../machines/resourceForm.invariants';
import { invariants as resourceList } from '../machines/resourceList.invariants';

type Snap = { context: Record<string, unknown>; children: Record<string, unknown>; hasTag: (tag: string) => boolean };
/** A change to the case's state: context fields replaced, and the children running and tags, when given, replaced. */
type Change = { c?: Record<string, unknown>; ch?: string[]; t?: string[] };
/** One invariant: a state that keeps it, more that keep it (changes of it), and changes that each break it. */
type Case = { base: Change; keeps?: Array<[string, Change]>; breaks: Array<[string, Change]> };
type Module = Record<string, Record<string, (s: never) => boolean>>;

function snapOf(context: Record<string, unknown>, base: Change, change: Change = {}): Snap {
  const ch = change.ch ?? base.ch ?? [];
  const t = change.t ?? base.t ?? [];
  return {
    context: { ...context, ...base.c, ...change.c },
    children: Object.fromEntries(ch.map((id) => [id, {}])),
    hasTag: (tag) => t.includes(tag),
  };
}

/** Checks every invariant of a module against its cases; each invariant must have a case, with a state breaking it. */
function checkModule(name: string, module: Module, context: Record<string, unknown>, cases: Record<string, Record<string, Case>>) {
  describe(name, () => {
    it('every invariant has cases, each with a state that breaks it', () => {
      const named = Object.entries(module).flatMap(([state, inv]) => Object.keys(inv).map((n) => `${state} / ${n}`));
      const covered = Object.entries(cases).flatMap(([state, inv]) => Object.keys(inv).map((n) => `${state} / ${n}`));
      expect(covered.sort()).toEqual(named.sort());
      for (const inv of Object.values(cases)) for (const c of Object.values(inv)) expect(c.breaks.length).toBeGreaterThan(0);
    });
    for (const [state, inv] of Object.entries(cases)) {
      for (const [invariant, c] of Object.entries(inv)) {
        it(`${state || '(every state)'}: "${invariant}" holds in the states that keep it and fails in each that breaks it`, () => {
          const check = module[state][invariant] as (s: Snap) => boolean;
          const seen = (why: string, change: Change, holds: boolean) => [why, check(snapOf(context, c.base, change)), holds];
          const keeps = [['the case', {}] as [string, Change], ...(c.keeps ?? [])];
          for (const [why, change] of keeps) expect(seen(why, change, true)).toEqual([why, true, true]);
          for (const [why, change] of c.breaks) expect(seen(why, change, false)).toEqual([why, false, false]);
        });
      }
    }
  });
}

checkModule(
  'download',
  download,
  { progress: null, error: null },
  {
    idle: {
      'nothing is fetched, no progress, no error shown': {
        base: {},
        breaks: [
          ['fetching', { ch: ['fetch'] }],
          ['busy', { t: ['busy'] }],
          ['progress shown', { c: { progress: { done: 0, total: 0 } } }],
          ['an error shown', { c: { error: 'Network down' } }],
        ],
      },
    },
    running: {
      'the fetch runs, busy, no error': {
        base: { c: { progress: { done: 0, total: 0 } }, ch: ['fetch'], t: ['busy'] },
        breaks: [
          ['no fetch', { ch: [] }],
          ['not busy', { t: [] }],
          ['an error shown', { c: { error: 'Network down' } }],
        ],
      },
      'progress is two figures, done never below 0 nor (when the total is known) above it': {
        base: { c: { progress: { done: 0, total: 10 } }, ch: ['fetch'], t: ['busy'] },
        keeps: [
          ['done equal to the total', { c: { progress: { done: 10, total: 10 } } }],
          ['a total not known (0), any done', { c: { progress: { done: 5, total: 0 } } }],
        ],
        breaks: [
          ['no progress', { c: { progress: null } }],
          ['done not a number', { c: { progress: { done: Number.NaN, total: 10 } } }],
          ['total infinite', { c: { progress: { done: 1, total: Number.POSITIVE_INFINITY } } }],
          ['done below 0', { c: { progress: { done: -1, total: 10 } } }],
          ['done above the total', { c: { progress: { done: 11, total: 10 } } }],
        ],
      },
    },
    failed: {
      'why it failed is said; nothing is fetched and no progress is shown': {
        base: { c: { error: 'Network down' } },
        breaks: [
          ['fetching', { ch: ['fetch'] }],
          ['busy', { t: ['busy'] }],
          ['no error', { c: { error: null } }],
          ['a blank error', { c: { error: '  ' } }],
          ['progress shown', { c: { progress: { done: 1, total: 2 } } }],
        ],
      },
    },
  },
);

checkModule(
  'badgePrint',
  badgePrint,
  { visitorId: 7, printedAt: null, error: null },
  {
    machine: {
      'busy exactly while the print runs': {
        base: {},
        keeps: [['printing and busy', { ch: ['print'], t: ['busy'] }]],
        breaks: [
          ['printing, not busy', { ch: ['print'] }],
          ['busy, not printing', { t: ['busy'] }],
        ],
      },
      'a print time, when there is one, is a time': {
        base: {},
        keeps: [['a time', { c: { printedAt: '2026-12-03T10:00:00.000Z' } }]],
        breaks: [['not a time', { c: { printedAt: 'yesterday-ish' } }]],
      },
    },
    printing: {
      'the badge of this visitor is printing': {
        base: { ch: ['print'], t: ['busy'] },
        keeps: [['visitor 1', { c: { visitorId: 1 } }]],
        breaks: [
          ['no print', { ch: [] }],
          ['visitor 0', { c: { visitorId: 0 } }],
        ],
      },
    },
    printed: {
      'printed: the time it was recorded is kept, no error': {
        base: { c: { printedAt: '2026-12-03T10:00:00.000Z' } },
        breaks: [
          ['no time', { c: { printedAt: null } }],
          ['an error', { c: { error: 'Printer offline' } }],
        ],
      },
    },
    failed: {
      'why it failed is said': {
        base: { c: { error: 'Printer offline' } },
        keeps: [['a sentence', { c: { error: { message: 'Printer offline', code: 'badge.printerOffline', values: {} } } }]],
        breaks: [
          ['no error', { c: { error: null } }],
          ['a blank error', { c: { error: ' ' } }],
          ['an error that is not words', { c: { error: 500 } }],
          ['a sentence without words', { c: { error: { message: ' ', code: 'badge.printerOffline', values: {} } } }],
          ['a sentence without its English', { c: { error: { code: 'badge.printerOffline', values: {} } } }],
        ],
      },
    },
  },
);

checkModule(
  'command',
  command,
  { command: null, result: null, error: null },
  {
    machine: {
      'busy exactly while a command runs': {
        base: {},
        keeps: [['running and busy', { ch: ['run'], t: ['busy'] }]],
        breaks: [
          ['running, not busy', { ch: ['run'] }],
          ['busy, not running', { t: ['busy'] }],
        ],
      },
    },
    idle: {
      'no command yet: none named, no result, no error': {
        base: {},
        breaks: [
          ['a command named', { c: { command: 'signIn' } }],
          ['a result', { c: { result: { ok: true } } }],
          ['an error', { c: { error: 'Visit closed' } }],
        ],
      },
    },
    running: {
      'one named command runs; no error is shown while it runs': {
        base: { c: { command: 'signIn' }, ch: ['run'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['no command named', { c: { command: null } }],
          ['an empty name', { c: { command: '' } }],
          ['an error shown', { c: { error: 'Visit closed' } }],
        ],
      },
    },
    done: {
      'the last command succeeded: no error shown': {
        base: { c: { command: 'signIn', result: { ok: true } } },
        breaks: [
          ['no command named', { c: { command: null } }],
          ['an error shown', { c: { error: 'Visit closed' } }],
        ],
      },
    },
    failed: {
      'the last command failed and says why': {
        base: { c: { command: 'signIn', error: 'Visit closed' } },
        breaks: [
          ['no command named', { c: { command: '' } }],
          ['no error', { c: { error: null } }],
          ['a blank error', { c: { error: '   ' } }],
          ['an error that is not words', { c: { error: 1 } }],
        ],
      },
    },
  },
);

checkModule(
  'reading',
  reading,
  { output: null, error: null, waiting: false, owed: false, stale: false },
  {
    machine: {
      'busy exactly while a read is on its way': {
        base: {},
        keeps: [['reading and busy', { ch: ['read'], t: ['busy'] }]],
        breaks: [
          ['reading, not busy', { ch: ['read'] }],
          ['busy, not reading', { t: ['busy'] }],
        ],
      },
    },
    loading: { 'a read is on its way': { base: { ch: ['read'], t: ['busy'] }, breaks: [['no read', { ch: [] }]] } },
    ready: {
      'the answer is in: nothing owed, nothing stale, no error': {
        base: { c: { output: { n: 1 } } },
        breaks: [
          ['a read owed', { c: { owed: true } }],
          ['a reload left over', { c: { stale: true } }],
          ['an error', { c: { error: 'Could not load it.' } }],
        ],
      },
    },
    failed: {
      'why it failed is said, nothing owed': {
        base: { c: { error: 'Could not load it.' } },
        breaks: [
          ['no error', { c: { error: null } }],
          ['an empty error', { c: { error: '' } }],
          ['a blank error', { c: { error: '  ' } }],
          ['a read owed', { c: { owed: true } }],
          ['a reload left over', { c: { stale: true } }],
        ],
      },
    },
  },
);

checkModule(
  'restore',
  restore,
  { started: null, late: false, ending: null },
  {
    machine: {
      'an ending is restored, or not restored with the problem in words': {
        base: {},
        keeps: [
          ['restored', { c: { ending: { kind: 'restored' } } }],
          ['not restored, with words', { c: { ending: { kind: 'notRestored', problem: 'The backup did not open.' } } }],
        ],
        breaks: [
          ['not restored, blank words', { c: { ending: { kind: 'notRestored', problem: '  ' } } }],
          ['an ending of another kind', { c: { ending: { kind: 'lost', problem: 'words' } } }],
        ],
      },
    },
    idle: {
      'no restore shown, nothing asked': {
        base: {},
        breaks: [
          ['restoring', { t: ['restoring'] }],
          ['asking', { ch: ['list'] }],
        ],
      },
    },
    restoring: {
      'a restore was started and has not ended': {
        base: { c: { started: { backupId: 3 } }, t: ['restoring'] },
        breaks: [
          ['not tagged restoring', { t: [] }],
          ['none started', { c: { started: null } }],
          ['an ending already', { c: { ending: { kind: 'restored' } } }],
        ],
      },
    },
    waiting: { 'nothing asked while waiting for the next poll': { base: { t: ['restoring'] }, breaks: [['asking', { ch: ['list'] }]] } },
    asking: { 'the list is asked': { base: { ch: ['list'], t: ['restoring'] }, breaks: [['not asking', { ch: [] }]] } },
  },
);

const step = (target: string, title = 'Title', text = 'Words') => ({ target: `[data-tour="${target}"]`, title, text });
const base = [step('sidebar'), step('tabs'), step('alarms')];
checkModule(
  'tour',
  tour,
  { steps: base, base, step: 0 },
  {
    '': {
      'the step is a whole number from 0': {
        base: {},
        keeps: [['step 2', { c: { step: 2 } }]],
        breaks: [
          ['step -1', { c: { step: -1 } }],
          ['step 1.5', { c: { step: 1.5 } }],
        ],
      },
      "the tour's steps are steps of its base (issue 10 leaves some out and rewords others, never adds one)": {
        base: {},
        keeps: [
          ['the last step of the base alone, reworded', { c: { steps: [step('alarms', 'Other', 'Other words')] } }],
          ['none', { c: { steps: [] } }],
        ],
        breaks: [
          ['one step added', { c: { steps: [step('profile')] } }],
          ['one step of the base and one added', { c: { steps: [step('sidebar'), step('profile')] } }],
        ],
      },
      'every step says what it points at, with a title and words': {
        base: {},
        breaks: [
          ['a target that is not a data-tour attribute', { c: { steps: [step('sidebar'), { target: '#tabs', title: 'Tabs', text: 'Words' }] } }],
          ['a blank title', { c: { steps: [step('sidebar', ' ')] } }],
          ['no words', { c: { steps: [step('sidebar', 'Title', '')] } }],
          ['blank words', { c: { steps: [step('sidebar', 'Title', '  ')] } }],
        ],
      },
    },
    showing: {
      'a step is shown, one of the tour (never before the first, never past the last)': {
        base: {},
        keeps: [['the last step', { c: { step: 2 } }]],
        breaks: [
          ['no steps', { c: { steps: [], step: 0 } }],
          ['past the last', { c: { step: 3 } }],
        ],
      },
    },
  },
);

checkModule(
  'journalUpload',
  journalUpload,
  { token: null, recording: null, sampled: null, floor: 0, sent: 0, endedAt: 0, upTo: null, failures: 0, stopped: null },
  {
    '': {
      'journal positions are whole numbers from 0, failures counted from 0': {
        base: {},
        keeps: [
          ['all above 0', { c: { floor: 3, sent: 5, endedAt: 3, failures: 2, upTo: 7 } }],
          ['an upload bound of 0', { c: { upTo: 0 } }],
        ],
        breaks: [
          ['floor -1', { c: { floor: -1 } }],
          ['sent 1.5', { c: { sent: 1.5 } }],
          ['endedAt not a number', { c: { endedAt: Number.NaN } }],
          ['failures -1', { c: { failures: -1 } }],
          ['upTo -1', { c: { upTo: -1 } }],
        ],
      },
      'at most one call at a time (the draw, an upload or the last flush)': {
        base: {},
        keeps: [['one upload', { ch: ['upload'] }]],
        breaks: [['a draw and an upload', { ch: ['decide', 'upload'] }]],
      },
      'only a sampled session has a recording': {
        base: {},
        keeps: [['sampled, recorded', { c: { sampled: true, recording: 'r1' } }]],
        breaks: [
          ['unsampled, recorded', { c: { sampled: false, recording: 'r1' } }],
          ['not drawn, recorded', { c: { sampled: null, recording: 'r1' } }],
        ],
      },
    },
    idle: {
      'no session: no token, no recording, no draw, nothing runs': {
        base: { c: { endedAt: 9, sent: 9 } },
        breaks: [
          ['a token', { c: { token: 't' } }],
          ['a recording', { c: { sampled: true, recording: 'r1' } }],
          ['a draw', { c: { sampled: false } }],
          ['an upload bound', { c: { upTo: 9 } }],
          ['a flush runs', { ch: ['flush'] }],
        ],
      },
    },
    deciding: {
      "a session's draw is asked, and only that: busy, no recording of it yet, nothing failed or stopped": {
        base: { c: { token: 't' }, ch: ['decide'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['an upload instead', { ch: ['upload'] }],
          ['not busy', { t: [] }],
          ['no token', { c: { token: null } }],
          ['a recording already', { c: { sampled: true, recording: 'r1' } }],
          ['a failure counted', { c: { failures: 1 } }],
          ['stopped', { c: { stopped: 'Refused' } }],
          ['an upload bound', { c: { upTo: 4 } }],
        ],
      },
    },
    unsampled: {
      'this session is not recorded: no recording, nothing runs': {
        base: { c: { token: 't', sampled: false } },
        breaks: [
          ['not drawn', { c: { sampled: null } }],
          ['a recording', { c: { recording: 'r1' } }],
          ['a draw runs', { ch: ['decide'] }],
        ],
      },
    },
    recording: {
      "a sampled session's recording, from its own first entry on (never an earlier session's), not ended": {
        base: { c: { token: 't', sampled: true, recording: 'r1', floor: 3, sent: 3 }, t: ['recording'] },
        keeps: [['sent past the floor', { c: { sent: 8 } }]],
        breaks: [
          ['not tagged recording', { t: [] }],
          ['not sampled', { c: { sampled: false } }],
          ['no recording', { c: { recording: null } }],
          ['a blank recording', { c: { recording: ' ' } }],
          ['no token', { c: { token: null } }],
          ["sent below the floor (an earlier session's entries)", { c: { sent: 2 } }],
          ['an upload bound', { c: { upTo: 5 } }],
          ['stopped', { c: { stopped: 'Refused' } }],
        ],
      },
    },
    'recording.waiting': {
      'waiting for the next upload: nothing runs, not busy': {
        base: { t: ['recording'] },
        breaks: [
          ['an upload runs', { ch: ['upload'] }],
          ['busy', { t: ['recording', 'busy'] }],
        ],
      },
    },
    'recording.uploading': {
      'an upload runs: busy': {
        base: { ch: ['upload'], t: ['recording', 'busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['a draw instead', { ch: ['decide'] }],
          ['not busy', { t: ['recording'] }],
        ],
      },
    },
    flushing: {
      "the ended session's last upload, up to its last entry: busy, no longer recording": {
        base: { c: { token: 't', sampled: true, recording: 'r1', upTo: 9, endedAt: 9 }, ch: ['flush'], t: ['flushing', 'busy'] },
        breaks: [
          ['no flush runs', { ch: [] }],
          ['not tagged flushing', { t: ['busy'] }],
          ['not busy', { t: ['flushing'] }],
          ['still recording', { t: ['flushing', 'busy', 'recording'] }],
          ['no recording', { c: { recording: null } }],
          ['no upload bound', { c: { upTo: null } }],
          ["a bound that is not the session's end", { c: { upTo: 8 } }],
        ],
      },
    },
    stopped: {
      'the server refused the recording: it says why, nothing runs, no longer recording': {
        base: { c: { token: 't', sampled: true, recording: 'r1', stopped: 'Refused: 413' } },
        breaks: [
          ['no reason', { c: { stopped: null } }],
          ['a blank reason', { c: { stopped: '  ' } }],
          ['an upload runs', { ch: ['upload'] }],
          ['still recording', { t: ['recording'] }],
        ],
      },
    },
  },
);

// a preview of 5 rows: 3 valid (2 created, 1 updated), 2 invalid
const P = { id: 1, fileName: 'people.csv', template: 'Staff', total: 5, valid: 3, creates: 2, updates: 1, invalidRows: 2, errors: [] };
const progress = (done: number, total = 3) => ({ done, total, created: 0, updated: 0, failed: 0 });
const R = { ...progress(3), errors: 0 };
checkModule(
  'batchUpload',
  batchUpload,
  { templateId: null, fileName: null, preview: null, progress: null, result: null, error: null, violations: [] },
  {
    '': {
      'a preview shown adds up (valid rows created or updated, the rest invalid)': {
        base: { c: { preview: P } },
        keeps: [
          ['no preview', { c: { preview: null } }],
          ['no valid row', { c: { preview: { ...P, total: 2, valid: 0, creates: 0, updates: 0, invalidRows: 2 } } }],
          ['every row valid', { c: { preview: { ...P, total: 3, valid: 3, creates: 3, updates: 0, invalidRows: 0 } } }],
        ],
        breaks: [
          ['valid below 0', { c: { preview: { ...P, total: 5, valid: -1, creates: 0, updates: -1, invalidRows: 6 } } }],
          ['more valid than rows', { c: { preview: { ...P, total: 5, valid: 6, creates: 6, updates: 0, invalidRows: -1 } } }],
          ['created and updated not the valid rows', { c: { preview: { ...P, creates: 2, updates: 2 } } }],
          ['valid and invalid not the rows', { c: { preview: { ...P, invalidRows: 1 } } }],
        ],
      },
      'progress, when shown, is of the rows the preview found valid and never past them': {
        base: { c: { preview: P, progress: progress(0) } },
        keeps: [
          ['all done', { c: { progress: progress(3) } }],
          ['no progress, no preview', { c: { preview: null, progress: null } }],
        ],
        breaks: [
          ['done below 0', { c: { progress: progress(-1) } }],
          ['done past the total', { c: { progress: progress(4) } }],
          ['progress without a preview', { c: { preview: null } }],
          ['a total that is not the valid rows', { c: { progress: progress(1, 2) } }],
        ],
      },
    },
    idle: {
      'nothing runs, not busy, nothing previewed or imported': {
        base: { c: { error: 'The file could not be read.' } },
        breaks: [
          ['a preview runs', { ch: ['preview'] }],
          ['busy', { t: ['busy'] }],
          ['a preview', { c: { preview: P } }],
          ['progress', { c: { preview: P, progress: progress(0) } }],
          ['a result', { c: { result: R } }],
        ],
      },
    },
    previewing: {
      'the chosen file of the chosen template is read, and only that: busy, nothing of an earlier file shown': {
        base: { c: { templateId: 2, fileName: 'people.csv' }, ch: ['preview'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['an import instead', { ch: ['import'] }],
          ['not busy', { t: [] }],
          ['no template', { c: { templateId: null } }],
          ['no file', { c: { fileName: null } }],
          ['a preview of an earlier file', { c: { preview: P } }],
          ['a result of an earlier file', { c: { result: R } }],
          ['an error of an earlier file', { c: { error: 'The file could not be read.' } }],
          ['violations of an earlier file', { c: { violations: [{ field: 'file', message: 'Not a workbook' }] } }],
        ],
      },
    },
    previewed: {
      'a preview is shown; nothing runs, not busy': {
        base: { c: { templateId: 2, fileName: 'people.csv', preview: P } },
        breaks: [
          ['no preview', { c: { preview: null } }],
          ['an import runs', { ch: ['import'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    importing: {
      'the previewed rows, some valid, are imported: busy, progress shown, no error': {
        base: { c: { preview: P, progress: progress(1) }, ch: ['import'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['not busy', { t: [] }],
          ['no preview', { c: { preview: null } }],
          ['no valid row', { c: { preview: { ...P, valid: 0, creates: 0, updates: 0, invalidRows: 5 } } }],
          ['no progress', { c: { progress: null } }],
          ['an error', { c: { error: 'The import was interrupted.' } }],
        ],
      },
    },
    imported: {
      'the result is shown beside its preview; nothing runs, not busy': {
        base: { c: { preview: P, progress: progress(3), result: R } },
        breaks: [
          ['no result', { c: { result: null } }],
          ['no preview', { c: { preview: null, progress: null } }],
          ['an import runs', { ch: ['import'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
  },
);

checkModule(
  'doorQr (the doors list)',
  doorQrList,
  { doors: null, turning: null, error: null },
  {
    '': {
      'at most one call at a time (one switch turns at a time, never while the list is read)': {
        base: {},
        keeps: [['one switch', { ch: ['turn'] }]],
        breaks: [['the list and a switch', { ch: ['list', 'turn'] }]],
      },
    },
    loading: {
      'the list is being read, and only that: busy, no switch turning': {
        base: { ch: ['list'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['a switch instead', { ch: ['turn'] }],
          ['not busy', { t: [] }],
          ['a switch turning', { c: { turning: { id: 3, on: true } } }],
        ],
      },
    },
    ready: {
      'the doors are shown, nothing runs, no switch turning': {
        base: { c: { doors: [] } },
        breaks: [
          ['no doors', { c: { doors: null } }],
          ['the list is read', { ch: ['list'] }],
          ['a switch turning', { c: { turning: { id: 3, on: true } } }],
          ['busy', { t: ['busy'] }],
          ['tagged turning', { t: ['turning'] }],
        ],
      },
    },
    failed: {
      'nothing runs, no switch turning': {
        base: { c: { error: 'Could not load it.' } },
        breaks: [
          ['the list is read', { ch: ['list'] }],
          ['a switch turning', { c: { turning: { id: 3, on: true } } }],
          ['busy', { t: ['busy'] }],
          ['tagged turning', { t: ['turning'] }],
        ],
      },
    },
    turning: {
      'one door of the list shown is turned on or off, and every switch says so': {
        base: { c: { doors: [{ id: 1 }], turning: { id: 1, on: false } }, ch: ['turn'], t: ['turning'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['not tagged turning', { t: [] }],
          ['no doors shown', { c: { doors: null } }],
          ['no switch named', { c: { turning: null } }],
          ['door 1.5', { c: { turning: { id: 1.5, on: true } } }],
          ['door 0', { c: { turning: { id: 0, on: true } } }],
          ['neither on nor off', { c: { turning: { id: 1, on: 'yes' } } }],
        ],
      },
    },
  },
);

const answer = { code: { code: 'QR-123', validTo: '2026-12-03T10:01:00.000Z' }, now: 0 };
const problem = { violation: false, message: 'Not allowed' };
checkModule(
  'doorQr (a door code)',
  doorQrCode,
  { doorId: 4, credential: null, answer: null, problem: null, notice: null },
  {
    '': {
      'a code and a problem are never shown together': {
        base: {},
        keeps: [
          ['a code', { c: { answer } }],
          ['a problem', { c: { problem } }],
        ],
        breaks: [['both', { c: { answer, problem } }]],
      },
      'the drawer is for one door (a whole number above 0)': {
        base: {},
        keeps: [['door 1', { c: { doorId: 1 } }]],
        breaks: [
          ['door 0', { c: { doorId: 0 } }],
          ['door 1.5', { c: { doorId: 1.5 } }],
        ],
      },
    },
    idle: {
      'nothing asked yet: no credential, no code, no problem, nothing runs': {
        base: {},
        breaks: [
          ['a credential', { c: { credential: 'c1' } }],
          ['a code', { c: { answer } }],
          ['a problem', { c: { problem } }],
          ['a code is read', { ch: ['code'] }],
        ],
      },
    },
    asking: {
      'the code of the credential asked for is being read: busy': {
        base: { c: { credential: 'c1' }, ch: ['code'], t: ['busy'] },
        breaks: [
          ['no credential', { c: { credential: null } }],
          ['nothing runs', { ch: [] }],
          ['not busy', { t: [] }],
        ],
      },
    },
    showing: {
      'a code is shown for the credential asked for; nothing runs, not busy': {
        base: { c: { credential: 'c1', answer } },
        breaks: [
          ['no credential', { c: { credential: null } }],
          ['no code', { c: { answer: null } }],
          ['an empty code', { c: { answer: { ...answer, code: { ...answer.code, code: '' } } } }],
          ['a code is read', { ch: ['code'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    failed: {
      'says why there is no code; nothing runs, not busy': {
        base: { c: { credential: 'c1', problem } },
        breaks: [
          ['a code shown', { c: { answer } }],
          ['no problem', { c: { problem: null } }],
          ['a blank problem', { c: { problem: { violation: true, message: ' ' } } }],
          ['a code is read', { ch: ['code'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
  },
);

const v = { field: 'name', message: 'Required' };
checkModule(
  'resourceForm',
  resourceForm,
  { id: null, values: null, violations: [], error: null, action: null, sent: null },
  {
    '': {
      'the record id is a whole number above 0, or none (adding)': {
        base: {},
        keeps: [['id 1', { c: { id: 1 } }]],
        breaks: [
          ['id 0', { c: { id: 0 } }],
          ['id 1.5', { c: { id: 1.5 } }],
        ],
      },
      'a problem is told one way: violations by field, or a message, never both': {
        base: {},
        keeps: [
          ['violations', { c: { violations: [v] } }],
          ['a message', { c: { error: 'Not saved' } }],
        ],
        breaks: [['both', { c: { violations: [v], error: 'Not saved' } }]],
      },
      'each violation names its field and says what is wrong': {
        base: { c: { violations: [v] } },
        breaks: [
          ['a second without a field', { c: { violations: [v, { field: '', message: 'Required' }] } }],
          ['a field that is not a name', { c: { violations: [{ field: 5, message: 'Required' }] } }],
          ['without words', { c: { violations: [{ field: 'name', message: '' }] } }],
          ['words that are not text', { c: { violations: [{ field: 'name', message: 5 }] } }],
        ],
      },
      'at most one server call at a time': { base: { ch: ['save'] }, breaks: [['a load and a save', { ch: ['load', 'save'] }]] },
    },
    loading: {
      'reads a record that exists (an id), and only that: busy': {
        base: { c: { id: 3 }, ch: ['load'], t: ['busy'] },
        breaks: [
          ['no id', { c: { id: null } }],
          ['nothing runs', { ch: [] }],
          ['a save instead', { ch: ['save'] }],
          ['not busy', { t: [] }],
        ],
      },
    },
    failed: {
      'says why the record could not be read; nothing runs, not busy': {
        base: { c: { id: 3, error: 'Not found' } },
        breaks: [
          ['no error', { c: { error: null } }],
          ['a blank error', { c: { error: ' ' } }],
          ['a read runs', { ch: ['load'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    editing: {
      'the form is open: nothing runs, not busy': {
        base: {},
        breaks: [
          ['a save runs', { ch: ['save'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    refreshing: {
      'reads a loaded record again quietly (not busy), the loaded values still shown': {
        base: { c: { id: 3, values: { name: 'Gate' } }, ch: ['refresh'] },
        breaks: [
          ['no id', { c: { id: null } }],
          ['no values', { c: { values: null } }],
          ['nothing runs', { ch: [] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    saving: {
      'saves, with no problem from before still shown: busy': {
        base: { c: { sent: { name: 'Gate' } }, ch: ['save'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['not busy', { t: [] }],
          ['violations from before', { c: { violations: [v] } }],
          ['an error from before', { c: { error: 'Not saved' } }],
        ],
      },
      'the values on their way are kept (the form starts from them once saved)': {
        base: { c: { sent: { name: 'Gate' } }, ch: ['save'], t: ['busy'] },
        breaks: [
          ['none kept', { c: { sent: null } }],
          ['undefined', { c: { sent: undefined } }],
        ],
      },
    },
    acting: {
      'runs a named action on a record read from the server (an id and its values): busy': {
        base: { c: { id: 3, values: { name: 'Gate' }, action: 'archive' }, ch: ['act'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['not busy', { t: [] }],
          ['no id', { c: { id: null } }],
          ['no values', { c: { values: null } }],
          ['no action named', { c: { action: null } }],
          ['a blank action', { c: { action: ' ' } }],
        ],
      },
    },
    saved: {
      'the saved record has its id; no problem is shown; nothing runs': {
        base: { c: { id: 3, sent: { name: 'Gate' } } },
        breaks: [
          ['no id', { c: { id: null } }],
          ['violations', { c: { violations: [v] } }],
          ['an error', { c: { error: 'Not saved' } }],
          ['a save runs', { ch: ['save'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
      'the values saved are kept: a form that stays open resets to them': {
        base: { c: { id: 3, sent: { name: 'Gate' } } },
        breaks: [
          ['none kept', { c: { sent: null } }],
          ['undefined', { c: { sent: undefined } }],
        ],
      },
    },
  },
);

checkModule(
  'resourceList',
  resourceList,
  { items: [], total: 0, totalIsAtLeast: false, page: 0, size: 20, sort: [], filters: {}, selection: [], error: null },
  {
    '': {
      'the page is a whole number from 0, the page size at least 1': {
        base: {},
        keeps: [['page 2 of size 1', { c: { page: 2, size: 1 } }]],
        breaks: [
          ['page -1', { c: { page: -1 } }],
          ['page 1.5', { c: { page: 1.5 } }],
          ['size 0', { c: { size: 0 } }],
          ['size 1.5', { c: { size: 1.5 } }],
        ],
      },
      'the selection is of distinct row ids (whole numbers above 0)': {
        base: { c: { selection: [1, 2] } },
        breaks: [
          ['id 0 after a good one', { c: { selection: [1, 0] } }],
          ['id 1.5', { c: { selection: [1.5] } }],
          ['one id twice', { c: { selection: [2, 2] } }],
        ],
      },
      'the query sent is clean: no empty filter, each sort a plain field name asc or desc': {
        base: {
          c: {
            filters: { name: 'gate' },
            sort: [
              { field: 'site.name_2', dir: 'asc' },
              { field: 'id', dir: 'desc' },
            ],
          },
        },
        breaks: [
          ['a blank filter after a good one', { c: { filters: { name: 'gate', code: ' ' } } }],
          ['a filter that is not text', { c: { filters: { code: 5 } } }],
          ['a field starting with a digit', { c: { sort: [{ field: '1name', dir: 'asc' }] } }],
          ['a field with a space inside', { c: { sort: [{ field: 'name x', dir: 'asc' }] } }],
          ['a field with a dash at its end', { c: { sort: [{ field: 'name-', dir: 'asc' }] } }],
          [
            'a bad one after a good one',
            {
              c: {
                sort: [
                  { field: 'id', dir: 'asc' },
                  { field: 'id', dir: 'up' },
                ],
              },
            },
          ],
          ['another direction', { c: { sort: [{ field: 'id', dir: 'up' }] } }],
        ],
      },
      'a page never shows more rows than its size, nor a total below zero': {
        base: { c: { items: [{}, {}], size: 2, total: 0 } },
        breaks: [
          ['more rows than the size', { c: { items: [{}, {}, {}] } }],
          ['a total below zero', { c: { total: -1 } }],
        ],
      },
    },
    loading: {
      'the page is being read, and only that: busy': {
        base: { ch: ['fetchPage'], t: ['busy'] },
        breaks: [
          ['nothing runs', { ch: [] }],
          ['a delete instead', { ch: ['deleteMany'] }],
          ['not busy', { t: [] }],
        ],
      },
    },
    ready: {
      'nothing runs, not busy: the rows are shown': {
        base: {},
        breaks: [
          ['a read runs', { ch: ['fetchPage'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    confirmingDelete: {
      'asks to delete a selection that is not empty; nothing runs yet': {
        base: { c: { selection: [4] } },
        breaks: [
          ['nothing selected', { c: { selection: [] } }],
          ['a delete runs', { ch: ['deleteMany'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
    deleting: {
      'deletes the selection (not empty), and only that: busy': {
        base: { c: { selection: [4] }, ch: ['deleteMany'], t: ['busy'] },
        breaks: [
          ['nothing selected', { c: { selection: [] } }],
          ['nothing runs', { ch: [] }],
          ['not busy', { t: [] }],
        ],
      },
    },
    failed: {
      'says why, shows no rows and no total; nothing runs, not busy': {
        base: { c: { error: 'Could not load it.' } },
        breaks: [
          ['no error', { c: { error: null } }],
          ['a blank error', { c: { error: ' ' } }],
          ['rows shown', { c: { items: [{}] } }],
          ['a total', { c: { total: 3 } }],
          ['a total as a lower bound', { c: { totalIsAtLeast: true } }],
          ['a read runs', { ch: ['fetchPage'] }],
          ['busy', { t: ['busy'] }],
        ],
      },
    },
  },
);
