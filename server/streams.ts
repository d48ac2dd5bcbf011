// Every stream pipeline of the server is built here (issue 45, "no upload, stream or archive can stop the process"):
// a stream's 'error' that nobody listens to is thrown by Node and ends the process (a truncated gzip did once), so no
// room joins streams with `.pipe()` or `pipeline()` of its own (server/streams.test.ts holds that). Each helper says
// where the error goes: into the promise of whoever built it (`piped`), into the stream a reader takes (`pipedInto`),
// or to the one who forwards a body and decides (`forward`).
import { createWriteStream, rmSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { pipeline as pipelineCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A stream of Node's, or one of a library's own kind (tar's minipass streams) that Node's pipeline takes. */
type Stage = NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream | { pipe: unknown };

/** `source` through `stages`: resolves when the last has taken everything, rejects with the first error of any; every
 *  stream is destroyed either way. */
export function piped(source: Stage, ...stages: [Stage, ...Stage[]]): Promise<void> {
  return (pipeline as (...s: unknown[]) => Promise<void>)(source, ...stages);
}

/**
 * `source` through `stages` into the file `path` (created with `mode`): resolves once the file holds everything; on any
 * error the file is removed and the error rejected. The file is removed only once its stream has closed: the stream
 * opens its file on libuv's thread pool, and a pipeline that fails while that pool is busy (gunzip, password hashes)
 * rejects before the file exists; a removal then would come first and the file be created after it, left behind for
 * good (the clean-clone CI of stop 69 kept a `.part` of a refused backup upload that way).
 */
export async function pipedToFile(path: string, mode: number, source: Stage, ...stages: Stage[]): Promise<void> {
  const file = createWriteStream(path, { mode });
  const closed = new Promise<void>((resolve) => file.once('close', () => resolve()));
  try {
    await (pipeline as (...s: unknown[]) => Promise<void>)(source, ...stages, file);
  } catch (e) {
    file.destroy();
    await closed;
    rmSync(path, { force: true });
    throw e;
  }
}

/** `source` into `out`, for a reader of `out` (a streamed answer): an error of either destroys `out` with it, which its
 *  reader sees (Fastify ends the answer); nothing is thrown. */
export function pipedInto<T extends Readable>(source: Readable, out: T): T {
  pipelineCallback(source, out as unknown as Writable, () => {
    /* the error, if any, destroyed `out`: its reader has it */
  });
  return out;
}

/**
 * `from` into `to` without ending `to`'s other users (a request body into a counting stream, a child's output into
 * another child's input): an error of `from` destroys `to` with it; an error of `to` (a child that stopped early) is
 * given to `onToError`, whose caller learns the real reason elsewhere (the child's exit).
 */
export function forward(from: Readable, to: Writable, onToError: (e: Error) => void = () => {}): void {
  from.once('error', (e) => to.destroy(e));
  to.on('error', onToError);
  from.pipe(to);
}
