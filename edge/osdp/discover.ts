// Finding readers on a line (docs/OSDP.md): osdp_ID at sequence 0, then osdp_CAP, to an address; what answers with a
// PDID is a reader. `discover` scans a line nobody polls (the technician's `npm run osdp -- scan`); a running Bus asks
// the same between its readers' turns (`Bus.scan`, behind Hardware → Interface → pre-add).
import { Command, Reply } from './constants.js';
import { encodeFrame } from './frame.js';
import { Link } from './link.js';
import type { ByteDuplex } from './transport.js';
import * as m from './messages.js';

/** What answered osdp_ID (and osdp_CAP) at an address asked. */
export interface Found {
  address: number;
  identity: m.Identity;
  capabilities?: m.CapabilityEntry[];
}

/** Asks one address who it is (ID, then CAP); undefined when nothing answered with a PDID. */
export async function probe(link: Link, address: number): Promise<Found | undefined> {
  const id = await link.exchange(address, 0, encodeFrame({ address, sqn: 0, code: Command.ID, data: Buffer.from([0]) }));
  const identity = id.kind === 'reply' && id.frame.code === Reply.PDID ? m.decodePdid(id.frame.data) : undefined;
  if (!identity) return undefined;
  const cap = await link.exchange(address, 1, encodeFrame({ address, sqn: 1, code: Command.CAP, data: Buffer.from([0]) }));
  const capabilities = cap.kind === 'reply' && cap.frame.code === Reply.PDCAP ? m.decodePdcap(cap.frame.data) : undefined;
  return { address, identity, capabilities };
}

/** Scans a line nobody else uses: each address in turn (all 127 by default). */
export async function discover(line: ByteDuplex, opts: { addresses?: number[]; baudRate?: number; replyTimeoutMs?: number } = {}): Promise<Found[]> {
  const link = new Link(line, opts.baudRate ?? 9600, opts.replyTimeoutMs ?? 200);
  const found: Found[] = [];
  try {
    for (const address of opts.addresses ?? Array.from({ length: 0x7f }, (_, i) => i)) {
      const f = await probe(link, address);
      if (f) found.push(f);
    }
  } finally {
    link.close();
  }
  return found;
}
