// How the console reaches the browser (issue 10): compressed, cached by content and behind security headers.
//   - the build writes brotli and gzip copies of every text asset (vite.config.ts); they are sent as they are
//     (`preCompressed`), so a first load costs no compression time. Other responses of the server (the REST API,
//     the export files) are compressed on the fly when they are over 1 KiB; a text/event-stream never is, since
//     zlib would hold its events back until a block fills. An answer up to COMPRESS_SYNC_MAX_BYTES is compressed in
//     one call rather than through a zlib stream: the plugin's default on 2 cores (8 KiB) streamed a 20-row identity
//     page (10–20 KB), and the stream's set-up cost a tenth of the page's time (issue 13, `rest` bench).
//   - /assets/* are named by their content hash: cached for a year, immutable. index.html (and every history-mode
//     route, which is index.html) is `no-cache`, so a new build is seen on the next load. A missing /assets/ file is
//     a 404, not index.html: a tab left open across a deploy gets a clear failed import, not HTML parsed as script.
//   - security headers on every response (helmet): a CSP that allows exactly what the console talks to (itself,
//     SockJS on the same origin, the desktop companion and the card connector on loopback ports from contract/,
//     data: photos, the Stately inspector only when the page is opened with ?inspect=1), no framing, nosniff, no
//     referrer. That policy governs documents only; every other answer (scripts, styles, fonts, JSON) carries
//     SUBRESOURCE_CSP instead, which forbids everything should it ever be opened as a page. The document policy is
//     1.5 KB (it lists the loopback device ports): on each of the ~18 scripts of the sign-in page it cost 27 KB of
//     the first load's bytes, and a browser ignores it there.
import type { IncomingMessage } from 'node:http';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { mime } from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import { COMPANION_PORTS, CONNECTOR_PORTS } from '../../contract';
import { errorBody, fill } from './kit';

/** A path no route answers (issue 48: keyed like every refusal). */
const NO_ROUTE = fill('route.notFound', 'Not Found', {});

export const ASSETS_PREFIX = '/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** The largest answer compressed in one call (brotli at quality 4: a fraction of a millisecond); larger ones stream. */
export const COMPRESS_SYNC_MAX_BYTES = 64 * 1024;
/** Compressed on the fly: text, JSON (NDJSON too), XML, JavaScript; never an event stream (see above). */
export const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)(?:x-nd)?json(?:;|$)|(?:\+|\/)(?:xml|javascript)(?:;|$)/u;
const INSPECTOR = 'https://stately.ai';

const LOOPBACK = ['127.0.0.1', 'localhost'];
/** Where the console's local devices listen (§7): the card connector (WebSocket) and the companion (HTTP + WebSocket). */
export const LOCAL_DEVICE_SOURCES = [
  ...LOOPBACK.flatMap((h) => CONNECTOR_PORTS.map((p) => `ws://${h}:${p}`)),
  ...LOOPBACK.flatMap((h) => COMPANION_PORTS.flatMap((p) => [`http://${h}:${p}`, `ws://${h}:${p}`])),
];

const inspecting = (req: IncomingMessage) => /[?&]inspect=1(?:&|$)/.test(req.url ?? '');
/** The Stately inspector (a window it opens and talks to) only for a page asked for with ?inspect=1. */
const inspectorSource = (req: IncomingMessage) => (inspecting(req) ? INSPECTOR : "'self'");

