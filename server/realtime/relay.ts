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
import { connect as netConnect } from 'node:net';
import { Client, type IStompSocket } from '@stomp/stompjs';
import { FrameError, FrameParser, serialize, type Frame } from './frame';

/** `users`: only these users' sessions hear it (a notice addressed to people), else every session of the tenant. */
export interface RelayMessage {
  tenant: string;
  destination: string;
  json: string;
  users?: readonly number[];
  division?: number;
  counts?: { byDivision: Record<number, number>; none: number };
}

export interface Relay {
  publish(message: RelayMessage): void;
  close(): Promise<void>;
  readonly connected: boolean;
}

const TOPIC = '/topic/gatehouse';

/**
 * What one process publishes in one turn of the event loop for a tenant goes to the broker as one message: a batch of
 * ingested events is then one RabbitMQ message for every process to take, not one per event (issue 13: the relay was
 * the slower hop of the scale-out). Bounded in size like the SockJS messages (server/realtime/coalesce.ts).
 */
export const RELAY_BATCH_MAX_CHARS = 64 * 1024;
type Wire = Omit<RelayMessage, 'tenant'>;

/** A batch's body: the messages in order, each its destination, JSON text and audience. */
export function encodeBatch(messages: readonly RelayMessage[]): string {
  return JSON.stringify(messages.map(({ tenant: _t, ...wire }) => wire));
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
/** A batch's body read back for `tenant`; an item that is not a well-formed message is left out (and counted). */
export function decodeBatch(tenant: string, body: string): { messages: RelayMessage[]; refused: number } {
  let items: unknown;
  try {
    items = JSON.parse(body);
  } catch {
    return { messages: [], refused: 1 };
  }
  if (!Array.isArray(items)) return { messages: [], refused: 1 };
  const messages: RelayMessage[] = [];
  let refused = 0;
  for (const item of items as Array<Partial<Wire> | null>) {
    const ok =
      item !== null &&
      typeof item === 'object' &&
      typeof item.destination === 'string' &&
      item.destination !== '' &&
      typeof item.json === 'string' &&
      (item.users === undefined || (Array.isArray(item.users) && item.users.every(isCount))) &&
      (item.division === undefined || (isCount(item.division) && item.division > 0)) &&
      (item.counts === undefined ||
        (typeof item.counts === 'object' &&
          item.counts !== null &&
          isCount(item.counts.none) &&
          typeof item.counts.byDivision === 'object' &&
          item.counts.byDivision !== null &&
          Object.values(item.counts.byDivision).every(isCount)));
    if (!ok) {
      refused++;
      continue;
    }
    const { destination, json, users, division, counts } = item as Wire;
    messages.push({ tenant, destination, json, ...(users ? { users } : {}), ...(division ? { division } : {}), ...(counts ? { counts } : {}) });
  }
  return { messages, refused };
}
const routingKey = (tenant: string) => `${TOPIC}.${tenant === '' ? '_' : tenant.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** What a relay frame may hold (a batch is about RELAY_BATCH_MAX_CHARS; far more is a broken stream). */
const RELAY_FRAME_LIMITS = { maxFrameBytes: 16 * 1024 * 1024, maxBodyBytes: 16 * 1024 * 1024, maxHeaders: 64 };

/**
 * A WebSocket-shaped wrapper over a TCP socket, so @stomp/stompjs speaks plain STOMP (port 61613). With `onMessage`,
 * the incoming MESSAGE frames are parsed here (server/realtime/frame.ts, whole buffers) and handed to it instead of
 * to @stomp/stompjs, whose parser takes one byte at a time into a JS array: in the scale-out bench that was most of a
 * capped server's processor time (issue 30). The client still sees every other frame (CONNECTED, RECEIPT, ERROR),
 * and a heart-beat in place of each MESSAGE, so it knows the broker is alive while messages stream in.
 */
export function tcpStompSocket(host: string, port: number, onMessage?: (frame: Frame) => void): IStompSocket {
  const ws: IStompSocket & { readyState: number } = {
    url: `stomp://${host}:${port}`,
    binaryType: 'arraybuffer',
    readyState: 0,
    onopen: null,
    onclose: null,
    onerror: null,
    onmessage: null,
    send(data) {
      if (typeof data === 'string') socket.write(data);
      else if (ArrayBuffer.isView(data)) socket.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      else socket.write(Buffer.from(data as ArrayBuffer));
    },
    close() {
      ws.readyState = 2;
      socket.end();
    },
    terminate() {
      socket.destroy();
    },
  };
  const socket = netConnect({ host, port }, () => {
    ws.readyState = 1;
    ws.onopen?.();
  });
  const toClient = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    ws.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  };
  const parser = onMessage
    ? new FrameParser(
        RELAY_FRAME_LIMITS,
        (frame) => {
          if (frame.command === 'MESSAGE') {
            toClient('\n');
            onMessage(frame);
          } else toClient(serialize(frame.command, frame.headers, frame.body));
        },
        () => toClient('\n'),
      )
    : null;
  socket.on('data', (chunk: Buffer) => {
    if (parser) {
      try {
        parser.push(chunk);
      } catch (e) {
        // a stream that is not STOMP any more: drop the connection (the client reconnects)
        ws.onerror?.(e instanceof FrameError ? new Error(`${e.message}: ${e.detail ?? ''}`) : e);
        socket.destroy();
      }
      return;
    }
    const ab = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength);
    ws.onmessage?.({ data: ab });
  });
  socket.on('error', (err) => ws.onerror?.(err));
  socket.on('close', () => {
    ws.readyState = 3;
    ws.onclose?.({ code: 1006, reason: 'tcp closed' });
  });
  return ws;
}

