// The controller's side of the line: one command out, its reply back (or none). The controller owns the line, so
// whatever is held when it sends is dropped; a reply is the first good packet from the addressed PD with the command's
// sequence number. Anything else heard meanwhile is counted and ignored: the line is never wedged by it.
import { LineReader } from './line.js';
import type { Frame } from './frame.js';
import type { ParserEvent } from './parser.js';
import { wireMs, type ByteDuplex } from './transport.js';
import { BROADCAST, REPLY_TIMEOUT_MS } from './constants.js';

export type Exchange =
  | { kind: 'reply'; frame: Frame; ms: number }
  | { kind: 'timeout' }
  /** the addressed PD's reply failed its CRC or checksum (or did not fit its LEN) */
  | { kind: 'check' };

export interface LineCounters {
  /** packets heard that nobody was waiting for: another PD's, a late reply, an echo */
  stray: number;
  /** replies from the addressed PD with another sequence number */
  sequence: number;
}

/** How long past its last byte a reply being received may still take (characters 20 ms apart, plus jitter). */
const RECEIVING_GRACE_MS = 50;

export class Link {
  readonly reader: LineReader;
  readonly counters: LineCounters = { stray: 0, sequence: 0 };
  private waiting: { address: number; sqn: number; done: (e: Exchange) => void; extend: () => void } | undefined;

  constructor(
    private readonly line: ByteDuplex,
    /** the line's speed now (the bus changes it after a COMSET or to scan at another speed) */
    public baudRate = 9600,
    private readonly replyTimeoutMs = REPLY_TIMEOUT_MS,
  ) {
    this.reader = new LineReader(line, (e) => this.onEvent(e));
    line.on('data', this.onData);
  }

  private readonly onData = () => this.waiting?.extend();

  close() {
    this.reader.close();
    this.line.off('data', this.onData);
    this.waiting?.done({ kind: 'timeout' });
  }

  private onEvent(e: ParserEvent) {
    const w = this.waiting;
    if (e.kind === 'fault') {
      if (w && e.reply && (e.address === w.address || w.address === BROADCAST)) w.done({ kind: 'check' });
      return;
    }
    const f = e.frame;
    // a broadcast (0x7F) is answered by whoever is there, each at its own address
    if (!w || !f.reply || (f.address !== w.address && w.address !== BROADCAST)) {
      this.counters.stray++;
      return;
    }
    if (f.sqn !== w.sqn) {
      this.counters.sequence++;
      return;
    }
    w.done({ kind: 'reply', frame: f, ms: 0 });
  }

  /** Sends a packet to `address` and waits for its reply (§5.9: 200 ms after the last byte sent). */
  exchange(address: number, sqn: number, packet: Buffer): Promise<Exchange> {
    if (this.waiting) throw new Error('one exchange at a time');
    this.reader.parser.reset();
    const started = performance.now();
    return new Promise<Exchange>((resolve) => {
      let timer: NodeJS.Timeout;
      let deadline = 0;
      const arm = (ms: number) => {
        deadline = Math.max(deadline, performance.now() + ms);
        clearTimeout(timer);
        timer = setTimeout(() => finish({ kind: 'timeout' }), deadline - performance.now());
      };
      const finish = (e: Exchange) => {
        clearTimeout(timer);
        this.waiting = undefined;
        resolve(e.kind === 'reply' ? { ...e, ms: performance.now() - started } : e);
      };
      this.waiting = {
        address,
        sqn,
        done: finish,
        extend: () => {
          if (this.reader.parser.pending) arm(RECEIVING_GRACE_MS + wireMs(16, this.baudRate));
        },
      };
      arm(this.replyTimeoutMs + wireMs(packet.length, this.baudRate));
      this.line.write(packet);
    });
  }
}
