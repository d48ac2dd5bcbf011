// What a failed request answers (server/app.ts sets it at the root, so every route group's plugin has it): our own
// HttpError as it says; a full disk or a lost database 503 at once with retry-after; Fastify's own 4xx (body too
// large, wrong content type, a malformed URL, a refused schema) with a violation; anything else a logged 500.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_UNAVAILABLE, DATA_DIR_READ_ONLY, DISK_FULL, DiskFullError, isDatabaseUnavailable, isTransientConflict, type Db } from '../db/db';
import type { Sentence } from '../../contract';
import { HttpError, errorBody, fill, saidOf } from './kit';
import { API_PREFIXES } from '../auth/guard';

/** Fastify's refusals of a request's body, each a sentence with its key and fastify's English (issue 48). */
const FASTIFY_SAID: Record<string, Sentence> = {
  FST_ERR_CTP_BODY_TOO_LARGE: fill('request.bodyTooLarge', 'Request body is too large', {}),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: fill('request.unsupportedMediaType', 'Unsupported Media Type', {}),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: fill('request.lengthMismatch', 'Request body size did not match Content-Length', {}),
  FST_ERR_CTP_EMPTY_JSON_BODY: fill('request.emptyJsonBody', "Body cannot be empty when content-type is set to 'application/json'", {}),
  // @fastify/compress's refusals of a compressed body (server/http/static.ts)
  FST_CP_ERR_INVALID_CONTENT: fill('request.notDecompressed', 'Could not decompress the request payload using the provided encoding', {}),
};
/** A refusal of fastify's said with what the request sent (its words, as a value: bounded, never the whole header). */
function fastifySaid(code: string | undefined, req: FastifyRequest): Sentence | undefined {
  if (code === 'FST_CP_ERR_INVALID_CONTENT_ENCODING')
    return fill('request.unsupportedEncoding', 'Unsupported Content-Encoding: {encoding}', {
      encoding: String(req.headers['content-encoding'] ?? '').slice(0, 80),
    });
  return code ? FASTIFY_SAID[code] : undefined;
}

/**
 * What fastify answers itself, before any route or hook (its `frameworkErrors`): an address that does not decode
 * (`/doors/%zz`) or a path part longer than a route takes. Said as every other refusal (issue 48: its key, the address
 * a value), with a violation of the address, instead of fastify's own body without either.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const path = (req.raw.url ?? '').slice(0, 200);
  const [status, said] =
    err.code === 'FST_ERR_BAD_URL'
      ? [400, fill('request.badUrl', "'{path}' is not a valid url component", { path })]
      : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, fill('request.pathPartTooLong', "'{path}' is exceeding the max param length", { path })]
        : [500, fill('server.failed', 'Internal Server Error', {})];
  if (status === 500) req.log.error({ err, url: path }, 'request failed');
  return reply.code(status).send(errorBody(status, said, status === 500 ? undefined : [{ field: '(url)', ...said }]));
}

/** `decodeURIComponent` of a query part as a form encodes it (`+` a space), or null when it is not UTF-8 percent-encoding. */
function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * A query parameter that does not decode (`?q=%ED%A0%80`, a lone surrogate's bytes; `?q=%zz`): 400 with a violation of
 * that parameter. Fastify's parser keeps such a value as its raw text, so a search went on for "%ED%A0%80" as if asked;
 * an address's path that does not decode is fastify's own refusal (frameworkErrors). Only an API address's query holding
 * a `%` is read (the console's own pages open whatever a link appended to them).
 */
export function badQuery(req: FastifyRequest, reply: FastifyReply, done: () => void) {
  const url = req.raw.url ?? '';
  const at = url.indexOf('?');
  if (at < 0 || url.indexOf('%', at) < 0 || !API_PREFIXES.some((p) => url.startsWith(p))) return done();
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const [rawKey, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const key = decoded(rawKey);
    if (key !== null && decoded(rawValue) !== null) continue;
    const said = fill('request.badQuery', "'{value}' is not a valid url component", { value: (key === null ? rawKey : rawValue).slice(0, 200) });
    return void reply.code(400).send(errorBody(400, said, [{ field: key === null ? '(url)' : key.slice(0, 100), ...said }]));
  }
  done();
}

export function errorHandler(db: Db) {
  return (err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) {
      if (err.status >= 500) req.log.error({ err }, err.message);
      return reply.code(err.status).send(errorBody(err.status, saidOf(err), err.violations));
    }
    const e = err as { statusCode?: number; validation?: unknown; message: string; code?: string };
    if (err instanceof DiskFullError || e.code === 'ENOSPC' || e.code === 'EDQUOT') {
      // issue 27: the embedded database's full disk is logged once, when it fills (server/app.ts); a full disk elsewhere
      // (the backup directory) by the request that found it
      if (!db.storage?.state().full) req.log.error({ err, route: req.routeOptions.url, method: req.method }, 'a disk is full');
      return reply
        .code(503)
        .header('retry-after', '30')
        .send(errorBody(503, err instanceof DiskFullError && err.readOnly ? DATA_DIR_READ_ONLY : DISK_FULL));
    }
    if (isDatabaseUnavailable(err)) {
      // a full or read-only disk, a lost database: logged for the operator, said plainly to the caller
      req.log.error({ err, route: req.routeOptions.url, method: req.method }, 'database refused the request');
      return reply.code(503).header('retry-after', '30').send(errorBody(503, DATABASE_UNAVAILABLE));
    }
    if (isTransientConflict(err)) {
      // two requests changing the same rows at once, one refused by the database (a deadlock): said as busy, sent again
      req.log.warn({ err, route: req.routeOptions.url, method: req.method }, 'database conflict with another request: answered 503, send again');
      return reply
        .code(503)
        .header('retry-after', '1')
        .send(
          errorBody(
            503,
            fill('server.conflictSendAgain', 'Another change to the same records was being saved at that moment; nothing was saved: send it again', {}),
          ),
        );
    }
    // the rate limit (sign-in, reset, registration per address; its words at the plugin's registration in server/app.ts):
    // not a fault of the body, so no violation of it (the sign-in form said "(body): Rate limit exceeded, …")
    if (e.statusCode === 429) return reply.code(429).send(errorBody(429, (err as { said?: Sentence }).said ?? e.message));
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      // fastify's own: body too large, wrong content type, a malformed URL; the usual ones by their key (issue 48), any
      // other in fastify's words
      const said = fastifySaid(e.code, req) ?? e.message;
      return reply.code(e.statusCode).send(errorBody(e.statusCode, said, [{ field: '(body)', ...(typeof said === 'string' ? { message: said } : said) }]));
    }
    req.log.error({ err, route: req.routeOptions.url, method: req.method }, 'request failed');
    return reply.code(500).send(errorBody(500, fill('server.failed', 'Internal Server Error', {})));
  };
}
