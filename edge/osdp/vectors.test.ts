import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksum, crc16 } from './crc.js';
import { clientCryptogram, hostCryptogram, initialRMac, SCBK_D, sessionKeys } from './secure.js';
import { encodeFrame } from './frame.js';

interface Vectors {
  crc16: { message: string; crcLittleEndian: string }[];
  checksum: { message: string; checksum: string }[];
  secureChannel: Record<string, string>;
}
// CI lays shared/ beside the clone; here it is /work/shared beside /work/main
const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('../../../shared/osdp/annex-e-vectors.json', import.meta.url)), 'utf8')) as Vectors;
const hex = (s: string) => Buffer.from(s, 'hex');

describe('Annex E examples', () => {
  it('has examples to hold the code to', () => {
    expect(vectors.crc16.length).toBeGreaterThan(0);
    expect(vectors.checksum.length).toBeGreaterThan(0);
  });
  it.each(vectors.crc16)('CRC-16 of $message is $crcLittleEndian (LSB first)', ({ message, crcLittleEndian }) => {
    const out = Buffer.alloc(2);
    out.writeUInt16LE(crc16(hex(message)));
    expect(out.toString('hex')).toBe(crcLittleEndian);
  });
  it.each(vectors.checksum)('checksum of $message is $checksum', ({ message, checksum: sum }) => {
    expect(checksum(hex(message)).toString(16).padStart(2, '0')).toBe(sum);
  });
  it('encodes the CRC example as a whole packet from its fields (COMSET to the broadcast address)', () => {
    const { message, crcLittleEndian } = vectors.crc16[0];
    const m = hex(message);
    const packet = encodeFrame({ address: m[1], sqn: m[4] & 3, crc: true, code: m[5], data: m.subarray(6) });
    expect(packet.toString('hex')).toBe(message + crcLittleEndian);
  });
  it('encodes the checksum example as a whole packet', () => {
    const { message, checksum: sum } = vectors.checksum[0];
    const m = hex(message);
    const packet = encodeFrame({ address: m[1], sqn: m[4] & 3, crc: false, code: m[5], data: m.subarray(6) });
    expect(packet.toString('hex')).toBe(message + sum);
  });

  const sc = vectors.secureChannel;
  const keys = sessionKeys(hex(sc.scbkD), hex(sc.acuRandom));
  it('SCBK-D is the standard default key', () => expect(SCBK_D.toString('hex')).toBe(sc.scbkD));
  it('derives S-ENC, S-MAC1 and S-MAC2 from SCBK-D and RND.A', () => {
    expect(keys.sEnc.toString('hex')).toBe(sc.sEnc);
    expect(keys.sMac1.toString('hex')).toBe(sc.sMac1);
    expect(keys.sMac2.toString('hex')).toBe(sc.sMac2);
  });
  it('computes the client (PD) cryptogram', () => {
    expect(clientCryptogram(keys.sEnc, hex(sc.acuRandom), hex(sc.pdRandom)).toString('hex')).toBe(sc.clientCryptogram);
  });
  it('computes the host (CP) cryptogram', () => {
    expect(hostCryptogram(keys.sEnc, hex(sc.acuRandom), hex(sc.pdRandom)).toString('hex')).toBe(sc.hostCryptogram);
  });
  it('computes the initial R-MAC from the host cryptogram', () => {
    expect(initialRMac(keys, hex(sc.hostCryptogram)).toString('hex')).toBe(sc.initialRMac);
  });
});
