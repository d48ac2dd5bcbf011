// The event journal as NDJSON (ARCHITECTURE.md, issue 4): one header line, then one line per event an actor of the
// system received, with the state it resulted in. The console writes it, `npm run replay` and the replay screen
// read it; both validate it with parseJournal() so a bad file is rejected the same way everywhere.
import { boolean, integer, literal, nullable, object, optional, string, type Infer } from './structs';
import { APP_VERSION, SESSION_REPLAY_RATE } from './constants';
import { Page, validate, type Violation } from './schemas';
import { fill, type Sentence } from './messages';
import { boundedJson, epochMs, int32, openObject, safeText } from './primitives';

export const JOURNAL_KIND = 'gatehouse-journal';
export const JOURNAL_VERSION = 1;
export const JOURNAL_CAPACITY = 5000;
/** The root actor of the system has no systemId; its lines use this label. */
export const ROOT_ACTOR = '#root';
export const REDACTED = '[redacted]';
/** Largest single line (one journal entry). */
export const JOURNAL_LINE_MAX_BYTES = 256 * 1024;

export const JournalHeader = object({
  kind: literal(JOURNAL_KIND),
  version: literal(JOURNAL_VERSION),
  app: safeText(100, { min: 1 }),
  /** Epoch ms of the journal's clock when recording started. */
  startedAt: epochMs(),
});
export type JournalHeader = Infer<typeof JournalHeader>;

/** What a journal line's free-form parts (an event's payload, a state) may hold: plain data, safe text, bounded numbers. */
const JournalData = boundedJson(JOURNAL_LINE_MAX_BYTES);
/** An actor's name (a systemId, ROOT_ACTOR or an actor id). */
const ActorName = safeText(200, { min: 1 });

/** Any event object: a `type` plus its (redacted, JSON) payload, every field of which is checked as JournalData. */
export const JournalEvent = openObject({ type: safeText(200, { min: 1 }) }, JournalData);

export const JournalEntry = object({
  /** Increasing per journal; an integer column on the server. */
  seq: int32(1),
  /** Epoch ms, from the journal's injected clock. */
  at: epochMs(),
  /** The receiving actor: its systemId, ROOT_ACTOR, or the actor id of an unnamed (invoked/spawned) actor. */
  actor: ActorName,
  event: JournalEvent,
  /** The state value after the event (a machine's `value`; the status of any other actor). */
  state: JournalData,
  /** Who sent it; absent when it came from outside the system (a view, a transport, the browser glue). */
  source: optional(object({ actor: ActorName, machine: boolean() })),
});
export type JournalEntry = Omit<Infer<typeof JournalEntry>, 'event'> & { event: { type: string; [k: string]: unknown } };

export function journalHeader(startedAt: number): JournalHeader {
  return { kind: JOURNAL_KIND, version: JOURNAL_VERSION, app: APP_VERSION, startedAt };
}

// ---------- redaction ----------

/** Field names whose values are secrets wherever they appear (token, accessToken, password, newPassword, …). */
const SECRET_FIELD = /(token|password|passwd|secret|authorization|jwt|apikey)$/i;
// a service account's API key anywhere in a text (contract/resources/serviceAccounts.ts API_KEY_PATTERN): its key id
// stays (it names the account), its secret goes
const API_KEY_IN_TEXT = /\bgh_([0-9a-f]{12})_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
// three base64url parts, the first a JSON object ('{"' encodes as eyJ): what every jwt looks like
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g;
const JWT_EXACT = /^eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}$/;
// made at its first use, not as the console's code is evaluated (issue 48: the page's first TextEncoder was 3.6 ms of
// that evaluation, the cold console's longest task)
let surrogateHeader: string | undefined;
const surrogate = () => (surrogateHeader ??= b64url(JSON.stringify({ alg: 'none', typ: REDACTED })));
const MAX_DEPTH = 12;

