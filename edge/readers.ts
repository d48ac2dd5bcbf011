// Real readers on an OSDP bus (issue 47 with issue 46's edge/osdp): each card a reader sends is a swipe at the door of
// the snapshot's reader at that bus address, on its side, decided by the edge as every swipe is (edge/doors.ts), and
// the reader shows the answer at once: green and one beep for granted, red and two beeps for denied. A door that needs
// card and PIN holds the card for PIN_WAIT_MS while the reader waits for the keypad (amber); the PIN completes the
// swipe, no PIN in time decides it without one (denied: PIN required).
// Secure Channel: a reader whose own key is kept (sealed, edge/readerKeys.ts) must open the channel with it and is
// secure-only from then on; with `install` a reader without a kept key is paired with SCBK-D and given a fresh random
// key (KEYSET), which is sealed at once; without it such a reader runs in the clear (said in the log).
// Door I/O boards (issue 47): the boards doors' strikes and inputs are wired to are on the line too (edge/osdpIo.ts
// drives them), paired and kept as readers are.
// Supervision: a reader going offline or coming back, tamper, and a Secure Channel failure (a refused key, a bad
// cryptogram or MAC, plain text on a secure line) are journaled as events of its door's reader (4003, 4002, 6006) and
// reach the server as every edge event does.
import {
  EVENT_CODES,
  eventLabel,
  fill,
  sentenceValue,
  type Sentence,
  edgeAnswer,
  type EdgeCommandResult,
  type EdgeComsetCommand,
  type EdgeReaderStatus,
  type EdgeRepairCommand,
  type EdgeScanCommand,
} from '../contract';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BAUD_RATES, decodeCard, type Bus } from './osdp';
import { BusRefusal } from './osdp/bus';
import { said, writeWhole } from './journal';
import type { ReaderStatus } from './osdp/bus';
import type { ReaderMode } from './doorIo';
import type { Doors } from './doors';
import type { JournalEntry } from './journal';
import type { ReaderKeys } from './readerKeys';
import type { SnapshotStore } from './snapshot';

/** How long a card waits for its PIN at a card-and-PIN door. */
export const PIN_WAIT_MS = 10_000;

export interface OsdpOptions {
  /** the readers' own keys, sealed in the data directory */
  keys?: ReaderKeys;
  /** pair readers that have no kept key (install mode) */
  install?: boolean;
  /** journals an event of a reader (and sends it up) */
  record?: (e: Omit<JournalEntry, 'seq' | 'at' | 'offline' | 'snapshotVersion'>) => void;
  log?: (m: string) => void;
  /** the door's mode its readers show as their steady colour (edge/doorIo.ts modeOf) */
  modeOf?: (doorId: number) => ReaderMode;
  /** the readers' status, whenever it changed (to the server) */
  report?: (readers: EdgeReaderStatus[]) => void;
  /** how often the readers' modes and status are looked at again (counters, a threat level's window) */
  refreshMs?: number;
  /** the line's speed a COMSET moved it to, kept in the data directory (edge/readers.ts openLineSpeed) */
  speed?: LineSpeed;
  /** the bus addresses of the boards doors are wired to (edge/osdpIo.ts): on the line beside the card readers, an I/O
   *  module with no card reader too (issue 47) */
  boards?: () => Iterable<number>;
  /** a board's name by its bus address (edge/osdpIo.ts boardName), for its own events */
  boardName?: (address: number) => string | undefined;
}

/** The line's speed kept across restarts: what a COMSET set it to (the port's `--osdp-baud` is only where it starts). */
export interface LineSpeed {
  get(): number | undefined;
  set(baud: number): void;
}
export const LINE_SPEED_FILE = 'osdp-line.json';

/** The line's speed kept in the data directory (`osdp-line.json`, `{ "baud": 38400 }`). */
export function openLineSpeed(dataDir: string): LineSpeed {
  const path = join(dataDir, LINE_SPEED_FILE);
  return {
    get() {
      try {
        const baud = (JSON.parse(readFileSync(path, 'utf8')) as { baud?: unknown }).baud;
        return typeof baud === 'number' && (BAUD_RATES as readonly number[]).includes(baud) ? baud : undefined;
      } catch {
        return undefined; // none kept (or unreadable): the port's starting speed
      }
    },
    set: (baud) => writeWhole(path, JSON.stringify({ baud }) + '\n'),
  };
}

