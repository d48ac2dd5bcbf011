// The OSDP readers' own Secure Channel keys (SCBK) at the edge (issue 46): sealed at rest in the data directory
// (`reader-keys.json`), each with AES-256-GCM under a key derived by HKDF-SHA256 from the controller's key (the secret
// the edge is started with, which the data directory does not hold) and a random salt kept in the file. A copy of the
// data directory alone gives no reader key. A key is never logged or shown; a file sealed under another controller key
// (the key was rotated) opens no key: those readers refuse the default key and must be paired again (`--osdp-install`).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeWhole } from './journal';

export const READER_KEYS_FILE = 'reader-keys.json';

interface Sealed {
  iv: string;
  data: string;
  tag: string;
}
interface KeyFile {
  version: 1;
  salt: string;
  /** bus address → the sealed key */
  readers: Record<string, Sealed>;
}

export interface ReaderKeys {
  /** The reader's own key, or undefined (none kept, or sealed under another controller key). */
  get(address: number): Buffer | undefined;
  set(address: number, scbk: Buffer): void;
  remove(address: number): void;
  /** Addresses whose kept key does not open under this controller key. */
  unreadable(): number[];
}

export function openReaderKeys(dataDir: string, controllerKey: string): ReaderKeys {
  const path = join(dataDir, READER_KEYS_FILE);
  let file: KeyFile = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as KeyFile)
    : { version: 1, salt: randomBytes(16).toString('base64'), readers: {} };
  const sealingKey = Buffer.from(hkdfSync('sha256', Buffer.from(controllerKey, 'utf8'), Buffer.from(file.salt, 'base64'), 'gatehouse-edge osdp scbk', 32));
  const aad = (address: number) => Buffer.from(`osdp-reader-${address}`);
  const open = (address: number): Buffer | undefined => {
    const s = file.readers[String(address)];
    if (!s) return undefined;
    try {
      const d = createDecipheriv('aes-256-gcm', sealingKey, Buffer.from(s.iv, 'base64'));
      d.setAAD(aad(address));
      d.setAuthTag(Buffer.from(s.tag, 'base64'));
      const key = Buffer.concat([d.update(Buffer.from(s.data, 'base64')), d.final()]);
      return key.length === 16 ? key : undefined;
    } catch {
      return undefined; // sealed under another controller key, or the file was changed
    }
  };
  const save = () => writeWhole(path, JSON.stringify(file, null, 2) + '\n', 0o600);
  return {
    get: open,
    set(address, scbk) {
      if (scbk.length !== 16) throw new Error('an OSDP Secure Channel key is 16 bytes');
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', sealingKey, iv);
      c.setAAD(aad(address));
      const data = Buffer.concat([c.update(scbk), c.final()]);
      file = {
        ...file,
        readers: { ...file.readers, [String(address)]: { iv: iv.toString('base64'), data: data.toString('base64'), tag: c.getAuthTag().toString('base64') } },
      };
      save();
    },
    remove(address) {
      if (!file.readers[String(address)]) return;
      const readers = { ...file.readers };
      delete readers[String(address)];
      file = { ...file, readers };
      save();
    },
    unreadable: () =>
      Object.keys(file.readers)
        .map(Number)
        .filter((a) => open(a) === undefined),
  };
}
