// The stream parser against hostile streams: packets split at any point, noise between them, torn packets, lengths
// past the buffer. Property tests (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PACKET, SOM } from './constants.js';
import { encodeFrame, hasMac, recheck } from './frame.js';
import { FrameParser } from './parser.js';

const frameArb = (crc: boolean) =>
  fc
    .record({
      address: fc.integer({ min: 0, max: 0x7f }),
      reply: fc.boolean(),
      sqn: fc.integer({ min: 0, max: 3 }),
      code: fc.integer({ min: 0, max: 255 }),
      data: fc.uint8Array({ maxLength: 80 }),
      scb: fc.option(fc.record({ type: fc.integer({ min: 0x11, max: 0x18 }), data: fc.uint8Array({ maxLength: 3 }) }), { nil: undefined }),
    })
    .map((s) => encodeFrame({ ...s, crc }, hasMac(s.scb?.type) ? () => Buffer.from([1, 2, 3, 4]) : undefined));

/** cuts `bytes` at the given points (any of them, in any order) */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

function parseAll(chunks: Buffer[]) {
  const p = new FrameParser();
  const frames: string[] = [];
  let maxPending = 0;
  for (const c of chunks) {
    for (const e of p.push(c)) if (e.kind === 'frame') frames.push(e.frame.raw.toString('hex'));
    maxPending = Math.max(maxPending, p.pending);
  }
  for (const e of p.flush()) if (e.kind === 'frame') frames.push(e.frame.raw.toString('hex'));
  return { frames, counters: p.counters, maxPending, left: p.pending };
}

/** every element of `want` appears in `got`, in order */
const inOrder = (got: string[], want: string[]) => {
  let i = 0;
  for (const g of got) if (g === want[i]) i++;
  return i === want.length;
};

describe('the stream parser', () => {
  it('finds every CRC packet, in order, in a stream of packets and noise split at any points', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 24 }), frameArb(true)), { minLength: 1, maxLength: 6 }),
        fc.uint8Array({ maxLength: 24 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (parts, tail, cuts) => {
          const stream = Buffer.concat([...parts.flatMap(([noise, f]) => [noise, f]), tail]);
          const { frames, maxPending, left } = parseAll(split(stream, cuts));
          expect(
            inOrder(
              frames,
              parts.map(([, f]) => f.toString('hex')),
            ),
          ).toBe(true);
          expect(maxPending).toBeLessThan(MAX_PACKET);
          expect(left).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds exactly the checksum packets when the noise holds no SOM', () => {
    const noSom = fc.uint8Array({ maxLength: 16 }).map((u) => Buffer.from(u.map((b) => (b === SOM ? 0 : b))));
    fc.assert(
      fc.property(fc.array(fc.tuple(noSom, frameArb(false)), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (parts, cuts) => {
        const stream = Buffer.concat(parts.flatMap(([noise, f]) => [noise, f]));
        const { frames, counters } = parseAll(split(stream, cuts));
        expect(frames).toEqual(parts.map(([, f]) => f.toString('hex')));
        expect(counters.noise).toBe(parts.reduce((n, [noise]) => n + noise.length, 0));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws and never holds more than one packet on any bytes at all', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }), (chunks) => {
        const { maxPending, left } = parseAll(chunks.map((c) => Buffer.from(c)));
        expect(maxPending).toBeLessThan(MAX_PACKET);
        expect(left).toBe(0);
      }),
    );
  });

  it('drops a packet whose CRC is wrong, counts it, and finds the next one', () => {
    const a = encodeFrame({ address: 1, sqn: 1, code: 0x60 });
    const bad = Buffer.from(a);
    bad[bad.length - 1] ^= 1;
    const b = encodeFrame({ address: 2, sqn: 2, code: 0x60 });
    const p = new FrameParser();
    const events = p.push(Buffer.concat([bad, b]));
    expect(events.map((e) => e.kind)).toEqual(['fault', 'frame']);
    expect(events[0]).toMatchObject({ fault: 'check', address: 1 });
    expect(p.counters.check).toBe(1);
  });

  it('takes a LEN past the largest packet or below the smallest as a false SOM', () => {
    const p = new FrameParser();
    const good = encodeFrame({ address: 4, sqn: 1, code: 0x60 });
    const events = p.push(Buffer.concat([Buffer.from([SOM, 0x01, 0xff, 0xff, 0x04]), Buffer.from([SOM, 0x01, 0x03, 0x00]), good]));
    expect(events).toHaveLength(1);
    expect(p.counters.length).toBe(2);
  });

  it('drops a torn packet when the line falls silent, and keeps a packet that was inside it', () => {
    const p = new FrameParser();
    const good = encodeFrame({ address: 4, sqn: 1, code: 0x60 });
    // a header that promises 200 bytes, then a whole packet, then silence
    expect(p.push(Buffer.concat([Buffer.from([SOM, 0x04, 200, 0, 0x04, 0x60]), good]))).toEqual([]);
    const events = p.flush();
    expect(events.map((e) => e.kind)).toEqual(['frame']);
    expect(p.counters.torn).toBe(1);
    expect(p.pending).toBe(0);
  });

  it('says the security block or MAC does not fit the LEN as a structure fault', () => {
    const f = encodeFrame({ address: 1, sqn: 1, code: 0x60, scb: { type: 0x15, data: new Uint8Array(0) } }, () => Buffer.alloc(4));
    // a security block that claims more bytes than the packet has
    const bad = Buffer.from(f);
    bad[5] = 40;
    const p = new FrameParser();
    const events = p.push(recheck(bad));
    expect(events[0]).toMatchObject({ kind: 'fault', fault: 'structure' });
  });
});
