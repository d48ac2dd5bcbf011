// What the "Read card" panel of identity and visitor registration reads from the card connector actor.
import type { CardConnectorSnapshot } from './cardConnector';

export type CardConnectorStatus = 'idle' | 'searching' | 'connected' | 'serviceMissing' | 'closed' | 'outdated';
export type CardReaderState = 'noReader' | 'readerReady' | 'cardInserted' | 'reading' | 'cardRead';

export const selectConnectorStatus = (s: CardConnectorSnapshot): CardConnectorStatus => {
  if (s.matches({ attempt: 'open' })) return 'connected';
  if (s.matches('attempt') || s.matches('pausing')) return 'searching';
  if (s.matches('serviceMissing')) return 'serviceMissing';
  if (s.matches('closed')) return 'closed';
  if (s.matches('outdated')) return 'outdated';
  return 'idle';
};

export const selectReaderState = (s: CardConnectorSnapshot): CardReaderState | null => {
  for (const r of ['noReader', 'readerReady', 'cardInserted', 'reading', 'cardRead'] as const) {
    if (s.matches({ attempt: { open: r } })) return r;
  }
  return null;
};

const READER_TEXT: Record<CardReaderState, string> = {
  noReader: 'Connect a card reader to this computer.',
  readerReady: 'Insert an identity card into the reader.',
  cardInserted: 'Card inserted. Press Read card.',
  reading: 'Reading the card…',
  cardRead: 'Card read.',
};

/** One clear sentence for every state (§4, §8): the failure messages come from the contract. */
export const selectConnectorStatusText = (s: CardConnectorSnapshot): string | null => {
  const status = selectConnectorStatus(s);
  if (status === 'idle') return null;
  if (status === 'searching') return 'Looking for the card reader service…';
  if (status === 'connected') return READER_TEXT[selectReaderState(s)!];
  return s.context.message;
};
/** Failures (guide, Connect failed, outdated) are shown as warnings with a "Try again" button. */
export const selectConnectorNeedsRetry = (s: CardConnectorSnapshot) => s.matches('serviceMissing') || s.matches('closed') || s.matches('outdated');
export const selectCanReadCard = (s: CardConnectorSnapshot) => s.matches({ attempt: { open: 'cardInserted' } }) || s.matches({ attempt: { open: 'cardRead' } });
export const selectCard = (s: CardConnectorSnapshot) => s.context.card;
export const selectConnectorError = (s: CardConnectorSnapshot) => s.context.error;
export const selectConnectorIsBusy = (s: CardConnectorSnapshot) => s.hasTag('busy') || s.matches('pausing');
export const selectConnectorPort = (s: CardConnectorSnapshot) => s.context.port;
