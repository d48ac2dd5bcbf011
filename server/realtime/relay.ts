// Scale-out relay (ARCHITECTURE.md): with STOMP_RELAY_URL set, every publish goes to an external STOMP broker
// (RabbitMQ's STOMP plugin) and every server process feeds its own SockJS subscribers from one subscription
// there, so N processes behind a load balancer share one stream — the way Spring's broker relay works.
//
//   STOMP_RELAY_URL=stomp://guest:guest@rabbit:61613/vhost   plain STOMP over TCP (rabbitmq_stomp)
//   STOMP_RELAY_URL=ws://guest:guest@rabbit:15674/ws         STOMP over WebSocket (rabbitmq_web_stomp; needs a
//                                                            global WebSocket, i.e. Node 22+)
//
// Messages go to the amq.topic exchange as `/topic/gatehouse.<tenant>` with the real destination and tenant in
// headers, so a tenant's stream is one routing key and the broker never needs per-destination queues.
// Tested against RabbitMQ 3.10's STOMP plugin (relay.rabbitmq.test.ts, run by .ci/run).
import { connect as netConnect, type Socket } from 'node:net';
import { Client, type IStompSocket } from '@stomp/stompjs';

/** `users`: only these users' sessions hear it (a notice addressed to people), else every session of the tenant. */
export interface RelayMessage { tenant: string; destination: string; json: string; users?: readonly number[]; division?: number; counts?: { byDivision: Record<number, number>; none: number } }

export interface Relay {
  publish(message: RelayMessage): void;
  close(): Promise<void>;
  readonly connected: boolean;
}

const TOPIC = '/topic/gatehouse';
const routingKey = (tenant: string) => `${TOPIC}.${tenant === '' ? '_' : tenant.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** A WebSocket-shaped wrapper over a TCP socket, so @stomp/stompjs speaks plain STOMP (port 61613). */
export function tcpStompSocket(host: string, port: number): IStompSocket {
  let socket: Socket;
  const ws: IStompSocket & { readyState: number } = {
    url: `stomp://${host}:${port}`,
    binaryType: 'arraybuffer',
    readyState: 0,
    onopen: null, onclose: null, onerror: null, onmessage: null,
    send(data) {
      if (typeof data === 'string') socket.write(data);
      else if (ArrayBuffer.isView(data)) socket.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      else socket.write(Buffer.from(data as ArrayBuffer));
    },
    close() { ws.readyState = 2; socket.end(); },
    terminate() { socket.destroy(); },
  };
  socket = netConnect({ host, port }, () => { ws.readyState = 1; ws.onopen?.(); });
  socket.on('data', (chunk: Buffer) => {
    const ab = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength);
    ws.onmessage?.({ data: ab });
  });
  socket.on('error', (err) => ws.onerror?.(err));
  socket.on('close', () => { ws.readyState = 3; ws.onclose?.({ code: 1006, reason: 'tcp closed' }); });
  return ws;
}

/**
 * Connect to the external broker. `onMessage` is called for every message of every tenant (from this and every
 * other server process); the caller delivers it to its local subscribers.
 */
export function createRelay(url: string, onMessage: (m: RelayMessage) => void, log: (msg: string) => void = () => {}): Relay {
  const u = new URL(url);
  const login = decodeURIComponent(u.username || 'guest');
  const passcode = decodeURIComponent(u.password || 'guest');
  const vhost = u.protocol === 'stomp:' ? decodeURIComponent(u.pathname.replace(/^\//, '')) || '/' : '/';
  const factory = (): IStompSocket => {
    if (u.protocol === 'stomp:' || u.protocol === 'tcp:') return tcpStompSocket(u.hostname, Number(u.port || 61613));
    const WS = (globalThis as { WebSocket?: new (url: string, protocols?: string[]) => IStompSocket }).WebSocket;
    if (!WS) throw new Error('STOMP_RELAY_URL ws:// needs a global WebSocket (Node 22+); use stomp://host:61613');
    const clean = new URL(url);
    clean.username = '';
    clean.password = '';
    return new WS(clean.toString(), ['v12.stomp']);
  };
  let connected = false;
  const client = new Client({
    webSocketFactory: factory,
    connectHeaders: { login, passcode, host: vhost },
    reconnectDelay: 1000,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    debug: () => {},
    onConnect: () => {
      connected = true;
      log(`stomp relay connected to ${u.host}`);
      client.subscribe(`${TOPIC}.*`, (msg) => {
        const tenant = msg.headers['x-gatehouse-tenant'];
        const destination = msg.headers['x-gatehouse-destination'];
        if (tenant === undefined || !destination) return;
        const users = msg.headers['x-gatehouse-users'];
        const division = Number(msg.headers['x-gatehouse-division']);
        let counts: RelayMessage['counts'];
        const raw = msg.headers['x-gatehouse-counts'];
        if (raw && /^\d+;(\d+=\d+(,\d+=\d+)*)?$/.test(raw)) {
          const [none, list] = raw.split(';');
          counts = { none: Number(none), byDivision: Object.fromEntries(list ? list.split(',').map((x) => x.split('=').map(Number)) : []) };
        }
        onMessage({ tenant, destination, json: msg.body, ...(users ? { users: users.split(',').map(Number).filter(Number.isInteger) } : {}), ...(Number.isInteger(division) && division > 0 ? { division } : {}), ...(counts ? { counts } : {}) });
      });
    },
    onWebSocketClose: () => { connected = false; },
    onStompError: (frame) => log(`stomp relay error: ${frame.headers.message ?? ''} ${frame.body}`),
  });
  client.activate();
  return {
    get connected() { return connected; },
    publish({ tenant, destination, json, users, division, counts }) {
      if (!client.connected) {
        log(`stomp relay not connected: dropped a message for ${destination}`);
        return;
      }
      client.publish({
        destination: routingKey(tenant),
        body: json,
        headers: { 'content-type': 'application/json', 'x-gatehouse-tenant': tenant, 'x-gatehouse-destination': destination, ...(users ? { 'x-gatehouse-users': users.join(',') } : {}), ...(division ? { 'x-gatehouse-division': String(division) } : {}), ...(counts ? { 'x-gatehouse-counts': `${counts.none};${Object.entries(counts.byDivision).map(([d, n]) => `${d}=${n}`).join(',')}` } : {}) },
      });
    },
    async close() { await client.deactivate(); },
  };
}
