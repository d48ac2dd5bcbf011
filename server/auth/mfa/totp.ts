// TOTP (RFC 6238) through otplib: the authenticator apps' parameters (SHA-1, 6 digits, 30 s), one step of clock drift
// either way, and never a step at or before the last one accepted (a code is never accepted twice, nor an older one
// after a newer). Held to the RFC's own test vectors in totp.test.ts.
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

export const PERIOD_S = 30;
const DIGITS = 6;

export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// address an authenticator app reads from the QR code. */
export const totpUri = (secret: string, account: string, issuer = 'Gatehouse'): string =>
  generateURI({ issuer, label: account, secret, period: PERIOD_S, digits: DIGITS });

/** The QR code of the address as an SVG image (no network, no canvas). */
export const qrSvg = (uri: string): Promise<string> => QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });

/**
 * The time step of a valid code, or null. `afterStep`: the last step accepted for this secret; a code of that step or
 * an earlier one is refused.
 */
export async function verifyTotp(secret: string, code: string, afterStep: number, nowMs: number = Date.now()): Promise<number | null> {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const r = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    period: PERIOD_S,
    digits: DIGITS,
    epochTolerance: PERIOD_S,
    afterTimeStep: afterStep,
  });
  return r.valid && 'timeStep' in r ? r.timeStep : null;
}
