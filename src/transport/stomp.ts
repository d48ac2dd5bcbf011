// The browser's real-time transport: STOMP 1.2 over SockJS (§7), one connection per service. It is the
// `connection` callback actor the socket machine invokes; the machine owns reconnecting (5 s, only with a
// jwt), so stompjs's own reconnect is off.
import { Client, type IMessage } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { fromCallback } from 'xstate';
import { SERVICE_DESTINATIONS, SOCKJS_PREFIX } from '../../contract';
import type { ConnectionInput, SocketEvent } from '../../machines/socket';

export const stompConnection = fromCallback<SocketEvent, ConnectionInput>(({ sendBack, input }) => {
  const client = new Client({
    webSocketFactory: () => new SockJS(`${window.location.origin}${SOCKJS_PREFIX[input.service]}`),
    connectHeaders: input.token ? { Authorization: `Bearer ${input.token}` } : {},
    reconnectDelay: 0,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    debug: () => {},
  });
  let closed = false;
  const close = (reason?: string) => {
    if (closed) return;
    closed = true;
    sendBack({ type: 'socket.closed', reason });
  };
  client.onConnect = () => {
    for (const destination of SERVICE_DESTINATIONS[input.service]) {
      client.subscribe(destination, (m: IMessage) => sendBack({ type: 'socket.message', destination: m.headers.destination ?? destination, body: m.body }));
    }
    sendBack({ type: 'socket.connected' });
  };
  client.onStompError = (frame) => close(frame.headers.message ?? 'STOMP error');
  client.onWebSocketClose = () => close('connection closed');
  client.onWebSocketError = () => close('connection error');
  client.activate();
  return () => {
    closed = true;
    void client.deactivate();
  };
});
