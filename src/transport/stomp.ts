// The browser's real-time transport: STOMP 1.2 over SockJS (§7), one connection per service. It is the
// `connection` callback actor the socket machine invokes; the machine owns reconnecting (5 s, only with a
// jwt), so stompjs's own reconnect is off. stompjs and sockjs-client load with the first connection (after sign-in),
// so the sign-in page does not carry them.
import type { Client, IMessage } from '@stomp/stompjs';
import { fromCallback } from 'xstate';
import { SOCKJS_PREFIX, receivableChangeDestinations, receivableDestinations, refusedDestination } from '../../contract';
import type { ConnectionInput, SocketEvent, SocketMessage } from '../../machines/socket';

/** Destinations the broker refused to this token (a grant revoked mid-session): not asked for again on reconnect. */
const refusedByToken = new Map<string, Set<string>>();

/**
 * The transport, subscribing only to the destinations the user's privileges let it hold (the broker refuses the
 * others with an ERROR, contract/realtimeAccess.ts); `held` reads the signed-in user's privilege codes.
 */
export const createStompConnection = (held: () => ReadonlySet<string>) =>
  fromCallback<SocketEvent, ConnectionInput>(({ sendBack, input }) => {
    const key = input.token ?? '';
    const refused = refusedByToken.get(key) ?? new Set<string>();
    refusedByToken.set(key, refused);
    let closed = false;
    let client: Client | null = null;
    // The broker coalesces the frames of one turn into one SockJS message and stompjs hands them over one by one in
    // the same task: they go to the machine together once that task is done (one transition and one journal entry
    // per batch, not per frame; issue 13's live events screen).
    let batch: SocketMessage[] = [];
    const flush = () => {
      const messages = batch;
      batch = [];
      if (closed || !messages.length) return;
      sendBack(messages.length === 1 ? { type: 'socket.message', ...messages[0] } : { type: 'socket.messages', messages });
    };
    const heard = (message: SocketMessage) => {
      batch.push(message);
      if (batch.length === 1) queueMicrotask(flush);
    };
    const close = (reason?: string) => {
      if (closed) return;
      flush(); // what arrived before the close is not lost to it
      closed = true;
      sendBack({ type: 'socket.closed', reason });
    };
    const connect = ([stomp, sockjs]: Libraries) => {
      if (closed) return; // stopped while the libraries were loading
      const SockJS = sockjs.default;
      const c = new stomp.Client({
        webSocketFactory: () => new SockJS(`${window.location.origin}${SOCKJS_PREFIX[input.service]}`),
        connectHeaders: input.token ? { Authorization: `Bearer ${input.token}` } : {},
        reconnectDelay: 0,
        heartbeatIncoming: 10_000,
        heartbeatOutgoing: 10_000,
        debug: () => {},
      });
      c.onConnect = () => {
        const changes = input.service === 'central' ? receivableChangeDestinations(held()) : [];
        for (const destination of [...receivableDestinations(input.service, held()), ...changes]) {
          if (refused.has(destination)) continue;
          c.subscribe(destination, (m: IMessage) => heard({ destination: m.headers.destination ?? destination, body: m.body }));
        }
        sendBack({ type: 'socket.connected' });
      };
      c.onStompError = (frame) => {
        // a destination this user may not hear (server/realtime/session.ts): by the refusal's key and its values, not
        // its English; the next connection leaves it out
        if (frame.headers.code === 'stomp.forbiddenDestination') {
          const destination = refusedDestination(frame.headers.values);
          if (destination) refused.add(destination);
        }
        close(frame.headers.message ?? 'STOMP error');
      };
      c.onWebSocketClose = () => close('connection closed');
      c.onWebSocketError = () => close('connection error');
      c.activate();
      client = c;
    };
    loadLibraries().then(connect, () => close('the real-time client could not be loaded'));
    return () => {
      closed = true;
      batch = [];
      void client?.deactivate();
    };
  });

type SockJSConstructor = typeof import('sockjs-client');
type Libraries = [typeof import('@stomp/stompjs'), { default: SockJSConstructor }];
let libraries: Promise<Libraries> | null = null;
/** Issue 48: the libraries (18 KB compressed) are asked for once this settles, so a cold load of the console fetches
 *  what its opening screen draws first and the live connection after it (src/system/browser.ts holds it). */
let librariesWait: Promise<unknown> = Promise.resolve();
/** The first connection loads its libraries once `until` settles (either way). */
export function loadLiveLibrariesAfter(until: Promise<unknown>): void {
  librariesWait = until.catch(() => undefined);
}
/** Loaded once, on the first connection; a failed load is tried again on the next one. */
function loadLibraries() {
  const loading: Promise<Libraries> =
    libraries ?? librariesWait.then(() => Promise.all([import('@stomp/stompjs'), import('sockjs-client') as Promise<{ default: SockJSConstructor }>]));
  libraries = loading;
  loading.catch(() => {
    libraries = null;
  });
  return loading;
}
