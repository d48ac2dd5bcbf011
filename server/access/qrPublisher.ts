// `/dynamic-qr` (issue 12, spec §5 visitor service): at the start of every QR period, each door that takes rotating
// QR codes is announced to its tenant with the period's number, the door's display code for it and when it ends, and
// a door that was just turned on is announced at once (its secret is new: every code shown before stopped working).
// The door-QR screen renews the code it draws on this notice rather than on a timer of its own, and a kiosk at the
// door can draw the display code. The display code is an HMAC of the door's secret (a different message from any
// credential's code, so it never opens a door); the secret itself never leaves the server.
import { createHmac } from 'node:crypto';
import { DESTINATIONS, type DynamicQr } from '../../contract';
import type { Db } from '../db/db';
import { qrDoors } from '../db/queries/access';
import { qrWindow } from '../../access/engine';

export const doorDisplayCode = (secret: string, doorId: number, window: number) =>
  `GHD.${doorId}.${window}.${createHmac('sha256', secret).update(`door:${doorId}.${window}`).digest('base64url').slice(0, 16)}`;

export interface QrPublisher {
  /** Announce the period that holds `at` for every QR door (or one door). Answers how many were announced. */
  announce(at: number, doorId?: number): Promise<number>;
  start(): void;
  stop(): void;
}

export function createQrPublisher(
  db: Db,
  publish: (clientId: number, destination: string, body: unknown) => void,
  opts: { periodS: number; log?: (m: string) => void; now?: () => number },
): QrPublisher {
  const now = opts.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = true;

  async function announce(at: number, doorId?: number): Promise<number> {
    const w = qrWindow(at, opts.periodS);
    const rows = await qrDoors(db, doorId);
    const expiresAt = new Date((w + 1) * opts.periodS * 1000).toISOString();
    for (const r of rows) {
      const body: DynamicQr = { id: w, doorId: Number(r.id), code: doorDisplayCode(r.qr_secret, Number(r.id), w), expiresAt };
      publish(Number(r.client_id), DESTINATIONS.dynamicQr, body);
    }
    return rows.length;
  }

  function schedule() {
    if (stopped) return;
    const t = now();
    const next = (qrWindow(t, opts.periodS) + 1) * opts.periodS * 1000;
    timer = setTimeout(
      () => {
        void announce(next)
          .catch((e) => opts.log?.(`dynamic QR: ${e}`))
          .finally(schedule);
      },
      Math.max(0, next - t) + 20,
    );
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    announce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
