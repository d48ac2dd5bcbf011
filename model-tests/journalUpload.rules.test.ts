// The session replay upload's rules (machines/journalUpload.ts) that its model test let pass, written down apart from
// the machine (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): a failure that is not an object (a
// text, null) is never permanent: the recording goes on; a draw answered without `sampled: true` (false, or no answer)
// records nothing; a sign-in (not a client switch) after an unsampled session asks a fresh draw (carried null); a
// recording refused for good says why, in the server's words or its own, never empty (the stopped state's invariant).
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { journalUploadMachine } from '../machines/journalUpload';
import { createControls } from './harness';

function uploader() {
  const controls = createControls();
  const actor = createActor(journalUploadMachine.provide({ actors: { decide: controls.logic(), upload: controls.logic() } })).start();
  const errors: unknown[] = [];
  actor.subscribe({ error: (e) => errors.push(e) });
  return { controls, actor, errors, s: () => actor.getSnapshot() };
}

describe('journal upload rules', () => {
  it('keeps recording after a failure that is a text or null (never permanent)', async () => {
    const { controls, actor, errors, s } = uploader();
    actor.send({ type: 'session.started', token: 't', atSeq: 0, switched: false });
    await controls.settle('decide', 'done', { sampled: true, recording: 'r1' });
    for (const failure of ['refused', null]) {
      actor.send({ type: 'journal.flush' });
      await controls.settle('upload', 'error', failure);
      expect([failure, s().value, s().context.stopped]).toEqual([failure, { recording: 'waiting' }, null]);
    }
    expect(s().context.failures).toBe(2);
    expect(errors).toEqual([]);
  });

  it('records nothing when the draw says not sampled or answers nothing', async () => {
    for (const output of [{ sampled: false, recording: 'r1' }, undefined]) {
      const { controls, actor, s } = uploader();
      actor.send({ type: 'session.started', token: 't', atSeq: 0, switched: false });
      await controls.settle('decide', 'done', output);
      expect([output, s().value, s().context.sampled]).toEqual([output, 'unsampled', false]);
    }
  });

  it('asks a fresh draw at a sign-in after an unsampled session, and carries it at a client switch', async () => {
    const { controls, actor } = uploader();
    actor.send({ type: 'session.started', token: 't1', atSeq: 0, switched: false });
    await controls.settle('decide', 'done', { sampled: false, recording: 'r1' });
    actor.send({ type: 'session.started', token: 't2', atSeq: 5, switched: false });
    expect(controls.pending.get('decide')?.input).toEqual({ token: 't2', carried: null });
    await controls.settle('decide', 'done', { sampled: false, recording: 'r2' });
    actor.send({ type: 'session.started', token: 't3', atSeq: 9, switched: true });
    expect(controls.pending.get('decide')?.input).toEqual({ token: 't3', carried: false });
  });

  it("a recording refused for good says the server's words, trimmed, or 'The server refused this recording.' when the refusal has none", async () => {
    const cases: Array<[unknown, string]> = [
      [{ message: ' 413 Payload Too Large ', status: 413, permanent: true }, '413 Payload Too Large'],
      [{ status: 403, permanent: true }, 'The server refused this recording.'],
      [{ message: '', status: 409, permanent: true }, 'The server refused this recording.'],
      [{ message: '   ', permanent: true }, 'The server refused this recording.'],
      [{ message: 401, permanent: true }, 'The server refused this recording.'],
    ];
    for (const [failure, words] of cases) {
      const { controls, actor, errors, s } = uploader();
      actor.send({ type: 'session.started', token: 't', atSeq: 0, switched: false });
      await controls.settle('decide', 'done', { sampled: true, recording: 'r1' });
      actor.send({ type: 'journal.flush' });
      await controls.settle('upload', 'error', failure);
      expect([failure, s().value, s().context.stopped]).toEqual([failure, 'stopped', words]);
      expect(errors).toEqual([]);
    }
  });

  it('a failure that is not an object is never permanent, whatever it is (a number, true, undefined)', async () => {
    const { controls, actor, s } = uploader();
    actor.send({ type: 'session.started', token: 't', atSeq: 0, switched: false });
    await controls.settle('decide', 'done', { sampled: true, recording: 'r1' });
    for (const failure of [413, true, undefined]) {
      actor.send({ type: 'journal.flush' });
      await controls.settle('upload', 'error', failure);
      expect([failure, s().value]).toEqual([failure, { recording: 'waiting' }]);
    }
    expect(s().context.failures).toBe(3);
  });
});
