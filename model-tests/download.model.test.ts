// Model-based test of the download machine (machines/download.ts), the events screen's export: one at a time,
// progress kept while it runs, the file emitted once when it ends with one, a failure kept until the next start, a
// cancel back to idle with nothing emitted.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { downloadMachine, selectDownloadError, selectDownloadProgress, type DownloadSnapshot } from '../machines/download';
import { drive, edgePaths, onDemand, expectOracle } from './harness';

const blob = new Blob(['id\n1\n']);
describe('download model', () => {
  const events = [
    { type: 'download.start', input: { format: 'csv' } },
    { type: 'download.cancel' },
    { type: 'download.progress', done: 5, total: 10 },
    { type: 'download.finished', file: { blob, filename: 'events.csv' } },
    { type: 'download.finished', error: 'The server is busy' },
    { type: 'download.finished', cancelled: true },
  ] as any[];
  const serialize = (s: DownloadSnapshot) => JSON.stringify([s.value, s.context.progress, s.context.error]);
  const model = new TestModel(downloadMachine as any, { events: events as any, serializeState: serialize as any, limit: 2000 });
  const paths = onDemand(() => edgePaths(model, downloadMachine, serialize, []));
  it('keeps the invariants of its states (download.invariants.ts) and the export rules at every step of the generated paths', () => {
    expectOracle(
      paths(),
      {
        'a progress report of a running download is shown as it came': ({ before, event, after }) =>
          event.type === 'download.progress' && before.matches('running')
            ? after.context.progress?.done === event.done && after.context.progress?.total === event.total
            : undefined,
        'a failure reported by the fetch is the message shown': ({ before, event, after }) =>
          event.type === 'download.finished' && event.error && before.matches('running') ? after.context.error === event.error : undefined,
        'one at a time: a start while running changes nothing': ({ before, event, after }) =>
          event.type === 'download.start' && before.matches('running') ? JSON.stringify(after.context) === JSON.stringify(before.context) : undefined,
      },
      4,
    );
  });
  it('covers every state', () => {
    const states = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    expect([...states].sort()).toEqual(['"failed"', '"idle"', '"running"']);
  });
  it(`on the real actor along every generated path: the file is emitted exactly when a running download ends with one; a start gives the fetch its format`, async () => {
    for (const p of paths()) {
      await drive(model, downloadMachine, undefined, events, p, ({ emitted, controls, event, before }, step) => {
        // the file is emitted exactly when a running download ends with one
        const ready = p.path.steps
          .slice(0, step + 1)
          .filter((st, i) => st.event.type === 'download.finished' && st.event.file && p.path.steps[i - 1]?.state.matches('running')).length;
        expect(emitted.filter((e: any) => e.type === 'download.ready')).toHaveLength(ready);
        // a start from idle or failed gives the fetch the start's input
        if (event.type === 'download.start' && before && !before.matches('running')) expect(controls.inputs.at(-1)?.input).toEqual({ format: 'csv' });
      });
      const s = p.path.state;
      expect(selectDownloadProgress(s) !== null).toBe(s.matches('running'));
      expect(selectDownloadError(s)).toBe(s.matches('failed') ? 'The server is busy' : null);
    }
  });

  // "starting it unprovided fails loudly" (machines/notProvided.ts): the screen must provide the fetch; a machine
  // built without it must not sit in `running` forever with a spinner and no request behind it
  it('started without the fetch the screen provides, it fails at once and names the missing fetch', () => {
    const actor = createActor(downloadMachine);
    const errors: unknown[] = [];
    actor.subscribe({ error: (e) => errors.push(e) });
    actor.start();
    actor.send({ type: 'download.start', input: { format: 'csv' } });
    expect(actor.getSnapshot().status).toBe('error');
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toMatch(/fetch actor was not provided/);
  });
});
