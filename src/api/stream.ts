// §7 the streaming GET helper: a GET with the same headers as every other call (bearer token, x-tenant-id in IAM
// mode, src/api/client.ts) whose body is `event:`/`data:` lines. Each event goes to a callback as it arrives;
// the stream is finished by an `end` event. A lost connection, a stream cut before its end or a 5xx is retried
// (§9: 1000 ms apart, 5 retries after the first try); when the retries run out, or the server refuses (4xx),
// one `error` event is dispatched (§8) and the failure goes through the same error chain as axios calls.
// Also here: the event-history export over that helper, which resumes after a retry where it stopped.
import { API, STREAM_RETRIES, STREAM_RETRY_MS } from '../../contract';
import { apiDeps, readMayLeave, refusedToken, requestHeaders, withSessionReads, type ApiDeps } from './client';
import { ApiError, DEFAULT_STATUS, errorMessage, violationsIn } from './errors';

export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental parser of event-stream text: feed it chunks cut anywhere (inside a line, between `\r` and `\n`),
 * it calls `emit` once per complete event (a blank line ends one). Several `data:` lines join with `\n`; lines
 * starting with `:` are comments; an event without `event:` is a `message`. Lines end with LF or CR LF.
 */
export class EventStreamParser {
  private buf = '';
  private scanned = 0;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  constructor(private readonly emit: (e: StreamEvent) => void) {}

  push(text: string): void {
    this.buf += text;
    let start = 0;
    let nl = this.buf.indexOf('\n', this.scanned);
    while (nl >= 0) {
      const end = nl > start && this.buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.line(this.buf.slice(start, end));
      start = nl + 1;
      nl = this.buf.indexOf('\n', start);
    }
    this.buf = this.buf.slice(start);
    this.scanned = this.buf.length; // a long data line split over many chunks is scanned once
  }

  private line(line: string): void {
    if (line === '') {
      if (this.event || this.data.length)
        this.emit({ event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) });
      this.event = '';
      this.data = [];
      this.id = undefined;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    // `retry:` and unknown fields are ignored: the retry policy is the caller's
  }
}

export interface StreamOptions {
  onEvent: (e: StreamEvent) => void;
  /** Retries after the first try (default STREAM_RETRIES, 5). */
  retries?: number;
  /** Wait before each retry (default STREAM_RETRY_MS, 1000 ms). */
  retryDelayMs?: number;
  /** The event that finishes the stream (default `end`). */
  endEvent?: string;
  signal?: AbortSignal;
  /** Origin to prefix the path with (the console is same-origin: empty). */
  baseUrl?: string;
  /** Token, tenant and error reporting; by default the ones configured for the axios client. */
  deps?: Pick<ApiDeps, 'getToken' | 'getClientId' | 'loginMode'> & Partial<Pick<ApiDeps, 'report' | 'settled'>>;
}

export interface StreamOutcome {
  status: 'ended' | 'failed' | 'aborted';
  /** Requests made, the first included. */
  attempts: number;
  error?: ApiError;
}

/** The body of the single `error` event (JSON in its data). */
export interface StreamErrorData {
  status: number;
  message: string;
  attempts: number;
  violations: { field: string; message: string }[];
}

class CallbackError extends Error {
  constructor(readonly cause: unknown) {
    super('stream callback failed');
  }
}

const waitFor = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * GET `path` (or the path a function gives for each try, so a retry can resume) and dispatch its events.
 * Resolves when the end event arrived, the retries ran out, the server refused, or `signal` aborted it;
 * rejects only when `onEvent` throws.
 */
export async function streamGet(path: string | (() => string), options: StreamOptions): Promise<StreamOutcome> {
  const { onEvent } = options;
  // a stream is a read: it ends with the session it started in (endSessionReads), as well as by its own signal
  const signal = withSessionReads(options.signal);
  const retries = options.retries ?? STREAM_RETRIES;
  const delay = options.retryDelayMs ?? STREAM_RETRY_MS;
  const endEvent = options.endEvent ?? 'end';
  const deps = options.deps ?? apiDeps();
  let attempts = 0;
  let swapped = false;
  /** the client selected when it started: a refusal after a switch to another client is not asked again under it */
  const client = deps.getClientId();
  const fail = (error: ApiError): StreamOutcome => {
    const data: StreamErrorData = { status: error.status, message: error.message, attempts, violations: error.violations };
    onEvent({ event: 'error', data: JSON.stringify(data) });
    deps.report?.(error);
    return { status: 'failed', attempts, error };
  };
  for (;;) {
    attempts++;
    const url = typeof path === 'function' ? path() : path;
    // started under one client, a stream is never read under another (a switch since, or under way)
    if (!(await readMayLeave(deps, url)) || deps.getClientId() !== client) return { status: 'aborted', attempts };
    let error: ApiError;
    // the request's own signal follows the caller's only while this try is under way: once the end event is read the
    // caller has its answer and may stop (an actor's signal aborts when it stops), while the rest of the body is read
    // to the close in the background (read below); aborting it then was the browser's ERR_ABORTED of issue 50
    const request = new AbortController();
    const relay = () => request.abort();
    if (signal?.aborted) request.abort();
    else signal?.addEventListener('abort', relay, { once: true });
    try {
      const headers = requestHeaders(url, deps);
      const res = await fetch((options.baseUrl ?? '') + url, { headers, signal: request.signal, cache: 'no-store' });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        error = new ApiError({ status: res.status, message: errorMessage(body, res.statusText), violations: violationsIn(body), path: url, body });
        // refused for a token the console has since replaced: the rule of the axios client (refusedToken): asked again
        // at once with the current token under the same client; after a switch to another client the old client's
        // stream is not read from the new one
        const verdict = await refusedToken(deps, { authorization: headers.Authorization, client, retried: swapped }, error);
        if (verdict === 'cancel') return { status: 'aborted', attempts };
        if (verdict === 'again') {
          swapped = true;
          attempts--;
          continue;
        }
        // the server said no (bad filter, no privilege, expired session): asking again changes nothing
        if (res.status < 500 && res.status !== 408 && res.status !== 429) return fail(error);
      } else if (await read(res, onEvent, endEvent)) {
        return { status: 'ended', attempts };
      } else {
        error = new ApiError({ status: DEFAULT_STATUS, message: 'The stream closed before its end', path: url });
      }
    } catch (e) {
      if (e instanceof CallbackError) throw e.cause;
      if (signal?.aborted) return { status: 'aborted', attempts };
      error = new ApiError({ status: DEFAULT_STATUS, message: (e as Error)?.message || 'Network error', path: url });
    } finally {
      signal?.removeEventListener('abort', relay);
    }
    if (attempts > retries) return fail(error);
    await waitFor(delay, signal);
    if (signal?.aborted) return { status: 'aborted', attempts };
  }
}

