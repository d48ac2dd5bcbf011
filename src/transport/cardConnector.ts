// The browser's side of the card connector machine (§7): one WebSocket per port the machine tries, at
// ws://127.0.0.1:{port}. Frames go to the machine as they are; it validates them.
import { localSocketActor } from './localSocket';
import type { ConnectorSocketCommand, ConnectorSocketInput } from '../../machines/cardConnector';

export interface CardConnectorTransportOptions {
  host?: string;
  /** The WebSocket constructor (the browser's; `ws` in Node tests). */
  WebSocket?: typeof WebSocket;
}

export function createCardConnectorTransport(options: CardConnectorTransportOptions = {}) {
  const host = options.host ?? '127.0.0.1';
  return {
    socket: localSocketActor<ConnectorSocketCommand, ConnectorSocketInput>((input) => `ws://${host}:${input.port}`, options.WebSocket),
  };
}
