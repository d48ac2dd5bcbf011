// Uploaded session journals (issue 4): one row per recording, its entries one row per seq. Appends are
// idempotent by seq; a recording belongs to one client, one user and one session (jti).
import type { Db } from '../db';
import { tenant } from '../tenant';
import { like, window, type ListWindow } from './list';

export interface JournalRow {
  id: number;
  client_id: number;
  user_id: number;
  jti: string;
  recording: string;
  app: string;
  started_at: Date | string;
  header: unknown;
  entries: number;
  bytes: number | string;
  first_seq: number | null;
  last_seq: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}
export interface JournalListRow extends JournalRow {
  username: string;
  name: string;
  ended_at: Date | string | null;
}

export const JOURNAL_SORT = {
  updatedAt: 'j.updated_at',
  startedAt: 'j.started_at',
  entries: 'j.entries',
  bytes: 'j.bytes',
  username: 'u.username',
  id: 'j.id',
};

/** The recording's row, locked for the rest of the transaction (concurrent chunks of one recording queue up). */
export async function lockJournal(db: Db, recording: string): Promise<JournalRow | null> {
  const { rows } = await db.query<JournalRow>('select * from session_journals where recording = $1 for update', [recording]);
  return rows[0] ?? null;
}

export async function createJournal(
  db: Db,
  j: { clientId: number; userId: number; jti: string; recording: string; app: string; startedAt: number; header: unknown },
): Promise<JournalRow | null> {
  const { rows } = await db.query<JournalRow>(
    `insert into session_journals (client_id, user_id, jti, recording, app, started_at, header)
    values ($1,$2,$3,$4,$5,to_timestamp($6::double precision / 1000),$7) on conflict (recording) do nothing returning *`,
    [j.clientId, j.userId, j.jti, j.recording, j.app, j.startedAt, JSON.stringify(j.header)],
  );
  return rows[0] ?? null;
}

/** Inserts the entries not stored yet; returns the seqs and byte sizes that were new. */
export async function insertEntries(db: Db, journalId: number, lines: Array<{ seq: number; line: string }>): Promise<Array<{ seq: number; bytes: number }>> {
  if (!lines.length) return [];
  const { rows } = await db.query<{ seq: number; bytes: number }>(
    `insert into session_journal_entries (journal_id, seq, line)
    select $1, s, l from unnest($2::int[], $3::text[]) as t(s, l)
    on conflict (journal_id, seq) do nothing returning seq, octet_length(line) + 1 as bytes`,
    [journalId, lines.map((l) => l.seq), lines.map((l) => l.line)],
  );
  return rows.map((r) => ({ seq: Number(r.seq), bytes: Number(r.bytes) }));
}

export async function updateTotals(db: Db, journalId: number, added: Array<{ seq: number; bytes: number }>): Promise<JournalRow> {
  const bytes = added.reduce((n, a) => n + a.bytes, 0);
  const seqs = added.map((a) => a.seq);
  const { rows } = await db.query<JournalRow>(
    `update session_journals set entries = entries + $2, bytes = bytes + $3,
    first_seq = least(coalesce(first_seq, $4), $4), last_seq = greatest(coalesce(last_seq, $5), $5), updated_at = now()
    where id = $1 returning *`,
    [journalId, added.length, bytes, seqs.length ? Math.min(...seqs) : null, seqs.length ? Math.max(...seqs) : null],
  );
  return rows[0];
}

/** The client's recordings, newest activity first; `q` matches the user's name or username. */
export async function listJournals(db: Db, clientId: number, l: ListWindow): Promise<{ rows: JournalListRow[]; total: number }> {
  const params: unknown[] = [];
  let where = tenant(params, clientId, 'j');
  if (l.q) {
    params.push(like(l.q));
    where += ' and (u.username ilike $2 or u.name ilike $2)';
  }
  const from = 'from session_journals j join users u on u.id = j.user_id left join sessions s on s.jti = j.jti';
  const total = await db.query<{ n: string }>(`select count(*)::text n ${from} where ${where}`, params);
  const { rows } = await db.query<JournalListRow>(`select j.*, u.username, u.name, s.ended_at ${from} where ${where} ${window(l)}`, params);
  return { rows, total: Number(total.rows[0].n) };
}

/** One recording of the client (null for another client's or an unknown id). */
export async function getJournal(db: Db, clientId: number, id: number): Promise<JournalRow | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<JournalRow>(`select * from session_journals where id = $1 and ${tenant(params, clientId)}`, params);
  return rows[0] ?? null;
}

export async function journalLines(db: Db, journalId: number): Promise<string[]> {
  const { rows } = await db.query<{ line: string }>('select line from session_journal_entries where journal_id = $1 order by seq', [journalId]);
  return rows.map((r) => r.line);
}
