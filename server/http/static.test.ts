// How the console and the API reach the browser (issue 10), against the real server over a small built-console
// fixture: the build's brotli/gzip copies are what is sent, hashed assets are immutable for a year, index.html is
// revalidated, every response carries the security headers, large API responses are compressed on the fly, and
// the export's event stream is never held back by compression.
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, COMPANION_PORTS, CONNECTOR_PORTS } from '../../contract';
import type { Db } from '../db/db';
import { startTestServer, type TestServer } from '../testkit';
import { EXPORT_PATH, EXPORT_PROGRESS_PATH } from './export';
import { IMMUTABLE, SUBRESOURCE_CSP } from './static';

let s: TestServer;
let dir: string;
let operator: string;
const ASSET = '/assets/index-Ab12Cd34.js';
const SCRIPT = `export const greeting = ${JSON.stringify('hello, gatehouse '.repeat(400))};\n`;
const INDEX = `<!doctype html><html><head><script type="module" src="${ASSET}"></script></head><body><div id="root"></div></body></html>`;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
/** One request with exactly these headers (fetch would add its own accept-encoding and hide the encoded bytes). */
function raw(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((ok, fail) => {
    const u = new URL(s.base + path);
    request({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}
const decode = (r: Raw) => {
  const enc = r.headers['content-encoding'];
  return (enc === 'br' ? brotliDecompressSync(r.body) : enc === 'gzip' ? gunzipSync(r.body) : r.body).toString('utf8');
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, ASSET), SCRIPT);
  // what the build writes beside each asset (vite.config.ts)
  writeFileSync(join(dir, ASSET + '.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, ASSET + '.gz'), gzipSync(SCRIPT));
  s = await startTestServer({ staticDir: dir, testHooks: true });
  operator = await s.login('operator');
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built console', () => {
  it("sends the build's brotli copy of a hashed asset to a browser that accepts br, immutable for a year", async () => {
    const r = await raw(ASSET, { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/javascript/);
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
    expect(r.headers.vary).toMatch(/accept-encoding/i);
    expect(r.body.equals(brotliCompressSync(SCRIPT))).toBe(true);
    expect(decode(r)).toBe(SCRIPT);
  });

  it('sends the gzip copy when br is not accepted, and the plain file when nothing is', async () => {
    const gz = await raw(ASSET, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(gz)).toBe(SCRIPT);
    const plain = await raw(ASSET);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(SCRIPT);
  });

  it('serves index.html with no-cache, at / and at every history-mode route', async () => {
    for (const path of ['/', '/login', '/monitor/alarms?x=1', '/report/activity']) {
      const r = await raw(path, { accept: 'text/html', 'accept-encoding': 'br, gzip' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toMatch(/^text\/html/);
      expect(r.headers['cache-control'], path).toBe('no-cache');
      expect(decode(r), path).toBe(INDEX);
    }
  });

  it('answers 404 for a missing hashed asset (an old tab after a deploy) instead of index.html', async () => {
    const r = await raw('/assets/monitor-gone1234.js', { accept: '*/*' });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/json/);
    expect(r.headers['cache-control']).toBe('no-cache');
  });

  it('holds an asset in memory once read (issue 48: one write, not a stream of disk reads between database queries)', async () => {
    const name = '/assets/held-Zz98Yy76.css';
    const css = `.held { color: red; }\n`.repeat(200);
    writeFileSync(join(dir, name), css);
    writeFileSync(join(dir, name + '.br'), brotliCompressSync(css));
    const first = await raw(name, { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(decode(first)).toBe(css);
    // gone from the disk after its first answer, it is still sent whole, in each encoding the build wrote
    rmSync(join(dir, name));
    rmSync(join(dir, name + '.br'));
    const again = await raw(name, { 'accept-encoding': 'br' });
    expect(again.status).toBe(200);
    expect(again.headers['content-encoding']).toBe('br');
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
    expect(again.headers['content-security-policy']).toBe(SUBRESOURCE_CSP);
    expect(decode(again)).toBe(css);
    expect((await raw(name)).body.toString('utf8')).toBe(css);
  });

  it('an asset asked before it was written (a deploy under way) is found once it is there: a miss is not held', async () => {
    const name = '/assets/late-Qq11Ww22.js';
    expect((await raw(name)).status).toBe(404);
    writeFileSync(join(dir, name), SCRIPT);
    const r = await raw(name);
    expect(r.status).toBe(200);
    expect(r.body.toString('utf8')).toBe(SCRIPT);
  });

  it('an asset name with a NUL, a lone surrogate, a climb out of /assets/ or past any length is refused (4xx), never a 500', async () => {
    for (const path of ['/assets/a%00b.js', '/assets/%ED%A0%80.js', '/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd', `/assets/${'x'.repeat(5000)}.js`]) {
      const r = await raw(path, { accept: '*/*', 'accept-encoding': 'br' });
      // a lone surrogate is refused by Fastify's own URL decoding (400) before any route; the others are no file (404)
      expect(r.status, path).toBe(path.includes('%ED') ? 400 : 404);
      expect(r.headers['content-type'], path).toMatch(/json/);
    }
  });

  it("honours the browser's encodings (q=0 refuses one) and revalidates by a tag of each representation (304)", async () => {
    const gz = await raw(ASSET, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const br = await raw(ASSET, { 'accept-encoding': 'br' });
    expect(br.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(gz.headers.etag);
    const same = await raw(ASSET, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    // another representation's tag is not this one's
    expect((await raw(ASSET, { 'accept-encoding': 'br', 'if-none-match': String(gz.headers.etag) })).status).toBe(200);
  });

  it('revalidates files outside /assets/ (not content-hashed)', async () => {
    const r = await raw('/favicon.svg');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-cache');
  });
});

describe('security headers', () => {
  it('the console page carries a CSP that allows itself, loopback devices and data: images, and forbids framing', async () => {
    const r = await raw('/login', { accept: 'text/html' });
    const csp = String(r.headers['content-security-policy']);
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(name + ' ')) ?? '';
    expect(directive('default-src')).toBe("default-src 'self'");
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('style-src')).toBe("style-src 'self'"); // no <style> element from anywhere else
    expect(directive('style-src-attr')).toBe("style-src-attr 'unsafe-inline'"); // Blueprint's table writes style attributes
    expect(directive('img-src')).toContain('data:');
    for (const p of CONNECTOR_PORTS) expect(directive('connect-src')).toContain(`ws://127.0.0.1:${p}`);
    for (const p of COMPANION_PORTS) {
      expect(directive('connect-src')).toContain(`http://127.0.0.1:${p}`);
      expect(directive('connect-src')).toContain(`ws://127.0.0.1:${p}`);
    }
    expect(csp).not.toContain('stately.ai');
    expect(csp).not.toContain('upgrade-insecure-requests'); // the console is served over plain http on a LAN too
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it("a page's revalidation (304) keeps the document's policy: chromium merges a 304's headers into the cached page", async () => {
    // a second visit of the same address asks with the page's ETag; the short policy of a non-document on that 304
    // became the cached page's, which then ran no script (a blank console, seen in e2e)
    const first = await raw('/login', { accept: 'text/html' });
    const etag = String(first.headers.etag ?? '');
    expect(etag).not.toBe('');
    const again = await raw('/login', { accept: 'text/html', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['content-security-policy']).not.toBe(SUBRESOURCE_CSP);
    expect(String(again.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('lets the Stately inspector in only for a page opened with ?inspect=1', async () => {
    const r = await raw('/monitor/alarms?inspect=1', { accept: 'text/html' });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/stately\.ai/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/stately\.ai/);
  });

  it('API responses, errors included, carry the headers too, with the short policy of a non-document', async () => {
    const ok = await raw(API.health);
    const denied = await raw(API.alarms);
    for (const r of [ok, denied]) {
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-security-policy']).toBe(SUBRESOURCE_CSP);
    }
    expect(denied.status).toBe(401);
  });

  it('scripts and styles carry the short policy, not the 1.5 KB document one (first-load bytes)', async () => {
    const html = decode(await raw('/login', { accept: 'text/html' }));
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets).toEqual([ASSET]);
    for (const a of assets) {
      const r = await raw(a, { 'accept-encoding': 'br' });
      expect(r.status).toBe(200);
      expect(r.headers['content-security-policy']).toBe(SUBRESOURCE_CSP);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('compression of the API', () => {
  it('compresses a large JSON response with brotli (or gzip), and leaves a small one as it is', async () => {
    const auth = { authorization: `Bearer ${operator}` };
    const br = await raw(`${API.identities}?size=100`, { ...auth, 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    const body = decode(br);
    expect(Buffer.byteLength(body)).toBeGreaterThan(1024);
    expect(br.body.length).toBeLessThan(Buffer.byteLength(body));
    expect(JSON.parse(body)).toBeTruthy();
    const gz = await raw(`${API.identities}?size=100`, { ...auth, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz)).toBe(body);
    const small = await raw(API.health, { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the streamed CSV export and it still arrives whole, in chunks', async () => {
    const r = await raw(`${EXPORT_PATH}?format=csv`, { authorization: `Bearer ${operator}`, 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['transfer-encoding']).toBe('chunked');
    const csv = decode(r);
    expect(csv.startsWith('\uFEFF')).toBe(true); // the one writer's byte-order mark (server/http/tabular.ts)
    const rows = csv.slice(1).trim().split('\r\n');
    expect(rows[0]).toMatch(/^id,time \([A-Za-z_]+\/[A-Za-z_]+\),/); // the time column names its zone
    expect(rows.length - 1).toBe(await s.count('select 1 from events e join clients c on c.id = e.client_id where c.code = $1', ['NORTHWIND']));
  });

  it('never compresses the export event stream: its first event arrives while the rows are still being read', async () => {
    // enough rows for a page, then hold the database at the export's first page query until `start` is seen
    const northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
    await s.db.query(
      `insert into events (client_id, event_code, event_source_id, event_point_id, message)
      select $1, 1000, 'reader-1', 'door-1', 'Card swipe ' || g from generate_series(1, 300) g`,
      [northwind],
    );
    const db = s.db as { query: Db['query'] };
    const query = db.query;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    db.query = (async (sql: string, params?: unknown[]) => {
      if (/order by e\.id desc limit/.test(sql)) await held;
      return query(sql, params);
    }) as Db['query'];
    try {
      const u = new URL(s.base + `${EXPORT_PROGRESS_PATH}?format=ndjson`);
      const text = await new Promise<{ encoding: unknown; firstEvent: string; all: string }>((ok, fail) => {
        request(
          { host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { authorization: `Bearer ${operator}`, 'accept-encoding': 'br, gzip' } },
          (res) => {
            let all = '';
            let firstEvent = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              all += c;
              // the start event came through while no page can have been read yet: now let the pages go
              if (!firstEvent && all.includes('\n\n')) {
                firstEvent = all;
                release();
              }
            });
            res.on('end', () => ok({ encoding: res.headers['content-encoding'], firstEvent, all }));
            res.on('error', fail);
          },
        )
          .on('error', fail)
          .end();
      });
      expect(text.encoding).toBeUndefined();
      expect(text.firstEvent.startsWith('event: start\n')).toBe(true);
      expect(text.firstEvent).not.toContain('event: rows');
      expect(text.all).toContain('event: rows');
      expect(text.all.trimEnd().split('\n\n').at(-1)).toMatch(/^event: end\n/);
    } finally {
      db.query = query;
      release();
    }
  });
});
