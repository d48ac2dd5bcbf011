// `npm run bench -- osdp` (issue 46): one OSDP line at 115200 baud with 8 of our readers (PDs) on it, each paired
// (Secure Channel: every command and reply MACed, data encrypted), over a real pseudo-terminal pair (socat).
//  (a) a card presented → the green LED command written to the line for that reader: p99 against the poll interval
//      plus 20 ms, with the line's occupancy;
//  (b) every reader polled at least every 100 ms: the longest gap between two commands to the same reader, against the
//      wire-time limit of the frames the bus sends and receives in one round of the 8 (the physical floor).
// A pseudo-terminal does not impose the baud rate (bytes pass as fast as the processes move them): wire time is
// computed from the bytes on the line, 10 bits a byte (8N1) at 115200 baud, and said so in the result.
import { performance } from 'node:perf_hooks';
import { Bus, Reader, ptyPair, wireMs } from '../edge/osdp';
import { newScbk } from '../edge/osdp/secure';
import { Command } from '../edge/osdp/constants';
import { encode, STANDARD_FORMATS } from '../contract/cardFormat';
import { summary, writeResult } from './lib';

const BAUD = 115200;
const READERS = 8;
const POLL_MS = 50;
const WINDOW_MS = 10_000;
const CARDS = 200;

/** The address and command code of a packet the bus wrote (the code is in the clear also on a secure line). */
function headOf(p: Uint8Array): { address: number; code: number } | null {
  if (p.length < 7 || p[0] !== 0x53) return null;
  const scbLen = p[4] & 0x08 ? p[5] : 0;
  return { address: p[1] & 0x7f, code: p[5 + scbLen] };
}

export async function osdpBench() {
  const pty = await ptyPair(BAUD);
  const pds: Reader[] = [];
  // every packet the bus writes, timed; every byte it hears
  const written: { at: number; address: number; code: number; bytes: number }[] = [];
  let heardBytes = 0;
  /** the card waiting for its green LED: resolved when the LED command to its reader is written */
  let waiting: { address: number; done: (at: number) => void } | null = null;
  pty.a.on('data', (c: Buffer) => (heardBytes += c.length));
  const line = {
    write: (d: Uint8Array) => {
      const h = headOf(d);
      const at = performance.now();
      if (h) written.push({ at, ...h, bytes: d.length });
      if (h && waiting && h.address === waiting.address && h.code === Command.LED) waiting.done(at);
      return pty.a.write(d);
    },
    on: pty.a.on.bind(pty.a),
    off: pty.a.off.bind(pty.a),
  } as unknown as ConstructorParameters<typeof Bus>[0];
  const bus = new Bus(line, { baudRate: BAUD, pollIntervalMs: POLL_MS });
  for (let a = 1; a <= READERS; a++) {
    const scbk = newScbk();
    pds.push(new Reader(pty.b, { address: a, scbk, baud: BAUD }));
    bus.add({ address: a, scbk });
  }
  try {
    bus.start();
    const until = performance.now() + 30_000;
    while (!bus.readers().every((r) => r.state === 'online' && r.secure)) {
      if (performance.now() > until) throw new Error(`readers not all online and secure: ${JSON.stringify(bus.readers().map((r) => r.state))}`);
      await new Promise((r) => setTimeout(r, 20));
    }

    // (b) the poll period: a quiet line (polls only) for WINDOW_MS
    written.length = 0;
    heardBytes = 0;
    const from = performance.now();
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const window = performance.now() - from;
    const quiet = written.slice();
    const quietHeard = heardBytes;
    const gaps: number[] = [];
    for (let a = 1; a <= READERS; a++) {
      const times = quiet.filter((w) => w.address === a).map((w) => w.at);
      for (let i = 1; i < times.length; i++) gaps.push(times[i] - times[i - 1]);
    }
    const sentBytes = quiet.reduce((n, w) => n + w.bytes, 0);
    const exchanges = quiet.length;
    // the physical floor: one round of the 8 readers' exchanges (command + reply bytes) on the wire, nothing else
    const bytesPerExchange = (sentBytes + quietHeard) / Math.max(1, exchanges);
    const wireLimitMs = wireMs(bytesPerExchange * READERS, BAUD);
    const occupancyQuiet = wireMs(sentBytes + quietHeard, BAUD) / window;

    // (a) card → green LED written: cards at random readers and random moments
    bus.on('card', (c) => void bus.showGranted(c.address).catch(() => undefined));
    const latencies: number[] = [];
    written.length = 0;
    heardBytes = 0;
    const busyFrom = performance.now();
    const bits = encode(STANDARD_FORMATS[0], 18, 41409);
    for (let i = 0; i < CARDS; i++) {
      const pd = pds[Math.floor(Math.random() * READERS)];
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
      const lit = new Promise<number>((resolve) => (waiting = { address: pd.address, done: resolve }));
      const presented = performance.now();
      pd.presentCard(bits);
      const at = await Promise.race([lit, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`no LED for reader ${pd.address}`)), 5000))]);
      waiting = null;
      latencies.push(at - presented);
    }
    const busyWindow = performance.now() - busyFrom;
    const busyBytes = written.reduce((n, w) => n + w.bytes, 0) + heardBytes;
    const card = summary(latencies);
    const poll = summary(gaps);
    const target = { cardToLedP99Ms: POLL_MS + 20, pollPeriodMaxMs: 100 };
    return writeResult('osdp', {
      note: 'A pseudo-terminal imposes no baud timing: wire times and occupancy are computed from the bytes on the line, 10 bits a byte at 115200 baud.',
      readers: READERS,
      baud: BAUD,
      secureChannel: true,
      pollIntervalMs: POLL_MS,
      target,
      met: card.p99 <= target.cardToLedP99Ms && poll.max <= target.pollPeriodMaxMs,
      cardToLedMs: card,
      cardToLedMet: card.p99 <= target.cardToLedP99Ms,
      pollPeriodMs: poll,
      pollPeriodMet: poll.max <= target.pollPeriodMaxMs,
      wireLimit: {
        bytesPerExchange: Number(bytesPerExchange.toFixed(1)),
        roundOfAllReadersMs: Number(wireLimitMs.toFixed(2)),
        pollPeriodToWireLimit: Number((poll.p50 / wireLimitMs).toFixed(1)),
      },
      occupancy: {
        pollingOnly: Number(occupancyQuiet.toFixed(3)),
        withCards: Number((wireMs(busyBytes, BAUD) / busyWindow).toFixed(3)),
      },
      exchangesPerSecond: Math.round((exchanges / window) * 1000),
    });
  } finally {
    await bus.stop();
    pds.forEach((p) => p.close());
    await pty.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void osdpBench().then(() => process.exit(0));
