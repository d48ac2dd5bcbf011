import { describe, expect, it } from 'vitest';
import { STANDARD_FORMATS, decodeWith, encode } from '../../contract/cardFormat';
import { rawBits } from './CardFormatTest';

describe('a raw value typed on the card format form', () => {
  const h10301 = STANDARD_FORMATS.find((f) => f.bits === 26)!;
  it('reads hex as the layout\u2019s bits, leading zeros kept, and bits as they are', () => {
    const bits = encode(h10301, 12, 34567);
    const hex = `0x${BigInt(`0b${bits}`).toString(16)}`;
    expect(rawBits(hex, 26)).toBe(bits);
    expect(rawBits(` ${bits.slice(0, 10)} ${bits.slice(10)} `, 26)).toBe(bits);
    expect(decodeWith(h10301, rawBits(hex, 26))).toMatchObject({ ok: true, facility: 12, card: 34567 });
  });
  it('says what is wrong with a value that does not fit', () => {
    const bits = encode(h10301, 12, 34567);
    const flipped = `${bits[0] === '1' ? '0' : '1'}${bits.slice(1)}`;
    expect(decodeWith(h10301, flipped)).toMatchObject({ ok: false, problem: expect.stringMatching(/parity bit 0 does not match/) });
    expect(decodeWith(h10301, rawBits('0xZZ', 26))).toMatchObject({ ok: false });
  });
});
