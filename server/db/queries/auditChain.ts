// The audit chains' SQL (server/audit/heads.ts, verify.ts, export.ts, witness.ts; issue 48: in the queries room).
// A chain is one client's records, or those of no client: `chain` is the client's id, -1 for none (heads.ts chainOf).
import type { Db } from '../db';
import { tenant } from '../tenant';

export type HeadRow = { client_id: number | null; seq: string | number; hash: string; signed_at: Date | string; signature: string };

/** The chain's latest signed head; undefined when none was signed. */
export async function latestHeadRow(db: Db, chain: number): Promise<HeadRow | undefined> {
  const { rows } = await db.query<HeadRow>('select * from audit_heads where coalesce(client_id, -1) = $1 order by seq desc, id desc limit 1', [chain]);
  return rows[0];
}

/**
 * Each chain's newest record (`chain` alone, or every chain when null: no client's and each client's) by the chain
 * index, with the seq of its latest signed head (null when none).
 */
export async function chainTops(db: Db, chain: number | null): Promise<{ chain: number; seq: string; hash: string; signed: string | null }[]> {
  const { rows } = await db.query<{ chain: number; seq: string; hash: string; signed: string | null }>(
    `select c.chain, a.seq::text, a.hash, (select max(h.seq)::text from audit_heads h where coalesce(h.client_id, -1) = c.chain) as signed
       from (${chain === null ? 'select -1 as chain union all select id from clients' : 'select $1::int as chain'}) c
       join lateral (select seq, hash from audit_log where coalesce(client_id, -1) = c.chain order by seq desc limit 1) a on true`,
    chain === null ? [] : [chain],
  );
  return rows;
}

export async function insertHead(db: Db, h: { clientId: number | null; seq: number; hash: string; signedAt: string; signature: string }): Promise<void> {
  await db.query('insert into audit_heads (client_id, seq, hash, signed_at, signature) values ($1, $2, $3, $4, $5)', [
    h.clientId,
    h.seq,
    h.hash,
    h.signedAt,
    h.signature,
  ]);
}

/** The audit log's newest id (0 when it is empty). */
export async function newestAuditId(db: Db): Promise<number> {
  const { rows } = await db.query<{ id: string | null }>('select max(id)::text as id from audit_log');
  return rows[0]?.id === null || rows[0]?.id === undefined ? 0 : Number(rows[0].id);
}

/** The chains that have records, in order. */
export async function chainsWithRecords(db: Db): Promise<number[]> {
  return (await db.query<{ chain: number }>('select distinct coalesce(client_id, -1) as chain from audit_log order by 1')).rows.map((r) => Number(r.chain));
}

/** The chains that have signed heads (a chain whose every record was deleted still has them). */
export async function chainsWithHeads(db: Db): Promise<number[]> {
  return (await db.query<{ chain: number }>('select distinct coalesce(client_id, -1) as chain from audit_heads')).rows.map((r) => Number(r.chain));
}

export type ChainRow = { id: string | number; seq: string | number; prev_hash: string | null; hash: string; canonical: string; at: string };
/** The rows of one chain, by the indexes there are: (client_id, id) and, for rows of no client, (id) where client_id is null. */
const inChain = (clientId: number | null, from: number) => {
  if (clientId === null) return { where: 'client_id is null and id > $1', params: [from] };
  const params: unknown[] = [from];
  return { where: `${tenant(params, clientId)} and id > $1`, params };
};

/** Up to `limit` records of the client's chain (null: no client's) after id `after`, in the order they were written, with their canonical text. */
export async function chainPage(db: Db, clientId: number | null, after: number, limit: number): Promise<ChainRow[]> {
  const q = inChain(clientId, after);
  const { rows } = await db.query<ChainRow>(
    `select id, seq, prev_hash, hash, audit_canonical(a) as canonical, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
           from audit_log a where ${q.where} order by id limit ${limit}`,
    q.params,
  );
  return rows;
}

/** The id of the chain's record of that seq; undefined when there is none. */
export async function recordIdAt(db: Db, chain: number, seq: number): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('select id from audit_log where coalesce(client_id, -1) = $1 and seq = $2', [chain, seq]);
  return rows[0]?.id;
}

export interface ExportRow {
  seq: string;
  id: string;
  at: string;
  actor: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  prev_hash: string | null;
  hash: string;
  canonical: string;
}

/** Up to `limit` records of the chain with seq after `after` and up to `end`, by seq, as an export writes them. */
export async function exportPage(db: Db, chain: number, after: number, end: number, limit: number): Promise<ExportRow[]> {
  const { rows } = await db.query<ExportRow>(
    `select seq, id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, actor, action, entity, entity_id, before, after, prev_hash, hash,
         audit_canonical(a) as canonical
         from audit_log a where coalesce(client_id, -1) = $1 and seq > $2 and seq <= $3 order by seq limit ${limit}`,
    [chain, after, end],
  );
  return rows;
}

/** The chain's last seq (0 when it has no records). */
export async function lastSeq(db: Db, chain: number): Promise<number> {
  const { rows } = await db.query<{ seq: string | null }>('select max(seq)::text as seq from audit_log where coalesce(client_id, -1) = $1', [chain]);
  return rows[0]?.seq === null || rows[0]?.seq === undefined ? 0 : Number(rows[0].seq);
}

/** The chain's records of these seqs (seq, hash, id as text). */
export async function recordsAt(db: Db, chain: number, seqs: number[]): Promise<{ seq: string; hash: string; id: string }[]> {
  const { rows } = await db.query<{ seq: string; hash: string; id: string }>(
    'select seq::text, hash, id::text from audit_log where coalesce(client_id, -1) = $1 and seq = any($2::bigint[])',
    [chain, seqs],
  );
  return rows;
}
