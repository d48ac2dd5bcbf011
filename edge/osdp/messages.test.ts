// The data of commands and replies, both ways, and what hostile data decodes to (nothing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as m from './messages.js';

describe('command and reply data', () => {
  it('RAW carries any bit length from 1 to 1024, first bit in the high bit of the first byte', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('0', '1'), { minLength: 1, maxLength: m.MAX_CARD_BITS }), fc.integer({ min: 0, max: 255 }), (bits, reader) => {
        const s = bits.join('');
        expect(m.decodeRaw(m.encodeRaw(s, reader))).toMatchObject({ reader, bitCount: s.length, bits: s });
      }),
      { numRuns: 100 },
    );
    expect(m.decodeRaw(Buffer.from([0, 1, 26, 0, 0x02, 0x59, 0xa1, 0xc3]))).toMatchObject({
      bitCount: 26,
      hex: '0259a1c3',
      bits: '00000010010110011010000111',
    });
  });

  it('refuses a RAW of 0 bits, of 10,000 bits, with a byte count off its bit count, or an unknown format', () => {
    expect(m.decodeRaw(Buffer.from([0, 1, 0, 0]))).toBeUndefined();
    expect(m.decodeRaw(Buffer.concat([Buffer.from([0, 1, 0x10, 0x27]), Buffer.alloc(1250)]))).toBeUndefined();
    expect(m.decodeRaw(Buffer.from([0, 1, 26, 0, 1, 2, 3]))).toBeUndefined();
    expect(m.decodeRaw(Buffer.from([0, 7, 8, 0, 1]))).toBeUndefined();
    expect(m.decodeRaw(Buffer.from([0, 1, 8]))).toBeUndefined();
  });

  it('KEYPAD takes digits, * (0x7F) and # (0x0D), and refuses control bytes, letters and a count that lies', () => {
    expect(m.decodeKeypad(m.encodeKeypad('0123456789*#', 1))).toEqual({ reader: 1, keys: '0123456789*#' });
    expect(m.decodeKeypad(Buffer.from([0, 1, 0x7f]))!.keys).toBe('*');
    for (const bad of [0x00, 0x08, 0x1b, 0x0a, 0x41, 0x2a, 0xff]) expect(m.decodeKeypad(Buffer.from([0, 1, bad]))).toBeUndefined();
    expect(m.decodeKeypad(Buffer.from([0, 3, 0x31]))).toBeUndefined();
    expect(m.decodeKeypad(Buffer.from([0, 0]))).toBeUndefined();
  });

  it('PDID and PDCAP round trip; a PDID of the wrong length or a PDCAP not in threes is refused', () => {
    const id = { vendor: 'a0b1c2', model: 3, version: 4, serial: 0xdeadbeef, firmware: '2.10.255' };
    expect(m.decodePdid(m.encodePdid(id))).toEqual(id);
    expect(m.decodePdid(Buffer.alloc(11))).toBeUndefined();
    expect(m.decodePdcap(m.encodePdcap([{ function: 9, compliance: 1, count: 1 }]))).toEqual([
      { function: 9, name: 'communicationSecurity', compliance: 1, count: 1 },
    ]);
    expect(m.decodePdcap(Buffer.alloc(4))).toBeUndefined();
  });

  it('LED, BUZ, TEXT, OUT, KEYSET and COMSET decode to what was encoded; bad records are refused', () => {
    const led = m.decodeLed(m.encodeLed({ reader: 1, temporary: { on: 'GREEN', onTime: 20, timer: 20 }, permanent: { on: 'RED' } }))!;
    expect(led[0]).toMatchObject({ reader: 1, temporary: { onColor: 2, timer: 20 }, permanent: { onColor: 1 } });
    expect(m.decodeLed(Buffer.alloc(13))).toBeUndefined();
    const badColour = m.encodeLed({ permanent: { on: 'RED' } });
    badColour[12] = 9;
    expect(m.decodeLed(badColour)).toBeUndefined();
    expect(m.decodeBuzzer(m.encodeBuzzer({ onTime: 2, offTime: 2, count: 2 }))).toEqual({ reader: 0, tone: 2, onTime: 2, offTime: 2, count: 2 });
    expect(m.decodeText(m.encodeText({ text: 'Héllo\u0007 world' }))!.text).toBe('H?llo? world');
    expect(m.encodeText({ text: 'x'.repeat(40) }).length).toBe(6 + 32);
    expect(m.decodeOut(m.encodeOut([{ output: 1, code: 5, timer: 300 }]))).toEqual([{ output: 1, code: 5, timer: 300 }]);
    expect(m.decodeOut(Buffer.from([1, 9, 0, 0]))).toBeUndefined();
    const key = Buffer.alloc(16, 7);
    expect(m.decodeKeyset(m.encodeKeyset(key))!.equals(key)).toBe(true);
    expect(m.decodeKeyset(Buffer.from([2, 16, ...key]))).toBeUndefined();
    expect(m.decodeComset(m.encodeComset({ address: 9, baud: 115200 }))).toEqual({ address: 9, baud: 115200 });
  });
});
