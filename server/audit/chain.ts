// Issue 31: the tamper-evident audit trail. Every audit_log row is a link of its client's chain (rows of no client
// form one chain of their own): the database gives it its place (seq, from 1), the hash of the row before it
// (prev_hash) and the SHA-256 of its canonical content (hash) in a BEFORE INSERT trigger (migration 127), so every
// insert path is chained and two servers on one PostgreSQL take turns per client on a transaction advisory lock.
//
// Canonical content, version 1 (the text the hash is over, UTF-8): PostgreSQL's text of
//   jsonb_build_array('gatehouse-audit/1', id, client_id, seq, prev_hash, actor, action, entity, entity_id, before,
//                     after, at in UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ)
// (the SQL function audit_canonical). hash = lower-case hex SHA-256 of it; prev_hash is null for a chain's first row.
//
// The chains' heads are signed within seconds of a write (SIGN_EVERY_MS), at shutdown and before each export with the server's Ed25519 key, kept like the
// JWT secret: AUDIT_SIGNING_KEY (a PKCS#8 PEM) when given, else generated on first use and kept in the database.
// What is signed (UTF-8): HEAD_VERSION, the client id (or "none"), seq, hash and the signing time (ISO, UTC), one
// per line, as headMessage() writes them. The signed heads are kept in audit_heads, and written to a witness apart
// from the database when AUDIT_WITNESS_DIR is set (witness.ts; issue 45).
//
// The parts: heads.ts (the signing key and the signed heads), verify.ts (checking the chains in the database),
// export.ts (an auditor's export and its offline check); this file names what callers use.
export {
  CANONICAL_VERSION,
  EXPORT_FORMAT,
  HEAD_VERSION,
  SIGN_EVERY_MS,
  auditSigningKey,
  existingSigningKey,
  headMessage,
  headSignatureValid,
  latestHead,
  publicKeyPem,
  sha256Hex,
  signHeads,
  startHeadSigning,
  type HeadSigning,
  type SignedHead,
} from './heads';
export { directoryWitness, readWitness, verifyAgainstWitness, witnessDirProblem, type Witness, type WitnessReport } from './witness';
export { checkHead, checkLink, verifyChains, type ChainProblem, type ChainReport, type LinkRecord, type ProblemKind, type VerifiedUpTo } from './verify';
export { exportChain, verifyExport, type ExportHeader, type ExportRecord, type ExportReport } from './export';
