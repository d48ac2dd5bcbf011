// One STOMP 1.2 session over one transport connection (a SockJS connection in production). It knows nothing
// of SockJS: it receives text, sends text and can close; the hub does the fan-out between sessions.
import {
  CLIENT_SENDABLE,
  isDestinationOf,
  mayReceive,
  privilegesForDestination,
  schemaForDestination,
  validate,
  type RealtimeService,
  type Violation,
} from '../../contract';
import { fill, type Sentence } from '../../contract/messages';
import { FRAME_SAID, FrameError, FrameParser, messageFrames, serialize, type Frame, type Headers } from './frame';

/**
 * Why a frame or a session is refused (issue 48): each ERROR frame says its sentence's key in a `code` header and its
 * values as JSON in `values`, beside STOMP's English `message`; a body's violations come as JSON in the frame's body.
 * The console reads the key and the values, never the English.
 */
const SAID = {
  connectTimeout: fill('stomp.connectTimeout', 'Connect timeout', {}),
  internal: fill('stomp.internalError', 'Internal error', {}),
  notConnected: fill('stomp.notConnected', 'Not connected', {}),
  malformed: FRAME_SAID.malformed,
  versions: fill('stomp.versions', 'Supported protocol versions are 1.2', {}),
  unauthorized: fill('stomp.unauthorized', 'Unauthorized', {}),
  alreadyConnected: fill('stomp.alreadyConnected', 'Already connected', {}),
  duplicateSubscription: fill('stomp.duplicateSubscription', 'Duplicate subscription id', {}),
  unknownDestination: fill('stomp.unknownDestination', 'Unknown destination', {}),
  forbiddenDestination: (destination: string) => fill('stomp.forbiddenDestination', 'Forbidden destination {destination}', { destination }),
  sendForbidden: (destination: string) => fill('stomp.sendForbidden', 'Forbidden destination', { destination }),
  unknownTransaction: fill('stomp.unknownTransaction', 'Unknown transaction', {}),
  transactionStarted: fill('stomp.transactionStarted', 'Transaction already started', {}),
  unknownAck: (command: string) => fill('stomp.unknownAckId', 'Unknown {command} id', { command }),
  unknownCommand: fill('stomp.unknownCommand', 'Unknown command', {}),
  invalidBody: fill('stomp.invalidBody', 'Invalid body', {}),
};
/** An ERROR frame's headers for a sentence: STOMP's `message`, the key and (when there are any) the values as JSON. */
function errorHeaders(said: Sentence): Headers {
  const headers: Headers = { message: said.message, code: said.code, 'content-type': 'text/plain' };
  if (Object.keys(said.values).length > 0) headers.values = JSON.stringify(said.values);
  return headers;
}

export interface RealtimeUser {
  userId: string | number;
  username: string;
  clientId: string | number | null;
  /** Privilege codes held in that client: a SUBSCRIBE needs one of its destination's (contract/realtimeAccess.ts). */
  privileges: ReadonlySet<string>;
  /** the divisions whose messages on a destination this user may hear (issue 10): those where the user holds one
   *  of the destination's privilege codes; null or absent: every division of the client */
  divisionsOf?: (destination: string) => ReadonlySet<number> | null;
  /** The sign-in session the token belongs to (its jti): ending that session drops this connection. */
  sessionId?: string;
}
export type VerifyToken = (token: string) => Promise<RealtimeUser | null>;

export interface Transport {
  send(text: string): void;
  close(): void;
}

export interface SessionLimits {
  maxFrameBytes: number;
  maxBodyBytes: number;
  maxHeaders: number;
  heartbeatMs: number;
  /** A connection that has not sent CONNECT within this many ms is closed (0 = never). */
  connectTimeoutMs: number;
}

/** What a session needs from the hub. */
export interface Hub {
  verifyToken: VerifyToken;
  limits: SessionLimits;
  /** A client SEND to a whitelisted destination: delivered to the sender's tenant only. */
  clientSend(user: RealtimeUser, destination: string, body: unknown): void;
  joined(session: StompSession): void;
  left(session: StompSession): void;
  count(what: 'heartbeatsIn' | 'heartbeatsOut' | 'errors' | 'dropped' | 'delivered'): void;
}

type State = 'awaitingConnect' | 'authenticating' | 'connected' | 'closed';

const SERVER_NAME = 'gatehouse-stomp/1.0';
/** A peer silent for this many of its negotiated intervals is dropped. */
export const HEARTBEAT_TOLERANCE = 2;
/** Messages of client / client-individual subscriptions awaiting ACK or NACK, per session; the oldest are forgotten. */
export const MAX_PENDING_ACKS = 10_000;

