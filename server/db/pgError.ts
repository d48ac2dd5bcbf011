// What a statement refused by the database says, and the SQLSTATE codes our code answers by name (PostgreSQL's
// "Appendix A. PostgreSQL Error Codes"; PGlite is PostgreSQL's own code and reports the same).

/** The SQLSTATE codes a caller decides on. */
export const SQLSTATE = {
  /** a row's foreign key names no row (or a row named by one is deleted) */
  foreignKeyViolation: '23503',
  /** a unique constraint already holds the value */
  uniqueViolation: '23505',
  /** a serializable transaction lost to one that ran at the same moment */
  serializationFailure: '40001',
  /** two transactions waited for each other; one was refused */
  deadlockDetected: '40P01',
} as const;

export interface PgError {
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
}

/** The error's fields as PostgreSQL (and PGlite) report them; none of them for anything else thrown. */
export const pgError = (e: unknown): PgError => (e && typeof e === 'object' ? (e as PgError) : {});
