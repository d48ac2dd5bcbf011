// The controller (CP) of one OSDP line: it brings each configured reader online (ID, CAP, the secure channel, LSTAT),
// then polls it, sends what the caller queued (LED, BUZ, TEXT, OUT, ISTAT), turns replies into events (a card, a PIN,
// its inputs' and outputs' states), supervises, and counts every fault. See docs/OSDP.md for each choice.
import { EventEmitter } from 'node:events';
import { fill, sentenceValue, type Sentence } from '../../contract/messages.js';
import { Command, MAX_PACKET, Nak, nakSaid, Reply, Scs, commandName } from './constants.js';
import { encodeFrame, type Frame } from './frame.js';
import { Link, type LineCounters } from './link.js';
import { openPacket, sealPacket } from './channel.js';
import type { ParserCounters } from './parser.js';
import { clientCryptogram, hostCryptogram, initialRMac, newScbk, randomNumber, SCBK_D, SecureSession, sessionKeys, type SessionKeys } from './secure.js';
import { BAUD_RATES, type ByteDuplex } from './transport.js';
import * as m from './messages.js';
import { anyoneThere, moveReader, probe, type Found } from './discover.js';

/** A refusal of the bus with its sentence's key and values (issue 48: the server passes it on as the edge said it). */
export class BusRefusal extends Error {
  constructor(readonly said: Sentence) {
    super(said.message);
  }
}

export interface ReaderConfig {
  address: number;
  /** the reader's own key: the channel must open with it, and from then on every reply must be secure */
  scbk?: Buffer;
  /** pair it: open with SCBK-D, give it a fresh random key by KEYSET (the 'keyset' event carries it, once) */
  install?: boolean;
  /** CRC-16 (default) or the 8-bit checksum */
  crc?: boolean;
}

export type ReaderState = 'offline' | 'connecting' | 'online' | 'refused';

export interface ReaderCounters {
  commands: number;
  replies: number;
  timeouts: number;
  /** replies whose CRC or checksum failed */
  crc: number;
  naks: number;
  /** replies that carried another sequence number */
  sequence: number;
  /** secure channel failures: plain text on a secure line, bad MAC, bad cryptogram, refused key, lost session */
  secureChannel: number;
  /** replies whose data the standard does not allow (a RAW of 0 bits, a KEYPAD of control bytes, unknown codes) */
  malformed: number;
  busy: number;
  retries: number;
}

export interface ReaderStatus {
  address: number;
  state: ReaderState;
  secure: boolean;
  /** the key in use is the reader's own (not SCBK-D) */
  paired: boolean;
  identity?: m.Identity;
  capabilities?: m.CapabilityEntry[];
  tamper: boolean;
  power: boolean;
  counters: ReaderCounters;
  /** why it is offline or refused, in words */
  reason?: string;
}

export interface BusOptions {
  /** to count the wire time of each packet in the reply timeout (default 9600) */
  baudRate?: number;
  /** how often each online reader is polled, ms (default 50) */
  pollIntervalMs?: number;
  /** §5.9 (default 200) */
  replyTimeoutMs?: number;
  /** failed exchanges in a row that make a reader offline (default 3: with the retry at once, offline in ~600 ms) */
  failuresToOffline?: number;
  /** how often an offline reader is asked again (default 1000) */
  offlineRetryMs?: number;
  /** how often a reader that refused the secure channel is tried again (default 5000) */
  refusedRetryMs?: number;
}

export type Mode = 'normal' | 'locked' | 'unlocked' | 'lockdown' | 'threat' | 'offline';

export interface BusEvents {
  online: [{ address: number; identity?: m.Identity; capabilities?: m.CapabilityEntry[]; secure: boolean }];
  /** `said`: the reason as a sentence with its key (the edge journals it keyed) */
  offline: [{ address: number; reason: string; said: Sentence }];
  card: [{ address: number } & m.CardRead];
  pin: [{ address: number; reader: number; keys: string }];
  tamper: [{ address: number; active: boolean }];
  power: [{ address: number; failure: boolean }];
  secure: [{ address: number }];
  /** the reader's new key after pairing: store it (encrypted); it is given nowhere else */
  keyset: [{ address: number; scbk: Buffer }];
  /** a security alarm: the reader refused the key, a bad cryptogram, plain text or a bad MAC on a secure line */
  alarm: [{ address: number; reason: string; said: Sentence }];
  nak: [{ address: number; command: string; code: number; reason: string }];
  /** its inputs' states (osdp_ISTATR, one byte each, 0 inactive, 1 active, point 0 first): the reply to an ISTAT, or
   *  to a POLL when an input changed */
  inputs: [{ address: number; states: number[] }];
  /** its outputs' states (osdp_OSTATR, one byte each, 0 off, 1 on): the reply to an OSTAT, or to a POLL */
  outputs: [{ address: number; states: number[] }];
  /** the port itself failed (an adapter unplugged, a write refused): its readers go offline by their timeouts */
  lineError: [{ message: string }];
}

