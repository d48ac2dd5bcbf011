// The run's seeded PGlite image for the server tests (server/testTemplate.ts writes it), apart from server/testkit.ts
// so that a test opening the database itself (crash.test.ts, edge/outage.test.ts, audit/verifyWalk.test.ts) does
// not import the whole server to read it.
import { readFileSync } from 'node:fs';
import { MemoryFS } from '@electric-sql/pglite';

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

/** One member of the image's tar: a directory, or a file whose bytes are `size` bytes at `start` of the image. */
interface Member {
  path: string;
  dir: boolean;
  start: number;
  size: number;
}
/** The members of a ustar archive as PGlite's dump writes it (names, with a prefix field when long; sizes in octal). */
function tarMembers(tar: Uint8Array): Member[] {
  const members: Member[] = [];
  const text = (at: number, length: number) => {
    let end = at;
    while (end < at + length && tar[end] !== 0) end++;
    return Buffer.from(tar.buffer, tar.byteOffset + at, end - at).toString('utf8');
  };
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const prefix = text(at + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(at, 100);
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156] || 0x30); // '0' (or NUL): a file; '5': a directory
    if (type !== '0' && type !== '5') throw new Error(`the seeded image holds a tar member of type ${type}: ${name}`);
    members.push({ path: name.replace(/^\/+|\/+$/g, ''), dir: type === '5', start: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return members;
}

/** Emscripten's in-memory file system, as far as the copy below touches it. */
interface MemfsNode {
  contents: Uint8Array | null;
  usedBytes: number;
  stream_ops: Record<string, (...args: any[]) => unknown>;
  /** Still the image's own bytes: copied before the first change. */
  sharedImage?: boolean;
}
interface EmscriptenFs {
  mkdirTree(path: string): void;
  writeFile(path: string, data: Uint8Array, opts: { canOwn: boolean }): void;
  lookupPath(path: string): { node: MemfsNode };
}
const PGDATA = '/pglite/data';
let membersRead: { bytes: Uint8Array; members: Member[] } | null = null;

/**
 * The run's seeded image as an in-memory file system for `openPglite('memory://', …)`, each file's bytes those of the
 * image read once per fork, shared by every open and copied only when the database first writes to that file (most
 * of its 48 MB are catalogues and tables a test never changes). Given as a Blob, PGlite unpacks the tar for each open
 * (a copy of every member) and copies each file again into its file system: 48 MB allocated, written and collected for
 * every test server. A file's `write` and `msync` copy it first (Emscripten's IDBFS wraps the same two); everything else
 * that changes a file (a truncate, a growth) makes a new array already. server/testImage.test.ts fails if an open and
 * writes change the shared bytes.
 */
export function seededImageFs(path: string): MemoryFS {
  seededImage(path); // the image's bytes, read once per fork
  const bytes = imageRead!.bytes;
  if (membersRead?.bytes !== bytes) membersRead = { bytes, members: tarMembers(bytes) };
  const { members } = membersRead;
  return new (class extends MemoryFS {
    override async initialSyncFs() {
      const FS = (this.pg as unknown as { Module: { FS: EmscriptenFs } }).Module.FS;
      const made = new Set<string>();
      const dir = (d: string) => {
        if (made.has(d)) return;
        FS.mkdirTree(d);
        made.add(d);
      };
      dir(PGDATA);
      let cow: MemfsNode['stream_ops'] | null = null;
      for (const m of members) {
        const full = `${PGDATA}/${m.path}`;
        if (m.dir) {
          dir(full);
          continue;
        }
        dir(full.slice(0, full.lastIndexOf('/')));
        // canOwn: the file's contents are this view of the image, not a copy
        FS.writeFile(full, bytes.subarray(m.start, m.start + m.size), { canOwn: true });
        const node = FS.lookupPath(full).node;
        if (!cow) {
          const own = node.stream_ops;
          const copied = (n: MemfsNode) => {
            if (n.sharedImage) {
              n.contents = n.contents && n.contents.slice(0, n.usedBytes);
              n.sharedImage = false;
            }
          };
          cow = {
            ...own,
            write: (stream: { node: MemfsNode }, ...rest: unknown[]) => (copied(stream.node), own.write(stream, ...rest)),
            msync: (stream: { node: MemfsNode }, ...rest: unknown[]) => (copied(stream.node), own.msync(stream, ...rest)),
          };
        }
        node.sharedImage = m.size > 0;
        node.stream_ops = cow;
      }
    }
  })();
}
