// D.5, the MAC of a message, against an oracle of its own: block by block with AES-128 in ECB mode and the XOR of the
// chain written out here, for every padding case (empty, short, a whole block, one byte past, several blocks). The
// mutation run of secure.ts (docs/TESTING.md) showed the padding of whole blocks and the multi-block chain untested.
import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { messageMac, SCBK_D, sessionKeys } from './secure.js';

const ecb = (key: Uint8Array, block: Uint8Array) => {
  const c = createCipheriv('aes-128-ecb', key, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(block), c.final()]);
};
/** The specification's steps: pad with 0x80 and zeros unless whole (an empty message is padded), then C_i = E(K, C_{i-1} ⊕ P_i), the last block under S-MAC2. */
function oracle(keys: { sMac1: Uint8Array; sMac2: Uint8Array }, iv: Uint8Array, message: Uint8Array): Buffer {
  const whole = message.length > 0 && message.length % 16 === 0;
  const bytes = whole ? [...message] : [...message, 0x80];
  while (bytes.length % 16 !== 0) bytes.push(0);
  let chain = Buffer.from(iv);
  for (let i = 0; i < bytes.length; i += 16) {
    const block = Buffer.from(bytes.slice(i, i + 16).map((b, j) => b ^ chain[j]));
    chain = ecb(i + 16 === bytes.length ? keys.sMac2 : keys.sMac1, block);
  }
  return chain;
}

describe('the OSDP message MAC', () => {
  it('agrees with the block-by-block oracle for every padding case and chain length', () => {
    const keys = sessionKeys(SCBK_D, Buffer.from('0123456789abcdef'));
    const iv = Buffer.from('fedcba9876543210');
    const lengths = [0, 1, 15, 16, 17, 31, 32, 33, 48, 100];
    for (const n of lengths) {
      const message = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff));
      expect([n, messageMac(keys, iv, message).toString('hex')]).toEqual([n, oracle(keys, iv, message).toString('hex')]);
    }
    // a whole block is not padded: its MAC differs from that of the same bytes padded by hand
    const block = Buffer.alloc(16, 7);
    expect(messageMac(keys, iv, block).equals(messageMac(keys, iv, Buffer.concat([block, Buffer.from([0x80]), Buffer.alloc(15)])))).toBe(false);
  });
});
