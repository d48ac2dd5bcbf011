// Model-based tests of the session-replay uploader (issue 4): every reachable state and transition of its graph,
// replayed on a real actor with controllable decide/upload actors and a SimulatedClock; then the numbers (10 s
// between uploads, doubling after each failure) and what each upload is asked to send.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { SimulatedClock, createActor } from 'xstate';
import { JOURNAL_UPLOAD_INTERVAL_MS, uploadDelayMs } from '../contract';
import { journalUploadMachine, type JournalUploadSnapshot, type UploadInput } from '../machines/journalUpload';
import { invariants } from '../machines/journalUpload.invariants';
import { actorEventExecutors, createControls, edgePaths, onDemand, expectInvariants, expectOracle, flush, type EdgePath, inStep } from './harness';

const AFTER = 'xstate.after.nextUpload.journalUpload.recording.waiting';
const events = [
  { type: 'session.started', token: 't1', atSeq: 5, switched: false },
  { type: 'session.started', token: 't2', atSeq: 9, switched: true },
  { type: 'session.ended', atSeq: 12 },
  { type: 'journal.flush' },
  { type: 'xstate.done.actor.decide', output: { sampled: true, recording: 'rec-1' } },
  { type: 'xstate.done.actor.decide', output: { sampled: false, recording: 'rec-2' } },
  { type: 'xstate.error.actor.decide', error: new Error('storage unavailable') },
  { type: 'xstate.done.actor.upload', output: { through: 7 } },
  { type: 'xstate.error.actor.upload', error: { message: 'network down', permanent: false } },
  { type: 'xstate.error.actor.upload', error: { message: '403 This recording belongs to another session', status: 403, permanent: true } },
  { type: 'xstate.done.actor.flush', output: { through: 12 } },
  { type: 'xstate.error.actor.flush', error: { message: 'network down', permanent: false } },
  { type: AFTER },
] as any[];

function possible(s: JournalUploadSnapshot) {
  return events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    if (m) return Object.keys(s.children).includes(m[1]);
    if (e.type === AFTER) return s.matches({ recording: 'waiting' });
    return true;
  });
}
const serialize = (s: JournalUploadSnapshot) =>
  JSON.stringify([s.value, Math.min(s.context.failures, 2), s.context.sampled, s.context.stopped !== null, s.context.sent, s.context.endedAt]);
const model = new TestModel(journalUploadMachine as any, { events: possible as any, serializeState: serialize as any, limit: 5000 });
const paths = onDemand(() => edgePaths(model, journalUploadMachine, serialize, []));

async function run({ path }: EdgePath<typeof journalUploadMachine>) {
  const controls = createControls();
  const clock = new SimulatedClock();
  const actor = createActor(journalUploadMachine.provide({ actors: { decide: controls.logic(), upload: controls.logic() } }), { clock });
  actor.start();
  const exec: Record<string, (step: { event: any }) => Promise<void>> = {
    ...actorEventExecutors(events, controls),
    [AFTER]: async () => {
      clock.increment(uploadDelayMs(actor.getSnapshot().context.failures));
      await flush();
    },
  };
  for (const e of events)
    if (!e.type.startsWith('xstate.'))
      exec[e.type] = async ({ event }) => {
        actor.send(event);
        await flush();
      };
  await model.testPath(path as any, {
    states: {
      '*': ((expected: JournalUploadSnapshot) => {
        const real = actor.getSnapshot();
        inStep(real, expected); // the oracle is below, not the machine compared with itself
        expectInvariants(real, invariants);
        // an upload runs exactly while uploading or flushing, and never sends what the server already holds
        const running = controls.inputs.at(-1);
        if (expected.matches({ recording: 'uploading' }) || expected.matches('flushing')) {
          expect(running?.input).toMatchObject({ token: expected.context.token, recording: expected.context.recording, after: expected.context.sent });
        }
      }) as (s: unknown) => void,
    },
    events: exec,
  });
  actor.stop();
}

