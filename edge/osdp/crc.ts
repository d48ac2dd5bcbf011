// §5.10 and Annex A: CRC-16 (the AUG-CCITT variant: polynomial 0x1021, initial value 0x1D0F, no reflection, no final
// XOR) over every byte from SOM on, sent least significant byte first; or an 8-bit checksum (two's complement of the
// byte sum) when the control byte's CRC bit is clear.

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

export function crc16(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0x1d0f;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]) & 0xff];
  return crc;
}

export function checksum(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += bytes[i];
  return -sum & 0xff;
}