type AckMode = 'auto' | 'client' | 'client-individual';
const ACK_MODES: readonly string[] = ['auto', 'client', 'client-individual'];
interface Subscription {
  destination: string;
  ack: AckMode;
  /** its MESSAGE frames, written but for the message id and the body (frame.ts) */
  frames: ReturnType<typeof messageFrames>;
}

export function tenantKey(clientId: string | number | null): string {
  return clientId === null ? '' : String(clientId);
}

/** Bearer token of a CONNECT: `Authorization: Bearer …`, else an `api-key`, else `passcode`, else `token`. */
export function tokenOf(headers: Headers): string | null {
  const auth = headers.Authorization ?? headers.authorization;
  const bearer = auth ? /^Bearer\s+(\S+)$/i.exec(auth.trim())?.[1] : undefined;
  const token = bearer ?? headers['api-key'] ?? headers.passcode ?? headers.token; // issue 11: a service account's API key too
  return token && token.trim() ? token.trim() : null;
}

/** §STOMP heart-beating: [how often the server sends, how often it expects the client], 0 = never. */
export function negotiateHeartbeat(clientHeader: string | undefined, serverMs: number): [number, number] | null {
  if (clientHeader === undefined) return [0, 0];
  const m = /^(\d{1,9}),(\d{1,9})$/.exec(clientHeader.trim());
  if (!m) return null;
  const [cx, cy] = [Number(m[1]), Number(m[2])];
  const outgoing = serverMs === 0 || cy === 0 ? 0 : Math.max(serverMs, cy);
  const incoming = serverMs === 0 || cx === 0 ? 0 : Math.max(serverMs, cx);
  return [outgoing, incoming];
}

let nextMessageId = 1;

export class StompSession {
  state: State = 'awaitingConnect';
  user: RealtimeUser | null = null;
  /** subscription id → destination and ack mode */
  readonly subscriptions = new Map<string, Subscription>();
  /** ack id → subscription id, for messages of client and client-individual subscriptions not yet acknowledged */
  private readonly pendingAcks = new Map<string, string>();
  private readonly transactions = new Map<string, Frame[]>();
  private readonly queued: Frame[] = [];
  private readonly parser: FrameParser;
  private lastReceived = Date.now();
  private pinger?: NodeJS.Timeout;
  private watchdog?: NodeJS.Timeout;
  private connectTimer?: NodeJS.Timeout;

  constructor(
    readonly service: RealtimeService,
    private readonly transport: Transport,
    private readonly hub: Hub,
  ) {
    this.parser = new FrameParser(
      hub.limits,
      (f) => this.onFrame(f),
      () => this.hub.count('heartbeatsIn'),
    );
    // issue 13: a connection that never sends CONNECT would otherwise stay open for ever
    if (hub.limits.connectTimeoutMs > 0) {
      this.connectTimer = setTimeout(() => {
        if (this.state === 'awaitingConnect') this.fail(SAID.connectTimeout, `no CONNECT within ${hub.limits.connectTimeoutMs} ms`);
      }, hub.limits.connectTimeoutMs);
      this.connectTimer.unref?.();
    }
  }

  /** Text from the transport: frames, parts of frames, heart-beat EOLs. */
  receive(data: string | Buffer): void {
    if (this.state === 'closed') return;
    this.lastReceived = Date.now();
    try {
      this.parser.push(data);
    } catch (e) {
      if (e instanceof FrameError) this.fail(e.said, e.detail);
      else this.fail(SAID.internal, String(e));
    }
  }

