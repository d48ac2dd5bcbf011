// Session replay (issue 4, §9 "session replay rate 0.1"): sampled consoles append their redacted event journal
// in NDJSON chunks (idempotent by seq, each chunk validated line by line with the contract's journal schema and
// refused whole when any line is bad), and auditors holding 0.8.2.0 list and open the recordings of their
// client; every read is audited. A recording belongs to the client, user and session (jti) that started it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  JOURNAL_CHUNK_MAX_BYTES,
  JOURNAL_LINE_MAX_BYTES,
  JOURNAL_MAX_BYTES,
  JournalEntry,
  JournalHeader,
  ListQuery,
  Page,
  PRIV,
  RECORDING_ID,
  parseJournal,
  redact,
  RecordingSummary,
  UploadReceipt,
} from '../../contract';
import type { Db } from '../db/db';
import { JOURNAL_SORT, createJournal, getJournal, insertEntries, journalLines, listJournals, lockJournal, updateTotals } from '../db/queries/journals';
import { HttpError, clientOf, fill, idParam, listParams, noteLineSchemas, principal } from './kit';
import { iso } from '../db/values';
import { audit } from '../audit/trail';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  append: { response: UploadReceipt, summary: "Appends NDJSON lines to the session's recording" },
  list: { query: ListQuery, response: Page(RecordingSummary) },
  one: { response: 'file', summary: 'A recording as NDJSON' },
} satisfies Record<string, RouteDoc>;

export const NDJSON = 'application/x-ndjson';

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

/** A chunk: header line + entries, every line checked; the first problem names its line. Entries come back redacted. */
export function parseChunk(text: string): { header: JournalHeader; lines: Array<{ seq: number; line: string }> } {
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    if (byteLength(raw[i]) > JOURNAL_LINE_MAX_BYTES) {
      throw new HttpError(400, fill('journal.lineTooLong', 'line {line} is longer than {max} bytes', { line: i + 1, max: JOURNAL_LINE_MAX_BYTES }), [
        { field: `line ${i + 1}`, ...fill('journal.isLongerThan', 'is longer than {max} bytes', { max: JOURNAL_LINE_MAX_BYTES }) },
      ]);
    }
  }
  const parsed = parseJournal(text);
  if (!parsed.ok) throw new HttpError(400, parsed.said, parsed.violations ?? [{ field: `line ${parsed.line}`, ...parsed.said }]);
  if (!parsed.journal.lines.length)
    throw new HttpError(400, fill('journal.chunkEmpty', 'the chunk has a header but no entries', {}), [
      { field: 'line 2', ...fill('journal.chunkNeedsEntry', 'is missing: a chunk carries at least one entry', {}) },
    ]);
  // the console redacts before recording; the server does it again, so no client can store a secret (idempotent)
  return { header: parsed.journal.header, lines: parsed.journal.lines.map(({ entry }) => ({ seq: entry.seq, line: JSON.stringify(redact(entry)) })) };
}

const sameHeader = (a: unknown, b: JournalHeader) => {
  const h = a as Partial<JournalHeader> | null;
  return !!h && h.kind === b.kind && h.version === b.version && h.app === b.app && h.startedAt === b.startedAt;
};

