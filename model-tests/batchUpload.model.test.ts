// Model-based test of the batch-upload machine: every edge of its graph on the real machine, with the preview
// and import actors replaced by controllable fakes; the progress events are sent as the import actor sends them.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import {
  batchUploadMachine,
  selectBatchBusy,
  selectBatchCanImport,
  selectBatchError,
  selectBatchFieldError,
  selectBatchStage,
  type BatchPreview,
  type BatchUploadSnapshot,
} from '../machines/batchUpload';
import { invariants } from '../machines/batchUpload.invariants';
import { drive, edgePaths, onDemand, expectOracle, onlyInvoked } from './harness';

const file = new Blob(['Emp,First,Last\nE1,Ann,Lee\n'], { type: 'text/csv' });
const preview = (valid: number): BatchPreview => ({
  id: 41,
  fileName: 'people.csv',
  template: 'Staff',
  total: 1000,
  valid,
  creates: valid,
  updates: 0,
  invalidRows: 1000 - valid,
  errors: [{ row: 7, employeeNo: 'E6', field: 'firstName', message: 'is required' }],
});

describe('batch upload machine model', () => {
  const events = [
    { type: 'batch.preview', templateId: 3, file, fileName: 'people.csv' },
    { type: 'batch.import' },
    { type: 'batch.progress', progress: { done: 250, total: 997, created: 250, updated: 0, failed: 0 } },
    { type: 'batch.reset' },
    { type: 'xstate.done.actor.preview', output: preview(997) },
    { type: 'xstate.done.actor.preview', output: preview(0) },
    { type: 'xstate.error.actor.preview', error: { message: 'Validation failed', violations: [{ field: 'file', message: 'has no column "Emp"' }] } },
    { type: 'xstate.done.actor.import', output: { done: 997, total: 997, created: 997, updated: 0, failed: 0, errors: 3 } },
    { type: 'xstate.error.actor.import', error: new Error('The connection was lost.') },
  ] as any[];
  const serialize = (s: BatchUploadSnapshot) =>
    JSON.stringify([s.value, s.context.preview?.valid ?? null, s.context.progress !== null, s.context.result !== null, s.context.error !== null]);
  const model = new TestModel(batchUploadMachine as any, { events: onlyInvoked(events) as any, serializeState: serialize as any, limit: 2000 });
  const paths = onDemand(() => edgePaths(model, batchUploadMachine, serialize, []));

  it('keeps the invariants of its states (batchUpload.invariants.ts) at every step of the generated paths', () => {
    expectOracle(
      paths(),
      {
        'a preview without a valid row cannot be imported': ({ before, event, after }) =>
          event.type === 'batch.import' && before.matches('previewed') && before.context.preview?.valid === 0 ? after.matches('previewed') : undefined,
        'a refused file says why, on its field': ({ before, event, after }) =>
          event.type === 'xstate.error.actor.preview' && before.matches('previewing')
            ? after.matches('idle') && after.context.violations.some((v) => v.field === 'file')
            : undefined,
        'an interrupted import goes back to its preview and says so': ({ before, event, after }) =>
          event.type === 'xstate.error.actor.import' && before.matches('importing')
            ? after.matches('previewed') && after.context.error === 'The connection was lost.' && after.context.preview === before.context.preview
            : undefined,
      },
      7,
      invariants,
    );
  });
  it('reaches every state', () => {
    const states = new Set(paths().flatMap((p) => p.path.steps.map((st) => st.state.value as string)));
    expect([...states].sort()).toEqual(['idle', 'imported', 'importing', 'previewed', 'previewing']);
  });
  it(`on the real actor along every generated path: the preview gets the template and file, the import the previewed upload; busy and stage follow the state`, async () => {
    const met = { 'a preview asked': 0, 'an import asked': 0, 'a refused file shown': 0, 'a lost import shown': 0 };
    for (const p of paths()) {
      await drive(model, batchUploadMachine, undefined, events, p, ({ controls, event, before }) => {
        // the preview gets the chosen template and file; the import gets the previewed upload
        if (event.type === 'batch.preview' && before && !before.hasTag('busy')) {
          met['a preview asked']++;
          expect(controls.inputs.at(-1)).toEqual({ id: 'preview', input: { templateId: 3, file, fileName: 'people.csv' } });
        }
        if (event.type === 'batch.import' && before?.matches('previewed') && (before.context.preview?.valid ?? 0) > 0) {
          met['an import asked']++;
          expect(controls.inputs.at(-1)).toEqual({ id: 'import', input: { uploadId: 41 } });
        }
      });
      const last = p.path.state;
      expect(selectBatchBusy(last)).toBe(last.matches('previewing') || last.matches('importing'));
      expect(selectBatchStage(last)).toBe(last.value);
      // a preview with no valid row cannot be imported
      expect(selectBatchCanImport(last)).toBe(last.matches('previewed') && (last.context.preview?.valid ?? 0) > 0);
      if (last.matches('idle') && last.context.error) {
        met['a refused file shown']++;
        expect(selectBatchFieldError('file')(last)).toBe('has no column "Emp"');
      }
      if (last.matches('previewed') && p.path.steps.at(-1)?.event.type === 'xstate.error.actor.import') {
        met['a lost import shown']++;
        expect(selectBatchError(last)).toBe('The connection was lost.');
      }
    }
    // each conditional check above met its case at least once (a loop that met none would have asserted nothing)
    expect(Object.entries(met).filter(([, n]) => n === 0)).toEqual([]);
  });
});
