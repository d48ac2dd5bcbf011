// A PD (a card reader) of ours, for tests and the demo: it answers as the standard says (sequence numbers, resending
// its last reply to a repeated one, every NAK, install mode with SCBK-D, secure-only once paired), and can be told to
// misbehave (late, silent, wrong sequence number, bad CRC, plain text, forged MAC, any reply or raw bytes) so the
// controller's handling of each is tested over a real line.
// Its outputs and inputs (issue 47) are a real one's: osdp_OUT sets an output for good (permanent on or off) or for a
// while (on or off for a timer, then back to its permanent state), and OSTATR reports them; an input changing is told
// in the reply to the next POLL (ISTATR with every input's state, one reply per change, in order); ISTAT answers them now.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { BROADCAST, Command, Nak, Reply, Scs } from '../constants.js';
import { encodeFrame, recheck, type Frame } from '../frame.js';
import { sealPacket, openPacket } from '../channel.js';
import { LineReader } from '../line.js';
import type { ParserEvent } from '../parser.js';
import { clientCryptogram, hostCryptogram, initialRMac, SCBK_D, SecureSession, sessionKeys, type SessionKeys } from '../secure.js';
import { BAUD_RATES, type ByteDuplex } from '../transport.js';
import * as m from '../messages.js';

export interface ReaderOptions {
  address: number;
  identity?: m.Identity;
  capabilities?: { function: number; compliance: number; count: number }[];
  /** its paired key; without one the reader is in install mode and accepts only SCBK-D */
  scbk?: Buffer;
  /** refuse plain commands other than ID and CAP (default: once paired) */
  secureOnly?: boolean;
  crc?: boolean;
  /** its speed (baud, default 9600): a COMSET changes it, and the port's where the port can change */
  baud?: number;
  /**
   * The speed the controller's end of the line is set to now. A pseudo-terminal carries no speed, so a test (or
   * `npm run reader -- --peer`) says it: while it is not the reader's own, what is heard is garbage to it and ignored,
   * as on a real line.
   */
  heardAt?: () => number | undefined;
  /** its inputs' states at start, point 0 first (1: the circuit closed, active as OSDP says; default two, both 0) */
  inputs?: number[];
  /** how many outputs (relays) it has, all off at start (default 1) */
  outputs?: number;
}

/** An output of the reader: its permanent state, and a temporary one while a timed OUT runs. */
interface OutputPoint {
  permanent: number;
  temporary: { state: number; timer: ReturnType<typeof setTimeout> } | null;
}

export type Fault =
  | { kind: 'silent' }
  | { kind: 'late'; ms: number }
  | { kind: 'wrongSqn' }
  | { kind: 'badCrc' }
  | { kind: 'plaintext' }
  | { kind: 'forgeMac' }
  | { kind: 'busy' }
  /** answer the next POLL with this reply instead */
  | { kind: 'reply'; code: number; data: Uint8Array }
  /** write these bytes instead of the reply */
  | { kind: 'raw'; bytes: Uint8Array }
  /** write the reply in pieces cut at these offsets, `gapMs` apart (less than the 20 ms between characters) */
  | { kind: 'trickle'; cuts: number[]; gapMs: number };

export const DEMO_IDENTITY: m.Identity = { vendor: '0a1b2c', model: 1, version: 2, serial: 0x12345678, firmware: '1.4.2' };
export const DEMO_CAPABILITIES = [
  { function: 3, compliance: 1, count: 0 }, // card data format: raw bits
  { function: 4, compliance: 1, count: 1 }, // one LED
  { function: 5, compliance: 1, count: 1 }, // one buzzer
  { function: 6, compliance: 1, count: 1 }, // one text line
  { function: 8, compliance: 1, count: 0 }, // CRC-16
  { function: 9, compliance: 1, count: 1 }, // AES-128 secure channel
  { function: 10, compliance: 0x00, count: 0x02 }, // receive buffer 512
];

const nextSqn = (s: number) => (s === 3 ? 1 : s + 1);
const SEEN_MAX = 1000;

