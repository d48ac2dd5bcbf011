// The one place stream pipelines are built (server/streams.ts, issue 45): its helpers never leave an 'error' nobody
// listens to (Node throws those and the process ends), and no other file of the server joins streams itself.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { pbkdf2 } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { forward, piped, pipedInto, pipedToFile } from './streams';

/** Every .ts file of the server but tests (generated from the folder: a new room is looked at without a word). */
function sources(dir = 'server'): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const cutGzip = () => Readable.from([gzipSync(Buffer.from('x'.repeat(100_000))).subarray(0, 40)]);

describe('server/streams.ts', () => {
  it('is the only file of the server that joins streams', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    const joining = files.filter(
      (f) => f !== join('server', 'streams.ts') && /\.pipe\(|\bpipeline\(|from 'node:stream\/promises'/.test(readFileSync(f, 'utf8')),
    );
    expect(joining).toEqual([]);
  });

  it('is the only file of the server that writes a file from a stream (pipedToFile removes what a failure leaves)', () => {
    const writing = sources().filter((f) => f !== join('server', 'streams.ts') && /createWriteStream\(/.test(readFileSync(f, 'utf8')));
    expect(writing).toEqual([]);
  });

  it('pipedToFile: a source that fails while the thread pool is busy leaves no file, once rejected or later', async () => {
    // libuv's pool (4 threads) kept busy, as a server's gunzip and password hashes keep it: the file's open waits
    // behind them, and the source fails before it is done (a refused backup upload's .part was left that way)
    const dir = mkdtempSync(join(tmpdir(), 'gh-piped-file-'));
    try {
      const busy = Array.from({ length: 6 }, () => new Promise((r) => pbkdf2('x', 'y', 150_000, 32, 'sha512', r)));
      const failing = new Readable({
        read() {
          this.destroy(new Error('refused while it was sent'));
        },
      });
      await expect(pipedToFile(join(dir, 'upload.part'), 0o600, failing, new PassThrough())).rejects.toThrow('refused while it was sent');
      expect(readdirSync(dir)).toEqual([]);
      await Promise.all(busy);
      await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pipedToFile: what went through is in the file, with its mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-piped-file-'));
    try {
      await pipedToFile(join(dir, 'out'), 0o600, Readable.from([Buffer.from('a backup')]), new PassThrough());
      expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('a backup');
      expect(statSync(join(dir, 'out')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('piped: a truncated gzip rejects its promise, and nothing is thrown at the process', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const sink = new Writable({ write: (_c, _e, next) => next() });
      await expect(piped(cutGzip(), createGunzip(), sink)).rejects.toThrow(/unexpected end of file/);
      await new Promise((r) => setImmediate(r));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('pipedInto: the error destroys the stream its reader takes, which the reader sees', async () => {
    const out = pipedInto(cutGzip().pipe(createGunzip()), new PassThrough());
    const err = await new Promise<Error>((resolve) => out.on('error', resolve));
    expect(err.message).toMatch(/unexpected end of file/);
  });

  it('forward: an error of the source reaches the target; one of the target goes to its handler, not the process', async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    const got = new Promise<Error>((resolve) => to.on('error', resolve));
    forward(from, to);
    from.destroy(new Error('the body was cut'));
    expect((await got).message).toBe('the body was cut');

    const stopped = new Writable({ write: (_c, _e, next) => next(new Error('EPIPE: the child stopped')) });
    const source = new PassThrough();
    const handled = new Promise<Error>((resolve) => forward(source, stopped, resolve));
    source.write('data');
    expect((await handled).message).toBe('EPIPE: the child stopped');
  });
});