function b64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromB64url(part: string): string | null {
  try {
    const bin = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}
/** FNV-1a, 32 bit: equal tokens stay equal after redaction, and the fingerprint gives nothing back. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * A jwt becomes an unsigned, unusable surrogate that keeps only what the machines branch on: its `exp` claim
 * (session validity, §5) and whether two tokens are the same one. Replacing it with a bare '[redacted]' would make
 * every replay of a page reload diverge (the restored token would no longer decode as live).
 */
function redactJwt(token: string): string {
  const [header, payload] = token.split('.');
  if (header === surrogate()) return token;
  let exp: unknown;
  try {
    exp = (JSON.parse(fromB64url(payload) ?? 'null') as { exp?: unknown } | null)?.exp;
  } catch {
    exp = undefined;
  }
  const claims = typeof exp === 'number' && Number.isFinite(exp) ? { exp, ref: fingerprint(token) } : { ref: fingerprint(token) };
  return `${surrogate()}.${b64url(JSON.stringify(claims))}.redacted`;
}

function redactSecretField(value: unknown): unknown {
  // absence and blankness are facts the machines branch on (no stored jwt, an empty password), not secrets
  if (value === null || value === undefined) return value;
  if (typeof value === 'string') {
    if (value.trim() === '') return value;
    if (JWT_EXACT.test(value)) return redactJwt(value);
    return REDACTED;
  }
  return REDACTED;
}

// control characters other than \t \n \r, and surrogates that are not part of a pair (contract/primitives.ts textProblem)
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text with each unsafe character replaced by U+FFFD (the replacement character). */
const cleanText = (s: string) => s.replace(UNSAFE_CHARS, '\uFFFD');

function isActorRef(v: object): v is { id: string; sessionId: string } {
  return 'sessionId' in v && 'send' in v && typeof (v as { send: unknown }).send === 'function';
}

/**
 * A JSON-safe copy of `value` without secrets: jwt-looking strings anywhere, and the values of token, password,
 * oldPassword, newPassword, authorization (…) fields. Errors keep their name and message; actor references become
 * `{ actor: id }`; functions, cycles and very deep nesting are replaced by markers. Idempotent.
 */
export function redact(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v === 'boolean') return v;
    // what a journal line may hold (JournalData): numbers JavaScript reads back exactly, text without control
    // characters or broken surrogates (an operator may paste anything; the line must still be accepted)
    if (typeof v === 'number') return Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? v : String(v);
    if (typeof v === 'string')
      return cleanText(v)
        .replace(JWT, (m) => redactJwt(m))
        .replace(API_KEY_IN_TEXT, (_m, id: string) => `gh_${id}_${REDACTED}`);
    if (typeof v === 'bigint') return v.toString();
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
    if (typeof v !== 'object') return undefined;
    if (seen.has(v)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[too deep]';
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    if (v instanceof Error) return { name: v.name, message: walk(v.message, depth + 1) };
    if (isActorRef(v)) return { actor: v.id };
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1) ?? null);
      if (v instanceof Map) return walk(Object.fromEntries(v), depth);
      if (v instanceof Set) return walk([...v], depth);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const r = SECRET_FIELD.test(k) ? redactSecretField(typeof x === 'string' ? cleanText(x) : walk(x, depth + 1)) : walk(x, depth + 1);
        if (r !== undefined) out[cleanText(k)] = r;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0);
}

// ---------- parsing ----------

export interface ParsedJournal {
  header: JournalHeader;
  /** Entries with their 1-based line number in the file (the header is line 1). */
  lines: Array<{ line: number; entry: JournalEntry }>;
}
/** A failure names its line, and the fields of that line that are wrong (`line 4.seq`, `line 1.startedAt`) when it is a field's fault.
 *  `said` is the failure as a sentence with its key (issue 48: the replay screen and the upload's refusal say it by it). */
export type JournalParseResult = { ok: true; journal: ParsedJournal } | { ok: false; line: number; message: string; said: Sentence; violations?: Violation[] };

// A journal's problems, each a sentence with its key (issue 48); a line's fields' violations keep their own keys
const PARSE_SAID = {
  fileEmpty: () => fill('journal.fileEmpty', 'the file is empty: expected a gatehouse-journal header', {}),
  lineEmpty: (line: number) => fill('journal.lineEmpty', 'line {line} is empty', { line }),
  lineNotJson: (line: number) => fill('journal.lineNotJson', 'line {line} is not valid JSON', { line }),
  lineTruncated: (line: number) => fill('journal.lineTruncated', 'line {line} is not valid JSON (the file looks truncated)', { line }),
  // `{problems}`: the first violations in English (each also in `violations`, with its key)
  notHeader: (problems: string) =>
    fill('journal.notHeader', 'line 1 is not a gatehouse-journal header (version {version}): {problems}', { version: JOURNAL_VERSION, problems }),
  notEntry: (line: number, problems: string) => fill('journal.notEntry', 'line {line} is not a journal entry: {problems}', { line, problems }),
  seqNotAfter: (line: number, seq: number, previous: number) =>
    fill('journal.seqNotAfter', "line {line} has seq {seq}, not after the previous line's {previous}", { line, seq, previous }),
  seqMustFollow: (previous: number) => fill('journal.seqMustFollow', "must be after the previous line's {previous}", { previous }),
};

/**
 * Validates a whole NDJSON journal: a header line, then entries with increasing seq. The first problem is
 * reported with its line number; nothing is returned for a file that is not entirely valid.
 */
