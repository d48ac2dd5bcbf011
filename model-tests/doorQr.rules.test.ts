// The door QR machines' rules (machines/doorQr.ts) that their model test let pass, written down apart from the machines
// (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): a refused credential is told by its first
// violation, anything else by its words or 'The code could not be read.'; a switch refused says 'The command failed.'
// when the server gave no words; the server's notice of a code already asked for (two servers announce the same period)
// asks nothing again, a new code does, and the code asked for is the door's with the credential given.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { doorQrCodeMachine, doorQrMachine, problemOf } from '../machines/doorQr';
import { createControls } from './harness';

describe('door QR rules', () => {
  it("a refusal is told by the credential's first violation, or by its words, or 'The code could not be read.'", () => {
    expect(problemOf({ violations: [{ message: 'must be 6 digits' }, { message: 'other' }] })).toEqual({ violation: true, message: 'must be 6 digits' });
    expect(problemOf(new Error('Server down'))).toEqual({ violation: false, message: 'Server down' });
    expect(problemOf(new Error(''))).toEqual({ violation: false, message: 'The code could not be read.' });
    expect(problemOf(null)).toEqual({ violation: false, message: 'The code could not be read.' });
    expect(problemOf({ violations: [] })).toEqual({ violation: false, message: 'The code could not be read.' });
  });
  it('a refusal said with a key is kept as its sentence, so the screen says it in the operator’s language (issue 48)', () => {
    const tooLong = { message: 'must be at most 64 characters', code: 'text.tooLong', values: { max: 64 } };
    expect(problemOf({ violations: [{ field: 'credential', ...tooLong }] })).toEqual({ violation: true, message: tooLong });
    const gone = { message: 'That person is not inside Vault', code: 'access.notInside', values: { zone: 'Vault' } };
    expect(problemOf(Object.assign(new Error(gone.message), { sentence: gone }))).toEqual({ violation: false, message: gone });
    // a sentence that is not the error's own words: its words
    expect(problemOf(Object.assign(new Error('Server down'), { sentence: gone }))).toEqual({ violation: false, message: 'Server down' });
  });
  it("a switch refused without words says 'The command failed.'", async () => {
    const controls = createControls();
    const actor = createActor(doorQrMachine.provide({ actors: { list: controls.logic(), turn: controls.logic() } })).start();
    await controls.settle('list', 'done', { items: [] });
    actor.send({ type: 'doorQr.turn', id: 3, on: true });
    expect(controls.pending.get('turn')?.input).toEqual({ id: 3, on: true });
    await controls.settle('turn', 'error', new Error(''));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ turning: null, error: 'The command failed.' });
  });
  it("the door's code is asked for with the credential given; a notice of a new code asks again, one of the same code does not", async () => {
    const controls = createControls();
    const actor = createActor(doorQrCodeMachine.provide({ actors: { code: controls.logic() } }), { input: { doorId: 4 } }).start();
    actor.send({ type: 'qr.ask', credential: 'c-1' });
    expect(controls.inputs.map((i) => i.input)).toEqual([{ doorId: 4, credential: 'c-1' }]);
    const answer = { code: { validTo: new Date(Date.now() + 60_000).toISOString() }, now: Date.now() };
    await controls.settle('code', 'done', answer);
    actor.send({ type: 'qr.noticed', doorId: 4, code: 'A' });
    expect(actor.getSnapshot().value).toBe('asking');
    expect(actor.getSnapshot().context.notice).toBe('A');
    await controls.settle('code', 'done', answer);
    actor.send({ type: 'qr.noticed', doorId: 4, code: 'A' });
    expect(actor.getSnapshot().value).toBe('showing');
    actor.send({ type: 'qr.noticed', doorId: 5, code: 'B' });
    expect(actor.getSnapshot().value).toBe('showing');
    expect(controls.inputs).toHaveLength(2);
    actor.stop();
  });
});