/** Reads the body to its end event (true) or to a close without one (false). */
async function read(res: Response, onEvent: (e: StreamEvent) => void, endEvent: string): Promise<boolean> {
  if (!res.body) return false;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  const parser = new EventStreamParser((e) => {
    if (ended) return;
    if (e.event === endEvent) ended = true;
    try {
      onEvent(e);
    } catch (cause) {
      throw new CallbackError(cause);
    }
  });
  let closed = false;
  try {
    while (!ended) {
      const { done, value } = await reader.read();
      if (done) {
        closed = true;
        parser.push(decoder.decode());
        break;
      }
      parser.push(decoder.decode(value, { stream: true }));
    }
    // issue 50: the end event is read; the server closes the response right after it. Cancelling it first aborted the
    // request under the browser's eyes (each live-events export logged ERR_ABORTED …/export/progress): what is left is
    // read to the close before the caller gets its answer (and saves its file, or stops its actor), for at most
    // STREAM_DRAIN_MS, and only then cancelled. The limit was 2 s: on a loaded machine the close came later and the
    // e2e export test saw ERR_ABORTED; reading on in the background instead let the browser cut the request while
    // the file was saved.
    if (ended && !closed) closed = await drained(reader);
  } finally {
    if (ended && !closed) reader.cancel().catch(() => {});
    else if (!ended) reader.releaseLock();
  }
  return ended;
}

/** How long a stream whose end event was read may take to close before it is cancelled. */
const STREAM_DRAIN_MS = 30_000;
/** Reads a stream to its close (true), or gives up after STREAM_DRAIN_MS (false). */
async function drained(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => {
    timer = setTimeout(() => r(false), STREAM_DRAIN_MS);
  });
  const toClose = (async () => {
    for (;;) if ((await reader.read()).done) return true;
  })();
  try {
    return await Promise.race([toClose, late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

// ---------- the event-history export ----------

export type ExportFormat = 'csv' | 'ndjson';
export interface ExportProgress {
  done: number;
  total: number;
}
export type ExportOutcome =
  | { status: 'ended'; blob: Blob; filename: string; done: number; total: number; attempts: number }
  | { status: 'failed'; error: ApiError; attempts: number }
  | { status: 'aborted'; attempts: number };

/**
 * The stored history with the history list's filters (eventCode, alert, q, from, to, …) as a CSV or NDJSON file,
 * read through the export's event stream. A page counts once its `progress` arrived; after a lost connection
 * the next try asks for the rows before the last counted one (beforeId), so nothing is doubled or missed.
 */
export async function exportEventHistory(
  filters: Record<string, string>,
  format: ExportFormat,
  options: Omit<StreamOptions, 'onEvent' | 'endEvent'> & { onProgress?: (p: ExportProgress) => void } = {},
): Promise<ExportOutcome> {
  const parts: string[] = [];
  let header: string | null = null;
  let filename = `events.${format}`;
  let cursor: string | null = null;
  let base = 0; // rows counted by earlier tries
  let done = 0;
  let total = 0;
  let pending: string | null = null;
  const url = () => {
    base = done;
    pending = null;
    const q = new URLSearchParams({ ...filters, format });
    if (cursor !== null) q.set('beforeId', cursor);
    return `${API.eventsExportProgress}?${q}`;
  };
  const outcome = await streamGet(url, {
    ...options,
    onEvent: (e) => {
      if (e.event === 'start') {
        const s = JSON.parse(e.data) as { total: number; filename: string; header: string };
        if (header === null) {
          header = s.header;
          filename = s.filename;
          if (header) parts.push(header);
        }
        total = base + s.total;
        options.onProgress?.({ done, total });
      } else if (e.event === 'rows') {
        pending = JSON.parse(e.data) as string;
      } else if (e.event === 'progress') {
        const p = JSON.parse(e.data) as { done: number; total: number; cursor: string };
        if (pending !== null) parts.push(pending);
        pending = null;
        cursor = p.cursor;
        done = base + p.done;
        options.onProgress?.({ done, total });
      }
    },
  });
  if (outcome.status === 'ended') {
    const type = format === 'csv' ? 'text/csv;charset=utf-8' : 'application/x-ndjson;charset=utf-8';
    return { status: 'ended', blob: new Blob(parts, { type }), filename, done, total: Math.max(total, done), attempts: outcome.attempts };
  }
  if (outcome.status === 'failed') return { status: 'failed', error: outcome.error!, attempts: outcome.attempts };
  return { status: 'aborted', attempts: outcome.attempts };
}
