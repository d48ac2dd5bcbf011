// Annex D: the Secure Channel. AES-128 from node:crypto only. Keys live in Buffers that are never logged nor put into
// an error message, an event other than 'keyset', or JSON.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** SCBK-D, the default Secure Channel Base Key of install mode (Annex D). */
export const SCBK_D = Buffer.from('303132333435363738393a3b3c3d3e3f', 'hex');

export function aesEcb(key: Uint8Array, block: Uint8Array): Buffer {
  const c = createCipheriv('aes-128-ecb', key, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(block), c.final()]);
}

function aesCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array, decrypt = false): Buffer {
  const c = decrypt ? createDecipheriv('aes-128-cbc', key, iv) : createCipheriv('aes-128-cbc', key, iv);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
}

export interface SessionKeys {
  sEnc: Buffer;
  sMac1: Buffer;
  sMac2: Buffer;
}

/** D.2: the session keys, from the SCBK and the first 6 bytes of the CP's random number RND.A. */
export function sessionKeys(scbk: Uint8Array, acuRandom: Uint8Array): SessionKeys {
  const block = (second: number) => {
    const b = Buffer.alloc(16);
    b[0] = 0x01;
    b[1] = second;
    b.set(acuRandom.subarray(0, 6), 2);
    return aesEcb(scbk, b);
  };
  return { sEnc: block(0x82), sMac1: block(0x01), sMac2: block(0x02) };
}

/** The PD's (client's) cryptogram: RND.A then RND.B under S-ENC. */
export const clientCryptogram = (sEnc: Uint8Array, acuRandom: Uint8Array, pdRandom: Uint8Array) => aesEcb(sEnc, Buffer.concat([acuRandom, pdRandom]));
/** The CP's (host's, server's) cryptogram: RND.B then RND.A under S-ENC. */
export const hostCryptogram = (sEnc: Uint8Array, acuRandom: Uint8Array, pdRandom: Uint8Array) => aesEcb(sEnc, Buffer.concat([pdRandom, acuRandom]));
/** The initial R-MAC: the host cryptogram under S-MAC1 then S-MAC2. */
export const initialRMac = (keys: SessionKeys, hostCrypt: Uint8Array) => aesEcb(keys.sMac2, aesEcb(keys.sMac1, hostCrypt));

/**
 * D.5: the MAC of a message (SOM to the end of its data). Padded with 0x80 then zeros to whole blocks (no padding when
 * it is whole already), all blocks but the last chained under S-MAC1 from `iv`, the last one under S-MAC2.
 */
export function messageMac(keys: SessionKeys, iv: Uint8Array, message: Uint8Array): Buffer {
  const padded = Buffer.alloc(Math.max(16, Math.ceil(message.length / 16) * 16));
  padded.set(message);
  if (message.length % 16 !== 0 || message.length === 0) padded[message.length] = 0x80;
  let chain: Uint8Array = Buffer.from(iv);
  if (padded.length > 16) {
    const head = aesCbc(keys.sMac1, chain, padded.subarray(0, padded.length - 16));
    chain = head.subarray(head.length - 16);
  }
  return aesCbc(keys.sMac2, chain, padded.subarray(padded.length - 16));
}

const inverted = (b: Uint8Array) => Buffer.from(b.map((x) => ~x & 0xff));

export type Direction = 'command' | 'reply';

/**
 * One side's state of an open secure channel: the session keys and the last MACs. A command's MAC chains from the
 * last reply's (R-MAC) and a reply's from its command's (C-MAC); data is encrypted under S-ENC with the complement of
 * that same MAC as IV.
 */
export class SecureSession {
  private cMac: Buffer = Buffer.alloc(16);
  private rMac: Buffer;
  constructor(
    private readonly keys: SessionKeys,
    rMacInitial: Uint8Array,
  ) {
    this.rMac = Buffer.from(rMacInitial);
  }

  private chainFor(direction: Direction) {
    return direction === 'command' ? this.rMac : this.cMac;
  }

  encrypt(direction: Direction, data: Uint8Array): Buffer {
    const padded = Buffer.alloc(Math.ceil((data.length + 1) / 16) * 16);
    padded.set(data);
    padded[data.length] = 0x80;
    return aesCbc(this.keys.sEnc, inverted(this.chainFor(direction)), padded);
  }

  /** The plain data, or undefined when the length or padding is wrong. */
  decrypt(direction: Direction, data: Uint8Array): Buffer | undefined {
    if (data.length === 0 || data.length % 16 !== 0) return undefined;
    const plain = aesCbc(this.keys.sEnc, inverted(this.chainFor(direction)), data, true);
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    if (end < 0 || plain[end] !== 0x80 || plain.length - end > 16) return undefined;
    return plain.subarray(0, end);
  }

  /** The MAC of an outgoing message; it becomes the chain for the answer. */
  sign(direction: Direction, message: Uint8Array): Buffer {
    const mac = messageMac(this.keys, this.chainFor(direction), message);
    if (direction === 'command') this.cMac = mac;
    else this.rMac = mac;
    return mac.subarray(0, 4);
  }

  /** Checks an incoming message's 4 MAC bytes; only a good MAC moves the chain on. */
  verify(direction: Direction, message: Uint8Array, mac: Uint8Array): boolean {
    const full = messageMac(this.keys, this.chainFor(direction), message);
    if (mac.length !== 4 || !full.subarray(0, 4).equals(mac)) return false;
    if (direction === 'command') this.cMac = full;
    else this.rMac = full;
    return true;
  }
}

export const randomNumber = () => randomBytes(8);
export const newScbk = () => randomBytes(16);

/** A key given as 32 hex digits, or an error that does not repeat it. */
export function parseKey(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error('a key is 32 hexadecimal digits (16 bytes)');
  return Buffer.from(hex, 'hex');
}
