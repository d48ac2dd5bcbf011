// A card read becomes a facility code and card number by the reader's card formats (contract/cardFormat, the formats
// of Configure/Hardware), checked by their parity bits.
import { decode, STANDARD_FORMATS, type CardFormat, type DecodeResult } from '../../contract/cardFormat.js';
import type { CardRead } from './messages.js';

export function decodeCard(card: Pick<CardRead, 'bits'>, formats: readonly Omit<CardFormat, 'id'>[] = STANDARD_FORMATS): DecodeResult {
  return decode(formats, card.bits);
}
