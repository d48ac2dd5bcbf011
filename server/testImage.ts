// The run's seeded PGlite image for the server tests (server/testTemplate.ts writes it), apart from server/testkit.ts
// so that a test opening the database itself (crash.test.ts, edge/outage.test.ts, audit/verifyWalk.test.ts) does
// not import the whole server to read it.
import { readFileSync } from 'node:fs';

/**
 * The run's seeded image as PGlite reads it (`loadDataDir` asks a Blob for its arrayBuffer()), its bytes read from disk
 * once per fork (vitest keeps a fork's modules from file to file): a Blob made of the 48 MB file and read back took
 * about 1.3 s of processor time of every test server's start (node's Blob copies the bytes in, then reads them out in
 * chunks and joins them), a fifth of opening the database. Every open reads the same bytes, not a copy: PGlite only
 * reads the tarball (its untar copies each file out, and its in-memory file system copies it again as it writes it), so
 * a copy for each open was 48 MB allocated and written for nothing, about 0.19 s of processor time an open (0.88 ->
 * 0.70 s, median of 8 alternated opens, load ~8). server/testImage.test.ts fails if an open changes the bytes.
 */
class ImageBlob extends Blob {
  constructor(private readonly image: Uint8Array<ArrayBuffer>) {
    super([]);
  }
  override get size() {
    return this.image.length;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.image.buffer;
  }
}
let imageRead: { path: string; bytes: Uint8Array<ArrayBuffer> } | null = null;
/** The run's seeded image (the file server/testTemplate.ts wrote) as a Blob for `openPglite`, read once per fork. */
export function seededImage(path: string): Blob {
  // a Uint8Array of its own (a copy of what readFileSync read): its buffer is exactly the image
  if (imageRead?.path !== path) imageRead = { path, bytes: new Uint8Array(readFileSync(path)) };
  return new ImageBlob(imageRead.bytes);
}