export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // stylesheets and <style> elements only from the console itself; React and Blueprint mostly set styles through
  // the CSSOM (element.style), which CSP does not govern, but Blueprint's table also writes style attributes
  // (seen in chromium as style-src-attr violations on every list): attributes only, never a <style> element
  styleSrc: ["'self'"],
  styleSrcAttr: ["'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  // 'self' covers ws:// of the same host: the STOMP WebSocket and SockJS's xhr fallbacks
  connectSrc: ["'self'", ...LOCAL_DEVICE_SOURCES, inspectorSource],
  // SockJS's iframe transport is served from the same origin
  frameSrc: ["'self'", inspectorSource],
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  mediaSrc: ["'self'", 'data:', 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The policy of every answer that is not an HTML document (see above). */
export const SUBRESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'";
/**
 * The security headers helmet gives every answer that is not a document, for the answers Fastify does not make
 * (SockJS's /ws/… info, polling and streaming answers: issue 45). `server/realtime/securityHeaders.test.ts` holds them
 * equal to what helmet sets on an API answer.
 */
export const SUBRESOURCE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': SUBRESOURCE_CSP,
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** One built asset as it is sent: its bytes in each encoding the build wrote, read once (see `assetHeld`). */
interface HeldAsset {
  type: string;
  /** the file's name and length; a representation's tag adds its encoding */
  tag: string;
  bytes: { identity: Buffer; br?: Buffer; gzip?: Buffer };
}
const ENCODINGS = new Negotiator({ supportedValues: ['br', 'gzip', 'identity'], cache: new Map() });
const optional = (file: string) => readFile(file).catch(() => undefined);

/**
 * The content-hashed files of /assets/, held in memory once read (issue 48). They never change under their name, so
 * holding them is safe, and a built console is a few MB in all its encodings. Streamed from the disk (as @fastify/static
 * does), a file took several turns of the event loop (a stat per encoding, an open, a read per 64 KB, a close), and
 * the embedded database's queries run on that same thread: a cold dashboard's console chunk (131 KB of brotli), asked
 * beside the reads its screen waits for, took 86 ms to be served instead of 8 alone (load 4), 0.7 s in a load traced at
 * load 12. Held, it is one write. Returns null for a file the build did not write.
 */
function assetHolder(staticDir: string) {
  const held = new Map<string, Promise<HeldAsset | null>>();
  const read = async (rel: string): Promise<HeldAsset | null> => {
    const file = join(staticDir, rel);
    const identity = await optional(file);
    if (!identity) return null;
    const [br, gzip] = await Promise.all([optional(`${file}.br`), optional(`${file}.gz`)]);
    const type = mime.getType(file) ?? 'application/octet-stream';
    const utf8 = /^text\/|javascript|json|xml|svg/.test(type);
    const tag = rel.slice(ASSETS_PREFIX.length - 1).replace(/[^\w.-]/g, '');
    return { type: utf8 ? `${type}; charset=utf-8` : type, tag: `${tag}-${identity.length}`, bytes: { identity, br, gzip } };
  };
  return (rel: string): Promise<HeldAsset | null> => {
    let found = held.get(rel);
    if (!found) {
      found = read(rel);
      held.set(rel, found);
      // a file not there (a tab of an older build) is looked at again next time, not held as missing
      void found.then((a) => a ?? held.delete(rel));
    }
    return found;
  };
}

export interface WebOptions {
  /** The built console (index.html and assets/), or null to serve none. */
  staticDir: string | null;
  /** Path prefixes of the services: a miss under them is a JSON 404, never the console. */
  apiPrefixes: readonly string[];
}

/**
 * Security headers, compression and the built console, on the root instance. Call it before any route is declared:
 * compression attaches itself to the routes declared after it.
 */
export async function webDelivery(app: FastifyInstance, opts: WebOptions) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    // the Stately inspector (?inspect=1) talks to the window it opened
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  });
  // helmet sets its headers on the raw response when the request arrives, before the answer's type is known. A 304
  // has no type, and a browser merges its headers into the page it revalidated: it keeps helmet's document policy
  // (the short one made a revalidated console page run no script)
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.statusCode !== 304 && !/^text\/html\b/.test(String(reply.getHeader('content-type') ?? '')))
      reply.raw.setHeader('content-security-policy', SUBRESOURCE_CSP);
    return payload;
  });
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: COMPRESS_SYNC_MAX_BYTES,
    customTypes: COMPRESSIBLE,
  });

  const staticDir = opts.staticDir === null ? null : resolve(opts.staticDir);
  const built = staticDir !== null && existsSync(join(staticDir, 'index.html'));
  const isApi = (url: string) => opts.apiPrefixes.some((p) => url.startsWith(p));
  if (built) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const rel = path.slice(staticDir.length).split(sep).join('/');
        reply.header('cache-control', rel.startsWith(ASSETS_PREFIX) ? IMMUTABLE : NO_CACHE);
      },
    });
    const asset = assetHolder(staticDir);
    app.get('/*', async (req, reply) => {
      const path = req.url.split('?')[0];
      // console routes share prefixes with services (/report/activity): a page load gets the console
      const wantsPage = String(req.headers.accept ?? '').includes('text/html');
      if (isApi(path) && !wantsPage) return reply.code(404).send(errorBody(404, NO_ROUTE));
      let rel: string;
      try {
        rel = decodeURIComponent(path).replace(/^\/+/, '');
      } catch {
        rel = '';
      }
      const file = join(staticDir, rel);
      if (path.startsWith(ASSETS_PREFIX) && file.startsWith(join(staticDir, 'assets') + sep) && !/\.(?:br|gz)$/.test(rel)) {
        const held = await asset(rel.split(sep).join('/'));
        if (held) {
          const encoding = (ENCODINGS.negotiate(String(req.headers['accept-encoding'] ?? 'identity')) ?? 'identity') as keyof HeldAsset['bytes'];
          const sent = encoding !== 'identity' && held.bytes[encoding] ? encoding : 'identity';
          // one tag per representation: the brotli and the plain bytes of a file are not the same answer
          const etag = `"${held.tag}-${sent}"`;
          reply.header('cache-control', IMMUTABLE).header('vary', 'accept-encoding').header('etag', etag).type(held.type);
          if (req.headers['if-none-match'] === etag) return reply.code(304).send();
          if (sent !== 'identity') reply.header('content-encoding', sent);
          return reply.send(held.bytes[sent]);
        }
      }
      if (rel && file.startsWith(staticDir + sep) && existsSync(file) && statSync(file).isFile()) return reply.sendFile(rel);
      if (path.startsWith(ASSETS_PREFIX)) return reply.code(404).header('cache-control', NO_CACHE).send(errorBody(404, NO_ROUTE));
      // history-mode routes: the console decides (its own 404 page for unknown paths)
      return reply.sendFile('index.html');
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (isApi(req.url) || built || req.method !== 'GET') return reply.code(404).send(errorBody(404, NO_ROUTE));
    return reply.code(404).type('text/plain').send('The console is not built: run `npm run build` (npm start does it), then reload.');
  });
}