  /** The transport closed (or we closed it). */
  closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.connectTimer);
    clearInterval(this.pinger);
    clearInterval(this.watchdog);
    this.subscriptions.clear();
    this.pendingAcks.clear();
    this.hub.left(this);
  }

  /** Deliver a published body to every subscription of this session on `destination` (`bytes`: its UTF-8 length). */
  deliver(destination: string, json: string, bytes = Buffer.byteLength(json, 'utf8')): void {
    if (this.state !== 'connected') return;
    for (const [id, sub] of this.subscriptions) {
      if (sub.destination !== destination) continue;
      const messageId = String(nextMessageId++);
      if (sub.ack === 'auto') {
        // the console's usual subscription: its frame written but for the id and the body
        this.transport.send(sub.frames(messageId, json, bytes));
        this.hub.count('delivered');
        continue;
      }
      // STOMP 1.2: a MESSAGE of a subscription that needs acknowledgement MUST carry the ack header
      const headers: Headers = { subscription: id, 'message-id': messageId, destination, 'content-type': 'application/json', ack: messageId };
      this.pendingAcks.set(messageId, id);
      if (this.pendingAcks.size > MAX_PENDING_ACKS) this.pendingAcks.delete(this.pendingAcks.keys().next().value!);
      this.write('MESSAGE', headers, json);
      this.hub.count('delivered');
    }
  }

  private write(command: string, headers: Headers, body = ''): void {
    if (this.state === 'closed') return;
    this.transport.send(serialize(command, headers, body));
  }

  /** ERROR then close (STOMP 1.2: the server closes after an ERROR). */
  fail(said: Sentence, detail = '', receipt?: string, violations?: Violation[]): void {
    if (this.state === 'closed') return;
    this.hub.count('errors');
    const headers = errorHeaders(said);
    if (receipt) headers['receipt-id'] = receipt;
    if (violations) headers['content-type'] = 'application/json';
    this.write('ERROR', headers, violations ? JSON.stringify({ message: said.message, code: said.code, values: said.values, violations }) : detail);
    this.transport.close();
    this.closed();
  }

  private onFrame(frame: Frame): void {
    if (this.state === 'closed') return;
    if (this.state === 'authenticating') {
      this.queued.push(frame);
      return;
    }
    if (this.state === 'awaitingConnect') {
      if (frame.command !== 'CONNECT' && frame.command !== 'STOMP') return this.fail(SAID.notConnected, `expected CONNECT, got ${frame.command}`);
      void this.connect(frame);
      return;
    }
    this.handle(frame);
  }

  private async connect(frame: Frame): Promise<void> {
    const versions = (frame.headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
    if (!versions.includes('1.2')) {
      this.write('ERROR', { version: '1.2', ...errorHeaders(SAID.versions) });
      this.transport.close();
      this.closed();
      return;
    }
    const heartbeat = negotiateHeartbeat(frame.headers['heart-beat'], this.hub.limits.heartbeatMs);
    if (!heartbeat) return this.fail(SAID.malformed, 'bad heart-beat header');
    const token = tokenOf(frame.headers);
    if (!token) return this.fail(SAID.unauthorized, 'CONNECT needs a JWT: Authorization: Bearer <jwt> or passcode');
    this.state = 'authenticating';
    let user: RealtimeUser | null;
    try {
      user = await this.hub.verifyToken(token);
    } catch {
      user = null;
    }
    if (this.state !== 'authenticating') return; // closed meanwhile
    if (!user) return this.fail(SAID.unauthorized, 'The JWT is invalid or expired');
    this.user = user;
    this.state = 'connected';
    const [outgoing, incoming] = heartbeat;
    this.write('CONNECTED', {
      version: '1.2',
      'heart-beat': `${this.hub.limits.heartbeatMs},${this.hub.limits.heartbeatMs}`,
      server: SERVER_NAME,
      session: `${this.service}-${String(nextMessageId++)}`,
      'user-name': user.username,
    });
    this.startHeartbeats(outgoing, incoming);
    this.hub.joined(this);
    for (const f of this.queued.splice(0)) {
      if (this.state === 'connected') this.handle(f);
    }
  }

  private startHeartbeats(outgoing: number, incoming: number): void {
    if (outgoing > 0) {
      this.pinger = setInterval(() => {
        if (this.state !== 'connected') return;
        this.transport.send('\n');
        this.hub.count('heartbeatsOut');
      }, outgoing);
      this.pinger.unref?.();
    }
    if (incoming > 0) {
      this.lastReceived = Date.now();
      const limit = incoming * HEARTBEAT_TOLERANCE;
      this.watchdog = setInterval(
        () => {
          if (Date.now() - this.lastReceived <= limit) return;
          // a silent client is dropped without ERROR: it no longer listens
          this.hub.count('dropped');
          this.transport.close();
          this.closed();
        },
        Math.max(10, Math.floor(incoming / 2)),
      );
      this.watchdog.unref?.();
    }
  }

  private handle(frame: Frame): void {
    const h = frame.headers;
    const receipt = h.receipt;
    const need = (name: string): string | null => {
      const v = h[name];
      if (v === undefined || v === '') {
        this.fail(SAID.malformed, `${frame.command} needs a ${name} header`, receipt, [
          { field: name, ...fill('stomp.headerRequired', '{command} needs a {header} header', { command: frame.command, header: name }) },
        ]);
        return null;
      }
      return v;
    };
    switch (frame.command) {
      case 'CONNECT':
      case 'STOMP':
        return this.fail(SAID.alreadyConnected, '', receipt);
      case 'SUBSCRIBE': {
        const id = need('id');
        if (id === null) return;
        const destination = need('destination');
        if (destination === null) return;
        if (this.subscriptions.has(id)) return this.fail(SAID.duplicateSubscription, id, receipt);
        const ack = h.ack ?? 'auto';
        if (!ACK_MODES.includes(ack))
          return this.fail(SAID.malformed, `ack must be auto, client or client-individual, not ${ack}`, receipt, [
            { field: 'ack', ...fill('stomp.ackMode', 'must be auto, client or client-individual', {}) },
          ]);
        if (!isDestinationOf(this.service, destination))
          return this.fail(SAID.unknownDestination, `${destination} is not served by the ${this.service} service`, receipt);
        if (!mayReceive(this.user!.privileges, destination)) {
          // nothing is delivered: the subscription is never stored, and the session ends (ERROR closes, STOMP 1.2)
          return this.fail(
            SAID.forbiddenDestination(destination),
            `${destination} needs one of the privileges ${(privilegesForDestination(destination) ?? []).join(', ')}`,
            receipt,
          );
        }
        this.subscriptions.set(id, { destination, ack: ack as AckMode, frames: messageFrames(id, destination) });
        break;
      }
      case 'UNSUBSCRIBE': {
        const id = need('id');
        if (id === null) return;
        this.subscriptions.delete(id);
        for (const [ackId, sub] of this.pendingAcks) if (sub === id) this.pendingAcks.delete(ackId);
        break;
      }
      case 'SEND': {
        const destination = need('destination');
        if (destination === null) return;
        const tx = h.transaction;
        if (tx !== undefined) {
          const frames = this.transactions.get(tx);
          if (!frames) return this.fail(SAID.unknownTransaction, tx, receipt);
          frames.push(frame);
          break;
        }
        if (!this.send(frame, receipt)) return;
        break;
      }
      case 'BEGIN': {
        const tx = need('transaction');
        if (tx === null) return;
        if (this.transactions.has(tx)) return this.fail(SAID.transactionStarted, tx, receipt);
        this.transactions.set(tx, []);
        break;
      }
      case 'COMMIT':
      case 'ABORT': {
        const tx = need('transaction');
        if (tx === null) return;
        const frames = this.transactions.get(tx);
        if (!frames) return this.fail(SAID.unknownTransaction, tx, receipt);
        this.transactions.delete(tx);
        if (frame.command === 'COMMIT') for (const f of frames) if (!this.send(f, receipt)) return;
        break;
      }
      case 'ACK':
      case 'NACK': {
        // nothing is redelivered here: an ACK or NACK settles the message, and one of an id never sent is an error
        const ackId = need('id');
        if (ackId === null) return;
        const subId = this.pendingAcks.get(ackId);
        if (subId === undefined) return this.fail(SAID.unknownAck(frame.command), `${ackId} is not a message awaiting acknowledgement`, receipt);
        if (this.subscriptions.get(subId)?.ack === 'client') {
          // cumulative: the message and every earlier one of its subscription
          for (const [k, s] of this.pendingAcks) {
            if (s === subId) this.pendingAcks.delete(k);
            if (k === ackId) break;
          }
        }
        this.pendingAcks.delete(ackId);
        break;
      }
      case 'DISCONNECT':
        if (receipt) this.write('RECEIPT', { 'receipt-id': receipt });
        this.transport.close();
        this.closed();
        return;
      default:
        return this.fail(SAID.unknownCommand, frame.command, receipt);
    }
    if (receipt && this.state === 'connected') this.write('RECEIPT', { 'receipt-id': receipt });
  }

  /** A client SEND: only to whitelisted destinations of this service, with a body valid for it. */
  private send(frame: Frame, receipt: string | undefined): boolean {
    const destination = frame.headers.destination;
    if (!CLIENT_SENDABLE.includes(destination) || !isDestinationOf(this.service, destination)) {
      this.fail(SAID.sendForbidden(destination), `clients may not SEND to ${destination}`, receipt);
      return false;
    }
    let body: unknown;
    try {
      body = JSON.parse(frame.body.toString('utf8') || 'null');
    } catch (e) {
      const why = (e as Error).message.slice(0, 200);
      this.fail(SAID.invalidBody, 'the body is not JSON', receipt, [{ field: '(body)', ...fill('json.isInvalid', 'is not valid JSON ({why})', { why }) }]);
      return false;
    }
    const schema = schemaForDestination(destination);
    const checked = schema ? validate(body, schema) : { ok: true as const, value: body };
    if (!checked.ok) {
      this.fail(SAID.invalidBody, checked.violations.map((v) => `${v.field} ${v.message}`).join('; '), receipt, checked.violations);
      return false;
    }
    this.hub.clientSend(this.user!, destination, checked.value);
    return true;
  }
}