/** How often the readers' colours and status are looked at again besides their changes. */
export const READERS_REFRESH_MS = 2000;

export function attachOsdp(bus: Bus, doors: Doors, store: SnapshotStore, opts: OsdpOptions = {}) {
  const log = opts.log ?? (() => {});
  const added = new Set<number>();
  const waiting = new Map<number, { bits: string; timer: NodeJS.Timeout }>();
  const readerAt = (address: number) => store.held?.snapshot.readers.find((r) => r.address === address);
  /** address → the mode its LED shows now (sent and acknowledged) */
  const shown = new Map<number, ReaderMode>();
  /** addresses being paired in install mode (no key of their own yet) */
  const pairing = new Set<number>();
  /** addresses where a scan found a reader not configured yet: added as a card reader, it is paired (install mode) */
  const found = new Set<number>();
  /** of those, the ones found at another speed than the line's: added, they are first moved to the line's (COMSET) */
  const away = new Map<number, number>();
  let lastReport = '';
  const doorOf = (doorId: number) => store.held?.snapshot.doors.find((d) => d.id === doorId);

  /** addresses a COMSET moved a reader from: not added again while the snapshot (not moved yet by the server) has them */
  const movedFrom = new Set<number>();
  const addReaders = () => {
    const readers = store.held?.snapshot.readers ?? [];
    const boards = [...(opts.boards?.() ?? [])].filter((a) => !readers.some((r) => r.address === a)).map((a) => ({ address: a, name: `I/O board ${a}` }));
    const list = [...readers, ...boards];
    for (const a of movedFrom) if (!list.some((r) => r.address === a)) movedFrom.delete(a);
    for (const r of list) {
      if (added.has(r.address) || movedFrom.has(r.address)) continue;
      added.add(r.address);
      const scbk = opts.keys?.get(r.address);
      const speed = away.get(r.address);
      if (!scbk && speed !== undefined) bringToLine(r.address, r.name, speed);
      else if (scbk) bus.add({ address: r.address, scbk });
      else if (opts.install || found.has(r.address)) {
        log(`OSDP reader ${r.address} (${r.name}): install mode, pairing with the default key`);
        pairing.add(r.address);
        bus.add({ address: r.address, install: true });
      } else {
        log(`OSDP reader ${r.address} (${r.name}): no key of its own is kept, it runs in the clear (pair it with --osdp-install)`);
        bus.add({ address: r.address });
      }
    }
  };

  /** A reader a scan found at another speed, now a card reader: moved to the line's speed, then paired there. */
  const bringToLine = (address: number, name: string, speed: number) => {
    away.delete(address);
    pairing.add(address);
    log(`OSDP reader ${address} (${name}): found at ${speed} baud, moved to the line's ${bus.baudRate} (COMSET), then paired`);
    void bus.moveToLine(address, speed).then((moved) => {
      if (!moved) log(`OSDP reader ${address} (${name}): did not take the line's speed; paired if it is there`);
      if (added.has(address) && !bus.reader(address)) bus.add({ address, install: true });
    });
  };

  /** An event of the reader at `address` journaled: its words a sentence with its key and values (issue 48), made by
   *  `words` from the event's label and its door's name. */
  const event = (address: number, eventCode: number, words: (v: { event: string; door: string }) => Sentence) => {
    const r = readerAt(address);
    if (!r || !opts.record) return;
    const door = doorOf(r.doorId)?.name ?? `door ${r.doorId}`;
    opts.record({
      eventCode,
      sourceId: `reader-${r.doorId}`,
      sourceName: `${door} reader`,
      pointId: `reader-${r.doorId}`,
      pointName: r.name,
      ...said(words({ event: eventLabel(eventCode), door })),
    });
  };

  /**
   * An I/O board (a board doors are wired to with no card reader at its address) lost or back: journaled as Interface
   * offline (1013, an alarm) or online (1012) on its own point, `board-<address>` of this controller (issue 47), as a
   * reader's offline and online are on its door's reader.
   */
  const boardEvent = (address: number, online: boolean, reason?: Sentence) => {
    if (readerAt(address) || !opts.record || ![...(opts.boards?.() ?? [])].includes(address)) return;
    const board = opts.boardName?.(address) ?? `I/O board ${address}`;
    const eventCode = online ? EVENT_CODES.interfaceOnline : EVENT_CODES.interfaceOffline;
    const v = { event: eventLabel(eventCode), board, address };
    opts.record({
      eventCode,
      sourceId: `board-${address}`,
      sourceName: board,
      pointId: `board-${address}`,
      pointName: board,
      ...said(
        online
          ? fill('event.boardOnline', '{event}: {board} (bus address {address})', v)
          : fill('event.boardOffline', '{event}: {board} (bus address {address}): {reason}', { ...v, ...sentenceValue('reason', reason ?? '') }),
      ),
    });
  };

  const decide = (address: number, bits: string, pin: string | null) => {
    const reader = readerAt(address);
    if (!reader) return;
    // a door with card formats of its own decodes the bits with them (edge/doors.ts); one without any takes the
    // standard Wiegand formats (26-bit H10301, 34, 37-bit H10304), as a reader's own card data would be read
    const own = doorOf(reader.doorId)?.formatIds.length;
    const std = own ? null : decodeCard({ bits });
    const read = std?.ok ? { card: String(std.card), facilityCode: std.facility } : { bits };
    const out = doors.swipe({ doorId: reader.doorId, side: reader.direction, ...read, pin });
    const show = out.decision.granted ? bus.showGranted(address) : bus.showDenied(address);
    show.catch((e: Error) => log(`OSDP reader ${address}: the answer was not shown: ${e.message}`));
    log(
      `${reader.name} (OSDP ${address}): ${out.decision.granted ? 'granted' : `denied (${out.decision.reason})`}${out.mode === 'online' ? '' : ` [${out.mode}]`}`,
    );
  };

  bus.on('card', (ev) => {
    const reader = readerAt(ev.address);
    if (!reader) {
      log(`OSDP reader ${ev.address}: a card, but no reader of this controller is at that bus address`);
      return;
    }
    const previous = waiting.get(ev.address);
    if (previous) clearTimeout(previous.timer);
    if (doorOf(reader.doorId)?.mode === 'card-pin') {
      // the keypad's turn: amber while it waits; no PIN in time decides without one
      const timer = setTimeout(() => {
        waiting.delete(ev.address);
        decide(ev.address, ev.bits, null);
      }, PIN_WAIT_MS);
      timer.unref();
      waiting.set(ev.address, { bits: ev.bits, timer });
      shown.delete(ev.address); // its door's mode is shown again once the PIN is in (or not)
      bus.showMode(ev.address, 'threat').catch(() => {});
      return;
    }
    decide(ev.address, ev.bits, null);
  });
  bus.on('pin', (ev) => {
    const held = waiting.get(ev.address);
    if (!held) {
      log(`OSDP reader ${ev.address}: a PIN without a card before it (ignored)`);
      return;
    }
    clearTimeout(held.timer);
    waiting.delete(ev.address);
    decide(ev.address, held.bits, ev.keys.replace(/[#*]+$/, ''));
  });
  bus.on('keyset', (ev) => {
    // the reader's fresh key: sealed at once, shown nowhere
    opts.keys?.set(ev.address, ev.scbk);
    pairing.delete(ev.address);
    log(`OSDP reader ${ev.address} paired: its own key is kept (sealed) in the data directory`);
  });
  bus.on('online', (ev) => {
    log(`OSDP reader ${ev.address} online${ev.secure ? ' (secure channel)' : ''}`);
    event(ev.address, EVENT_CODES.readerOnline, (v) =>
      ev.secure
        ? fill('event.readerOnlineSecure', '{event} at {door}: online, secure channel', v)
        : fill('event.readerOnlineClear', '{event} at {door}: online, in the clear', v),
    );
    boardEvent(ev.address, true);
    shown.delete(ev.address); // a reader back from offline or a restart shows nothing of before
    refresh();
  });
  bus.on('offline', (ev) => {
    log(`OSDP reader ${ev.address} offline: ${ev.reason}`);
    // the bus's reason as its sentence (edge/osdp/bus.ts), a keyed value: said in the console's language by its key
    event(ev.address, EVENT_CODES.readerOffline, (v) =>
      fill('event.readerOfflineWhy', '{event} at {door}: {reason}', { ...v, ...sentenceValue('reason', ev.said) }),
    );
    boardEvent(ev.address, false, ev.said);
    shown.delete(ev.address);
    report();
  });
  bus.on('tamper', (ev) => {
    if (ev.active) event(ev.address, EVENT_CODES.readerTamper, (v) => fill('event.readerReportsTamper', '{event} at {door}: the reader reports tamper', v));
  });
  bus.on('power', (ev) => log(`OSDP reader ${ev.address}: ${ev.failure ? 'power failure reported' : 'power back'}`));
  bus.on('alarm', (ev) => {
    log(`OSDP reader ${ev.address}: secure channel failure: ${ev.reason}`);
    event(ev.address, EVENT_CODES.readerTamper, (v) =>
      fill('event.readerSecureChannelFailure', '{event} at {door}: secure channel failure: {reason}', { ...v, ...sentenceValue('reason', ev.said) }),
    );
  });
  bus.on('lineError', (ev) => log(`OSDP line: ${ev.message}`));

  /** A reader's status as the server keeps it (no key in it, ever). */
  const statusOf = (r: ReaderStatus): EdgeReaderStatus => ({
    address: r.address,
    state: r.state,
    channel:
      r.state === 'refused' ? 'refused' : r.secure && r.paired ? 'secure' : pairing.has(r.address) ? 'pairing' : opts.keys?.get(r.address) ? 'paired' : 'clear',
    identity: r.identity ? { ...r.identity, vendor: r.identity.vendor.slice(0, 6), firmware: r.identity.firmware.slice(0, 40) } : null,
    capabilities: (r.capabilities ?? []).map((c) => ({ function: c.function, name: c.name.slice(0, 80), compliance: c.compliance, count: c.count })),
    tamper: r.tamper,
    power: r.power,
    counters: { ...r.counters },
    reason: r.reason ? r.reason.slice(0, 300) : null,
    baud: bus.baudRate,
  });
  /** Sends the readers' status when it changed since it was last sent. */
  function report(force = false) {
    if (!opts.report) return;
    const list = bus.readers().map(statusOf);
    const text = JSON.stringify(list);
    if (!force && text === lastReport) return;
    lastReport = text;
    opts.report(list);
  }
  /** Each online reader shows its door's mode as its steady colour (sent once per change). */
  function refresh() {
    if (opts.modeOf)
      for (const r of store.held?.snapshot.readers ?? []) {
        if (bus.reader(r.address)?.state !== 'online' || waiting.has(r.address)) continue;
        const mode = opts.modeOf(r.doorId);
        if (shown.get(r.address) === mode) continue;
        shown.set(r.address, mode);
        bus.showMode(r.address, mode).catch((e: Error) => {
          if (shown.get(r.address) === mode) shown.delete(r.address); // not shown: try again at the next look
          log(`OSDP reader ${r.address}: its door's mode was not shown: ${e.message}`);
        });
      }
    report();
  }
  for (const e of ['keyset', 'alarm', 'tamper', 'power'] as const) bus.on(e, () => report());
  const timer = setInterval(refresh, opts.refreshMs ?? READERS_REFRESH_MS);
  timer.unref();

  /** Re-pairing (an administrator's action on the server): forget the reader's key, pair it again with SCBK-D. */
  function repair(m: EdgeRepairCommand): EdgeCommandResult {
    const r = readerAt(m.address);
    if (!r) return edgeAnswer(m.id, false, fill('osdp.noReaderAt', 'no card reader of this controller is at bus address {address}', { address: m.address }));
    opts.keys?.remove(m.address);
    bus.remove(m.address);
    pairing.add(m.address);
    shown.delete(m.address);
    bus.add({ address: m.address, install: true });
    added.add(m.address);
    log(`OSDP reader ${m.address} (${r.name}): re-pairing asked by the server: its key is forgotten, pairing with the default key`);
    report();
    return edgeAnswer(
      m.id,
      true,
      fill('osdp.repairing', '{name} (bus address {address}): its key forgotten, pairing again in install mode', { name: r.name, address: m.address }),
    );
  }

  /**
   * COMSET (an installer's action on the server, audited there): the reader at `address` takes bus address `to` and
   * speed `baud`; the bus follows it (edge/osdp/bus.ts setAddress) and its kept key moves with it. The server then moves
   * the card reader's record, whose snapshot finds it there.
   */
  async function comset(m: EdgeComsetCommand): Promise<EdgeCommandResult> {
    const refuse = (said: Sentence): EdgeCommandResult => edgeAnswer(m.id, false, said);
    const r = readerAt(m.address);
    if (!r) return refuse(fill('osdp.noReaderAt', 'no card reader of this controller is at bus address {address}', { address: m.address }));
    if (m.to !== m.address && readerAt(m.to))
      return refuse(fill('osdp.edgeAddressTaken', 'bus address {address} has a card reader already', { address: m.to }));
    const before = bus.baudRate;
    try {
      await bus.setAddress(m.address, m.to, m.baud);
    } catch (e) {
      // the bus's reason, by its key when it has one (else a line's or a reader's words as they are)
      const reason = e instanceof BusRefusal ? e.said : (e as Error).message.slice(0, 300);
      return refuse(
        fill('osdp.readerSaid', '{name} (bus address {address}): {reason}', { name: r.name, address: m.address, ...sentenceValue('reason', reason) }),
      );
    }
    if (m.to !== m.address) {
      const scbk = opts.keys?.get(m.address);
      if (scbk) opts.keys?.set(m.to, scbk);
      opts.keys?.remove(m.address);
      for (const set of [added, pairing, found]) if (set.delete(m.address)) set.add(m.to);
      movedFrom.add(m.address);
      shown.delete(m.address);
    }
    if (m.baud !== before) opts.speed?.set(m.baud); // the line speaks at it after a restart too
    log(`OSDP reader ${m.address} (${r.name}): moved to bus address ${m.to} at ${m.baud} baud (COMSET; the line was at ${before})`);
    report();
    return edgeAnswer(m.id, true, fill('osdp.movedTo', '{name}: now at bus address {address}, {baud} baud', { name: r.name, address: m.to, baud: m.baud }));
  }

  /** A scan of the bus for readers not configured yet (Hardware → Interface → pre-add): who answered, never a key. */
  async function scan(m: EdgeScanCommand): Promise<EdgeCommandResult> {
    const list = await bus.scan(m.addresses, { speeds: m.speeds, withinMs: m.withinMs });
    for (const f of list) {
      found.add(f.address);
      if (f.baud !== undefined && f.baud !== bus.baudRate) away.set(f.address, f.baud);
      else away.delete(f.address);
    }
    const where = `${m.addresses.length} address(es)${m.speeds?.length ? ` at ${m.speeds.join(', ')} baud` : ''}`;
    log(`OSDP scan of ${where}: ${list.length ? `found ${list.map((f) => `${f.address} (${f.baud} baud)`).join(', ')}` : 'no reader answered'}`);
    const answered = list.length ? fill('osdp.scanAnswered', '{n} reader(s) answered', { n: list.length }) : fill('osdp.scanNone', 'no reader answered', {});
    return edgeAnswer(
      m.id,
      true,
      list.unasked
        ? fill('osdp.scanStopped', '{answered}; stopped at the time limit with {n} address(es) not asked', {
            ...sentenceValue('answered', answered),
            n: list.unasked,
          })
        : answered,
      {
        found: list.map((f) => ({
          address: f.address,
          identity: { ...f.identity, vendor: f.identity.vendor.slice(0, 6), firmware: f.identity.firmware.slice(0, 40) },
          capabilities: (f.capabilities ?? [])
            .slice(0, 64)
            .map((c) => ({ function: c.function, name: c.name.slice(0, 80), compliance: c.compliance, count: c.count })),
          baud: f.baud ?? bus.baudRate,
          lineBaud: bus.baudRate,
        })),
      },
    );
  }

  // a COMSET moved the line to another speed before a restart: it speaks at that one, not at the port's default
  const kept = opts.speed?.get();
  if (kept && kept !== bus.baudRate) {
    log(`OSDP line: at ${kept} baud, the speed a COMSET set (kept in the data directory; the port opened at ${bus.baudRate})`);
    bus.useSpeed(kept);
  }
  addReaders();
  bus.start();
  return {
    scan,
    snapshotChanged: () => {
      addReaders();
      refresh();
    },
    /** the link came or went, or a door's strike moved: the readers' colours again */
    refresh,
    /** every reader's status again (the link is back) */
    report: () => report(true),
    repair,
    comset,
    stop() {
      clearInterval(timer);
      for (const w of waiting.values()) clearTimeout(w.timer);
      waiting.clear();
    },
  };
}