export class Reader extends EventEmitter {
  address: number;
  private scbk: Buffer | undefined;
  private secureOnly: boolean;
  private readonly line: LineReader;
  private session: SecureSession | undefined;
  private pending: { keys: SessionKeys; acuRandom: Buffer; pdRandom: Buffer } | undefined;
  private lastSqn: number | undefined;
  private lastReply: Buffer | undefined;
  private readonly queue: { code: number; data: Buffer }[] = [];
  private readonly faults: Fault[] = [];
  private readonly cuid = randomBytes(8);
  private readonly inputStates: number[];
  private readonly outputPoints: OutputPoint[];
  tamper = false;
  power = false;
  baud: number;
  /**
   * Packets not understood because the controller sent at another speed: each one's command code, as the simulation
   * still knows it (-1: not even a frame). A real reader hears noise; tests read which command was lost.
   */
  readonly garbledCodes: number[] = [];
  get garbled() {
    return this.garbledCodes.length;
  }
  /** what the controller asked for, newest last (tests read it) */
  readonly seen: { led: m.LedRecord[][]; buzzer: m.BuzzerSpec[]; text: string[]; out: m.OutputSpec[][]; commands: number[] } = {
    led: [],
    buzzer: [],
    text: [],
    out: [],
    commands: [],
  };

  constructor(
    private readonly port: ByteDuplex,
    private readonly opts: ReaderOptions,
  ) {
    super();
    this.address = opts.address;
    this.baud = opts.baud ?? 9600;
    this.scbk = opts.scbk;
    this.secureOnly = opts.secureOnly ?? opts.scbk !== undefined;
    this.line = new LineReader(port, (e) => this.onEvent(e));
    this.inputStates = [...(opts.inputs ?? [0, 0])];
    this.outputPoints = Array.from({ length: opts.outputs ?? 1 }, () => ({ permanent: 0, temporary: null }));
  }

  /** Each output's state now (1 on, 0 off), output 0 first. */
  get outputs(): number[] {
    return this.outputPoints.map((o) => o.temporary?.state ?? o.permanent);
  }
  /** Each input's state now, point 0 first. */
  get inputs(): number[] {
    return [...this.inputStates];
  }
  /** An input's circuit changes: told to the controller in the reply to its next POLL (ISTATR, every input's state). */
  setInput(point: number, state: number) {
    if (point < 0 || point >= this.inputStates.length) throw new RangeError(`the reader has no input ${point}`);
    if (this.inputStates[point] === state) return;
    this.inputStates[point] = state;
    this.queue.push({ code: Reply.ISTATR, data: Buffer.from(this.inputStates) });
  }

  get paired() {
    return this.scbk !== undefined;
  }
  get secure() {
    return this.session !== undefined;
  }

  close() {
    this.line.close();
    for (const o of this.outputPoints) if (o.temporary) clearTimeout(o.temporary.timer);
  }

  presentCard(bits: string, reader = 0) {
    this.queue.push({ code: Reply.RAW, data: m.encodeRaw(bits, reader) });
  }
  enterKeys(keys: string, reader = 0) {
    this.queue.push({ code: Reply.KEYPAD, data: m.encodeKeypad(keys, reader) });
  }
  setStatus(s: { tamper?: boolean; power?: boolean }) {
    this.tamper = s.tamper ?? this.tamper;
    this.power = s.power ?? this.power;
    this.queue.push({ code: Reply.LSTATR, data: Buffer.from([+this.tamper, +this.power]) });
  }
  /** Misbehaves on the next `times` replies. */
  fault(f: Fault, times = 1) {
    for (let i = 0; i < times; i++) this.faults.push(f);
  }
  clearFaults() {
    this.faults.length = 0;
  }

  private onEvent(e: ParserEvent) {
    const heard = this.opts.heardAt?.();
    if (heard !== undefined && heard !== this.baud) {
      this.garbledCodes.push(e.kind === 'fault' ? -1 : e.frame.code);
      return;
    }
    if (e.kind === 'fault') {
      if (!e.reply && e.address === this.address) this.send(this.plain(e.ctrl & 3, Reply.NAK, Buffer.from([e.fault === 'check' ? Nak.CHECK : Nak.LENGTH])));
      return;
    }
    const f = e.frame;
    if (f.reply) return;
    if (f.address !== this.address && !(f.address === BROADCAST && [Command.ID, Command.CAP, Command.COMSET].includes(f.code as never))) return;
    this.onCommand(f);
  }