export function parseJournal(text: string): JournalParseResult {
  const raw = text.split('\n');
  // a final newline is normal; anything after it is a (possibly truncated) line
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  const last = raw.length;
  const fail = (line: number, said: Sentence, violations?: Violation[]): JournalParseResult => ({
    ok: false,
    line,
    message: said.message,
    said,
    ...(violations ? { violations: violations.map((v) => ({ ...v, field: `line ${line}${v.field === '(body)' ? '' : `.${v.field}`}` })) } : {}),
  });
  const parse = (i: number): { ok: true; value: unknown } | { ok: false; said: Sentence } => {
    const src = raw[i].replace(/\r$/, '');
    if (src.trim() === '') return { ok: false, said: PARSE_SAID.lineEmpty(i + 1) };
    try {
      return { ok: true, value: JSON.parse(src) };
    } catch {
      return { ok: false, said: i + 1 === last ? PARSE_SAID.lineTruncated(i + 1) : PARSE_SAID.lineNotJson(i + 1) };
    }
  };
  if (text.trim() === '') return fail(1, PARSE_SAID.fileEmpty());
  const h = parse(0);
  if (!h.ok) return fail(1, h.said);
  const header = validate(h.value, JournalHeader);
  if (!header.ok) return fail(1, PARSE_SAID.notHeader(describe(header.violations)), header.violations);
  const lines: ParsedJournal['lines'] = [];
  let previous = 0;
  for (let i = 1; i < raw.length; i++) {
    const n = i + 1;
    const p = parse(i);
    if (!p.ok) return fail(n, p.said);
    const r = validate(p.value, JournalEntry);
    if (!r.ok) return fail(n, PARSE_SAID.notEntry(n, describe(r.violations)), r.violations);
    const entry = r.value as JournalEntry;
    if (entry.seq <= previous) return fail(n, PARSE_SAID.seqNotAfter(n, entry.seq, previous), [{ field: 'seq', ...PARSE_SAID.seqMustFollow(previous) }]);
    previous = entry.seq;
    lines.push({ line: n, entry });
  }
  return { ok: true, journal: { header: header.value, lines } };
}

function describe(violations: Array<{ field: string; message: string }>): string {
  return violations
    .slice(0, 3)
    .map((v) => `${v.field} ${v.message}`)
    .join('; ');
}

// ---------- session replay upload (§9 "session replay rate 0.1") ----------
// One session in ten, drawn at sign-in, uploads its redacted journal in the background; auditors holding
// 0.8.2.0 (View session replays) list and open the recordings in the replay screen.

/** How often a sampled console sends the entries recorded since its last successful upload. */
export const JOURNAL_UPLOAD_INTERVAL_MS = 10_000;
/** Failed uploads retry later, doubling from the interval up to this. */
export const JOURNAL_UPLOAD_MAX_BACKOFF_MS = 5 * 60_000;
/** Largest chunk (one POST, header line included) the server accepts. */
export const JOURNAL_CHUNK_MAX_BYTES = 1024 * 1024;
/** Chunks up to this size go with `fetch(…, { keepalive: true })`, so a flush survives the page closing. */
export const JOURNAL_KEEPALIVE_BYTES = 60 * 1024;
/** Largest stored journal of one recording; a chunk that would pass it is refused whole (413). */
export const JOURNAL_MAX_BYTES = 16 * 1024 * 1024;
/** A recording id: chosen by the console (a UUID), one per page and session. */
export const RECORDING_ID = /^[A-Za-z0-9-]{8,64}$/;
/**
 * Dev/test override of the draw, in localStorage: 'always' records every session of this browser, 'never' none.
 * `?replay=1` / `?replay=0` on any console URL sets it (`?replay=` removes it).
 */
export const REPLAY_OVERRIDE_KEY = 'gatehouse.replay';
/** Where the draw of the current session is kept, so a reload of the same session does not draw again. */
export const REPLAY_DECISION_KEY = 'gatehouse.replay.session';
export type ReplayOverride = 'always' | 'never' | null;

/** §9: a session is recorded when the draw (uniform in [0, 1)) falls below the rate, unless overridden. */
export function isSampled(draw: number, override: ReplayOverride = null, rate: number = SESSION_REPLAY_RATE): boolean {
  if (override === 'always') return true;
  if (override === 'never') return false;
  return Number.isFinite(draw) && draw >= 0 && draw < rate;
}

/** Delay before the next upload: the interval, doubled per consecutive failure, capped. */
export function uploadDelayMs(failures: number): number {
  const n = Math.max(0, Math.min(30, Math.floor(failures)));
  return Math.min(JOURNAL_UPLOAD_MAX_BACKOFF_MS, JOURNAL_UPLOAD_INTERVAL_MS * 2 ** n);
}

/** One recorded session as the auditors' list shows it. */
export const RecordingSummary = object({
  id: integer(),
  userId: integer(),
  username: string(),
  name: string(),
  /** ISO time the recording's journal started (its header). */
  startedAt: string(),
  /** ISO time of the last accepted upload. */
  updatedAt: string(),
  entries: integer(),
  bytes: integer(),
  app: string(),
  /** The session has signed out (or was replaced): nothing more will arrive. */
  ended: boolean(),
  firstSeq: nullable(integer()),
  lastSeq: nullable(integer()),
});
export type RecordingSummary = Infer<typeof RecordingSummary>;
export const RecordingPage = Page(RecordingSummary);

/** The server's answer to an uploaded chunk. */
export const UploadReceipt = object({
  id: integer(),
  entries: integer(),
  bytes: integer(),
  /** Entries of this chunk that were new (a retried chunk adds none). */
  accepted: integer(),
  /** The highest seq the server now holds for the recording. */
  through: integer(),
});
export type UploadReceipt = Infer<typeof UploadReceipt>;
