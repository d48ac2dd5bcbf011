// What holds in each state of the batch upload (./batchUpload.ts: Manage > Batch upload, people imported from a
// workbook), written apart from its transitions and read by nothing in the machine. The model test hands them to the
// harness by state (model-tests/batchUpload.model.test.ts, `expectOracle(…, byState)`), which checks them at every step
// of every path generated from the graph. '' holds in every state.

/** The part of the snapshot the invariants read (not imported from ./batchUpload, so nothing is shared with it). */
type Figures = { done: number; total: number; created: number; updated: number; failed: number };
type Held = {
  context: {
    templateId: number | null;
    fileName: string | null;
    preview: { id: number; total: number; valid: number; creates: number; updates: number; invalidRows: number } | null;
    progress: Figures | null;
    result: (Figures & { errors: number }) | null;
    error: string | null;
    violations: Array<{ field: string; message: string }>;
  };
  children: Record<string, unknown>;
  hasTag: (tag: string) => boolean;
};
const running = (s: Held) => Object.keys(s.children).sort().join(',');
/** A preview's figures add up: valid rows are created or updated, the others invalid. */
const sound = (p: NonNullable<Held['context']['preview']>) =>
  p.valid >= 0 && p.valid <= p.total && p.creates + p.updates === p.valid && p.valid + p.invalidRows === p.total;

export const invariants = {
  '': {
    'a preview shown adds up (valid rows created or updated, the rest invalid)': ({ context: c }: Held) => c.preview === null || sound(c.preview),
    'progress, when shown, is of the rows the preview found valid and never past them': ({ context: c }: Held) =>
      c.progress === null || (c.progress.done >= 0 && c.progress.done <= c.progress.total && c.preview !== null && c.progress.total === c.preview.valid),
  },
  idle: {
    'nothing runs, not busy, nothing previewed or imported': (s: Held) =>
      running(s) === '' && !s.hasTag('busy') && s.context.preview === null && s.context.progress === null && s.context.result === null,
  },
  previewing: {
    'the chosen file of the chosen template is read, and only that: busy, nothing of an earlier file shown': (s: Held) =>
      running(s) === 'preview' &&
      s.hasTag('busy') &&
      s.context.templateId !== null &&
      s.context.fileName !== null &&
      s.context.preview === null &&
      s.context.result === null &&
      s.context.error === null &&
      s.context.violations.length === 0,
  },
  previewed: {
    'a preview is shown; nothing runs, not busy': (s: Held) => s.context.preview !== null && running(s) === '' && !s.hasTag('busy'),
  },
  importing: {
    'the previewed rows, some valid, are imported: busy, progress shown, no error': (s: Held) =>
      running(s) === 'import' && s.hasTag('busy') && (s.context.preview?.valid ?? 0) > 0 && s.context.progress !== null && s.context.error === null,
  },
  imported: {
    'the result is shown beside its preview; nothing runs, not busy': (s: Held) =>
      s.context.result !== null && s.context.preview !== null && running(s) === '' && !s.hasTag('busy'),
  },
};
