// Packets of an open secure channel (Annex D.4): SCS_15/16 when there is no data, SCS_17/18 with the data encrypted;
// the MAC covers the packet from SOM to the end of the (encrypted) data.
import { Scs } from './constants.js';
import { encodeFrame, type Frame } from './frame.js';
import type { Direction, SecureSession } from './secure.js';

export function sealPacket(
  session: SecureSession,
  direction: Direction,
  spec: { address: number; sqn: number; code: number; data?: Uint8Array; crc?: boolean },
): Buffer {
  const data = spec.data ?? new Uint8Array(0);
  const cmd = direction === 'command';
  const type = data.length ? (cmd ? Scs.CMD_ENC : Scs.REPLY_ENC) : cmd ? Scs.CMD_MAC : Scs.REPLY_MAC;
  return encodeFrame({ ...spec, reply: !cmd, scb: { type, data: new Uint8Array(0) }, data: data.length ? session.encrypt(direction, data) : data }, (bytes) =>
    session.sign(direction, bytes),
  );
}

export type OpenResult = { ok: true; code: number; data: Buffer } | { ok: false; reason: 'plaintext' | 'security block' | 'mac' | 'padding' };

/** Checks the MAC (which moves the chain on) and decrypts; a packet without a MAC block is plain text. */
export function openPacket(session: SecureSession, direction: Direction, frame: Frame): OpenResult {
  const cmd = direction === 'command';
  if (!frame.scb) return { ok: false, reason: 'plaintext' };
  const { type } = frame.scb;
  const expected = cmd ? [Scs.CMD_MAC, Scs.CMD_ENC] : [Scs.REPLY_MAC, Scs.REPLY_ENC];
  if (!expected.includes(type as never) || !frame.mac) return { ok: false, reason: 'security block' };
  if (!session.verify(direction, frame.raw.subarray(0, frame.raw.length - (frame.crc ? 2 : 1) - 4), frame.mac)) return { ok: false, reason: 'mac' };
  if (type === Scs.CMD_MAC || type === Scs.REPLY_MAC)
    return frame.data.length ? { ok: false, reason: 'padding' } : { ok: true, code: frame.code, data: frame.data };
  // some readers send SCS_18 with no data block at all (libosdp allows it too): the MAC was good, so it is empty data
  if (frame.data.length === 0) return { ok: true, code: frame.code, data: frame.data };
  const plain = session.decrypt(direction, frame.data);
  return plain ? { ok: true, code: frame.code, data: plain } : { ok: false, reason: 'padding' };
}