  private plain(sqn: number, code: number, data: Uint8Array = Buffer.alloc(0), scb?: { type: number; data: Uint8Array }) {
    return encodeFrame({ address: this.address, reply: true, sqn, crc: this.opts.crc ?? true, code, data, scb });
  }

  private nak(sqn: number, code: number) {
    this.send(this.plain(sqn, Reply.NAK, Buffer.from([code])));
  }

  private endSession() {
    this.session = undefined;
    this.pending = undefined;
  }

  private onCommand(f: Frame) {
    // what the controller asked for is kept for tests and the demo, the last SEEN_MAX of each (a demo runs for hours)
    this.seen.commands.push(f.code);
    for (const list of Object.values(this.seen) as unknown[][]) if (list.length > SEEN_MAX) list.splice(0, list.length - SEEN_MAX);
    this.emit('command', f.code);
    // §5.6: 0 restarts the sequence (and ends any session); a repeated number asks for the last reply again
    if (f.sqn === 0) {
      this.lastSqn = undefined;
      this.lastReply = undefined;
      this.endSession();
    } else if (this.lastReply && f.sqn === this.lastSqn) {
      if (this.faults[0]?.kind === 'silent') this.faults.shift();
      else this.send(this.lastReply);
      return;
    } else if (this.lastSqn !== undefined && f.sqn !== nextSqn(this.lastSqn)) {
      this.nak(f.sqn, Nak.SEQUENCE);
      return;
    }
    let code = f.code;
    let data = f.data;
    let secureIn = false;
    if (f.scb) {
      const t = f.scb.type;
      if (t === Scs.CHLNG && code === Command.CHLNG) return this.reply(f.sqn, this.challenge(f), false);
      if (t === Scs.SCRYPT && code === Command.SCRYPT) return this.reply(f.sqn, this.scrypt(f), false);
      if (t !== Scs.CMD_MAC && t !== Scs.CMD_ENC) return this.nak(f.sqn, Nak.SCB_UNSUPPORTED);
      if (!this.session) return this.nak(f.sqn, Nak.SECURITY);
      const opened = openPacket(this.session, 'command', f);
      if (!opened.ok) {
        this.endSession();
        this.emit('securityFailure', opened.reason);
        return this.nak(f.sqn, Nak.SECURITY);
      }
      code = opened.code;
      data = opened.data;
      secureIn = true;
    } else {
      if (this.session) this.endSession();
      if (code === Command.CHLNG || code === Command.SCRYPT) return this.nak(f.sqn, Nak.SECURITY);
      if (this.secureOnly && code !== Command.ID && code !== Command.CAP) return this.nak(f.sqn, Nak.SECURITY);
    }
    this.reply(f.sqn, this.dispatch(code, data, secureIn), secureIn);
  }

  private challenge(f: Frame): { code: number; data: Buffer; scb?: { type: number; data: Uint8Array } } {
    const useScbk = f.scb!.data[0] === 1;
    if (f.data.length !== 8) return { code: Reply.NAK, data: Buffer.from([Nak.LENGTH]) };
    // install mode accepts only SCBK-D, a paired reader only its own key
    if (useScbk !== this.paired) return { code: Reply.NAK, data: Buffer.from([Nak.SECURITY]) };
    const key = this.scbk ?? SCBK_D;
    const acuRandom = Buffer.from(f.data);
    const pdRandom = randomBytes(8);
    const keys = sessionKeys(key, acuRandom);
    this.pending = { keys, acuRandom, pdRandom };
    this.session = undefined;
    return {
      code: Reply.CCRYPT,
      data: Buffer.concat([this.cuid, pdRandom, clientCryptogram(keys.sEnc, acuRandom, pdRandom)]),
      scb: { type: Scs.CCRYPT, data: Buffer.from([useScbk ? 1 : 0]) },
    };
  }

