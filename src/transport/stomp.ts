// The browser's real-time transport: STOMP 1.2 over SockJS (§7), one connection per service. It is the
// `connection` callback actor the socket machine invokes; the machine owns reconnecting (5 s, only with a
// jwt), so stompjs's own reconnect is off.
import { Client, type IMessage } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { fromCallback } from 'xstate';
import { SOCKJS_PREFIX, receivableChangeDestinations, receivableDestinations } from '../../contract';
import type { ConnectionInput, SocketEvent } from '../../machines/socket';

/** Destinations the broker refused to this token (a grant revoked mid-session): not asked for again on reconnect. */
const refusedByToken = new Map<string, Set<string>>();

/**
 * The transport, subscribing only to the destinations the user's privileges let it hold (the broker refuses the
 * others with an ERROR, contract/realtimeAccess.ts); `held` reads the signed-in user's privilege codes.
 */
export const createStompConnection = (held: () => ReadonlySet<string>) => fromCallback<SocketEvent, ConnectionInput>(({ sendBack, input }) => {
  const key = input.token ?? '';
  const refused = refusedByToken.get(key) ?? new Set<string>();
  refusedByToken.set(key, refused);
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
    const changes = input.service === 'central' ? receivableChangeDestinations(held()) : [];
    for (const destination of [...receivableDestinations(input.service, held()), ...changes]) {
      if (refused.has(destination)) continue;
      client.subscribe(destination, (m: IMessage) => sendBack({ type: 'socket.message', destination: m.headers.destination ?? destination, body: m.body }));
    }
    sendBack({ type: 'socket.connected' });
  };
  client.onStompError = (frame) => {
    const forbidden = /^Forbidden destination (\S+)$/.exec(frame.headers.message ?? '');
    if (forbidden) refused.add(forbidden[1]);
    close(frame.headers.message ?? 'STOMP error');
  };
  client.onWebSocketClose = () => close('connection closed');
  client.onWebSocketError = () => close('connection error');
  client.activate();
  return () => {
    closed = true;
    void client.deactivate();
  };
});
