// The identity batch upload's bad rows (server/batch, /manage/identities/batch-upload): each row's field and what is
// wrong with it, its sentence's key and values beside the English (issue 48), so the console says the rows and writes
// its error report in the reader's language.
import { array, integer, optional, string, type, type Infer } from './structs';
import { SentenceKey, SentenceValues } from './messages';

/** One problem of one row of a batch file (`field` as the identity form names it: `lastName`, `credentials.0.number`). */
export const BatchRowError = type({
  row: integer(),
  employeeNo: optional(string()),
  field: string(),
  message: string(),
  code: optional(SentenceKey),
  values: optional(SentenceValues),
});
export type BatchRowError = Infer<typeof BatchRowError>;

/** GET `{batchUpload}/:id/errors`: every problem of the upload (the preview's, then the import's), in row order. */
export const BatchErrorReport = type({ items: array(BatchRowError) });
export type BatchErrorReport = Infer<typeof BatchErrorReport>;
