// The batch upload's rules (machines/batchUpload.ts) that its model test let pass, written down apart from the machine
// (the mutation run of 2026-12-03, docs/TESTING.md "Mutation score"): a refused preview keeps only the violations that
// name a field and say what is wrong, whatever else the failure holds; a failure without words says the machine's
// default sentence for the preview and for the import; a field with no violation reads null.
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { batchUploadMachine, selectBatchError, selectBatchFieldError, type BatchPreview } from '../machines/batchUpload';
import { createControls } from './harness';

const file = new Blob(['Emp\nE1\n'], { type: 'text/csv' });
const preview: BatchPreview = { id: 41, fileName: 'people.csv', template: 'Staff', total: 2, valid: 1, creates: 1, updates: 0, invalidRows: 1, errors: [] };

function batch() {
  const controls = createControls();
  const actor = createActor(batchUploadMachine.provide({ actors: { preview: controls.logic(), import: controls.logic() } })).start();
  const previewFile = () => actor.send({ type: 'batch.preview', templateId: 3, file, fileName: 'people.csv' });
  return { controls, actor, previewFile, s: () => actor.getSnapshot() };
}

describe('batch upload rules', () => {
  it('keeps of a refused preview only the violations that name a field and say what is wrong', async () => {
    const { controls, previewFile, s } = batch();
    previewFile();
    const good = { field: 'file', message: 'has no column "Emp"' };
    await controls.settle('preview', 'error', {
      message: 'Validation failed',
      violations: [null, good, { field: 'templateId' }, { message: 'no field' }, { field: 7, message: 'x' }, { field: 'file', message: 7 }],
    });
    expect(s().context.violations).toEqual([good]);
    expect(selectBatchFieldError('file')(s())).toBe('has no column "Emp"');
    expect(selectBatchFieldError('templateId')(s())).toBeNull();
    for (const failure of [null, 'down', { violations: 'file' }]) {
      previewFile();
      await controls.settle('preview', 'error', failure);
      expect([failure, s().context.violations]).toEqual([failure, []]);
    }
  });

  it("says 'The file could not be read.' and the import's sentence when a failure has no words", async () => {
    const { controls, actor, previewFile, s } = batch();
    previewFile();
    await controls.settle('preview', 'error', new Error(''));
    expect(selectBatchError(s())).toBe('The file could not be read.');
    previewFile();
    await controls.settle('preview', 'done', preview);
    actor.send({ type: 'batch.import' });
    expect(controls.pending.get('import')?.input).toEqual({ uploadId: 41 });
    await controls.settle('import', 'error', new Error(' '));
    expect(s().value).toBe('previewed');
    expect(selectBatchError(s())).toBe('The import was interrupted. Run it again: rows already imported are matched, not repeated.');
  });
});
