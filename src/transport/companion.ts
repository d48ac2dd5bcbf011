// The browser's side of the desktop companion machine (§7): the shuffle (the only randomness), the check-port
// probe and the /api/messages WebSocket, as the actors machines/companion.ts names. The machine owns the 10 s
// probe timeout; stopping the probe actor aborts its fetch.
import { fromPromise } from 'xstate';
import { localSocketActor } from './localSocket';
import type { CompanionSocketCommand, MessagesInput, ProbeInput, ShuffleInput } from '../../machines/companion';

export interface CompanionTransportOptions {
  /** The companion runs on this computer. */
  host?: string;
  fetch?: typeof fetch;
  /** The WebSocket constructor (the browser's; `ws` in Node tests). */
  WebSocket?: typeof WebSocket;
  random?: () => number;
  /** Issue 48: discovery starts once this settles (the browser passes the opening screen's read, src/system/openingScreen.ts). */
  after?: Promise<unknown>;
}

/** Fisher–Yates with an injected random source. */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function createCompanionTransport(options: CompanionTransportOptions = {}) {
  const host = options.host ?? '127.0.0.1';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const random = options.random ?? Math.random;
  const after = options.after ?? Promise.resolve();
  return {
    // Issue 48: a cold console's first discovery round (ten loopback requests, each refused where no companion runs)
    // waits for the opening screen to be read, so it takes no network or processor time from what that screen waits for
    shufflePorts: fromPromise<number[], ShuffleInput>(async ({ input }) => {
      await after.catch(() => undefined);
      return shuffle(input.ports, random);
    }),
    probePort: fromPromise<unknown, ProbeInput>(async ({ input, signal }) => {
      const res = await doFetch(`http://${host}:${input.port}/api/check-port`, { signal, cache: 'no-store' });
      if (!res.ok) throw new Error(`check-port answered ${res.status}`);
      return res.json().catch(() => ({}));
    }),
    messages: localSocketActor<CompanionSocketCommand, MessagesInput>((input) => `ws://${host}:${input.port}/api/messages`, options.WebSocket),
  };
}