type Phase = 'id' | 'cap' | 'chlng' | 'scrypt' | 'keyset' | 'lstat' | 'ready';

interface Outbound {
  code: number;
  data: Buffer;
  resolve: (r: { code: number; data: Buffer }) => void;
  reject: (e: Error) => void;
}

interface Device {
  cfg: ReaderConfig;
  status: ReaderStatus;
  phase: Phase;
  sqn: number;
  session?: SecureSession;
  handshake?: { keys: SessionKeys; acuRandom: Buffer; keyByte: number; hostCrypt?: Buffer };
  newKey?: Buffer;
  retry?: { packet: Buffer; code: number; out?: Outbound };
  failures: number;
  dueAt: number;
  outbox: Outbound[];
}

const OUTBOX_MAX = 16;
const nextSqn = (s: number) => (s === 3 ? 1 : s + 1);

/** One OSDP line of readers, driven by this controller. */
export class Bus extends EventEmitter<BusEvents> {
  readonly link: Link;
  private readonly devices = new Map<number, Device>();
  private readonly opt: Required<BusOptions>;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private rr = 0;
  /** scans of addresses not on the line (Hardware → Interface → pre-add), one address per turn between the readers' */
  private readonly probes: (() => Promise<void>)[] = [];
  private probed = false;
  /** the speed a COMSET moved the line's reader to: the line changes to it before its next exchange */
  private speedTo: number | undefined;

  private readonly onLineError = (e: Error) => this.emit('lineError', { message: e.message });
  private readonly onLineClose = (e?: Error | null) => this.emit('lineError', { message: e ? `the port closed: ${e.message}` : 'the port closed' });

  constructor(
    private readonly line: ByteDuplex,
    options: BusOptions = {},
  ) {
    super();
    line.on('error', this.onLineError);
    line.on('close', this.onLineClose);
    this.opt = {
      baudRate: 9600,
      pollIntervalMs: 50,
      replyTimeoutMs: 200,
      failuresToOffline: 3,
      offlineRetryMs: 1000,
      refusedRetryMs: 5000,
      ...options,
    };
    this.link = new Link(line, this.opt.baudRate, this.opt.replyTimeoutMs);
  }

  add(cfg: ReaderConfig) {
    if (!Number.isInteger(cfg.address) || cfg.address < 0 || cfg.address > 0x7e) throw new RangeError(`reader address ${cfg.address} is not 0-126`);
    if (this.devices.has(cfg.address)) throw new Error(`reader ${cfg.address} is on the line already`);
    if (cfg.scbk && cfg.scbk.length !== 16) throw new RangeError('a key is 16 bytes');
    this.devices.set(cfg.address, {
      cfg: { ...cfg },
      status: {
        address: cfg.address,
        state: 'offline',
        secure: false,
        paired: false,
        tamper: false,
        power: false,
        counters: { commands: 0, replies: 0, timeouts: 0, crc: 0, naks: 0, sequence: 0, secureChannel: 0, malformed: 0, busy: 0, retries: 0 },
      },
      phase: 'id',
      sqn: 0,
      failures: 0,
      dueAt: 0,
      outbox: [],
    });
    this.wake?.();
  }

  remove(address: number) {
    const d = this.devices.get(address);
    if (!d) return;
    this.devices.delete(address);
    for (const o of d.outbox.splice(0)) o.reject(new Error('reader removed'));
  }