export function journalRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.addContentTypeParser(NDJSON, { parseAs: 'string', bodyLimit: JOURNAL_CHUNK_MAX_BYTES }, (_req, text, done) => done(null, text));

  // append a chunk to the signed-in session's own recording (created by its first chunk); its lines are checked with
  // the contract's journal schemas (parseJournal), which the hostile-input test reads from here
  noteLineSchemas(`POST ${API.sessionJournals}/:id`, JournalHeader, JournalEntry);
  app.post(
    `${API.sessionJournals}/:id`,
    { bodyLimit: JOURNAL_CHUNK_MAX_BYTES, config: { touches: 'self', ...DOCS.append } },
    async (req: FastifyRequest): Promise<UploadReceipt> => {
      const p = principal(req);
      const clientId = clientOf(req);
      const recording = String((req.params as { id?: string }).id ?? '');
      if (!RECORDING_ID.test(recording))
        throw new HttpError(400, fill('recording.invalidId', 'Invalid recording id', {}), [
          { field: 'recording', ...fill('recording.idForm', 'must be 8 to 64 letters, digits or dashes', {}) },
        ]);
      if (typeof req.body !== 'string')
        throw new HttpError(415, fill('journal.sendAs', 'Send the chunk as {type}', { type: NDJSON }), [
          { field: '(body)', ...fill('journal.mustBeType', 'must be {type}', { type: NDJSON }) },
        ]);
      const chunk = parseChunk(req.body);
      return db.transaction(async (tx) => {
        let row = await lockJournal(tx, recording);
        if (!row) {
          row =
            (await createJournal(tx, {
              clientId,
              userId: p.userId,
              jti: p.jti,
              recording,
              app: chunk.header.app,
              startedAt: chunk.header.startedAt,
              header: chunk.header,
            })) ?? (await lockJournal(tx, recording));
        }
        if (!row) throw new Error(`recording ${recording} vanished`);
        // another tenant's (or another session's) recording is not there as far as this caller knows: 404, not 403
        if (row.client_id !== clientId || row.user_id !== p.userId || row.jti !== p.jti)
          throw new HttpError(404, fill('recording.notFound', 'Recording not found', {}));
        if (!sameHeader(row.header, chunk.header)) {
          throw new HttpError(409, fill('journal.otherHeader', "The chunk's header differs from the recording's", {}), [
            { field: 'line 1', ...fill('journal.notStartHeader', 'is not the header this recording started with', {}) },
          ]);
        }
        const added = await insertEntries(tx, row.id, chunk.lines);
        const total = Number(row.bytes) + added.reduce((n, a) => n + a.bytes, 0);
        if (total > JOURNAL_MAX_BYTES)
          throw new HttpError(413, fill('journal.wouldExceed', 'The recording would exceed {max} bytes', { max: JOURNAL_MAX_BYTES }));
        const now = added.length ? await updateTotals(tx, row.id, added) : row;
        return { id: now.id, entries: now.entries, bytes: Number(now.bytes), accepted: added.length, through: now.last_seq ?? 0 };
      });
    },
  );

  // the recordings are a section of the journal replay screen (/monitor/replay [0.8.1.0]) shown to holders of 0.8.2.0:
  // the server answers only those who may open that screen and see that section
  const replays = { privileges: [PRIV.journalExport, PRIV.sessionReplays], mode: 'ALL' as const };

  app.get(API.sessionJournals, { config: { ...replays, ...DOCS.list } }, async (req) => {
    const clientId = clientOf(req);
    const l = listParams(req.query, JOURNAL_SORT, 'j.updated_at desc, j.id desc');
    const { rows, total } = await listJournals(db, clientId, l);
    await audit(db, req, { clientId, action: 'list', entity: 'session-journal', entityId: null, before: null, after: { page: l.page, total } });
    const items: RecordingSummary[] = rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      username: r.username,
      name: r.name,
      startedAt: iso(r.started_at)!,
      updatedAt: iso(r.updated_at)!,
      entries: r.entries,
      bytes: Number(r.bytes),
      app: r.app,
      ended: r.ended_at !== null,
      firstSeq: r.first_seq,
      lastSeq: r.last_seq,
    }));
    return { items, total, page: l.page, size: l.size };
  });

  app.get(`${API.sessionJournals}/:id`, { config: { ...replays, ...DOCS.one } }, async (req, reply) => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Recording');
    const row = await getJournal(db, clientId, id);
    if (!row) throw new HttpError(404, fill('recording.notFound', 'Recording not found', {}));
    const lines = await journalLines(db, row.id);
    await audit(db, req, {
      clientId,
      action: 'view',
      entity: 'session-journal',
      entityId: row.id,
      before: null,
      after: { userId: row.user_id, entries: row.entries },
    });
    return reply.type(NDJSON).send([JSON.stringify(row.header), ...lines].join('\n') + '\n');
  });
}
