// Identity batch upload (issue 11, /manage/identities/batch-upload [0.3.1.9]): a spreadsheet (CSV or XLSX) is
// sent with a batch template for a dry run (server/batch/routes.ts): the preview counts what would be created and
// updated and names every bad row; nothing is written. Import then streams the rows in committed batches, its
// progress arriving as `batch.progress` events from the import actor, and ends with the result. A failed import
// goes back to the preview: the import is idempotent (rows match on employee number), so it can simply be run
// again. A new file can be previewed from any resting state; the typed template stays chosen.
import type { Sentence } from '../contract/messages';
import { assign, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { errorSaid, notProvided } from './notProvided';

export interface BatchRowError {
  row: number;
  employeeNo?: string;
  field: string;
  message: string;
}
export interface BatchPreview {
  id: number;
  fileName: string;
  template: string;
  total: number;
  valid: number;
  creates: number;
  updates: number;
  invalidRows: number;
  errors: BatchRowError[];
}
export interface BatchProgress {
  done: number;
  total: number;
  created: number;
  updated: number;
  failed: number;
}
export interface BatchResult extends BatchProgress {
  errors: number;
}
export interface PreviewInput {
  templateId: number;
  file: Blob;
  fileName: string;
}
/** What the preview actor rejects with: the server's message and the fields it named (`file`, `templateId`). */
export interface BatchFailure {
  message: string;
  violations?: { field: string; message: string }[];
}

export type BatchUploadEvent =
  | { type: 'batch.preview'; templateId: number; file: Blob; fileName: string }
  | { type: 'batch.import' }
  /** From the import actor after every committed batch of rows. */
  | { type: 'batch.progress'; progress: BatchProgress }
  | { type: 'batch.reset' };

export interface BatchUploadContext {
  templateId: number | null;
  fileName: string | null;
  preview: BatchPreview | null;
  progress: BatchProgress | null;
  result: BatchResult | null;
  /** The last failure, for the callout; `violations` go on their fields. */
  error: string | Sentence | null;
  violations: { field: string; message: string }[];
}

const violationsOf = (error: unknown) => {
  const v = (error as BatchFailure | null)?.violations;
  return Array.isArray(v) ? v.filter((x) => x && typeof x.field === 'string' && typeof x.message === 'string') : [];
};

export const batchUploadMachine = lazySetup({
  types: { context: {} as BatchUploadContext, events: {} as BatchUploadEvent, tags: {} as 'busy' },
  actors: {
    preview: notProvided<BatchPreview, PreviewInput>('preview'),
    /** Streams the import of a previewed upload, sending `batch.progress` to its parent; resolves with the result. */
    import: notProvided<BatchResult, { uploadId: number }>('import'),
  },
  guards: {
    importable: ({ context }) => (context.preview?.valid ?? 0) > 0,
  },
  actions: {
    take: assign(({ event }) =>
      event.type === 'batch.preview'
        ? { templateId: event.templateId, fileName: event.fileName, preview: null, progress: null, result: null, error: null, violations: [] }
        : {},
    ),
    clear: assign({ fileName: null, preview: null, progress: null, result: null, error: null, violations: [] }),
  },
}).createMachine({
  id: 'batchUpload',
  context: { templateId: null, fileName: null, preview: null, progress: null, result: null, error: null, violations: [] },
  initial: 'idle',
  states: {
    idle: {
      on: { 'batch.preview': { target: 'previewing', actions: 'take' }, 'batch.reset': { actions: 'clear' } },
    },
    previewing: {
      tags: ['busy'],
      // a second file while one is being read is ignored (the button is busy), and so is reset
      invoke: {
        id: 'preview',
        src: 'preview',
        input: ({ event }) => {
          const e = event as Extract<BatchUploadEvent, { type: 'batch.preview' }>;
          return { templateId: e.templateId, file: e.file, fileName: e.fileName };
        },
        onDone: { target: 'previewed', actions: assign({ preview: ({ event }) => event.output }) },
        onError: {
          target: 'idle',
          actions: assign({
            error: ({ event }) => errorSaid(event.error, 'The file could not be read.'),
            violations: ({ event }) => violationsOf(event.error),
          }),
        },
      },
    },
    previewed: {
      on: {
        'batch.import': { guard: 'importable', target: 'importing' },
        'batch.preview': { target: 'previewing', actions: 'take' },
        'batch.reset': { target: 'idle', actions: 'clear' },
      },
    },
    importing: {
      tags: ['busy'],
      entry: assign({ progress: ({ context }) => ({ done: 0, total: context.preview?.valid ?? 0, created: 0, updated: 0, failed: 0 }), error: null }),
      // an import runs to its end on the server (each batch commits): leaving would only hide its progress
      on: { 'batch.progress': { actions: assign({ progress: ({ event }) => event.progress }) } },
      invoke: {
        id: 'import',
        src: 'import',
        input: ({ context }) => ({ uploadId: context.preview?.id ?? 0 }),
        onDone: { target: 'imported', actions: assign({ result: ({ event }) => event.output }) },
        onError: {
          target: 'previewed',
          actions: assign({
            error: ({ event }) => errorSaid(event.error, 'The import was interrupted. Run it again: rows already imported are matched, not repeated.'),
          }),
        },
      },
    },
    imported: {
      on: { 'batch.preview': { target: 'previewing', actions: 'take' }, 'batch.reset': { target: 'idle', actions: 'clear' } },
    },
  },
});

export type BatchUploadSnapshot = SnapshotFrom<typeof batchUploadMachine>;
export type BatchUploadActor = ActorRefFrom<typeof batchUploadMachine>;

export const selectBatchBusy = (s: BatchUploadSnapshot) => s.hasTag('busy');
export const selectBatchStage = (s: BatchUploadSnapshot) => s.value as 'idle' | 'previewing' | 'previewed' | 'importing' | 'imported';
export const selectBatchPreview = (s: BatchUploadSnapshot) => s.context.preview;
export const selectBatchProgress = (s: BatchUploadSnapshot) => s.context.progress;
export const selectBatchResult = (s: BatchUploadSnapshot) => s.context.result;
export const selectBatchError = (s: BatchUploadSnapshot) => s.context.error;
/** The message for one field (`file`, `templateId`) of the last refused preview. */
export const selectBatchFieldError = (field: string) => (s: BatchUploadSnapshot) => s.context.violations.find((v) => v.field === field)?.message ?? null;
export const selectBatchCanImport = (s: BatchUploadSnapshot) => s.can({ type: 'batch.import' });
