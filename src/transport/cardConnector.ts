// The browser's side of the card connector machine (§7): one WebSocket per port the machine tries, at
// ws://127.0.0.1:{port}. Frames go to the machine as they are; it validates them.
import { fromCallback } from 'xstate';
import type { ConnectorSocketCommand, ConnectorSocketInput } from '../../machines/cardConnector';

export interface CardConnectorTransportOptions {
  host?: string;
  /** The WebSocket constructor (the browser's; `ws` in Node tests). */
  WebSocket?: typeof WebSocket;
}

export function createCardConnectorTransport(options: CardConnectorTransportOptions = {}) {
  const host = options.host ?? '127.0.0.1';
  return {
    socket: fromCallback<ConnectorSocketCommand, ConnectorSocketInput>(({ input, sendBack, receive }) => {
      const Ws = options.WebSocket ?? globalThis.WebSocket;
      const ws = new Ws(`ws://${host}:${input.port}`);
      let closed = false;
      ws.onopen = () => sendBack({ type: 'socket.opened' });
      ws.onerror = () => {}; // the close that follows is what the machine hears
      ws.onmessage = (e: MessageEvent) => sendBack({ type: 'socket.message', data: e.data });
      ws.onclose = (e: CloseEvent) => { if (!closed) { closed = true; sendBack({ type: 'socket.closed', code: e.code, reason: e.reason || undefined }); } };
      receive((e) => { if (e.type === 'socket.send' && ws.readyState === 1) ws.send(JSON.stringify(e.message)); });
      return () => { closed = true; ws.onopen = ws.onmessage = ws.onclose = null; ws.close(); };
    }),
  };
}
