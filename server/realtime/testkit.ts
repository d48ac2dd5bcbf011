// Test support for the broker's conformance tests: a plain HTTP server on port 0 with the endpoints installed,
// @stomp/stompjs clients over sockjs-client, and a bounded wait for a fact (never a sleep for time).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import SockJS from 'sockjs-client';
import { Client, type IFrame, type IMessage, type StompHeaders } from '@stomp/stompjs';
import { DESTINATION_PRIVILEGES, SOCKJS_PREFIX, type RealtimeService } from '../../contract';
import { attachRealtime, type Realtime, type RealtimeOptions, type RealtimeUser } from './index';

/** Every code any destination asks for: the broker's own tests are about STOMP, not privileges. */
const EVERYTHING: ReadonlySet<string> = new Set(Object.values(DESTINATION_PRIVILEGES).flatMap((c) => c ?? []));

export const USERS: Record<string, RealtimeUser> = {
  'token-a': { userId: 1, username: 'ada', clientId: 1, privileges: EVERYTHING },
  'token-a2': { userId: 3, username: 'alan', clientId: 1, privileges: EVERYTHING },
  'token-b': { userId: 2, username: 'bob', clientId: 2, privileges: EVERYTHING },
  // a receptionist of tenant 1: visitor management (1.0.0) only
  'token-desk': { userId: 4, username: 'rita', clientId: 1, privileges: new Set(['0.1', '1.0.0']) },
  // an alarms watcher without live events: 0.2.1.0 only
  'token-alarms': { userId: 5, username: 'al', clientId: 1, privileges: new Set(['0.2.1.0']) },
  // an operator of tenant 1 whose grant covers division 10 only (issue 10)
  'token-site': { userId: 6, username: 'sita', clientId: 1, privileges: EVERYTHING, divisionsOf: () => new Set([10]) },
};
export const fakeVerify = async (token: string) => USERS[token] ?? null;

export interface Harness {
  http: Server;
  realtime: Realtime;
  url(service: RealtimeService): string;
  close(): Promise<void>;
}

export async function startBroker(options: Partial<RealtimeOptions> = {}): Promise<Harness> {
  const http = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const realtime = attachRealtime(http, { verifyToken: fakeVerify, relayUrl: '', ...options });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  return {
    http,
    realtime,
    url: (service) => `http://127.0.0.1:${port}${SOCKJS_PREFIX[service]}`,
    async close() {
      await realtime.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

/** Resolve when `fact()` is truthy, polling; reject with `what` after `timeoutMs`. */
export async function waitFor<T>(fact: () => T | undefined | null | false, what: string, timeoutMs = 3000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fact();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export interface TestClient {
  client: Client;
  errors: IFrame[];
  closed: boolean;
  connected: IFrame | null;
  heartbeatsReceived: number;
  /** every MESSAGE received, including ones for a subscription the client already dropped */
  messages: IMessage[];
  subscribe(destination: string, headers?: StompHeaders): { id: string; unsubscribe(headers?: StompHeaders): void };
  /** Raw text straight onto the SockJS connection, bypassing the client's serializer. */
  raw(text: string): void;
}

export function stompClient(url: string, connectHeaders: StompHeaders, extra: { heartbeatIncoming?: number; heartbeatOutgoing?: number } = {}): TestClient {
  const t: TestClient = {
    client: undefined as unknown as Client,
    errors: [],
    closed: false,
    connected: null,
    heartbeatsReceived: 0,
    messages: [],
    subscribe(destination, headers) {
      const sub = t.client.subscribe(destination, (m) => t.messages.push(m), headers);
      return { id: sub.id, unsubscribe: (h) => sub.unsubscribe(h) };
    },
    raw(text) {
      (t.client.webSocket as { send(s: string): void }).send(text);
    },
  };
  t.client = new Client({
    webSocketFactory: () => new SockJS(url),
    connectHeaders,
    reconnectDelay: 0,
    heartbeatIncoming: extra.heartbeatIncoming ?? 0,
    heartbeatOutgoing: extra.heartbeatOutgoing ?? 0,
    debug: () => {},
    onConnect: (f) => {
      t.connected = f;
    },
    onStompError: (f) => {
      t.errors.push(f);
    },
    onWebSocketClose: () => {
      t.closed = true;
    },
    onHeartbeatReceived: () => {
      t.heartbeatsReceived++;
    },
    onUnhandledMessage: (m) => {
      t.messages.push(m);
    },
  });
  t.client.activate();
  return t;
}

export async function connected(url: string, token: string, extra?: Parameters<typeof stompClient>[2]): Promise<TestClient> {
  const t = stompClient(url, { Authorization: `Bearer ${token}` }, extra);
  await waitFor(() => t.connected || t.errors[0] || t.closed, 'CONNECTED');
  if (!t.connected) throw new Error(`not connected: ${t.errors[0]?.headers.message ?? 'closed'}`);
  return t;
}

/** A bare SockJS connection for frames a well-behaved client would never send. */
export function rawSocket(url: string) {
  const sock = new SockJS(url);
  const state = { open: false, closed: false, received: [] as string[] };
  sock.onopen = () => {
    state.open = true;
  };
  sock.onmessage = (e: { data: string }) => {
    state.received.push(e.data);
  };
  sock.onclose = () => {
    state.closed = true;
  };
  return { sock, state, text: () => state.received.join('') };
}

/**
 * A console of `token` on `url` subscribed to `destination` (its receipt awaited, so nothing published after the call
 * is missed); `bodies()` gives the JSON bodies heard there so far.
 */
export async function listening(url: string, token: string, destination: string): Promise<{ client: TestClient; bodies: () => any[] }> {
  const c = await connected(url, token);
  let subscribed = false;
  const receipt = `r-${destination}`;
  c.client.watchForReceipt(receipt, () => {
    subscribed = true;
  });
  c.subscribe(destination, { receipt });
  await waitFor(() => subscribed, `receipt ${destination}`);
  return { client: c, bodies: () => c.messages.filter((m) => m.headers.destination === destination).map((m) => JSON.parse(m.body)) };
}
