// A verified token is remembered until its exp (issue 13), and remembering it changes nothing of what is accepted:
// an expired token, another signature, another key are refused as before.
import { describe, expect, it } from 'vitest';
import { createTokens } from './tokens';

const claims = { sub: '7', username: 'ada', clientId: 3, roles: ['operator'] };

describe('session tokens', () => {
  it('verifies a token again from memory, with the same claims, until its exp', async () => {
    let t = Date.parse('2026-01-01T08:00:00Z');
    const tokens = createTokens('a-secret-of-enough-length', 60, () => t);
    const { token, jti } = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual({ ...claims, jti });
    t += 59_000;
    expect(await tokens.verify(token)).toEqual({ ...claims, jti }); // remembered
    t += 1_000;
    expect(await tokens.verify(token)).toBeNull(); // exp reached: refused although it verified before
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token whose signature or key differs, even after the real one was verified', async () => {
    const t = Date.parse('2026-01-01T08:00:00Z');
    const tokens = createTokens('a-secret-of-enough-length', 60, () => t);
    const { token } = await tokens.sign(claims);
    expect(await tokens.verify(token)).not.toBeNull();
    const [h, p, sig] = token.split('.');
    const forged = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(forged)).toBeNull();
    const other = createTokens('another-secret-of-enough-length', 60, () => t);
    expect(await other.verify(token)).toBeNull();
  });

  it('refuses a token that expired before it was ever verified', async () => {
    let t = Date.parse('2026-01-01T08:00:00Z');
    const tokens = createTokens('a-secret-of-enough-length', 60, () => t);
    const { token } = await tokens.sign(claims);
    t += 61_000;
    expect(await tokens.verify(token)).toBeNull();
  });
});