  private scrypt(f: Frame) {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return { code: Reply.NAK, data: Buffer.from([Nak.SECURITY]) };
    if (f.data.length !== 16) return { code: Reply.NAK, data: Buffer.from([Nak.LENGTH]) };
    const expected = hostCryptogram(p.keys.sEnc, p.acuRandom, p.pdRandom);
    if (!expected.equals(f.data)) {
      this.emit('securityFailure', 'cryptogram');
      return { code: Reply.NAK, data: Buffer.from([Nak.SECURITY]) };
    }
    const rmac = initialRMac(p.keys, expected);
    this.session = new SecureSession(p.keys, rmac);
    this.emit('secure');
    return { code: Reply.RMAC_I, data: rmac, scb: { type: Scs.RMAC_I, data: Buffer.from([0x01]) } };
  }

  private dispatch(code: number, data: Buffer, secureIn: boolean): { code: number; data: Buffer } {
    const ack = { code: Reply.ACK, data: Buffer.alloc(0) };
    const nak = (c: number) => ({ code: Reply.NAK, data: Buffer.from([c]) });
    const needs = (n: number) => data.length === n;
    switch (code) {
      case Command.POLL: {
        if (!needs(0)) return nak(Nak.LENGTH);
        const i = this.faults.findIndex((f) => f.kind === 'reply');
        if (i >= 0) {
          const f = this.faults.splice(i, 1)[0] as Extract<Fault, { kind: 'reply' }>;
          return { code: f.code, data: Buffer.from(f.data) };
        }
        return this.queue.shift() ?? ack;
      }
      case Command.ID:
        return needs(1) ? { code: Reply.PDID, data: m.encodePdid(this.opts.identity ?? DEMO_IDENTITY) } : nak(Nak.LENGTH);
      case Command.CAP:
        return needs(1) ? { code: Reply.PDCAP, data: m.encodePdcap(this.opts.capabilities ?? DEMO_CAPABILITIES) } : nak(Nak.LENGTH);
      case Command.LSTAT:
        return needs(0) ? { code: Reply.LSTATR, data: Buffer.from([+this.tamper, +this.power]) } : nak(Nak.LENGTH);
      case Command.ISTAT:
        return needs(0) ? { code: Reply.ISTATR, data: Buffer.from(this.inputStates) } : nak(Nak.LENGTH);
      case Command.OSTAT:
        return needs(0) ? { code: Reply.OSTATR, data: Buffer.from(this.outputs) } : nak(Nak.LENGTH);
      case Command.RSTAT:
        return needs(0) ? { code: Reply.RSTATR, data: Buffer.from([0]) } : nak(Nak.LENGTH);
      case Command.OUT: {
        const o = m.decodeOut(data);
        if (!o) return nak(Nak.LENGTH);
        if (o.some((x) => x.output >= this.outputPoints.length)) return nak(Nak.RECORD);
        this.seen.out.push(o);
        this.emit('out', o);
        for (const x of o) this.drive(x);
        return ack;
      }
      case Command.LED: {
        const l = m.decodeLed(data);
        if (!l) return nak(Nak.RECORD);
        this.seen.led.push(l);
        this.emit('led', l);
        return ack;
      }
      case Command.BUZ: {
        const b = m.decodeBuzzer(data);
        if (!b) return nak(Nak.RECORD);
        this.seen.buzzer.push(b);
        this.emit('buzzer', b);
        return ack;
      }
      case Command.TEXT: {
        const t = m.decodeText(data);
        if (!t) return nak(Nak.RECORD);
        this.seen.text.push(t.text);
        this.emit('text', t);
        return ack;
      }
      case Command.COMSET: {
        const c = m.decodeComset(data);
        if (!c || c.address > 0x7e || !(BAUD_RATES as readonly number[]).includes(c.baud)) return nak(Nak.RECORD);
        setImmediate(() => {
          this.address = c.address;
          if (c.baud !== this.baud) {
            this.baud = c.baud;
            // the COM reply leaves at the old speed: the port changes once it is out. A pseudo-terminal drops what the
            // other end (socat) has not read yet when its settings change, drained or not: 20 ms more for it to be read
            const update = () => this.port.update?.({ baudRate: c.baud }, () => {});
            if (this.port.drain) this.port.drain(() => setTimeout(update, 20));
            else update();
          }
          this.emit('comset', c);
        });
        return { code: Reply.COM, data: m.encodeCom(c) };
      }
      case Command.KEYSET: {
        if (!secureIn) return nak(Nak.SECURITY);
        const key = m.decodeKeyset(data);
        if (!key) return nak(Nak.RECORD);
        this.scbk = key;
        this.secureOnly = true;
        this.emit('keyset');
        return ack;
      }
      case Command.ACURXSIZE: {
        const n = m.decodeU16(data);
        return n !== undefined && n >= 128 ? ack : nak(Nak.RECORD);
      }
      case Command.KEEPACTIVE:
        return needs(2) ? ack : nak(Nak.LENGTH);
      case Command.ABORT:
        return needs(0) ? ack : nak(Nak.LENGTH);
      default:
        return nak(Nak.UNKNOWN_COMMAND);
    }
  }

