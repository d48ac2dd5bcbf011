// The secure channel's messages: both sides' chains agree, data is encrypted, and a forged MAC or bad padding is
// refused without moving the chain on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openPacket, sealPacket } from './channel.js';
import { decodeFrame } from './frame.js';
import { hostCryptogram, initialRMac, messageMac, parseKey, randomNumber, SCBK_D, SecureSession, sessionKeys } from './secure.js';

function pair() {
  const acu = randomNumber();
  const pd = randomNumber();
  const keys = sessionKeys(SCBK_D, acu);
  const rmac = initialRMac(keys, hostCryptogram(keys.sEnc, acu, pd));
  return { cp: new SecureSession(keys, rmac), pd: new SecureSession(keys, rmac), keys, rmac };
}
const frame = (b: Buffer) => {
  const r = decodeFrame(b);
  if (!r.ok) throw new Error(r.fault);
  return r.frame;
};

describe('the secure channel', () => {
  it('carries commands and replies of any data both ways, encrypted, with chained MACs', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uint8Array({ maxLength: 70 }), fc.uint8Array({ maxLength: 70 })), { minLength: 1, maxLength: 5 }), (turns) => {
        const { cp, pd } = pair();
        let sqn = 1;
        for (const [cmd, rep] of turns) {
          const c = sealPacket(cp, 'command', { address: 1, sqn, code: 0x69, data: cmd });
          if (cmd.length >= 4) expect(c.includes(Buffer.from(cmd))).toBe(false);
          const got = openPacket(pd, 'command', frame(c));
          expect(got).toEqual({ ok: true, code: 0x69, data: Buffer.from(cmd) });
          const r = sealPacket(pd, 'reply', { address: 1, sqn, code: 0x50, data: rep });
          expect(openPacket(cp, 'reply', frame(r))).toEqual({ ok: true, code: 0x50, data: Buffer.from(rep) });
          sqn = sqn === 3 ? 1 : sqn + 1;
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a forged MAC, and the chain stays where it was so the genuine packet still opens', () => {
    const { cp, pd } = pair();
    const c = sealPacket(cp, 'command', { address: 1, sqn: 1, code: 0x60 });
    const f = frame(Buffer.from(c));
    const ff = { ...f, mac: Buffer.from(f.mac!.map((b, i) => (i === 0 ? b ^ 1 : b))) };
    expect(openPacket(pd, 'command', ff)).toEqual({ ok: false, reason: 'mac' });
    expect(openPacket(pd, 'command', f)).toMatchObject({ ok: true, code: 0x60 });
  });

  it('refuses plain text and a block of the other direction', () => {
    const { cp, pd } = pair();
    const plain = frame(sealPacket(cp, 'command', { address: 1, sqn: 1, code: 0x60 }));
    expect(openPacket(pd, 'command', { ...plain, scb: undefined })).toEqual({ ok: false, reason: 'plaintext' });
    expect(openPacket(cp, 'reply', plain)).toEqual({ ok: false, reason: 'security block' });
  });

  it('a reply made with another session key does not open', () => {
    const a = pair();
    const b = pair();
    sealPacket(a.cp, 'command', { address: 1, sqn: 1, code: 0x60 });
    const r = sealPacket(b.pd, 'reply', { address: 1, sqn: 1, code: 0x40 });
    expect(openPacket(a.cp, 'reply', frame(r))).toEqual({ ok: false, reason: 'mac' });
  });

  it('refuses data whose padding is wrong', () => {
    const { cp } = pair();
    expect(cp.decrypt('reply', Buffer.alloc(15))).toBeUndefined();
    expect(cp.decrypt('reply', Buffer.alloc(0))).toBeUndefined();
    // 16 bytes that decrypt to something not ending in 0x80 0x00…
    const e = cp.encrypt('reply', Buffer.from('abc'));
    expect(cp.decrypt('reply', e)).toEqual(Buffer.from('abc'));
    e[0] ^= 1;
    expect(cp.decrypt('reply', e)).toBeUndefined();
  });

  it('pads a MAC message with 0x80 only when it is not whole blocks', () => {
    const { keys, rmac } = pair();
    const m16 = Buffer.alloc(16, 7);
    const m15 = Buffer.alloc(15, 7);
    expect(messageMac(keys, rmac, m16).equals(messageMac(keys, rmac, Buffer.concat([m15, Buffer.from([0x80])])))).toBe(false);
    expect(messageMac(keys, rmac, m15).equals(messageMac(keys, rmac, Buffer.concat([m15, Buffer.from([0x80])])))).toBe(true);
  });

  it('takes a key only as 32 hex digits, and never repeats it in the error', () => {
    expect(parseKey('00112233445566778899aabbccddeeff').length).toBe(16);
    expect(() => parseKey('0011zz')).toThrow(/32 hexadecimal digits/);
    try {
      parseKey('secretsecretsecret');
    } catch (e) {
      expect(String(e)).not.toContain('secretsecret');
    }
  });
});
