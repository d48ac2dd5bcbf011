// §5: one packet on the wire. SOM, ADDR (bit 7 set in a reply), LEN (LSB first, the whole packet), CTRL (sequence
// number, CRC or checksum, security block present), an optional security block, the command or reply code, its data,
// a 4-byte MAC when the security block says so, then the CRC (LSB first) or the checksum.
import { crc16, checksum } from './crc.js';
import { CTRL_CRC, CTRL_SCB, CTRL_SQN_MASK, HEADER_LENGTH, MAX_PACKET, REPLY_FLAG, Scs, SOM } from './constants.js';

export interface SecurityBlock {
  type: number;
  data: Uint8Array;
}

export interface Frame {
  /** 0x00–0x7F, without the reply flag */
  address: number;
  reply: boolean;
  sqn: number;
  crc: boolean;
  scb?: SecurityBlock;
  code: number;
  /** the data as on the wire (still encrypted in SCS_17/18) */
  data: Buffer;
  mac?: Buffer;
  /** the whole packet */
  raw: Buffer;
}

export interface FrameSpec {
  address: number;
  reply?: boolean;
  sqn: number;
  crc?: boolean;
  scb?: SecurityBlock;
  code: number;
  data?: Uint8Array;
}

/** Security block types whose packet ends with a MAC. */
export const hasMac = (scbType: number | undefined) => scbType !== undefined && scbType >= Scs.CMD_MAC && scbType <= Scs.REPLY_ENC;

/**
 * Builds a packet. `mac` is given the bytes from SOM to the end of the data (with LEN already counting the MAC and the
 * check bytes) and returns the 4 bytes to append; it is called only when the security block type calls for a MAC.
 */
export function encodeFrame(spec: FrameSpec, mac?: (bytes: Buffer) => Uint8Array): Buffer {
  const useCrc = spec.crc ?? true;
  const data = spec.data ?? new Uint8Array(0);
  const scbLen = spec.scb ? 2 + spec.scb.data.length : 0;
  const macLen = hasMac(spec.scb?.type) ? 4 : 0;
  const length = HEADER_LENGTH + scbLen + 1 + data.length + macLen + (useCrc ? 2 : 1);
  if (length > MAX_PACKET) throw new RangeError(`packet of ${length} bytes is past ${MAX_PACKET}`);
  if (spec.address < 0 || spec.address > 0x7f) throw new RangeError(`address ${spec.address}`);
  const out = Buffer.alloc(length);
  out[0] = SOM;
  out[1] = spec.address | (spec.reply ? REPLY_FLAG : 0);
  out.writeUInt16LE(length, 2);
  out[4] = (spec.sqn & CTRL_SQN_MASK) | (useCrc ? CTRL_CRC : 0) | (spec.scb ? CTRL_SCB : 0);
  let i = HEADER_LENGTH;
  if (spec.scb) {
    out[i++] = scbLen;
    out[i++] = spec.scb.type;
    out.set(spec.scb.data, i);
    i += spec.scb.data.length;
  }
  out[i++] = spec.code;
  out.set(data, i);
  i += data.length;
  if (macLen) {
    if (!mac) throw new Error('a MAC is needed for this security block');
    out.set(mac(out.subarray(0, i)).subarray(0, 4), i);
    i += 4;
  }
  if (useCrc) out.writeUInt16LE(crc16(out, 0, i), i);
  else out[i] = checksum(out, 0, i);
  return out;
}

/** Rewrites the check bytes of a packet after a change (tests and the simulator's faults). */
export function recheck(packet: Buffer): Buffer {
  const out = Buffer.from(packet);
  if (out[4] & CTRL_CRC) out.writeUInt16LE(crc16(out, 0, out.length - 2), out.length - 2);
  else out[out.length - 1] = checksum(out, 0, out.length - 1);
  return out;
}

export type FrameFault = 'length' | 'check' | 'structure';

/** Checks and splits one whole packet (its LEN already matched). */
export function decodeFrame(raw: Buffer): { ok: true; frame: Frame } | { ok: false; fault: FrameFault } {
  if (raw.length < HEADER_LENGTH + 2 || raw[0] !== SOM || raw.readUInt16LE(2) !== raw.length) return { ok: false, fault: 'length' };
  const ctrl = raw[4];
  const useCrc = (ctrl & CTRL_CRC) !== 0;
  const checkLen = useCrc ? 2 : 1;
  if (raw.length < HEADER_LENGTH + 1 + checkLen) return { ok: false, fault: 'length' };
  const end = raw.length - checkLen;
  const good = useCrc ? crc16(raw, 0, end) === raw.readUInt16LE(end) : checksum(raw, 0, end) === raw[end];
  if (!good) return { ok: false, fault: 'check' };
  let i = HEADER_LENGTH;
  let scb: SecurityBlock | undefined;
  if (ctrl & CTRL_SCB) {
    const scbLen = raw[i];
    if (scbLen < 2 || i + scbLen >= end) return { ok: false, fault: 'structure' };
    scb = { type: raw[i + 1], data: Buffer.from(raw.subarray(i + 2, i + scbLen)) };
    i += scbLen;
  }
  const macLen = hasMac(scb?.type) ? 4 : 0;
  const dataEnd = end - macLen;
  if (dataEnd < i + 1) return { ok: false, fault: 'structure' };
  return {
    ok: true,
    frame: {
      address: raw[1] & 0x7f,
      reply: (raw[1] & REPLY_FLAG) !== 0,
      sqn: ctrl & CTRL_SQN_MASK,
      crc: useCrc,
      scb,
      code: raw[i],
      data: Buffer.from(raw.subarray(i + 1, dataEnd)),
      mac: macLen ? Buffer.from(raw.subarray(dataEnd, end)) : undefined,
      raw: Buffer.from(raw),
    },
  };
}
