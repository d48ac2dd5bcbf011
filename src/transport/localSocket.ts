// A WebSocket to a program on this computer (desktop companion, card connector) as an xstate callback actor:
// frames go to the machine as they are (it validates them); `socket.send` commands go out as JSON.
import { fromCallback } from 'xstate';

export type LocalSocketCommand = { type: 'socket.send'; message: unknown };
export type LocalSocketEvent =
  { type: 'socket.opened' } | { type: 'socket.message'; data: unknown } | { type: 'socket.closed'; code?: number; reason?: string };

export function localSocketActor<C extends LocalSocketCommand, I>(url: (input: I) => string, WebSocketImpl?: typeof WebSocket) {
  return fromCallback<C, I>(({ input, sendBack, receive }) => {
    const tell = (e: LocalSocketEvent) => sendBack(e);
    const Ws = WebSocketImpl ?? globalThis.WebSocket;
    const ws = new Ws(url(input));
    let closed = false;
    ws.onopen = () => tell({ type: 'socket.opened' });
    ws.onerror = () => {}; // a browser fires error then close: only close is told, once
    ws.onmessage = (e: MessageEvent) => tell({ type: 'socket.message', data: e.data });
    ws.onclose = (e: CloseEvent) => {
      if (!closed) {
        closed = true;
        tell({ type: 'socket.closed', code: e.code, reason: e.reason || undefined });
      }
    };
    receive((e) => {
      if (e.type === 'socket.send' && ws.readyState === 1) ws.send(JSON.stringify(e.message));
    });
    return () => {
      closed = true;
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close();
    };
  });
}
