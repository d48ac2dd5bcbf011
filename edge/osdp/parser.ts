// A stream of bytes off the line becomes packets. Every byte is hostile: noise before a SOM is skipped, a LEN past the
// largest packet or below the smallest is a false SOM, a packet whose check fails is dropped one byte at a time so that
// a real packet inside it is still found, and a packet torn off (no byte for the inter-character time, §5.9) is
// dropped by `flush`, which the line calls when the gap passes. Each of these is counted.
import { HEADER_LENGTH, MAX_PACKET, SOM } from './constants.js';
import { decodeFrame, type Frame, type FrameFault } from './frame.js';

export interface ParserCounters {
  /** bytes skipped that began no packet */
  noise: number;
  /** LEN below the smallest or past the largest packet */
  length: number;
  /** bad CRC or checksum */
  check: number;
  /** CRC right but the security block or MAC does not fit the LEN */
  structure: number;
  /** packets cut short by a silent line */
  torn: number;
  frames: number;
}

export type ParserEvent =
  | { kind: 'frame'; frame: Frame }
  /** a packet that failed: its header's address and control byte are given, for a PD to NAK a bad check */
  | { kind: 'fault'; fault: FrameFault; address: number; reply: boolean; ctrl: number };

const MIN_LENGTH = HEADER_LENGTH + 2;

export class FrameParser {
  private buf: Buffer = Buffer.alloc(0);
  readonly counters: ParserCounters = { noise: 0, length: 0, check: 0, structure: 0, torn: 0, frames: 0 };
  constructor(private readonly maxPacket = MAX_PACKET) {}

  /** Bytes held that do not yet make a packet. */
  get pending() {
    return this.buf.length;
  }

  push(chunk: Uint8Array): ParserEvent[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    return this.drain(false);
  }

  /** The line fell silent: what is held can never complete, so it is dropped, packets inside it still found. */
  flush(): ParserEvent[] {
    return this.drain(true);
  }

  /** Drops what is held (the controller does before each command it sends: it owns the line). */
  reset() {
    if (this.buf.length) this.counters.torn++;
    this.buf = Buffer.alloc(0);
  }

  private drain(final: boolean): ParserEvent[] {
    const out: ParserEvent[] = [];
    let buf = this.buf;
    for (;;) {
      const som = buf.indexOf(SOM);
      if (som < 0) {
        this.counters.noise += buf.length;
        buf = buf.subarray(buf.length);
        break;
      }
      if (som > 0) {
        this.counters.noise += som;
        buf = buf.subarray(som);
      }
      if (buf.length < 4) {
        if (final) {
          this.counters.torn++;
          buf = buf.subarray(buf.length);
        }
        break;
      }
      const len = buf.readUInt16LE(2);
      if (len < MIN_LENGTH || len > this.maxPacket) {
        this.counters.length++;
        buf = buf.subarray(1);
        continue;
      }
      if (buf.length < len) {
        if (!final) break;
        // torn: this SOM began nothing whole; look again after it
        this.counters.torn++;
        buf = buf.subarray(1);
        continue;
      }
      const r = decodeFrame(buf.subarray(0, len));
      if (r.ok) {
        this.counters.frames++;
        out.push({ kind: 'frame', frame: r.frame });
        buf = buf.subarray(len);
      } else {
        this.counters[r.fault]++;
        out.push({ kind: 'fault', fault: r.fault, address: buf[1] & 0x7f, reply: (buf[1] & 0x80) !== 0, ctrl: buf.length > 4 ? buf[4] : 0 });
        buf = buf.subarray(1);
      }
    }
    this.buf = Buffer.from(buf);
    return out;
  }
}