  /** A copy of each reader's state and counters (keys are not in it). */
  readers(): ReaderStatus[] {
    return [...this.devices.values()].map((d) => this.snapshot(d));
  }
  reader(address: number): ReaderStatus | undefined {
    const d = this.devices.get(address);
    return d && this.snapshot(d);
  }
  private snapshot(d: Device): ReaderStatus {
    return structuredClone(d.status);
  }
  /** The line's own counters: the parser's (noise, torn, bad check) and packets nobody waited for. */
  lineCounters(): ParserCounters & LineCounters {
    return { ...this.link.reader.parser.counters, ...this.link.counters };
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop() {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.link.close();
    this.line.off('error', this.onLineError);
    this.line.off('close', this.onLineClose);
    for (const d of this.devices.values()) for (const o of d.outbox.splice(0)) o.reject(new Error('bus stopped'));
  }

  /** Sends a command to an online reader after what is queued; resolves with its reply, rejects on a NAK. */
  send(address: number, code: number, data: Uint8Array = Buffer.alloc(0)): Promise<{ code: number; data: Buffer }> {
    const d = this.devices.get(address);
    if (!d) return Promise.reject(new Error(`no reader ${address} on this line`));
    if (d.status.state !== 'online') return Promise.reject(new Error(`reader ${address} is ${d.status.state}`));
    if (d.outbox.length >= OUTBOX_MAX) return Promise.reject(new Error(`reader ${address} has ${OUTBOX_MAX} commands waiting`));
    // room for the header, a security block, the padding, the MAC and the CRC; no larger than the reader takes (PDCAP 10)
    const rx = d.status.capabilities?.find((c) => c.function === 10);
    const room = Math.min(MAX_PACKET, rx ? rx.compliance | (rx.count << 8) || MAX_PACKET : MAX_PACKET) - 32;
    if (data.length > room) return Promise.reject(new RangeError(`${data.length} bytes of data do not fit in a packet to reader ${address}`));
    return new Promise((resolve, reject) => {
      d.outbox.push({ code, data: Buffer.from(data), resolve, reject });
      this.wake?.();
    });
  }

  led(address: number, spec: m.LedSpec) {
    return this.send(address, Command.LED, m.encodeLed(spec));
  }
  buzzer(address: number, spec: m.BuzzerSpec) {
    return this.send(address, Command.BUZ, m.encodeBuzzer(spec));
  }
  text(address: number, spec: m.TextSpec) {
    return this.send(address, Command.TEXT, m.encodeText(spec));
  }
  output(address: number, list: m.OutputSpec[]) {
    return this.send(address, Command.OUT, m.encodeOut(list));
  }
  /** osdp_ISTAT: the reader answers its inputs' states (ISTATR, also the 'inputs' event). */
  inputStatus(address: number) {
    return this.send(address, Command.ISTAT);
  }
  /** osdp_OSTAT: the reader answers its outputs' states (OSTATR, also the 'outputs' event). */
  outputStatus(address: number) {
    return this.send(address, Command.OSTAT);
  }

  /** The line's speed now (baud): the one it was given, or the one a COMSET moved it to. */
  get baudRate() {
    return this.link.baudRate;
  }

  /**
   * osdp_COMSET: gives a reader a new address and/or speed. Resolves once the reader said yes (COM); the bus then speaks
   * to it at its new address (from sequence 0, the secure channel opened again) and, for a new speed, reopens the line
   * at it (`update` of the port) before its next exchange. A new speed is refused while another reader is online on the
   * line: they all share one speed, and the others would be lost.
   */
  async setAddress(address: number, to: number, baud = this.baudRate) {
    if (!Number.isInteger(to) || to < 0 || to > 0x7e) throw new RangeError(`reader address ${to} is not 0-126`);
    if (!(BAUD_RATES as readonly number[]).includes(baud)) throw new RangeError(`${baud} baud is not an OSDP speed`);
    if (to !== address && this.devices.has(to)) throw new BusRefusal(fill('osdp.readerOnLine', 'reader {address} is on the line already', { address: to }));
    if (baud !== this.baudRate) {
      const others = [...this.devices.values()].filter((x) => x.cfg.address !== address && x.status.state === 'online').map((x) => x.cfg.address);
      if (others.length)
        throw new BusRefusal(
          fill('osdp.othersWouldBeLost', 'the other readers online on this line ({list}) would be lost at {baud} baud', { list: others.join(', '), baud }),
        );
      if (!this.line.update) throw new BusRefusal(fill('osdp.lineSpeedFixed', 'this line cannot change its speed', {}));
    }
    const reply = await this.send(address, Command.COMSET, m.encodeComset({ address: to, baud }));
    const com = m.decodeCom(reply.data);
    if (!com || com.address !== to || com.baud !== baud)
      throw new BusRefusal(fill('osdp.notTaken', 'reader {address} did not take address {to} at {baud} baud', { address, to, baud }));
  }

  /**
   * Sets the line to `baud` before its next exchange: the speed a COMSET moved the line's readers to, kept by the edge
   * across a restart (the port was opened at its starting default). Not an OSDP speed: nothing changes.
   */
  useSpeed(baud: number) {
    if (!(BAUD_RATES as readonly number[]).includes(baud) || baud === this.baudRate) return;
    this.speedTo = baud;
    this.wake?.();
  }

  /**
   * A reader a scan found at another speed and not on the line: a plain osdp_COMSET at its speed (it has no key yet)
   * moves it to the line's, between the readers' turns. Resolves whether it answered COM; add it to the line then.
   */
  moveToLine(address: number, baud: number): Promise<boolean> {
    if (this.devices.has(address) || !(BAUD_RATES as readonly number[]).includes(baud)) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.probes.push(async () => {
        const home = this.link.baudRate;
        let ok = false;
        try {
          await this.at(baud, async () => void (ok = await moveReader(this.link, address, home)));
        } catch {
          // a fault on the line: not moved
        }
        resolve(ok);
      });
      this.wake?.();
    });
  }

  /** Reopens the line at `baud` (between exchanges); false when the port refused. */
  private async speed(baud: number): Promise<boolean> {
    if (baud === this.link.baudRate) return true;
    const ok = await new Promise<boolean>((resolve) =>
      this.line.update
        ? this.line.update({ baudRate: baud }, (e) => {
            if (e) this.emit('lineError', { message: `the line could not change to ${baud} baud: ${e.message}` });
            resolve(!e);
          })
        : resolve(false),
    );
    if (ok) this.link.baudRate = baud;
    return ok;
  }

  /**
   * Asks osdp_ID (then osdp_CAP) at each address not on the line, one address between the readers' turns, and resolves
   * with what answered (a reader wired but not configured yet: Hardware → Interface → pre-add). The line must be started.
   * `speeds`: also each of these speeds, where a broadcast osdp_ID (one reply timeout) finds anyone, address by address;
   * each such turn sets the line to that speed and back, so the readers on it are polled between them. `withinMs`: no
   * turn starts after it (`unasked` on the answer counts the addresses left).
   */
  async scan(addresses: readonly number[], opts: { speeds?: readonly number[]; withinMs?: number } = {}): Promise<Found[] & { unasked?: number }> {
    const wanted = [...new Set(addresses)].filter((a) => Number.isInteger(a) && a >= 0 && a <= 0x7e && !this.devices.has(a));
    const found: Found[] & { unasked?: number } = [];
    const end = performance.now() + (opts.withinMs ?? Infinity);
    let unasked = 0;
    const turn = (f: () => Promise<void>) =>
      new Promise<void>((resolve) => {
        this.probes.push(async () => {
          try {
            if (performance.now() > end) unasked++;
            else await f();
          } catch {
            // a fault on the line while probing: nothing found there
          }
          resolve();
        });
        this.wake?.();
      });
    const ask = (baud: number) =>
      Promise.all(
        wanted.map((a) =>
          turn(() =>
            this.at(baud, async () => {
              const f = this.devices.has(a) ? undefined : await probe(this.link, a);
              if (f) found.push(f);
            }),
          ),
        ),
      );
    const home = this.link.baudRate;
    await ask(home);
    for (const baud of opts.speeds ?? []) {
      if (baud === home || !(BAUD_RATES as readonly number[]).includes(baud)) continue;
      let heard = false;
      await turn(() => this.at(baud, async () => void (heard = await anyoneThere(this.link))));
      if (heard) await ask(baud);
    }
    if (unasked) found.unasked = unasked;
    return found.sort((a, b) => a.address - b.address || (a.baud ?? 0) - (b.baud ?? 0));
  }

  /** Runs `f` with the line at `baud`, then puts it back at the speed it was. */
  private async at(baud: number, f: () => Promise<void>) {
    const home = this.link.baudRate;
    if (baud === home) return f();
    if (!(await this.speed(baud))) return;
    try {
      await f();
    } finally {
      await this.speed(home);
    }
  }

  /** Granted: green for 2 s and one short beep (and the text, where the reader has a line). */
  showGranted(address: number, text?: string) {
    return this.show(address, 'GREEN', { onTime: 2, offTime: 0, count: 1 }, text);
  }
  /** Denied: red for 2 s and two beeps. */
  showDenied(address: number, text?: string) {
    return this.show(address, 'RED', { onTime: 2, offTime: 2, count: 2 }, text);
  }
  private async show(address: number, colour: m.ColorName, beep: m.BuzzerSpec, text?: string) {
    const all = [
      this.led(address, { temporary: { on: colour, onTime: 20, timer: 20 } }),
      this.buzzer(address, { tone: 2, ...beep }),
      ...(text ? [this.text(address, { command: 3, seconds: 2, text })] : []),
    ];
    await Promise.all(all);
  }
  /** The door's mode as the reader's steady colour: red locked, green unlocked, blinking red lockdown, amber threat,
   *  slowly blinking amber while the controller is offline. */
  showMode(address: number, mode: Mode) {
    const permanent: m.LedSpec['permanent'] = {
      normal: { on: 'RED' as const },
      locked: { on: 'RED' as const },
      unlocked: { on: 'GREEN' as const },
      lockdown: { on: 'RED' as const, off: 'BLACK' as const, onTime: 5, offTime: 5 },
      threat: { on: 'AMBER' as const },
      // the controller decides without its server: amber, slowly blinking (a threat level's amber is steady)
      offline: { on: 'AMBER' as const, off: 'BLACK' as const, onTime: 10, offTime: 10 },
    }[mode];
    return this.led(address, { permanent });
  }

  // ---------- the loop ----------

  private async run() {
    while (this.running) {
      // a reader moved to another speed (COMSET): the line follows before anything else is sent
      if (this.speedTo !== undefined) {
        const to = this.speedTo;
        this.speedTo = undefined;
        await this.speed(to);
      }
      // a scan's address, then a reader's turn: the readers on the line stay polled while a scan goes on
      const scan = this.probed ? undefined : this.probes.shift();
      this.probed = scan !== undefined;
      if (scan) {
        await scan();
        continue;
      }
      const d = this.pick(performance.now());
      if (d) {
        try {
          await this.service(d);
        } catch (e) {
          // a fault of ours must not stop the line: that reader starts over, the others go on
          this.restart(
            d,
            d.status.state === 'online' ? 'connecting' : d.status.state,
            fill('osdp.fault', 'a fault of the edge: {error}', { error: (e as Error).message }),
          );
        }
        continue;
      }
      if (this.probes.length) continue;
      const due = Math.min(...[...this.devices.values()].map((x) => x.dueAt));
      const wait = Number.isFinite(due) ? Math.max(1, due - performance.now()) : 1000;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, wait);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** A retry first (it decides whether a reader is offline), then queued commands, then whoever is due, in turn. */
  private pick(now: number): Device | undefined {
    const list = [...this.devices.values()];
    if (!list.length) return undefined;
    const turn = (ok: (d: Device) => boolean) => {
      for (let i = 0; i < list.length; i++) {
        const d = list[(this.rr + i) % list.length];
        if (ok(d)) {
          this.rr = (this.rr + i + 1) % list.length;
          return d;
        }
      }
      return undefined;
    };
    return turn((d) => d.retry !== undefined && d.dueAt <= now) ?? turn((d) => d.phase === 'ready' && d.outbox.length > 0) ?? turn((d) => d.dueAt <= now);
  }

  private next(d: Device): { code: number; data: Buffer; scb?: { type: number; data: Buffer }; out?: Outbound } {
    const keyByte = d.cfg.install ? 0 : 1;
    switch (d.phase) {
      case 'id':
        return { code: Command.ID, data: Buffer.from([0]) };
      case 'cap':
        return { code: Command.CAP, data: Buffer.from([0]) };
      case 'chlng': {
        const acuRandom = randomNumber();
        const key = d.cfg.install ? SCBK_D : d.cfg.scbk!;
        d.handshake = { keys: sessionKeys(key, acuRandom), acuRandom, keyByte };
        return { code: Command.CHLNG, data: acuRandom, scb: { type: Scs.CHLNG, data: Buffer.from([keyByte]) } };
      }
      case 'scrypt':
        return { code: Command.SCRYPT, data: d.handshake!.hostCrypt!, scb: { type: Scs.SCRYPT, data: Buffer.from([keyByte]) } };
      case 'keyset':
        d.newKey = newScbk();
        return { code: Command.KEYSET, data: m.encodeKeyset(d.newKey) };
      case 'lstat':
        return { code: Command.LSTAT, data: Buffer.alloc(0) };
      case 'ready': {
        const out = d.outbox.shift();
        return out ? { code: out.code, data: out.data, out } : { code: Command.POLL, data: Buffer.alloc(0) };
      }
    }
  }

  private async service(d: Device) {
    const address = d.cfg.address;
    let packet: Buffer;
    let code: number;
    let out: Outbound | undefined;
    if (d.retry) {
      ({ packet, code, out } = d.retry);
      d.retry = undefined;
      d.status.counters.retries++;
    } else {
      if (d.phase === 'id') d.sqn = 0;
      const c = this.next(d);
      ({ code, out } = c);
      try {
        packet = d.session
          ? sealPacket(d.session, 'command', { address, sqn: d.sqn, code: c.code, data: c.data, crc: d.cfg.crc })
          : encodeFrame({ address, sqn: d.sqn, crc: d.cfg.crc ?? true, code: c.code, data: c.data, scb: c.scb });
      } catch (e) {
        out?.reject(e as Error);
        throw e;
      }
    }
    d.status.counters.commands++;
    const sequenceBefore = this.link.counters.sequence;
    const r = await this.link.exchange(address, d.sqn, packet);
    d.status.counters.sequence += this.link.counters.sequence - sequenceBefore;
    if (!this.devices.has(address)) return;
    if (r.kind !== 'reply') {
      if (r.kind === 'timeout') d.status.counters.timeouts++;
      else d.status.counters.crc++;
      return this.failed(d, r.kind === 'timeout' ? fill('osdp.noReply', 'no reply', {}) : fill('osdp.badCrc', 'bad CRC', {}), { packet, code, out });
    }
    d.status.counters.replies++;
    this.onReply(d, code, r.frame, out, packet);
  }

  /** A failed exchange: retried at once with the same packet, until the reader is offline. */
  private failed(d: Device, reason: Sentence, again: { packet: Buffer; code: number; out?: Outbound }) {
    d.failures++;
    if (d.failures < this.opt.failuresToOffline) {
      d.retry = again;
      d.dueAt = performance.now();
      return;
    }
    again.out?.reject(new Error(`reader ${d.cfg.address}: ${reason.message}`));
    this.restart(d, 'offline', reason);
  }

  /** Back to the start: sequence 0, no session; offline and refused readers are asked again later. */
  private restart(d: Device, state: ReaderState, said: Sentence) {
    const reason = said.message;
    const was = d.status.state;
    d.phase = 'id';
    d.sqn = 0;
    d.session = undefined;
    d.handshake = undefined;
    d.newKey = undefined;
    d.retry = undefined;
    d.failures = 0;
    d.status.secure = false;
    d.status.state = state;
    d.status.reason = state === 'connecting' ? undefined : reason;
    // connecting again waits a poll interval, so that a reader answering nonsense at once cannot take the line
    d.dueAt = performance.now() + (state === 'offline' ? this.opt.offlineRetryMs : state === 'refused' ? this.opt.refusedRetryMs : this.opt.pollIntervalMs);
    if (state !== 'connecting') for (const o of d.outbox.splice(0)) o.reject(new Error(`reader ${d.cfg.address} is ${state}: ${reason}`));
    if (was === 'online' && state !== 'online') this.emit('offline', { address: d.cfg.address, reason, said });
  }

  private alarm(d: Device, reason: Sentence, state: ReaderState = 'connecting') {
    d.status.counters.secureChannel++;
    this.emit('alarm', { address: d.cfg.address, reason: reason.message, said: reason });
    this.restart(d, state, reason);
  }

  private secureWanted(d: Device) {
    return d.cfg.install === true || d.cfg.scbk !== undefined;
  }

  private onReply(d: Device, sent: number, frame: Frame, out: Outbound | undefined, packet: Buffer) {
    const address = d.cfg.address;
    let code = frame.code;
    let data = frame.data;
    if (d.session) {
      const opened = openPacket(d.session, 'reply', frame);
      if (!opened.ok) {
        if (opened.reason === 'plaintext' && frame.code === Reply.NAK && frame.data[0] === Nak.CHECK) {
          d.status.counters.naks++;
          return this.failed(d, fill('osdp.readerHeardBadCrc', 'the reader heard a bad CRC', {}), { packet, code: sent, out });
        }
        // a plain NAK on a secure line carries nothing: the reader lost its session (restarted); open it again
        if (opened.reason === 'plaintext' && frame.code === Reply.NAK) {
          d.status.counters.secureChannel++;
          d.status.counters.naks++;
          out?.reject(new Error(`reader ${address}: session lost`));
          return this.restart(d, 'connecting', fill('osdp.sessionLost', 'session lost', {}));
        }
        if (opened.reason === 'plaintext' && frame.code === Reply.BUSY) return this.busy(d, packet, sent, out);
        out?.reject(new Error(`reader ${address}: secure channel failure (${opened.reason})`));
        return this.alarm(
          d,
          opened.reason === 'plaintext'
            ? fill('osdp.plainTextOnSecureLine', 'plain text on a secure line', {})
            : fill('osdp.badOnSecureLine', 'bad {part} on a secure line', { part: opened.reason }),
        );
      }
      code = opened.code;
      data = opened.data;
    }
    d.failures = 0;
    if (d.status.state === 'offline') d.status.state = 'connecting';
    if (code === Reply.BUSY) return this.busy(d, packet, sent, out);
    // §5.6: a bad check of the command: the same packet again, same sequence number
    if (code === Reply.NAK && data[0] === Nak.CHECK) {
      d.status.counters.naks++;
      return this.failed(d, fill('osdp.readerHeardBadCrc', 'the reader heard a bad CRC', {}), { packet, code: sent, out });
    }
    d.sqn = nextSqn(d.sqn);
    if (code === Reply.NAK) return this.onNak(d, sent, data, out);
    switch (d.phase) {
      case 'id': {
        const identity = code === Reply.PDID ? m.decodePdid(data) : undefined;
        if (!identity) return this.malformed(d, out);
        d.status.identity = identity;
        d.phase = 'cap';
        return;
      }
      case 'cap': {
        const caps = code === Reply.PDCAP ? m.decodePdcap(data) : undefined;
        if (!caps) return this.malformed(d, out);
        d.status.capabilities = caps;
        d.phase = this.secureWanted(d) ? 'chlng' : 'lstat';
        return;
      }
      case 'chlng': {
        const hs = d.handshake!;
        const cc = code === Reply.CCRYPT && frame.scb?.type === Scs.CCRYPT ? m.decodeCcrypt(data) : undefined;
        if (!cc) return this.malformed(d, out);
        if (!clientCryptogram(hs.keys.sEnc, hs.acuRandom, cc.pdRandom).equals(cc.cryptogram))
          return this.alarm(d, fill('osdp.badCryptogram', 'bad cryptogram: the reader does not hold this key', {}), 'refused');
        hs.hostCrypt = hostCryptogram(hs.keys.sEnc, hs.acuRandom, cc.pdRandom);
        d.phase = 'scrypt';
        return;
      }
      case 'scrypt': {
        const hs = d.handshake!;
        if (code !== Reply.RMAC_I || frame.scb?.type !== Scs.RMAC_I || data.length !== 16) return this.malformed(d, out);
        const rmac = initialRMac(hs.keys, hs.hostCrypt!);
        if (frame.scb.data[0] !== 0x01 || !rmac.equals(data)) return this.alarm(d, fill('osdp.badInitialRmac', 'bad initial R-MAC', {}), 'refused');
        d.session = new SecureSession(hs.keys, rmac);
        d.handshake = undefined;
        d.status.secure = true;
        d.status.paired = !d.cfg.install;
        this.emit('secure', { address });
        d.phase = d.cfg.install ? 'keyset' : 'lstat';
        return;
      }
      case 'keyset': {
        if (code !== Reply.ACK) return this.malformed(d, out);
        const scbk = d.newKey!;
        d.newKey = undefined;
        d.cfg.scbk = scbk;
        d.cfg.install = false;
        this.emit('keyset', { address, scbk });
        // the new key is proved at once: the channel is opened again with it
        d.session = undefined;
        d.status.secure = false;
        d.phase = 'chlng';
        return;
      }
      case 'lstat': {
        const st = code === Reply.LSTATR ? m.decodeLstatr(data) : undefined;
        if (!st) return this.malformed(d, out);
        this.status(d, st);
        d.phase = 'ready';
        d.status.state = 'online';
        d.status.reason = undefined;
        d.dueAt = performance.now() + this.opt.pollIntervalMs;
        this.emit('online', { address, identity: d.status.identity, capabilities: d.status.capabilities, secure: d.status.secure });
        return;
      }
      case 'ready':
        if (sent === Command.POLL) d.dueAt = performance.now() + this.opt.pollIntervalMs;
        this.event(d, code, data, out);
        if (sent === Command.COMSET && code === Reply.COM) this.moved(d, data);
        return;
    }
  }

  /** After its COM reply the reader answers at its new address and speed: the bus follows it there (from sequence 0). */
  private moved(d: Device, data: Buffer) {
    const com = m.decodeCom(data);
    if (!com) return;
    const to = com.address <= 0x7e && !this.devices.has(com.address) ? com.address : d.cfg.address;
    const faster = com.baud !== this.link.baudRate && (BAUD_RATES as readonly number[]).includes(com.baud);
    if (to === d.cfg.address && !faster) return;
    if (faster) this.speedTo = com.baud;
    this.devices.delete(d.cfg.address);
    d.cfg.address = to;
    d.status.address = to;
    this.devices.set(to, d);
    this.restart(d, 'connecting', faster ? fill('osdp.movedToBaud', 'moved to {baud} baud', { baud: com.baud }) : fill('osdp.newAddress', 'new address', {}));
  }

  private busy(d: Device, packet: Buffer, code: number, out: Outbound | undefined) {
    // §7: BUSY asks for the same command again (same sequence number, same packet) a little later
    d.status.counters.busy++;
    d.retry = { packet, code, out };
    d.dueAt = performance.now() + this.opt.pollIntervalMs;
    d.status.counters.retries--;
  }

  private malformed(d: Device, out: Outbound | undefined) {
    d.status.counters.malformed++;
    out?.reject(new Error(`reader ${d.cfg.address}: reply not as the standard allows`));
    if (d.phase !== 'ready')
      this.restart(d, d.status.state === 'online' ? 'connecting' : d.status.state, fill('osdp.replyNotStandard', 'reply not as the standard allows', {}));
  }

  private status(d: Device, st: m.LocalStatus) {
    const address = d.cfg.address;
    const first = d.status.state !== 'online' && d.phase !== 'ready';
    if (st.tamper !== d.status.tamper || (first && st.tamper)) this.emit('tamper', { address, active: st.tamper });
    if (st.power !== d.status.power || (first && st.power)) this.emit('power', { address, failure: st.power });
    d.status.tamper = st.tamper;
    d.status.power = st.power;
  }

  private event(d: Device, code: number, data: Buffer, out: Outbound | undefined) {
    const address = d.cfg.address;
    switch (code) {
      case Reply.ISTATR:
      case Reply.OSTATR:
        this.emit(code === Reply.ISTATR ? 'inputs' : 'outputs', { address, states: [...data] });
        break;
      case Reply.ACK:
      case Reply.RSTATR:
      case Reply.COM:
        break;
      case Reply.RAW: {
        const card = m.decodeRaw(data);
        if (!card) return this.malformed(d, out);
        this.emit('card', { address, ...card });
        break;
      }
      case Reply.KEYPAD: {
        const k = m.decodeKeypad(data);
        if (!k) return this.malformed(d, out);
        this.emit('pin', { address, reader: k.reader, keys: k.keys });
        break;
      }
      case Reply.LSTATR: {
        const st = m.decodeLstatr(data);
        if (!st) return this.malformed(d, out);
        this.status(d, st);
        break;
      }
      default:
        return this.malformed(d, out);
    }
    out?.resolve({ code, data });
  }

  private onNak(d: Device, sent: number, data: Buffer, out: Outbound | undefined) {
    const address = d.cfg.address;
    const code = data[0] ?? 0;
    d.status.counters.naks++;
    const said = nakSaid(code);
    const reason = said.message;
    this.emit('nak', { address, command: commandName(sent), code, reason });
    out?.reject(new Error(`reader ${address} refused ${commandName(sent)}: ${reason}`));
    if (code === Nak.SEQUENCE) return this.restart(d, d.status.state === 'online' ? 'connecting' : d.status.state, said);
    if (code === Nak.SECURITY || code === Nak.SCB_UNSUPPORTED) {
      // in the handshake: the reader will not open the channel with this key (paired already, or not yet paired)
      if (!this.secureWanted(d)) return this.alarm(d, fill('osdp.secureRequired', 'the reader requires the secure channel', {}), 'refused');
      if (d.phase === 'chlng' || d.phase === 'scrypt')
        return this.alarm(d, fill('osdp.refusedSecureChannel', 'the reader refused the secure channel: {why}', sentenceValue('why', said)), 'refused');
      d.status.counters.secureChannel++;
      return this.restart(d, 'connecting', fill('osdp.sessionLost', 'session lost', {}));
    }
    if (d.phase === 'id' || d.phase === 'lstat') {
      // a reader that will not say who it is or its status still works: go on
      d.phase = d.phase === 'id' ? 'cap' : 'ready';
      if (d.phase === 'ready') {
        d.status.state = 'online';
        d.dueAt = performance.now() + this.opt.pollIntervalMs;
        this.emit('online', { address, identity: d.status.identity, capabilities: d.status.capabilities, secure: d.status.secure });
      }
      return;
    }
    if (d.phase === 'cap') d.phase = this.secureWanted(d) ? 'chlng' : 'lstat';
    else if (d.phase === 'keyset') this.alarm(d, fill('osdp.refusedNewKey', 'the reader refused its new key: {why}', sentenceValue('why', said)), 'refused');
  }
}
