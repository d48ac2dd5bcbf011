// TOTP held to RFC 6238's test vectors (appendix B) through the same library the server uses, and the server's rule
// on top: a code of the last accepted step (or before) is refused, one step of drift either way is allowed.
import { describe, expect, it } from 'vitest';
import { generate, stringToBytes } from 'otplib';
import { PERIOD_S, newTotpSecret, totpUri, verifyTotp } from './totp';

// RFC 6238 appendix B: the seeds are the ASCII bytes below, 8 digits
const SEEDS = {
  sha1: '12345678901234567890',
  sha256: '12345678901234567890123456789012',
  sha512: '1234567890123456789012345678901234567890123456789012345678901234',
} as const;
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP', () => {
  for (const [t, sha1, sha256, sha512] of VECTORS)
    it(`gives RFC 6238's codes at T=${t} for SHA-1, SHA-256 and SHA-512`, async () => {
      const at = (algorithm: keyof typeof SEEDS) => generate({ secret: stringToBytes(SEEDS[algorithm]), algorithm, digits: 8, period: 30, epoch: t });
      expect([await at('sha1'), await at('sha256'), await at('sha512')]).toEqual([sha1, sha256, sha512]);
    });

  it('accepts the code of now and of one step either side, once; never the same step again nor an earlier one', async () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 1000 / PERIOD_S);
    const code = (s: number) => generate({ secret, epoch: s * PERIOD_S });
    expect(await verifyTotp(secret, await code(step), 0, now)).toBe(step);
    expect(await verifyTotp(secret, await code(step - 1), 0, now)).toBe(step - 1);
    expect(await verifyTotp(secret, await code(step + 1), 0, now)).toBe(step + 1);
    expect(await verifyTotp(secret, await code(step - 2), 0, now)).toBeNull();
    expect(await verifyTotp(secret, await code(step + 2), 0, now)).toBeNull();
    // after step was accepted: its code, and the one before, are refused; the next one still works
    expect(await verifyTotp(secret, await code(step), step, now)).toBeNull();
    expect(await verifyTotp(secret, await code(step - 1), step, now)).toBeNull();
    expect(await verifyTotp(secret, await code(step + 1), step, now)).toBe(step + 1);
  });

  it('refuses what is not six digits, and writes the address an authenticator app reads', async () => {
    const secret = newTotpSecret();
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 456']) expect(await verifyTotp(secret, bad, 0)).toBeNull();
    const uri = totpUri(secret, 'admin');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Gatehouse:admin\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
  });
});