describe('journal uploader model', () => {
  it('reaches idle, deciding, unsampled, waiting, uploading, flushing and stopped', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const v of ['idle', 'deciding', 'unsampled', { recording: 'waiting' }, { recording: 'uploading' }, 'flushing', 'stopped'])
      expect(values).toContain(JSON.stringify(v));
  });
  it('keeps the invariants of its states (journalUpload.invariants.ts) and the upload rules at every step of the generated paths', () => {
    const uploading = (s: JournalUploadSnapshot) => s.matches({ recording: 'uploading' });
    expectOracle(
      paths(),
      {
        'a failed upload keeps the entries: nothing advances, one more failure counted': ({ before, event, after }) =>
          uploading(before) && event.type === 'xstate.error.actor.upload' && !event.error.permanent
            ? after.matches({ recording: 'waiting' }) && after.context.sent === before.context.sent && after.context.failures === before.context.failures + 1
            : undefined,
        'a refusal no retry can fix stops the recording and says why': ({ before, event, after }) =>
          uploading(before) && event.type === 'xstate.error.actor.upload' && event.error.permanent
            ? after.matches('stopped') && after.context.stopped === event.error.message
            : undefined,
        'an upload answered advances to what the server holds, never back, and the delay starts again': ({ before, event, after }) =>
          uploading(before) && event.type === 'xstate.done.actor.upload'
            ? after.context.sent === Math.max(before.context.sent, event.output.through) && after.context.failures === 0
            : undefined,
        "a recorded session's end sends once more, up to its last entry": ({ before, event, after }) =>
          before.matches('recording') && event.type === 'session.ended' ? after.matches('flushing') && after.context.upTo === event.atSeq : undefined,
        'a sign-in records from where the last session ended, a client switch from the switch on': ({ before, event, after }) =>
          event.type === 'session.started'
            ? after.matches('deciding') && after.context.floor === (event.switched ? event.atSeq : before.context.endedAt)
            : undefined,
        'a page being hidden uploads at once': ({ before, event, after }) =>
          before.matches({ recording: 'waiting' }) && event.type === 'journal.flush' ? uploading(after) : undefined,
      },
      11,
      invariants,
    );
  });
  it(`uploads and flushes with the token, recording and position the state holds, on the real actor, along every generated path`, async () => {
    for (const p of paths()) await run(p);
  });
});

describe('journal uploader timing and bounds', () => {
  async function sampled() {
    const controls = createControls();
    const clock = new SimulatedClock();
    const actor = createActor(journalUploadMachine.provide({ actors: { decide: controls.logic(), upload: controls.logic() } }), { clock }).start();
    actor.send({ type: 'session.started', token: 'tok', atSeq: 40, switched: false });
    await controls.settle('decide', 'done', { sampled: true, recording: 'rec-9' });
    return { actor, clock, controls };
  }
  const uploads = (c: ReturnType<typeof createControls>) => c.inputs.filter((i) => i.id === 'upload' || i.id === 'flush').map((i) => i.input as UploadInput);

  it("uploads exactly every 10 s from the page's start, then 20 s, 40 s after failures, and 10 s again after a success", async () => {
    const { actor, clock, controls } = await sampled();
    expect(JOURNAL_UPLOAD_INTERVAL_MS).toBe(10_000);
    clock.increment(9_999);
    await flush();
    expect(uploads(controls)).toEqual([]);
    clock.increment(1);
    await flush();
    expect(uploads(controls)).toEqual([{ token: 'tok', recording: 'rec-9', after: 0, upTo: null }]);
    await controls.settle('upload', 'error', { message: 'down', permanent: false });
    clock.increment(19_999);
    await flush();
    expect(uploads(controls)).toHaveLength(1);
    clock.increment(1);
    await flush();
    expect(uploads(controls)).toHaveLength(2);
    await controls.settle('upload', 'error', { message: 'down', permanent: false });
    clock.increment(39_999);
    await flush();
    expect(uploads(controls)).toHaveLength(2);
    clock.increment(1);
    await flush();
    // still from 0: nothing was lost to the failures
    expect(uploads(controls).at(-1)).toMatchObject({ after: 0 });
    await controls.settle('upload', 'done', { through: 80 });
    clock.increment(10_000);
    await flush();
    expect(uploads(controls).at(-1)).toMatchObject({ after: 80 });
    actor.stop();
  });

  it("flushes once at sign-out up to the session's last entry, and the next sign-in of the page starts after it", async () => {
    const { actor, controls } = await sampled();
    actor.send({ type: 'session.ended', atSeq: 120 });
    expect(uploads(controls).at(-1)).toEqual({ token: 'tok', recording: 'rec-9', after: 0, upTo: 120 });
    await controls.settle('flush', 'done', { through: 120 });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'journal.flush' });
    await flush();
    expect(uploads(controls)).toHaveLength(1);
    actor.send({ type: 'session.started', token: 'tok2', atSeq: 130, switched: false });
    expect(controls.inputs.at(-1)).toEqual({ id: 'decide', input: { token: 'tok2', carried: null } });
    await controls.settle('decide', 'done', { sampled: true, recording: 'rec-10' });
    expect(actor.getSnapshot().context).toMatchObject({ floor: 120, sent: 120, recording: 'rec-10' });
    actor.stop();
  });

  it('starts a new recording at a client switch, from the switch on, carrying the draw', async () => {
    const { actor, controls } = await sampled();
    actor.send({ type: 'session.started', token: 'tok-other-client', atSeq: 77, switched: true });
    expect(controls.inputs.at(-1)).toEqual({ id: 'decide', input: { token: 'tok-other-client', carried: true } });
    await controls.settle('decide', 'done', { sampled: true, recording: 'rec-11' });
    expect(actor.getSnapshot().context).toMatchObject({ floor: 77, sent: 77, recording: 'rec-11', token: 'tok-other-client' });
    actor.stop();
  });
});
