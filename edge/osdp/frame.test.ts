// §5, one packet on the wire, byte by byte: what the mutation run of frame.ts (docs/TESTING.md) showed untested, the
// checksum mode, the security block's bounds, the reply flag and every fault a received packet can have.
import { describe, expect, it } from 'vitest';
import { MAX_PACKET, REPLY_FLAG, Scs, SOM } from './constants.js';
import { checksum, crc16 } from './crc.js';
import { decodeFrame, encodeFrame, hasMac, recheck } from './frame.js';

const MAC = () => Uint8Array.from([0xa1, 0xa2, 0xa3, 0xa4]);
const decoded = (raw: Buffer) => {
  const r = decodeFrame(raw);
  if (!r.ok) throw new Error(`fault ${r.fault}`);
  return r.frame;
};

describe('OSDP frames', () => {
  it('lays out a command with a CRC and one with a checksum, and reads back what it wrote', () => {
    const withCrc = encodeFrame({ address: 5, sqn: 2, code: 0x60, data: Uint8Array.from([1, 2]) });
    expect([...withCrc.subarray(0, 8)]).toEqual([SOM, 5, withCrc.length, 0, 0x04 | 2, 0x60, 1, 2]);
    expect(withCrc.length).toBe(5 + 1 + 2 + 2);
    expect(withCrc.readUInt16LE(withCrc.length - 2)).toBe(crc16(withCrc, 0, withCrc.length - 2));
    const withSum = encodeFrame({ address: 5, sqn: 3, code: 0x60, crc: false });
    expect(withSum.length).toBe(5 + 1 + 1);
    expect(withSum[4]).toBe(3);
    expect(withSum[withSum.length - 1]).toBe(checksum(withSum, 0, withSum.length - 1));
    expect(decoded(withCrc)).toMatchObject({ address: 5, reply: false, sqn: 2, crc: true, code: 0x60, data: Buffer.from([1, 2]) });
    expect(decoded(withSum)).toMatchObject({ address: 5, reply: false, sqn: 3, crc: false, code: 0x60, data: Buffer.alloc(0) });
  });

  it('marks a reply in bit 7 of the address and reads it so', () => {
    const reply = encodeFrame({ address: 0x7f, reply: true, sqn: 1, code: 0x40 });
    expect(reply[1]).toBe(0x7f | REPLY_FLAG);
    expect(decoded(reply)).toMatchObject({ address: 0x7f, reply: true });
    expect(decoded(encodeFrame({ address: 0, sqn: 0, code: 0x40 }))).toMatchObject({ address: 0, reply: false });
  });

  it('carries a security block, and a MAC exactly for the MAC-bearing blocks (0x15-0x18)', () => {
    expect([0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, undefined].map(hasMac)).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    const chlng = encodeFrame({ address: 5, sqn: 0, code: 0x76, scb: { type: Scs.CHLNG, data: Uint8Array.from([1]) }, data: Uint8Array.from([9, 9]) });
    expect([...chlng.subarray(4, 9)]).toEqual([0x04 | 0x08, 3, Scs.CHLNG, 1, 0x76]);
    const f = decoded(chlng);
    expect({ type: f.scb?.type, data: [...f.scb!.data], code: f.code, data2: [...f.data], mac: f.mac }).toEqual({
      type: Scs.CHLNG,
      data: [1],
      code: 0x76,
      data2: [9, 9],
      mac: undefined,
    });
    const signed = encodeFrame({ address: 5, sqn: 1, code: 0x60, scb: { type: Scs.CMD_MAC, data: new Uint8Array(0) }, data: Uint8Array.from([7]) }, MAC);
    expect(signed.length).toBe(5 + 2 + 1 + 1 + 4 + 2);
    const g = decoded(signed);
    expect({ data: [...g.data], mac: [...(g.mac ?? [])] }).toEqual({ data: [7], mac: [0xa1, 0xa2, 0xa3, 0xa4] });
    expect(() => encodeFrame({ address: 5, sqn: 1, code: 0x60, scb: { type: Scs.CMD_MAC, data: new Uint8Array(0) } })).toThrow(/MAC is needed/);
  });

  it(`refuses to write past ${MAX_PACKET} bytes or to an address beyond 0-127`, () => {
    const room = MAX_PACKET - (5 + 1 + 2);
    expect(encodeFrame({ address: 1, sqn: 0, code: 0x60, data: new Uint8Array(room) }).length).toBe(MAX_PACKET);
    expect(() => encodeFrame({ address: 1, sqn: 0, code: 0x60, data: new Uint8Array(room + 1) })).toThrow(RangeError);
    expect(encodeFrame({ address: 0x7f, sqn: 0, code: 0x60 })[1]).toBe(0x7f);
    for (const address of [-1, 0x80]) expect(() => encodeFrame({ address, sqn: 0, code: 0x60 })).toThrow(RangeError);
  });

  it('names the fault of a received packet: length, check or structure', () => {
    const good = encodeFrame({ address: 5, sqn: 1, code: 0x60, data: Uint8Array.from([1]) });
    const fault = (raw: Buffer) => {
      const r = decodeFrame(raw);
      return r.ok ? 'ok' : r.fault;
    };
    expect(fault(good)).toBe('ok');
    expect(fault(good.subarray(0, 6))).toBe('length'); // shorter than a header and a check
    expect(fault(Buffer.concat([good, Buffer.from([0])]))).toBe('length'); // LEN says otherwise
    const notSom = Buffer.from(good);
    notSom[0] = 0x54;
    expect(fault(notSom)).toBe('length');
    const flipped = Buffer.from(good);
    flipped[5] ^= 1;
    expect(fault(flipped)).toBe('check');
    expect(fault(recheck(flipped))).toBe('ok');
    const sum = encodeFrame({ address: 5, sqn: 1, code: 0x60, data: Uint8Array.from([1]), crc: false });
    const sumFlipped = Buffer.from(sum);
    sumFlipped[6] ^= 1;
    expect([fault(sum), fault(sumFlipped), fault(recheck(sumFlipped))]).toEqual(['ok', 'check', 'ok']);
    // a checksum packet of a header, a code and its check is whole; one byte less is not
    expect(fault(encodeFrame({ address: 5, sqn: 0, code: 0x60, crc: false }))).toBe('ok');
    // a security block shorter than its own header, or running into the check
    const scb = (bytes: number[]) => {
      const raw = Buffer.from([SOM, 5, 0, 0, 0x04 | 0x08, ...bytes, 0, 0]);
      raw.writeUInt16LE(raw.length, 2);
      return recheck(raw);
    };
    expect(fault(scb([2, Scs.CHLNG, 0x60]))).toBe('ok');
    expect(fault(scb([1, Scs.CHLNG, 0x60]))).toBe('structure');
    expect(fault(scb([4, Scs.CHLNG, 0x60]))).toBe('structure');
    expect(fault(scb([3, Scs.CHLNG, 0x60]))).toBe('structure'); // no code left after the block
    // a MAC-bearing block with no room for the code and its MAC
    expect(fault(scb([2, Scs.CMD_MAC, 0x60, 1, 2, 3]))).toBe('structure');
    expect(fault(scb([2, Scs.CMD_MAC, 0x60, 1, 2, 3, 4]))).toBe('ok');
  });
});
