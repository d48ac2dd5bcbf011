// Finding readers on a line (docs/OSDP.md): osdp_ID at sequence 0, then osdp_CAP, to an address; what answers with a
// PDID is a reader. `discover` scans a line nobody polls (the technician's `npm run osdp -- scan`); a running Bus asks
// the same between its readers' turns (`Bus.scan`, behind Hardware → Interface → pre-add). At a speed other than the
// line's, an osdp_ID broadcast (0x7F) comes first: a speed where nothing at all comes back (no reply, no garbled bytes)
// costs one reply timeout, and only a speed where something answered is asked address by address.
import { BROADCAST, Command, Reply } from './constants.js';
import { encodeFrame } from './frame.js';
import { Link } from './link.js';
import type { ByteDuplex } from './transport.js';
import * as m from './messages.js';

/** What answered osdp_ID (and osdp_CAP) at an address asked, and at which speed. */
export interface Found {
  address: number;
  identity: m.Identity;
  capabilities?: m.CapabilityEntry[];
  baud?: number;
}

/** How many times more a found reader's osdp_CAP is asked when its reply does not come in time. */
const CAP_RETRIES = 2;

/** Asks one address who it is (ID, then CAP); undefined when nothing answered with a PDID. */
export async function probe(link: Link, address: number): Promise<Found | undefined> {
  const id = await link.exchange(address, 0, encodeFrame({ address, sqn: 0, code: Command.ID, data: Buffer.from([0]) }));
  const identity = id.kind === 'reply' && id.frame.code === Reply.PDID ? m.decodePdid(id.frame.data) : undefined;
  if (!identity) return undefined;
  // a reader that said who it is is there: its osdp_CAP is asked again, with the same sequence number (§5.7), when its
  // reply does not come in time (a busy line or host), instead of printing it without what it can do
  let cap = await link.exchange(address, 1, encodeFrame({ address, sqn: 1, code: Command.CAP, data: Buffer.from([0]) }));
  for (let again = 0; again < CAP_RETRIES && cap.kind === 'timeout'; again++)
    cap = await link.exchange(address, 1, encodeFrame({ address, sqn: 1, code: Command.CAP, data: Buffer.from([0]) }));
  const capabilities = cap.kind === 'reply' && cap.frame.code === Reply.PDCAP ? m.decodePdcap(cap.frame.data) : undefined;
  return { address, identity, capabilities, baud: link.baudRate };
}

/** osdp_ID to every reader at once (0x7F): whether anything came back at this speed, a good reply or garbled bytes. */
export async function anyoneThere(link: Link): Promise<boolean> {
  const c = link.reader.parser.counters;
  const before = c.noise + c.check + c.torn + c.length + c.structure;
  const r = await link.exchange(BROADCAST, 0, encodeFrame({ address: BROADCAST, sqn: 0, code: Command.ID, data: Buffer.from([0]) }));
  return r.kind !== 'timeout' || c.noise + c.check + c.torn + c.length + c.structure > before;
}

/**
 * A plain osdp_COMSET to a reader nobody polls, at the speed the line is at now (a scan found it there; it has no key
 * yet, so it takes plain commands): its address kept, `baud` its new speed. True when it answered COM with them.
 */
export async function moveReader(link: Link, address: number, baud: number): Promise<boolean> {
  const id = await link.exchange(address, 0, encodeFrame({ address, sqn: 0, code: Command.ID, data: Buffer.from([0]) }));
  if (id.kind !== 'reply') return false;
  const r = await link.exchange(address, 1, encodeFrame({ address, sqn: 1, code: Command.COMSET, data: m.encodeComset({ address, baud }) }));
  const com = r.kind === 'reply' && r.frame.code === Reply.COM ? m.decodeCom(r.frame.data) : undefined;
  return !!com && com.address === address && com.baud === baud;
}

/** Changes a line's speed (serialport's `update`); false when it cannot. */
export function setLineSpeed(line: ByteDuplex, link: Link, baud: number): Promise<boolean> {
  if (baud === link.baudRate) return Promise.resolve(true);
  return new Promise((resolve) => {
    if (!line.update) return resolve(false);
    line.update({ baudRate: baud }, (e) => {
      if (!e) link.baudRate = baud;
      resolve(!e);
    });
  });
}

/**
 * Scans a line nobody else uses: each address in turn (all 127 by default) at its speed, then each of `speeds` (other
 * than the line's) where an osdp_ID broadcast finds anyone, address by address. The line is left at `baudRate`.
 */
export async function discover(
  line: ByteDuplex,
  opts: { addresses?: number[]; baudRate?: number; replyTimeoutMs?: number; speeds?: readonly number[] } = {},
): Promise<Found[]> {
  const baudRate = opts.baudRate ?? 9600;
  const link = new Link(line, baudRate, opts.replyTimeoutMs ?? 200);
  const addresses = opts.addresses ?? Array.from({ length: 0x7f }, (_, i) => i);
  const found: Found[] = [];
  const ask = async () => {
    for (const address of addresses) {
      const f = await probe(link, address);
      if (f) found.push(f);
    }
  };
  try {
    await ask();
    for (const speed of opts.speeds ?? []) {
      if (speed === baudRate || !(await setLineSpeed(line, link, speed))) continue;
      if (await anyoneThere(link)) await ask();
    }
    await setLineSpeed(line, link, baudRate);
  } finally {
    link.close();
  }
  return found;
}
