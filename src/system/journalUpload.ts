// The browser side of session replay (§9 "session replay rate 0.1", issue 4): the draw at sign-in, the dev/test
// override, the uploads (NDJSON chunks of the redacted journal, fetch keepalive so a flush survives the page
// going away) and the glue that tells the uploader when a session starts and ends. The machine is
// machines/journalUpload.ts; everything here is injected so tests run it against a real server.
import { jwtDecode } from 'jwt-decode';
import { createActor, fromPromise, waitFor, type ActorRefFrom } from 'xstate';
import {
  API,
  JOURNAL_CHUNK_MAX_BYTES,
  JOURNAL_KEEPALIVE_BYTES,
  JOURNAL_LINE_MAX_BYTES,
  REPLAY_DECISION_KEY,
  REPLAY_OVERRIDE_KEY,
  UploadReceipt,
  isSampled,
  redact,
  validate,
  type JournalEntry,
  type JournalHeader,
  type ReplayOverride,
} from '../../contract';
import {
  journalUploadMachine,
  type Decision,
  type DecideInput,
  type JournalUploadActor,
  type UploadFailure,
  type UploadInput,
  type UploadOutput,
} from '../../machines/journalUpload';
import type { sessionMachine } from '../../machines/session';

type KeyValue = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The override of the draw: 'always' / 'never' in localStorage, anything else is none. */
export function readReplayOverride(storage: Pick<Storage, 'getItem'>): ReplayOverride {
  try {
    const v = storage.getItem(REPLAY_OVERRIDE_KEY);
    return v === 'always' || v === 'never' ? v : null;
  } catch {
    return null;
  }
}

/** `?replay=1` forces recording in this browser, `?replay=0` forbids it, `?replay=` removes the override. */
export function applyReplayQuery(search: string, storage: KeyValue): void {
  const params = new URLSearchParams(search);
  if (!params.has('replay')) return;
  const v = params.get('replay');
  if (v === '1' || v === 'always') storage.setItem(REPLAY_OVERRIDE_KEY, 'always');
  else if (v === '0' || v === 'never') storage.setItem(REPLAY_OVERRIDE_KEY, 'never');
  else storage.removeItem(REPLAY_OVERRIDE_KEY);
}

/** The session id (jti) of a token, or the token itself when it has none. */
export function sessionKeyOf(token: string): string {
  try {
    const { jti } = jwtDecode<{ jti?: unknown }>(token);
    if (typeof jti === 'string' && jti) return jti;
  } catch {
    /* not a jwt: the token is its own key */
  }
  return token;
}

export interface DecideDeps {
  storage: KeyValue;
  /** Uniform in [0, 1); Math.random in the browser, a fixed value in tests. */
  random: () => number;
  /** A fresh recording id (crypto.randomUUID in the browser). */
  newId: () => string;
}

/**
 * §9: the session is drawn once, at sign-in; the draw is kept (per session id) so a reload of the same session
 * keeps it, and a client switch carries it. The override wins over both.
 */
export function decideSession({ storage, random, newId }: DecideDeps, input: DecideInput): Decision {
  const override = readReplayOverride(storage);
  const key = sessionKeyOf(input.token);
  let sampled: boolean;
  if (override) sampled = isSampled(0, override);
  else if (input.carried !== null) sampled = input.carried;
  else {
    let kept: { key?: unknown; sampled?: unknown } | null;
    try {
      kept = JSON.parse(storage.getItem(REPLAY_DECISION_KEY) ?? 'null');
    } catch {
      kept = null;
    }
    sampled = kept && kept.key === key && typeof kept.sampled === 'boolean' ? kept.sampled : isSampled(random());
  }
  try {
    storage.setItem(REPLAY_DECISION_KEY, JSON.stringify({ key, sampled }));
  } catch {
    /* storage full: the draw still holds for this page */
  }
  return { sampled, recording: newId() };
}

/** A recording id: a UUID where the page is a secure context, 128 random bits in hex elsewhere (plain-http LAN installs). */
export function randomRecordingId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface Chunk {
  text: string;
  bytes: number;
  last: number;
}

const encoder = new TextEncoder();
const sizeOf = (s: string) => encoder.encode(s).length;

/** One line per entry; an entry over the line limit keeps its place and type, without its payload. */
function lineOf(entry: JournalEntry): string {
  const line = JSON.stringify(redact(entry));
  if (sizeOf(line) <= JOURNAL_LINE_MAX_BYTES) return line;
  return JSON.stringify({
    ...entry,
    event: { type: entry.event.type, omitted: `${sizeOf(line)} bytes, over the ${JOURNAL_LINE_MAX_BYTES} byte line limit` },
    state: redact(entry.state) ?? null,
  });
}

/**
 * NDJSON chunks (each starting with the header line) of at most `budget` bytes, one oversized entry alone, each made
 * only when it is asked for: an upload sends one before it reads the entries of the
 * next, so thousands of entries (ten seconds of a live events screen) never become one long task of the page.
 * Each line's size is counted once (the text so far is never measured again: that was quadratic, 600 ms).
 */
