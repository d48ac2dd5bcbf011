// OSDP v2.2 (SIA, IEC 60839-11-5) codes and limits. Section numbers are those of the v2.2 text.
import { fill, type Sentence } from '../../contract/messages.js';

export const SOM = 0x53;
/** §5.7: 0x7F is the broadcast address, used only for osdp_ID, osdp_CAP and osdp_COMSET. */
export const BROADCAST = 0x7f;
export const MAX_ADDRESS = 0x7e;
/** A reply carries the PD's address with bit 7 set. */
export const REPLY_FLAG = 0x80;

/** Control byte bits (§5.5). */
export const CTRL_SQN_MASK = 0x03;
export const CTRL_CRC = 0x04;
export const CTRL_SCB = 0x08;

/** §5.9: a PD answers within 200 ms; characters of one packet are at most 20 ms apart. */
export const REPLY_TIMEOUT_MS = 200;
export const INTER_CHARACTER_TIMEOUT_MS = 20;
/** The smallest receive buffer a PD may have and the largest packet we accept or send. */
export const MIN_PACKET = 128;
export const MAX_PACKET = 1440;
/** SOM, ADDR, LEN (2), CTRL */
export const HEADER_LENGTH = 5;

export const Command = {
  POLL: 0x60,
  ID: 0x61,
  CAP: 0x62,
  LSTAT: 0x64,
  ISTAT: 0x65,
  OSTAT: 0x66,
  RSTAT: 0x67,
  OUT: 0x68,
  LED: 0x69,
  BUZ: 0x6a,
  TEXT: 0x6b,
  COMSET: 0x6e,
  KEYSET: 0x75,
  CHLNG: 0x76,
  SCRYPT: 0x77,
  ACURXSIZE: 0x7b,
  ABORT: 0xa2,
  KEEPACTIVE: 0xa7,
} as const;
export type CommandCode = (typeof Command)[keyof typeof Command];

export const Reply = {
  ACK: 0x40,
  NAK: 0x41,
  PDID: 0x45,
  PDCAP: 0x46,
  LSTATR: 0x48,
  ISTATR: 0x49,
  OSTATR: 0x4a,
  RSTATR: 0x4b,
  RAW: 0x50,
  KEYPAD: 0x53,
  COM: 0x54,
  CCRYPT: 0x76,
  RMAC_I: 0x78,
  BUSY: 0x79,
} as const;
export type ReplyCode = (typeof Reply)[keyof typeof Reply];

export const commandName = (code: number) => Object.entries(Command).find(([, c]) => c === code)?.[0] ?? `0x${code.toString(16)}`;
export const replyName = (code: number) => Object.entries(Reply).find(([, c]) => c === code)?.[0] ?? `0x${code.toString(16)}`;

/** osdp_NAK error codes (§7.3). */
export const Nak = {
  /** bad checksum or CRC */
  CHECK: 0x01,
  /** command length error */
  LENGTH: 0x02,
  UNKNOWN_COMMAND: 0x03,
  /** unexpected sequence number in the header */
  SEQUENCE: 0x04,
  /** this PD does not support the security block received */
  SCB_UNSUPPORTED: 0x05,
  /** communication security conditions not met */
  SECURITY: 0x06,
  BIO_TYPE: 0x07,
  BIO_FORMAT: 0x08,
  /** unable to process the command record */
  RECORD: 0x09,
} as const;
/** Why a reader refused a command (its NAK's error code), as a sentence with its key (said in the console's language
 *  when an edge journals it: a reader offline or refusing its secure channel). */
export const nakSaid = (code: number): Sentence => {
  switch (code) {
    case Nak.CHECK:
      return fill('osdp.nakCheck', 'bad checksum or CRC', {});
    case Nak.LENGTH:
      return fill('osdp.nakLength', 'command length error', {});
    case Nak.UNKNOWN_COMMAND:
      return fill('osdp.nakUnknownCommand', 'unknown command code', {});
    case Nak.SEQUENCE:
      return fill('osdp.nakSequence', 'unexpected sequence number', {});
    case Nak.SCB_UNSUPPORTED:
      return fill('osdp.nakSecurityBlock', 'security block not supported', {});
    case Nak.SECURITY:
      return fill('osdp.nakSecurity', 'communication security conditions not met', {});
    case Nak.BIO_TYPE:
      return fill('osdp.nakBioType', 'biometric type not supported', {});
    case Nak.BIO_FORMAT:
      return fill('osdp.nakBioFormat', 'biometric format not supported', {});
    case Nak.RECORD:
      return fill('osdp.nakRecord', 'unable to process command record', {});
    default:
      return fill('osdp.nakCode', 'NAK code {code}', { code });
  }
};
export const nakReason = (code: number): string => nakSaid(code).message;

/** Security block types (Annex D). */
export const Scs = {
  CHLNG: 0x11,
  CCRYPT: 0x12,
  SCRYPT: 0x13,
  RMAC_I: 0x14,
  /** CP→PD, MAC, no data */
  CMD_MAC: 0x15,
  /** PD→CP, MAC, no data */
  REPLY_MAC: 0x16,
  /** CP→PD, MAC and encrypted data */
  CMD_ENC: 0x17,
  /** PD→CP, MAC and encrypted data */
  REPLY_ENC: 0x18,
} as const;

/** osdp_PDCAP function codes (Annex B). */
export const Capability = {
  1: 'contactStatusMonitoring',
  2: 'outputControl',
  3: 'cardDataFormat',
  4: 'readerLedControl',
  5: 'readerAudibleOutput',
  6: 'readerTextOutput',
  7: 'timeKeeping',
  8: 'checkCharacterSupport',
  9: 'communicationSecurity',
  10: 'receiveBufferSize',
  11: 'largestCombinedMessageSize',
  12: 'smartCardSupport',
  13: 'readers',
  14: 'biometrics',
  15: 'securePinEntry',
  16: 'osdpVersion',
} as const satisfies Record<number, string>;

/** osdp_LED colours. */
export const Color = { BLACK: 0, RED: 1, GREEN: 2, AMBER: 3, BLUE: 4, MAGENTA: 5, CYAN: 6, WHITE: 7 } as const;