  /** One output's OUT record (§6.8 codes): for good (1, 2: a running timer is cut; 3, 4: it runs out first) or for
   *  `timer` × 100 ms (5 on, 6 off), then back to its permanent state. Each change is an 'output' event. */
  private drive(x: Required<m.OutputSpec>) {
    const o = this.outputPoints[x.output];
    const before = o.temporary?.state ?? o.permanent;
    const cut = () => {
      if (o.temporary) clearTimeout(o.temporary.timer);
      o.temporary = null;
    };
    if (x.code === 1 || x.code === 2) {
      cut();
      o.permanent = x.code === 2 ? 1 : 0;
    } else if (x.code === 3 || x.code === 4) o.permanent = x.code === 4 ? 1 : 0;
    else if ((x.code === 5 || x.code === 6) && x.timer > 0) {
      cut();
      const timer = setTimeout(() => {
        o.temporary = null;
        if (o.permanent !== (x.code === 5 ? 1 : 0)) this.emit('output', { output: x.output, on: o.permanent === 1 });
      }, x.timer * 100);
      timer.unref?.();
      o.temporary = { state: x.code === 5 ? 1 : 0, timer };
    }
    const after = o.temporary?.state ?? o.permanent;
    if (after !== before) this.emit('output', { output: x.output, on: after === 1 });
  }

  private reply(sqn: number, r: { code: number; data: Buffer; scb?: { type: number; data: Uint8Array } }, secure: boolean) {
    const fault = this.faults.length && this.faults[0].kind !== 'reply' ? this.faults.shift() : undefined;
    if (fault?.kind === 'busy') return this.send(this.plain(sqn, Reply.BUSY));
    let bytes: Buffer;
    if (secure && this.session && fault?.kind !== 'plaintext')
      bytes = sealPacket(this.session, 'reply', { address: this.address, sqn, code: r.code, data: r.data, crc: this.opts.crc ?? true });
    else bytes = this.plain(sqn, r.code, r.data, r.scb);
    this.lastSqn = sqn;
    this.lastReply = bytes;
    if (!fault) return this.send(bytes);
    switch (fault.kind) {
      case 'silent':
        return;
      case 'late':
        return void setTimeout(() => this.port.write(bytes), fault.ms);
      case 'wrongSqn':
        bytes = Buffer.from(bytes);
        bytes[4] = (bytes[4] & ~3) | nextSqn(sqn === 0 ? 1 : sqn);
        return this.send(recheck(bytes));
      case 'badCrc':
        bytes = Buffer.from(bytes);
        bytes[bytes.length - 1] ^= 0xff;
        return this.send(bytes);
      case 'forgeMac': {
        bytes = Buffer.from(bytes);
        const macAt = bytes.length - (bytes[4] & 4 ? 2 : 1) - 4;
        bytes[macAt] ^= 0x01;
        return this.send(recheck(bytes));
      }
      case 'raw':
        return this.send(Buffer.from(fault.bytes));
      case 'trickle': {
        const points = [...new Set(fault.cuts.map((c) => c % bytes.length))].filter((c) => c > 0).sort((x, y) => x - y);
        const pieces = [0, ...points].map((from, i) => bytes.subarray(from, points[i] ?? bytes.length));
        pieces.forEach((piece, i) => setTimeout(() => this.port.write(piece), i * fault.gapMs));
        return;
      }
      default:
        return this.send(bytes);
    }
  }

  private send(bytes: Buffer) {
    this.port.write(bytes);
  }
}