/**
 * Connect to the external broker. `onMessage` is called for every message of every tenant (from this and every
 * other server process); the caller delivers it to its local subscribers. `wanted(tenant)`: whether this process
 * has subscribers of that tenant now; a batch for a tenant it has none of is not decoded at all.
 */
export function createRelay(
  url: string,
  onMessage: (m: RelayMessage) => void,
  log: (msg: string) => void = () => {},
  wanted: (tenant: string) => boolean = () => true,
): Relay {
  const u = new URL(url);
  const login = decodeURIComponent(u.username || 'guest');
  const passcode = decodeURIComponent(u.password || 'guest');
  const vhost = u.protocol === 'stomp:' ? decodeURIComponent(u.pathname.replace(/^\//, '')) || '/' : '/';
  const factory = (): IStompSocket => {
    if (u.protocol === 'stomp:' || u.protocol === 'tcp:')
      return tcpStompSocket(u.hostname, Number(u.port || 61613), (frame) => received(frame.headers, frame.body.toString('utf8')));
    const WS = (globalThis as { WebSocket?: new (url: string, protocols?: string[]) => IStompSocket }).WebSocket;
    if (!WS) throw new Error('STOMP_RELAY_URL ws:// needs a global WebSocket (Node 22+); use stomp://host:61613');
    const clean = new URL(url);
    clean.username = '';
    clean.password = '';
    return new WS(clean.toString(), ['v12.stomp']);
  };
  /** A message of the subscription: a batch, or one message with its destination and audience in headers. */
  const received = (headers: Record<string, string>, body: string) => {
    const tenant = headers['x-gatehouse-tenant'];
    if (tenant !== undefined && !wanted(tenant)) return;
    if (tenant !== undefined && headers['x-gatehouse-batch'] !== undefined) {
      const { messages, refused } = decodeBatch(tenant, body);
      if (refused) log(`stomp relay: ${refused} malformed message(s) of a batch left out`);
      for (const m of messages) onMessage(m);
      return;
    }
    const destination = headers['x-gatehouse-destination'];
    if (tenant === undefined || !destination) return;
    const users = headers['x-gatehouse-users'];
    const division = Number(headers['x-gatehouse-division']);
    let counts: RelayMessage['counts'];
    const raw = headers['x-gatehouse-counts'];
    if (raw && /^\d+;(\d+=\d+(,\d+=\d+)*)?$/.test(raw)) {
      const [none, list] = raw.split(';');
      counts = { none: Number(none), byDivision: Object.fromEntries(list ? list.split(',').map((x) => x.split('=').map(Number)) : []) };
    }
    onMessage({
      tenant,
      destination,
      json: body,
      ...(users ? { users: users.split(',').map(Number).filter(Number.isInteger) } : {}),
      ...(Number.isInteger(division) && division > 0 ? { division } : {}),
      ...(counts ? { counts } : {}),
    });
  };
  let connected = false;
  let subscriptions = 0;
  const client = new Client({
    webSocketFactory: factory,
    connectHeaders: { login, passcode, host: vhost },
    reconnectDelay: 1000,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    debug: () => {},
    onConnect: () => {
      // connected once RabbitMQ confirms the subscription, not at CONNECTED: until its queue is bound, what another
      // process publishes does not reach this one (a CI saw a burst published right after CONNECTED go missing)
      const receipt = `gatehouse-relay-${++subscriptions}`;
      client.watchForReceipt(receipt, () => {
        connected = true;
        log(`stomp relay connected to ${u.host}`);
      });
      // (over plain STOMP the socket hands the MESSAGE frames to `received` itself, ahead of this callback)
      client.subscribe(`${TOPIC}.*`, (msg) => received(msg.headers, msg.body), { receipt });
    },
    onWebSocketClose: () => {
      connected = false;
    },
    onStompError: (frame) => log(`stomp relay error: ${frame.headers.message ?? ''} ${frame.body}`),
  });
  client.activate();
  const one = ({ tenant, destination, json, users, division, counts }: RelayMessage) => {
    client.publish({
      destination: routingKey(tenant),
      body: json,
      headers: {
        'content-type': 'application/json',
        'x-gatehouse-tenant': tenant,
        'x-gatehouse-destination': destination,
        ...(users ? { 'x-gatehouse-users': users.join(',') } : {}),
        ...(division ? { 'x-gatehouse-division': String(division) } : {}),
        ...(counts
          ? {
              'x-gatehouse-counts': `${counts.none};${Object.entries(counts.byDivision)
                .map(([d, n]) => `${d}=${n}`)
                .join(',')}`,
            }
          : {}),
      },
    });
  };
  // the turn's messages per tenant, in order; sent as one message when there are several
  let waiting = new Map<string, { messages: RelayMessage[]; chars: number }>();
  let scheduled = false;
  const send = (tenant: string, messages: RelayMessage[]) => {
    if (!client.connected) {
      log(`stomp relay not connected: dropped ${messages.length} message(s) for ${messages[0].destination}`);
      return;
    }
    if (messages.length === 1) {
      one(messages[0]);
      return;
    }
    client.publish({
      destination: routingKey(tenant),
      body: encodeBatch(messages),
      headers: { 'content-type': 'application/json', 'x-gatehouse-tenant': tenant, 'x-gatehouse-batch': String(messages.length) },
    });
  };
  const flush = () => {
    scheduled = false;
    const all = waiting;
    waiting = new Map();
    for (const [tenant, w] of all) send(tenant, w.messages);
  };
  return {
    get connected() {
      return connected;
    },
    publish(message) {
      let w = waiting.get(message.tenant);
      if (!w) waiting.set(message.tenant, (w = { messages: [], chars: 0 }));
      w.messages.push(message);
      w.chars += message.json.length + message.destination.length + 64;
      if (w.chars >= RELAY_BATCH_MAX_CHARS) {
        waiting.delete(message.tenant);
        send(message.tenant, w.messages);
        return;
      }
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    async close() {
      flush();
      await client.deactivate();
    },
  };
}
