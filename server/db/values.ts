// How a row's values read out of either engine: PGlite and node-postgres answer a timestamp as a Date, a text column as
// a string. The database's own formatting, used by the routes (server/http/kit.ts re-exports it for them) and by the
// ingest pipeline, the alarms and the report jobs below them, which must not import the HTTP layer for it.

/** A timestamp as ISO 8601 (UTC), null kept null. */
export const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d === null || d === undefined ? null : String(d));
/** A date column as YYYY-MM-DD, null kept null. */
export const dateOnly = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : d === null || d === undefined ? null : String(d).slice(0, 10));
