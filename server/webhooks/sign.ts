// How a delivery is signed (contract/resources/webHooks.ts): HMAC-SHA256 with the hook's secret over
// "<timestamp>.<body>", sent as `X-Gatehouse-Signature: sha256=<hex>` beside `X-Gatehouse-Timestamp: <unix s>`.
// A receiver verifies it the same way (verifySignature), and refuses a timestamp too far from its clock.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const signature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export function verifySignature(secret: string, timestamp: string, body: string, given: string, toleranceS = 300, nowS = Date.now() / 1000): boolean {
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > toleranceS) return false;
  const want = Buffer.from(signature(secret, timestamp, body));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}