export function* chunkStream(header: JournalHeader, entries: Iterable<JournalEntry>, budget = JOURNAL_KEEPALIVE_BYTES): Generator<Chunk> {
  const head = JSON.stringify(header) + '\n';
  const headBytes = sizeOf(head);
  let text = head;
  let bytes = headBytes;
  let last = 0;
  for (const e of entries) {
    const line = lineOf(e) + '\n';
    const lineBytes = sizeOf(line);
    if (text !== head && bytes + lineBytes > budget) {
      yield { text, bytes, last };
      text = head;
      bytes = headBytes;
    }
    text += line;
    bytes += lineBytes;
    last = e.seq;
  }
  if (text !== head) yield { text, bytes, last };
}

const failure = (message: string, permanent: boolean, status?: number): UploadFailure => ({ message, permanent, status });

export interface UploadDeps {
  journal: { entriesAfter(after: number, upTo?: number | null): Iterable<JournalEntry>; lastSeq(): number; header(): JournalHeader };
  /** Origin of the server; '' in the browser (same origin). */
  base?: string;
  fetch?: typeof fetch;
}

/** Sends the entries in (after, upTo] chunk by chunk; the server keeps each seq once, so a retry is harmless. */
/**
 * Sends the journal's entries after `input.after` (up to `upTo`) in chunks. `signal` is the machine's: an upload the
 * machine left (the sign-out's flush starting while a periodic upload is on its way) sends no further chunk and its
 * request in flight is dropped; the flush sends the same entries again, and the server keeps each seq once.
 */
export async function uploadEntries(
  { journal, base = '', fetch: doFetch = fetch }: UploadDeps,
  input: UploadInput,
  signal?: AbortSignal,
): Promise<UploadOutput> {
  // let the system finish the step being recorded (its resulting state completes the entry)
  await new Promise((r) => setTimeout(r, 0));
  let through = input.after;
  for (const chunk of chunkStream(journal.header(), journal.entriesAfter(input.after, input.upTo))) {
    if (signal?.aborted) throw failure('the upload was left for a newer one', false);
    if (chunk.bytes > JOURNAL_CHUNK_MAX_BYTES) throw failure(`a chunk of ${chunk.bytes} bytes is over the limit`, true);
    let res: Response;
    try {
      res = await doFetch(`${base}${API.sessionJournals}/${encodeURIComponent(input.recording)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${input.token}` },
        body: chunk.text,
        keepalive: chunk.bytes <= JOURNAL_KEEPALIVE_BYTES,
        signal,
      });
    } catch (e) {
      throw failure(e instanceof Error ? e.message : 'network error', false);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (!res.ok) {
      const message = (body as { message?: unknown } | null)?.message;
      // 408, 429 and 5xx are worth another try; any other refusal is about the chunk or the session itself
      const retry = res.status === 408 || res.status === 429 || res.status >= 500;
      throw failure(`${res.status} ${typeof message === 'string' ? message : res.statusText}`, !retry, res.status);
    }
    const receipt = validate(body, UploadReceipt);
    if (!receipt.ok) throw failure('the server answered an upload with an unexpected body', false, res.status);
    through = Math.max(through, chunk.last);
  }
  return { through };
}

export type JournalUploadDeps = DecideDeps & UploadDeps;

/** The machine with these implementations (what the browser runs, and what the tests run against a server). */
export function journalUploadLogic(deps: JournalUploadDeps) {
  return journalUploadMachine.provide({
    actors: {
      decide: fromPromise<Decision, DecideInput>(async ({ input }) => decideSession(deps, input)),
      upload: fromPromise<UploadOutput, UploadInput>(({ input, signal }) => uploadEntries(deps, input, signal)),
    },
  });
}

export interface JournalUploader {
  actor: JournalUploadActor;
  /**
   * Resolves once nothing is being recorded or flushed any more (at most `timeoutMs`): the server's logout call waits
   * for it (the console itself is on the sign-in page at once). 15 s: on a busy server the last chunks took over 5 s,
   * the token died first and they were refused (401), losing the session's end.
   */
  settled(timeoutMs?: number): Promise<void>;
  stop(): void;
}

type SessionRef = Pick<ActorRefFrom<typeof sessionMachine>, 'subscribe' | 'getSnapshot'>;

/**
 * Starts the uploader beside the system and follows the session: a new token while signed in is a session start
 * (a switch when one was running), signing out is its end. The journal's last seq marks where each begins and ends.
 */
export function startJournalUploader(session: SessionRef, deps: JournalUploadDeps): JournalUploader {
  const actor = createActor(journalUploadLogic(deps));
  actor.start();
  const lastSeq = () => deps.journal.lastSeq();
  let current: string | null = null;
  const follow = (s: ReturnType<SessionRef['getSnapshot']>) => {
    const token = s.hasTag('signedIn') ? s.context.token : null;
    if (token === current) return;
    const was = current;
    current = token;
    // observers hear a snapshot before the journal completes the entry that made it: read the seq just after
    queueMicrotask(() => {
      if (token === null) actor.send({ type: 'session.ended', atSeq: lastSeq() });
      else actor.send({ type: 'session.started', token, atSeq: lastSeq(), switched: was !== null });
    });
  };
  const sub = session.subscribe(follow);
  follow(session.getSnapshot());
  return {
    actor,
    async settled(timeoutMs = 15_000) {
      await waitFor(actor, (s) => !s.hasTag('recording') && !s.hasTag('flushing'), { timeout: timeoutMs }).catch(() => {});
    },
    stop() {
      sub.unsubscribe();
      actor.stop();
    },
  };
}
